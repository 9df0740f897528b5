import ArkivatorCore
import Foundation

/// A letter's text as lines, with the helpers the rules share.
struct LetterText {
    let lines: [String]
    let lowercasedLines: [String]
    let lowercased: String
    /// Each line as normalised words (lower case, letters and digits), for fuzzy matching.
    let normalizedWords: [[String]]

    init(_ text: String) {
        let all = text.replacingOccurrences(of: "\u{0C}", with: "\n").components(separatedBy: "\n")
        lines = all.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        lowercasedLines = lines.map { $0.lowercased() }
        lowercased = lowercasedLines.joined(separator: "\n")
        normalizedWords = lines.map { Fuzzy.normalized($0).split(separator: " ").map(String.init) }
    }

    /// The first lines, where the letterhead, the address and the date stand.
    var headLines: Range<Int> { 0..<min(lines.count, 18) }

    /// Labels that start a reference to the letter being answered ("Deres ref.: …").
    static let theirReferenceLabels = ["deres ref", "dykkar ref", "deres referanse", "dykkar referanse"]

    /// Words of a line, without punctuation at their ends.
    static func words(_ line: String) -> [String] {
        line.split(whereSeparator: { $0.isWhitespace }).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()[]«»\"'!?|"))
        }.filter { !$0.isEmpty }
    }
}

/// Fuzzy comparison of short strings, tolerant of a few OCR errors.
public enum Fuzzy {
    /// Lower case, letters and digits only, single spaces.
    static func normalized(_ s: String) -> String {
        let kept = s.lowercased().unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : " " }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

    /// A name or alias prepared for matching.
    struct Phrase: Sendable {
        let words: [String]
        let joined: [Unicode.Scalar]
        init(_ text: String) {
            words = Fuzzy.normalized(text).split(separator: " ").map(String.init)
            joined = Array(words.joined(separator: " ").unicodeScalars)
        }
    }

    /// Whole-word occurrence of `phrase` in a line's normalised words; with `fuzzy`, a window of
    /// the same number of words may differ by about one letter in eight (OCR damage).
    static func containsWords(_ line: [String], _ phrase: Phrase, fuzzy: Bool) -> Bool {
        let n = phrase.words.count
        guard n > 0, line.count >= n else { return false }
        for start in 0...(line.count - n) where line[start..<(start + n)].elementsEqual(phrase.words) { return true }
        guard fuzzy, phrase.joined.count >= 6 else { return false }
        let allowed = phrase.joined.count / 8
        // The letters in the line up to each word: a window's length without joining its words.
        var ends = [0]
        ends.reserveCapacity(line.count + 1)
        for word in line { ends.append(ends[ends.count - 1] + word.unicodeScalars.count) }
        for start in 0...(line.count - n) {
            let length = ends[start + n] - ends[start] + n - 1
            guard abs(length - phrase.joined.count) <= allowed else { continue }
            let window = Array(line[start..<(start + n)].joined(separator: " ").unicodeScalars)
            if boundedDistance(window, phrase.joined, limit: allowed) <= allowed { return true }
        }
        return false
    }

    /// Levenshtein distance (over scalars, characters or any elements), giving up (returning
    /// limit + 1) once it exceeds `limit`.
    static func boundedDistance<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = current[0]
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension Fuzzy {
    /// A name's normalised words (lower case, letters and digits).
    public static func normalizedWords(_ s: String) -> [String] {
        normalized(s).split(separator: " ").map(String.init)
    }
}
