import ArkivatorClassify
import ArkivatorCore
import Foundation

/// Replaces what must not leave the machine with placeholders before a text is sent, and puts
/// the originals back in the answer, locally.
///
/// Always: every fødselsnummer ([FNR-1] …), and any other 11-digit number (an OCR error may break
/// a fødselsnummer's control digits). With `names`: each given name, as printed in full and by its
/// parts of 3 or more letters ([NAVN-1] …).
public struct Pseudonyms: Sendable, Equatable {
    /// Placeholder → original.
    public private(set) var originals: [String: String] = [:]
    /// The text with placeholders.
    public let text: String

    public init(_ text: String, names: [String] = []) {
        var scalars = Array(text.unicodeScalars)
        var originals: [String: String] = [:]
        // Numbers first, from the end, so earlier ranges stay valid.
        let numbers = Self.numberRanges(in: scalars)
        var numberIndex = numbers.count
        for range in numbers.reversed() {
            let placeholder = "[FNR-\(numberIndex)]"
            originals[placeholder] = String(String.UnicodeScalarView(scalars[range]))
            scalars.replaceSubrange(range, with: Array(placeholder.unicodeScalars))
            numberIndex -= 1
        }
        var result = String(String.UnicodeScalarView(scalars))
        // Full names before their parts, longest first, so "Kari Nordmann" becomes one placeholder.
        var nameIndex = 0
        var seen: [String: String] = [:]
        let parts = names.flatMap { name in [name] + PersonMatcher.parts(name).filter { $0.count >= 3 } }
        for name in parts.sorted(by: { $0.count > $1.count }) where !name.isEmpty {
            let key = name.lowercased()
            let placeholder: String
            if let known = seen[key] { placeholder = known } else {
                nameIndex += 1
                placeholder = "[NAVN-\(nameIndex)]"
                seen[key] = placeholder
            }
            if let (replaced, printed) = Self.replaceWord(name, in: result, with: placeholder) {
                originals[placeholder] = originals[placeholder] ?? printed
                result = replaced
            }
        }
        self.text = result
        self.originals = originals
    }

    /// `value` with every placeholder put back.
    public func restore(_ value: String) -> String {
        var out = value
        for (placeholder, original) in originals where out.contains(placeholder) {
            out = out.replacingOccurrences(of: placeholder, with: original)
        }
        return out
    }

    /// Whether `value` holds a number placeholder (such a field would carry a fødselsnummer).
    public static func holdsNumber(_ value: String) -> Bool { value.contains("[FNR-") }

    /// Ranges of valid fødselsnumre (digits and OCR's spaces), and of other 11-digit runs.
    static func numberRanges(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var ranges = Fodselsnummer.matches(in: String(String.UnicodeScalarView(scalars))).map(\.range)
        var i = 0
        while i < scalars.count {
            guard NorwegianDate.isDigit(scalars[i]) else { i += 1; continue }
            var j = i
            while j < scalars.count, NorwegianDate.isDigit(scalars[j]) { j += 1 }
            if j - i == 11, !ranges.contains(where: { $0.overlaps(i..<j) }) { ranges.append(i..<j) }
            i = j
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Replaces whole-word, case-insensitive occurrences of `word`; nil when there are none, else
    /// the new text and the first occurrence as printed.
    static func replaceWord(_ word: String, in text: String, with replacement: String) -> (String, String)? {
        let pattern = "(?<![\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: word) + "(?![\\p{L}\\p{N}])"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let first = regex.firstMatch(in: text, range: range), let printed = Range(first.range, in: text) else { return nil }
        let replaced = regex.stringByReplacingMatches(in: text, range: range,
                                                      withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
        return (replaced, String(text[printed]))
    }
}
