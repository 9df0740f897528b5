import ArkivatorCore
import Foundation

/// A number as a laboratory prints it: digits with at most one decimal comma or point, maybe a
/// comparator before it ("<5", "< 5").
public struct LabNumber: Sendable, Equatable {
    public var comparator: String?
    public var value: Double
    /// Digits after the decimal sign.
    public var decimals: Int

    public init?(_ text: String) {
        var s = Substring(text)
        var comparator: String?
        if let first = s.first, "<>≤≥".contains(first) {
            comparator = String(first)
            s = s.dropFirst()
            if s.first == "=" {
                comparator = first == "<" ? "≤" : "≥"
                s = s.dropFirst()
            }
        }
        guard !s.isEmpty, s.first?.isASCII == true, s.first?.isNumber == true else { return nil }
        var separators = 0, decimals = 0
        for c in s {
            if c == "," || c == "." {
                separators += 1
                guard separators == 1 else { return nil }
            } else if c.isASCII, c.isNumber {
                if separators == 1 { decimals += 1 }
            } else {
                return nil
            }
        }
        guard separators == 0 || decimals > 0, let value = Double(String(s.map { $0 == "," ? "." : $0 })) else { return nil }
        self.comparator = comparator
        self.value = value
        self.decimals = decimals
    }

    init(comparator: String, _ number: LabNumber) {
        self.comparator = comparator
        self.value = number.value
        self.decimals = number.decimals
    }

    /// A number with an attached flag ("20H", "3,4L", "5,1*").
    static func withFlag(_ text: String) -> (LabNumber, String?)? {
        if let n = LabNumber(text) { return (n, nil) }
        for (suffix, flag) in [("H", "H"), ("L", "L"), ("*", "H"), ("H*", "H"), ("L*", "L")] where text.hasSuffix(suffix) {
            if let n = LabNumber(String(text.dropLast(suffix.count))), n.comparator == nil { return (n, flag) }
        }
        return nil
    }
}

/// A reference range.
enum LabRange: Equatable {
    case between(LabNumber, LabNumber)
    case below(LabNumber)
    case above(LabNumber)
    /// A number where a range should stand that does not read as one (a lost "<").
    case unreadable
    case none
}

/// A line of a text and its place, in Unicode scalars.
struct TextLine {
    /// 0-based, counting every "\n" and form feed.
    let index: Int
    /// The whole text's scalars (shared) and the line's bounds in them.
    let all: [Unicode.Scalar]
    let start: Int
    let end: Int

    static func split(_ text: String) -> [TextLine] {
        let scalars = Array(text.unicodeScalars)
        var lines: [TextLine] = []
        var start = 0
        for (i, c) in scalars.enumerated() where c == "\n" || c == "\u{0C}" || c == "\r" {
            lines.append(TextLine(index: lines.count, all: scalars, start: start, end: i))
            start = i + 1
        }
        lines.append(TextLine(index: lines.count, all: scalars, start: start, end: scalars.count))
        return lines
    }

    func scalars(from: Int, to: Int) -> ArraySlice<Unicode.Scalar> {
        let lo = max(start, min(from, end)), hi = max(lo, min(to, end))
        return all[lo..<hi]
    }

    func text(from: Int, to: Int) -> String { String(String.UnicodeScalarView(scalars(from: from, to: to))) }

    /// Whitespace-separated tokens; a trailing "." "," ";" or ":" is left out of a token (not
    /// out of a lone one).
    func tokens() -> [LabTable.Token] {
        var tokens: [LabTable.Token] = []
        var i = start
        while i < end {
            while i < end, all[i].properties.isWhitespace { i += 1 }
            guard i < end else { break }
            let s = i
            while i < end, !all[i].properties.isWhitespace { i += 1 }
            var e = i
            while e - s > 1, ".,;:".unicodeScalars.contains(all[e - 1]) { e -= 1 }
            tokens.append(.init(text: String(String.UnicodeScalarView(all[s..<e])), start: s, end: e))
        }
        return tokens
    }
}

extension LabNumber {
    /// A value or range end as a letter prints it, spaces and all («< 5», «5,2»); nil when it
    /// does not read as one number.
    public init?(printed: String) {
        self.init(printed.filter { !$0.isWhitespace })
    }

    /// The bounds a printed reference range gives («20 - 42», «3,5–4,4», «< 5», «> 60»): a
    /// lower, an upper or both; nil when it does not read as a range.
    public static func bounds(ofRange printed: String) -> (low: Double?, high: Double?)? {
        let compact = printed.filter { !$0.isWhitespace }
        if let single = LabNumber(compact), let comparator = single.comparator {
            return comparator == "<" || comparator == "≤" ? (nil, single.value) : (single.value, nil)
        }
        // «20-42»: the dash after the first number (a negative number starts no range here).
        guard let dash = compact.dropFirst().firstIndex(where: { LabTable.dashes.contains(String($0)) }) else { return nil }
        guard let low = LabNumber(String(compact[..<dash])), low.comparator == nil,
              let high = LabNumber(String(compact[compact.index(after: dash)...])), high.comparator == nil,
              low.value < high.value else { return nil }
        return (low.value, high.value)
    }
}
