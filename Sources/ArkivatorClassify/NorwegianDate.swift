import ArkivatorCore
import Foundation

/// Finds the dates in Norwegian text (Bokmål and Nynorsk): `03.11.2025`, `3.11.25`, `3/11-2025`,
/// `3. november 2025`, `3. nov. 2025`, `2025-11-03`, `Oslo, 3.11.2025`.
public enum NorwegianDate {
    /// A date found in text, with where it stood.
    public struct Match: Sendable, Equatable {
        public var date: CalendarDate
        /// Range in the line's Unicode scalars.
        public var range: Range<Int>
    }

    /// Month names and abbreviations, Bokmål and Nynorsk (they share most).
    static let months: [String: Int] = {
        var table: [String: Int] = [:]
        let names = [["januar", "jan"], ["februar", "feb", "febr"], ["mars", "mar"], ["april", "apr"], ["mai"],
                     ["juni", "jun"], ["juli", "jul"], ["august", "aug"], ["september", "sep", "sept"],
                     ["oktober", "okt"], ["november", "nov"], ["desember", "des"]]
        for (index, forms) in names.enumerated() { for form in forms { table[form] = index + 1 } }
        return table
    }()

    /// Every date in one line of text, in order.
    public static func find(in line: String) -> [Match] {
        let scalars = Array(line.unicodeScalars)
        var matches: [Match] = []
        var i = 0
        while i < scalars.count {
            if isDigit(scalars[i]), i == 0 || !isDigit(scalars[i - 1]) && !isLetter(scalars[i - 1]),
               let (match, end) = parse(scalars, at: i) {
                matches.append(match)
                i = end
            } else {
                i += 1
            }
        }
        return matches
    }

    /// A day and month printed without a year ("tirsdag 15. april", "15. apr."), with where it
    /// stood; full dates (those ``find(in:)`` reads) are not among them.
    public struct DayMonth: Sendable, Equatable {
        public var day: Int
        public var month: Int
        public var range: Range<Int>
    }

    /// Every day and month without a year in one line, in order.
    public static func findWithoutYear(in line: String) -> [DayMonth] {
        let scalars = Array(line.unicodeScalars)
        let full = find(in: line).map(\.range)
        var found: [DayMonth] = []
        var i = 0
        while i < scalars.count {
            guard isDigit(scalars[i]), i == 0 || !isDigit(scalars[i - 1]) && !isLetter(scalars[i - 1]),
                  !full.contains(where: { $0.contains(i) }) else { i += 1; continue }
            var k = i
            guard let day = number(scalars, &k, maxDigits: 2), k < scalars.count, scalars[k] == "." else { i += 1; continue }
            k += 1
            skipSpaces(scalars, &k, max: 2)
            var word = ""
            while k < scalars.count, isLetter(scalars[k]) { word.unicodeScalars.append(scalars[k]); k += 1 }
            if let month = months[word.lowercased()], (1...31).contains(day.value) {
                if k < scalars.count, scalars[k] == "." { k += 1 }
                found.append(DayMonth(day: day.value, month: month, range: i..<k))
            }
            i = max(k, i + 1)
        }
        return found
    }

    /// The text of a date in one of the supported forms (for tests and round trips).
    public static func format(_ date: CalendarDate, style: Int) -> String {
        let monthNames = CalendarDate.monthNames
        let short = ["jan.", "feb.", "mars", "apr.", "mai", "juni", "juli", "aug.", "sep.", "okt.", "nov.", "des."]
        switch style % 7 {
        case 0: return String(format: "%02d.%02d.%04d", date.day, date.month, date.year)
        case 1: return "\(date.day).\(date.month).\(String(format: "%02d", date.year % 100))"
        case 2: return "\(date.day). \(monthNames[date.month - 1]) \(date.year)"
        case 3: return "\(date.day). \(short[date.month - 1]) \(date.year)"
        case 4: return date.iso
        case 5: return "Oslo, \(date.day).\(date.month).\(date.year)"
        default: return "\(date.day)/\(date.month)-\(date.year)"
        }
    }

    private static func parse(_ s: [Unicode.Scalar], at start: Int) -> (Match, Int)? {
        var i = start
        guard let first = number(s, &i, maxDigits: 4) else { return nil }
        // ISO: 2025-11-03
        if first.digits == 4 {
            guard i < s.count, s[i] == "-" else { return nil }
            i += 1
            guard let month = number(s, &i, maxDigits: 2), month.digits == 2, i < s.count, s[i] == "-" else { return nil }
            i += 1
            guard let day = number(s, &i, maxDigits: 2), day.digits == 2, !followsDigit(s, i),
                  let date = CalendarDate(year: first.value, month: month.value, day: day.value) else { return nil }
            return (Match(date: date, range: start..<i), i)
        }
        guard first.digits <= 2, i < s.count else { return nil }
        // 3.11.2025, 3.11.25, 3/11-2025, 3. 11. 2025
        if s[i] == "." || s[i] == "/" {
            var j = i + 1
            skipSpaces(s, &j, max: 1)
            if let month = number(s, &j, maxDigits: 2), j < s.count, s[j] == "." || s[j] == "-" || s[j] == "/" {
                var k = j + 1
                skipSpaces(s, &k, max: 1)
                if let year = number(s, &k, maxDigits: 4), year.digits == 4 || year.digits == 2, !followsDigit(s, k),
                   let date = CalendarDate(year: year.digits == 2 ? century(year.value) : year.value,
                                           month: month.value, day: first.value) {
                    return (Match(date: date, range: start..<k), k)
                }
                return nil
            }
            // 3. november 2025, 3. nov. 2025
            if s[i] == "." {
                var k = i + 1
                skipSpaces(s, &k, max: 2)
                var word = ""
                while k < s.count, isLetter(s[k]) { word.unicodeScalars.append(s[k]); k += 1 }
                guard let month = months[word.lowercased()] else { return nil }
                // An abbreviation's full stop, or a comma or colon that OCR read into the gap.
                if k < s.count, s[k] == "." || s[k] == "," || s[k] == ":" { k += 1 }
                skipSpaces(s, &k, max: 2)
                guard let year = number(s, &k, maxDigits: 4), year.digits == 4, !followsDigit(s, k),
                      let date = CalendarDate(year: year.value, month: month, day: first.value) else { return nil }
                return (Match(date: date, range: start..<k), k)
            }
        }
        return nil
    }

    /// Two-digit years: 00–39 are this century, 40–99 the last (letters are not from the future).
    static func century(_ yy: Int) -> Int { yy < 40 ? 2000 + yy : 1900 + yy }

    private static func number(_ s: [Unicode.Scalar], _ i: inout Int, maxDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0, digits = 0
        while i < s.count, digits < maxDigits, isDigit(s[i]) {
            value = value * 10 + Int(s[i].value - 48)
            digits += 1
            i += 1
        }
        if digits == maxDigits, i < s.count, isDigit(s[i]) { return nil }
        return digits > 0 ? (value, digits) : nil
    }

    private static func skipSpaces(_ s: [Unicode.Scalar], _ i: inout Int, max: Int) {
        var n = 0
        while i < s.count, n < max, s[i] == " " { i += 1; n += 1 }
    }

    private static func followsDigit(_ s: [Unicode.Scalar], _ i: Int) -> Bool { i < s.count && isDigit(s[i]) }
    public static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    static func isLetter(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic }
}
