import ArkivatorCore
import Foundation

/// Whether a value someone else proposes for a letter (a language model's answer) is backed by
/// the letter's own text. Used to refuse invented dates, institutions and names.
public struct TextEvidence: Sendable {
    private let lines: [[String]]
    private let words: Set<String>
    private let datesFound: Set<CalendarDate>
    private let damagedDates: Set<CalendarDate>

    public init(_ text: String) {
        let letter = LetterText(text)
        lines = letter.normalizedWords
        words = Set(lines.joined())
        datesFound = Set(letter.lines.flatMap { NorwegianDate.find(in: $0).map(\.date) })
        damagedDates = Set(letter.lines.flatMap { Self.damagedDates(in: $0) + NorwegianDate.findDamaged(in: $0).map(\.date) })
    }

    /// How a date stands in the text.
    public enum DateEvidence: Sendable, Equatable {
        /// Printed in one of the forms the rules read.
        case printed
        /// Printed with OCR damage: a month name one letter off ("5. mal 2025"), or the damage
        /// ``NorwegianDate/findDamaged(in:)`` undoes ("12.03.2O26").
        case damaged
        case absent
    }

    public func evidence(for date: CalendarDate) -> DateEvidence {
        if datesFound.contains(date) { return .printed }
        if damagedDates.contains(date) { return .damaged }
        return .absent
    }

    /// Whether `phrase` stands in the text: its words in a row on one line (about one letter in
    /// eight may differ), or, for names of three or more words, all its longer words somewhere.
    public func contains(_ phrase: String) -> Bool {
        let prepared = Fuzzy.Phrase(phrase)
        guard !prepared.words.isEmpty else { return false }
        if lines.contains(where: { Fuzzy.containsWords($0, prepared, fuzzy: true) }) { return true }
        let long = prepared.words.filter { $0.count >= 3 }
        return prepared.words.count >= 3 && long.count >= 2 && long.allSatisfy(words.contains)
    }

    /// Whether every part of a person's name stands in the text as a word.
    public func containsName(_ name: String) -> Bool {
        let parts = PersonMatcher.parts(name)
        return parts.count >= 2 && parts.allSatisfy(words.contains)
    }

    /// Whether a single word stands in the text (case and punctuation aside).
    public func containsWord(_ word: String) -> Bool {
        let normalized = Fuzzy.normalized(word)
        guard !normalized.isEmpty else { return false }
        return normalized.split(separator: " ").allSatisfy { words.contains(String($0)) }
    }

    /// `D. MONTH YYYY` where the month word is one edit from a month name of 4+ letters.
    static func damagedDates(in line: String) -> [CalendarDate] {
        let names = CalendarDate.monthNames
        let tokens = line.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard tokens.count >= 3 else { return [] }
        var found: [CalendarDate] = []
        for i in 0...(tokens.count - 3) {
            let dayText = tokens[i].hasSuffix(".") ? String(tokens[i].dropLast()) : tokens[i]
            guard let day = Int(dayText), (1...31).contains(day), dayText.count <= 2 else { continue }
            let month = tokens[i + 1].lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            let yearText = tokens[i + 2].trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            guard yearText.count == 4, let year = Int(yearText) else { continue }
            let scalars = Array(month.unicodeScalars)
            let candidates = names.enumerated().filter { _, name in
                name.count >= 3 && abs(name.count - scalars.count) <= 1
                    && Fuzzy.boundedDistance(scalars, Array(name.unicodeScalars), limit: 1) <= 1
            }
            // Only an unambiguous repair ("mal" is one edit from "mai" and from no other month).
            if candidates.count == 1, let date = CalendarDate(year: year, month: candidates[0].offset + 1, day: day) {
                found.append(date)
            }
        }
        return found
    }
}
