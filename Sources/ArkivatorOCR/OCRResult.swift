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

/// Words grouped as Tesseract found them (blocks → paragraphs → lines), put into the order a
/// person reads a letter, with scribbles dropped.
struct PageLayout {
    struct Word {
        var text: String
        var confidence: Double
        var box: [Int]
    }

    struct Block {
        var box: [Int]
        var paragraphs: [[[Word]]] = [[[]]]
        var left: Int { box[0] }
        var right: Int { box[0] + box[2] }
        var top: Int { box[1] }
        var bottom: Int { box[1] + box[3] }
    }

    private(set) var blocks: [Block] = []
    /// Width of the page in pixels (for gaps measured as a share of it).
    var pageWidth = 2480
    var pageHeight = 3508

    /// A line whose words are all below this confidence is a signature, logo or smudge, not text.
    static let scribbleConfidence = 0.5

    mutating func startBlock(box: [Int]) { blocks.append(Block(box: box)) }
    mutating func startParagraph() { blocks[blocks.count - 1].paragraphs.append([[]]) }
    mutating func startLine() {
        let p = blocks[blocks.count - 1].paragraphs.count - 1
        blocks[blocks.count - 1].paragraphs[p].append([])
    }
    mutating func add(_ word: Word) {
        let trimmed = word.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        let b = blocks.count - 1, p = blocks[b].paragraphs.count - 1, l = blocks[b].paragraphs[p].count - 1
        blocks[b].paragraphs[p][l].append(Word(text: trimmed, confidence: word.confidence, box: word.box))
    }

    /// Blocks in reading order: top to bottom in bands; blocks side by side in one band (a
    /// letterhead's two columns, an address beside a reference block) left to right.
    func orderedBlocks() -> [Block] {
        let sorted = blocks.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
        var bands: [[Block]] = []
        for block in sorted {
            if var band = bands.last,
               let bottom = band.map(\.bottom).max(),
               block.top < bottom - max(4, (block.bottom - block.top) / 4),
               band.allSatisfy({ $0.right <= block.left || block.right <= $0.left }) {
                band.append(block)
                bands[bands.count - 1] = band
            } else {
                bands.append([block])
            }
        }
        return bands.flatMap { $0.sorted { $0.left < $1.left } }
    }

    /// Where a block's lines split into two columns side by side (a letterhead: the name on the
    /// left, the address on the right, on shared lines), or nil.
    ///
    /// A line is split only at one wide gap, never after a label ending in ":" (a "Dato:   1.2.2025"
    /// line keeps its value), and only when at least two lines split at the same place (one, in the
    /// letterhead band); lines with several wide gaps are table rows, and then nothing is split.
    func columnSplit(_ block: Block) -> Int? {
        let wide = Double(pageWidth) * 0.05
        var splits: [Double] = []
        for line in block.paragraphs.joined() where !line.isEmpty {
            var gaps: [(x: Double, labelled: Bool)] = []
            for (a, b) in zip(line, line.dropFirst()) {
                let gap = Double(b.box[0] - (a.box[0] + a.box[2]))
                if gap > wide { gaps.append((Double(b.box[0]), a.text.hasSuffix(":"))) }
            }
            if gaps.count > 1 { return nil }
            if let gap = gaps.first, !gap.labelled { splits.append(gap.x) }
        }
        let needed = isInLetterhead(block) ? 1 : 2
        guard splits.count >= needed, let first = splits.min(),
              splits.allSatisfy({ abs($0 - first) < columnTolerance }) else { return nil }
        return Int(first - columnTolerance)
    }

    private var columnTolerance: Double { Double(pageWidth) * 0.025 }

    private func isInLetterhead(_ block: Block) -> Bool { block.top < pageHeight / 5 }

    /// Blocks with columns become a left and a right block, left column first. Neighbouring
    /// letterhead blocks that split at the same place are read as one two-column letterhead.
    func splittingColumns(_ blocks: [Block]) -> [Block] {
        var result: [Block] = []
        var group: [Block] = []
        var groupCut = 0
        func flush() {
            guard !group.isEmpty else { return }
            let lines = group.flatMap { $0.paragraphs.joined() }.filter { !$0.isEmpty }
            let top = group.map(\.top).min() ?? 0, bottom = group.map(\.bottom).max() ?? 0
            let left = group.map(\.left).min() ?? 0, right = group.map(\.right).max() ?? 0
            var l = Block(box: [left, top, groupCut - left, bottom - top]), r = Block(box: [groupCut, top, right - groupCut, bottom - top])
            l.paragraphs = [lines.map { $0.filter { $0.box[0] < groupCut } }.filter { !$0.isEmpty }]
            r.paragraphs = [lines.map { $0.filter { $0.box[0] >= groupCut } }.filter { !$0.isEmpty }]
            result += [l, r].filter { !$0.paragraphs[0].isEmpty }
            group = []
        }
        for block in blocks {
            if let cut = columnSplit(block) {
                if !group.isEmpty && (abs(cut - groupCut) > Int(columnTolerance) || !isInLetterhead(block)) { flush() }
                if group.isEmpty { groupCut = cut }
                group.append(block)
                if !isInLetterhead(block) { flush() }
            } else {
                flush()
                result.append(block)
            }
        }
        flush()
        return result
    }

    func page() -> OCRPage {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        for block in splittingColumns(orderedBlocks()) {
            var first = true
            for paragraph in block.paragraphs {
                var firstLine = true
                for var line in paragraph where !line.isEmpty {
                    if line.allSatisfy({ $0.confidence < Self.scribbleConfidence }) { continue }
                    Typography.normalizeDashes(&line)
                    for (index, word) in line.enumerated() {
                        let layoutBreak: LayoutBreak = index > 0 ? .none : (first || firstLine ? .paragraph : .line)
                        items.append((word.text, word.confidence, word.box, layoutBreak))
                        first = false
                        firstLine = false
                    }
                }
            }
        }
        return OCRPage.assemble(items)
    }
}

extension OCRPage {
    /// Builds a page from words in reading order with their layout breaks.
    ///
    /// A page is `noText` unless it has at least three words of two or more letters or digits read
    /// with confidence 0.6 or better; such pages get empty text, so noise never reaches the archive.
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
        for item in items {
            let trimmed = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let word = typography ? Typography.normalized(trimmed) : trimmed
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
        }
        guard meaningful >= 3 else { return .empty }
        return OCRPage(text: text, words: words, meanConfidence: weights > 0 ? weighted / weights : 0, noText: false)
    }
}

/// What comes before a word in the text.
enum LayoutBreak {
    case none
    case line
    case paragraph
}

import Foundation

/// Norwegian typography that OCR models get wrong in the same way every time.
enum Typography {
    /// A dash standing alone in a line is a bullet (at the start) or a tankestrek (between words):
    /// an en dash. Only between two numbers ("20 - 42") is it a plain hyphen.
    static func normalizeDashes(_ line: inout [PageLayout.Word]) {
        let startsWithDigit = { (word: PageLayout.Word) in word.text.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false }
        for index in line.indices where ["-", "–", "—", "--"].contains(line[index].text) {
            let betweenNumbers = index > 0 && index + 1 < line.count
                && startsWithDigit(line[index - 1]) && startsWithDigit(line[index + 1])
            line[index].text = betweenNumbers ? "-" : "–"
        }
    }

    /// A free-standing dash is a tankestrek, an en dash ("–"); Norwegian text does not use em dashes.
    /// A short number range ("1-2", "10-14") also takes an en dash. Dates, codes and
    /// hyphenated words keep their hyphens.
    static func normalized(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        guard let dash = scalars.firstIndex(where: { $0 == "-" }),
              scalars.filter({ $0 == "-" }).count == 1 else { return word }
        let isDigit = { (s: Unicode.Scalar) in ("0"..."9").contains(s) }
        let before = scalars[..<dash], after = scalars[(dash + 1)...]
        var number = Array(after)
        while let last = number.last, [",", ".", ")", ";", ":"].contains(last) { number.removeLast() }
        guard (1...3).contains(before.count), before.allSatisfy(isDigit),
              (1...3).contains(number.count), number.allSatisfy(isDigit) else { return word }
        return String(String.UnicodeScalarView(before)) + "–" + String(String.UnicodeScalarView(after))
    }
}
