import Foundation

/// One recognised word.
public struct RecognizedWord: Sendable, Equatable, Codable {
    public var text: String
    /// Tesseract's confidence, 0…1.
    public var confidence: Double
    /// Where the word stands in the page text, in Unicode scalars (Python string indices).
    public var start: Int
    public var length: Int
    /// The word's box in the cleaned page: x, y, width, height in pixels.
    public var box: [Int]
}

/// What OCR read on one page.
public struct OCRPage: Sendable, Equatable {
    /// The text: words separated by spaces, lines by a newline, paragraphs by a blank line.
    public var text: String
    public var words: [RecognizedWord]
    /// Mean word confidence (0…1), weighted by word length; 0 when there are no words.
    public var meanConfidence: Double
    /// True when the page holds no readable text (a blank page, a photo of a table top).
    public var noText: Bool
    /// Lines left out of `text` because they are not text: every mark read with low confidence
    /// and no word among them (a signature, a stamp's ring, a smudge).
    public var droppedLines = 0
    /// The marks left out of `text` (whole lines of marks, and marks set apart at the end of a
    /// typed line; see `PageLayout+Marks`), as they were read, and how many lines were marks
    /// only: the guard weighs a reading with them, as if they had stayed, so leaving marks out
    /// never tips its choice between two readings of a page.
    public var droppedMarks: [RecognizedWord] = []
    public var droppedMarkLines = 0
    /// The share of the page's letter-sized marks that no word of the reading touches
    /// (``PageLayout/uncoveredShare(marks:)``): text the reading lost, or a signature's or a
    /// stamp's ink. Nil when not measured (too few words or marks, a text layer's page).
    public var uncoveredInk: Double?

    public init(text: String, words: [RecognizedWord], meanConfidence: Double, noText: Bool) {
        self.text = text
        self.words = words
        self.meanConfidence = meanConfidence
        self.noText = noText
    }

    /// The text's lines with the box around their words (x, y, width, height), for a text layer.
    public var lines: [(text: String, box: [Int])] {
        var result: [(text: String, box: [Int])] = []
        var offset = 0
        var wordIndex = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let length = line.unicodeScalars.count
            var box: [Int]?
            while wordIndex < words.count, words[wordIndex].start < offset + length {
                let b = words[wordIndex].box
                if let current = box {
                    let right = max(current[0] + current[2], b[0] + b[2]), bottom = max(current[1] + current[3], b[1] + b[3])
                    let left = min(current[0], b[0]), top = min(current[1], b[1])
                    box = [left, top, right - left, bottom - top]
                } else {
                    box = b
                }
                wordIndex += 1
            }
            if let box, length > 0 { result.append((String(line), box)) }
            offset += length + 1
        }
        return result
    }

    /// Words below `threshold` confidence.
    public func lowConfidenceWords(below threshold: Double = 0.7) -> [RecognizedWord] {
        words.filter { $0.confidence < threshold }
    }

    /// A page with no text.
    public static let empty = OCRPage(text: "", words: [], meanConfidence: 0, noText: true)
}

extension OCRPage {
    /// Builds a page from words in reading order with their layout breaks.
    ///
    /// A page is `noText` unless it has at least three words of two or more letters or digits read
    /// with confidence 0.6 or better, or a shorter line whose word-like tokens read with confidence
    /// ``sureConfidence`` hold ``shortLineLetters`` letters or more ("Hemoglobin 13,4 g/dL" cut from
    /// a sheet); such pages get empty text, so noise never reaches the archive.
    /// `typography` puts right what OCR models get wrong (see ``Typography``); a text layer's
    /// words are taken exactly as they are.
    static func assemble(_ items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)],
                         typography: Bool = true) -> OCRPage {
        var text = ""
        var scalars = 0
        var words: [RecognizedWord] = []
        var weighted = 0.0
        var weights = 0.0
        var meaningful = 0
        // Letters of words that look like words, read with high confidence: one line of such
        // words is text, however short (a label, a lab value cut from a sheet).
        var sureLetters = 0
        for item in items {
            let trimmed = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            // A section number ("§ 8-2") keeps its hyphen: it is no range.
            let section = words.last?.text.hasSuffix("§") ?? false
            var word = typography && !section ? Typography.normalized(trimmed) : trimmed
            if typography, let repaired = ConfusionRepair.repaired(word) { word = repaired }
            if typography { word = Typography.listNumeral(word, after: words.last?.text) }
            guard !word.isEmpty else { continue }
            if !words.isEmpty {
                let separator: String = switch item.breakBefore {
                case .paragraph: "\n\n"
                case .line: "\n"
                case .none: " "
                }
                text += separator
                scalars += separator.unicodeScalars.count
            }
            let length = word.unicodeScalars.count
            words.append(RecognizedWord(text: word, confidence: item.confidence, start: scalars, length: length, box: item.box))
            text += word
            scalars += length
            weighted += item.confidence * Double(length)
            weights += Double(length)
            let alphanumerics = word.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count
            if alphanumerics >= 2 && item.confidence >= 0.6 { meaningful += 1 }
            if item.confidence >= sureConfidence, let letters = TokenShape.wordLetters(word) { sureLetters += letters }
        }
        guard meaningful >= 3 || (meaningful >= 1 && sureLetters >= shortLineLetters) else { return .empty }
        return OCRPage(text: text, words: words, meanConfidence: weights > 0 ? weighted / weights : 0, noText: false)
    }
}

extension OCRPage {
    /// The confidence at which a short line's words count as text (see ``assemble(_:typography:)``).
    static let sureConfidence = 0.8
    /// The letters such words need in all: a word or two, more than a smudge read as "Il" or "oo".
    static let shortLineLetters = 6
}

/// What comes before a word in the text.
enum LayoutBreak {
    case none
    case line
    case paragraph
}
