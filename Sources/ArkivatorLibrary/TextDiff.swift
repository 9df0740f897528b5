import Foundation

/// The words two versions of a letter's text have in common, in order, and what changed between
/// them: what a text version shows ("«Karl» → «Kari»"), and how the OCR's low-confidence marks
/// follow the words they were on.
public struct TextDiff: Sendable {
    /// One run of words taken out and the run put in its place (either may be empty).
    public struct Change: Sendable, Equatable {
        public var removed: String
        public var added: String
        public init(removed: String, added: String) {
            self.removed = removed
            self.added = added
        }
    }

    struct Word {
        var text: String
        /// In Unicode scalars.
        var start: Int
        var length: Int
    }

    let old: [Word]
    let new: [Word]
    /// (old index, new index) of the words kept, both ascending.
    let kept: [(Int, Int)]

    /// Above this many word pairs to compare, the middle that differs counts as changed whole.
    static let largest = 4_000_000

    public init(from oldText: String, to newText: String) {
        let old = Self.words(oldText), new = Self.words(newText)
        self.old = old
        self.new = new
        var kept: [(Int, Int)] = []
        var head = 0
        while head < old.count, head < new.count, old[head].text == new[head].text {
            kept.append((head, head))
            head += 1
        }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail].text == new[new.count - 1 - tail].text {
            tail += 1
        }
        let a = old[head..<(old.count - tail)].map(\.text), b = new[head..<(new.count - tail)].map(\.text)
        if !a.isEmpty, !b.isEmpty, a.count * b.count <= Self.largest {
            kept += Self.commonWords(a, b).map { ($0.0 + head, $0.1 + head) }
        }
        kept += (0..<tail).reversed().map { (old.count - 1 - $0, new.count - 1 - $0) }
        self.kept = kept
    }

    /// What changed, in the text's order.
    public var changes: [Change] {
        var result: [Change] = []
        var (i, j) = (0, 0)
        for (keptOld, keptNew) in kept + [(old.count, new.count)] {
            if i < keptOld || j < keptNew {
                result.append(Change(removed: old[i..<keptOld].map(\.text).joined(separator: " "),
                                     added: new[j..<keptNew].map(\.text).joined(separator: " ")))
            }
            (i, j) = (keptOld + 1, keptNew + 1)
        }
        return result
    }

    /// `ranges` of the old text moved to where their words stand in the new one; a range on a
    /// word that changed is dropped (the person has put it right).
    func mapped(_ ranges: [LibraryDocument.TextRange]) -> [LibraryDocument.TextRange] {
        var newIndex: [Int: Int] = [:]
        for (o, n) in kept { newIndex[o] = n }
        return ranges.compactMap { range in
            let end = range.start + range.length
            let touched = old.indices.filter { old[$0].start < end && old[$0].start + old[$0].length > range.start }
            guard let first = touched.first, let last = touched.last, let from = newIndex[first], let to = newIndex[last],
                  to - from == last - first else { return nil }
            let start = new[from].start + (range.start - old[first].start)
            let stop = new[to].start + new[to].length - (old[last].start + old[last].length - end)
            return stop > start ? LibraryDocument.TextRange(start: start, length: stop - start) : nil
        }
    }

    /// The words of `text` with where they stand, in Unicode scalars.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = String.UnicodeScalarView(), start = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar.properties.isWhitespace {
                if !current.isEmpty { words.append(Word(text: String(current), start: start, length: current.count)) }
                current = String.UnicodeScalarView()
            } else {
                if current.isEmpty { start = offset }
                current.append(scalar)
            }
        }
        if !current.isEmpty { words.append(Word(text: String(current), start: start, length: current.count)) }
        return words
    }

    /// The longest run of words `a` and `b` have in common, in order: (index in a, index in b).
    private static func commonWords(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        let n = a.count, m = b.count
        var length = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                length[i * (m + 1) + j] = a[i] == b[j] ? length[(i + 1) * (m + 1) + j + 1] + 1
                    : max(length[(i + 1) * (m + 1) + j], length[i * (m + 1) + j + 1])
            }
        }
        var result: [(Int, Int)] = []
        var i = 0, j = 0
        while i < n, j < m {
            if a[i] == b[j] {
                result.append((i, j))
                i += 1
                j += 1
            } else if length[(i + 1) * (m + 1) + j] >= length[i * (m + 1) + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }
}
