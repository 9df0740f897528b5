import ArkivatorCore
import Foundation

/// Dates that OCR damaged in ways a reader still sees through: a letter for a digit ("12.03.2O26",
/// "l2.03.2026"), a space inside a number or before its full stop ("1 2. mars 2026", "12.03 .2026"),
/// a month name with one letter wrong or split ("12. rnars 2026", "12. mar s 2026"), or the full
/// stop after the day lost or read as a comma before a month name ("12 mars 2026", "4, juli 2025").
///
/// Only the date's own characters are repaired: a repair never joins numbers that stand apart as
/// words, and a letter counts as a digit only inside a run of digits and date marks that stands
/// apart from words. What is read is what was printed, with the damage undone; nothing is taken
/// from elsewhere.
extension NorwegianDate {
    /// The dates in `line` that read only after repair, with their ranges in the line as printed.
    public static func findDamaged(in line: String) -> [Match] {
        let original = Array(line.unicodeScalars)
        let (repaired, map) = repair(original)
        guard repaired != original else { return [] }
        let clean = Set(find(in: line).map(\.date))
        let text = String(String.UnicodeScalarView(repaired))
        return find(in: text).compactMap { match in
            guard !clean.contains(match.date), match.range.lowerBound < map.count else { return nil }
            let lower = map[match.range.lowerBound]
            let upper = match.range.upperBound < map.count ? map[match.range.upperBound] : original.count
            return Match(date: match.date, range: lower..<max(lower + 1, upper))
        }
    }

    /// Letters OCR reads for digits.
    static let digitLookalikes: [Unicode.Scalar: Unicode.Scalar] = ["O": "0", "o": "0", "D": "0", "l": "1", "I": "1",
                                                                     "i": "1", "|": "1", "S": "5", "B": "8", "Z": "2"]

    /// The line with its damage undone, and for each repaired scalar the index of the printed one
    /// it came from (one past the end maps to the printed line's end).
    static func repair(_ s: [Unicode.Scalar]) -> ([Unicode.Scalar], [Int]) {
        var out = s
        var map = Array(s.indices)
        replaceLookalikes(&out)
        joinSplitNumbers(&out, &map)
        repairMonthNames(&out, &map)
        return (out, map)
    }

    /// A run of digits, lookalike letters and date marks (". - /") that stands apart from words,
    /// with at least two digits and no more lookalikes than digits: its lookalikes become digits.
    private static func replaceLookalikes(_ s: inout [Unicode.Scalar]) {
        let marks: Set<Unicode.Scalar> = [".", "-", "/"]
        var i = 0
        while i < s.count {
            guard isDigit(s[i]) || digitLookalikes[s[i]] != nil else { i += 1; continue }
            var j = i
            while j < s.count, isDigit(s[j]) || digitLookalikes[s[j]] != nil || marks.contains(s[j]) { j += 1 }
            let before = i > 0 ? s[i - 1] : " "
            let after = j < s.count ? s[j] : " "
            let run = s[i..<j]
            let digits = run.filter(isDigit).count
            let lookalikes = run.filter { digitLookalikes[$0] != nil }.count
            if !isLetter(before), !isLetter(after), digits >= 2, lookalikes > 0, lookalikes <= digits {
                for k in i..<j {
                    if let digit = digitLookalikes[s[k]] { s[k] = digit }
                }
            }
            i = max(j, i + 1)
        }
    }

    /// Removes a space OCR put inside a date: between a digit and a date mark ("12.03 .2026",
    /// "12 .03.2026"), and between the two digits of a day before its full stop ("1 2. mars",
    /// "1 9.02.2024", where "9.02.2024" alone would read as another day).
    private static func joinSplitNumbers(_ s: inout [Unicode.Scalar], _ map: inout [Int]) {
        var i = 1
        while i + 1 < s.count {
            guard s[i] == " " else { i += 1; continue }
            let left = s[i - 1], right = s[i + 1]
            let markAfterDigit = isDigit(left) && (right == "." || right == "/") && i + 2 < s.count && isDigit(s[i + 2])
            let markBeforeDigit = (left == "/" || left == "-") && isDigit(right)
            // "1 2. mars", "1 9.02.2024": one digit standing apart, then one digit and the day's
            // full stop.
            let splitDay = isDigit(left) && isDigit(right) && (i < 2 || !isDigit(s[i - 2]) && !isLetter(s[i - 2]))
                && i + 2 < s.count && s[i + 2] == "."
                && (Int(left.value - 48) * 10 + Int(right.value - 48)) <= 31
            if markAfterDigit || markBeforeDigit || splitDay {
                s.remove(at: i)
                map.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// A day and a year around a word that is a month name with one letter wrong ("rnars", "jull"),
    /// split in two ("mar s"), or without the day's full stop ("12 mars 2026", "4, juli 2025"):
    /// the month's name is put in its place, after the day's full stop.
    private static func repairMonthNames(_ s: inout [Unicode.Scalar], _ map: inout [Int]) {
        var i = 0
        while i < s.count {
            // A day: one or two digits standing apart, an optional full stop, one space.
            guard isDigit(s[i]), i == 0 || !isDigit(s[i - 1]) && !isLetter(s[i - 1]) else { i += 1; continue }
            var k = i
            while k < s.count, isDigit(s[k]), k - i < 3 { k += 1 }
            let dayEnd = k
            guard dayEnd - i <= 2 else { i = k; continue }
            // The day's full stop, or a comma OCR read for it ("4, juli 2025").
            let hasStop = k < s.count && s[k] == "."
            let hasComma = k < s.count && s[k] == ","
            if hasStop || hasComma { k += 1 }
            guard k < s.count, s[k] == " " else { i = k + 1; continue }
            k += 1
            var wordEnd = k
            while wordEnd < s.count, isLetter(s[wordEnd]) { wordEnd += 1 }
            guard wordEnd > k else { i = k; continue }
            var word = String(String.UnicodeScalarView(s[k..<wordEnd])).lowercased()
            var end = wordEnd
            // "mar s 2026": a piece of one to three letters after it that completes a month name.
            if end + 1 < s.count, s[end] == " " {
                var pieceEnd = end + 1
                while pieceEnd < s.count, isLetter(s[pieceEnd]) { pieceEnd += 1 }
                let joined = word + String(String.UnicodeScalarView(s[(end + 1)..<pieceEnd])).lowercased()
                if (1...3).contains(pieceEnd - end - 1), monthNames.contains(joined) {
                    word = joined
                    end = pieceEnd
                }
            }
            guard let month = months[word] ?? damagedMonth(word) else { i = wordEnd; continue }
            // The year must follow (after an optional full stop or comma and a space).
            var y = end
            if y < s.count, s[y] == "." || s[y] == "," { y += 1 }
            guard y < s.count, s[y] == " ", y + 1 < s.count, isDigit(s[y + 1]) else { i = wordEnd; continue }
            let name = Array(monthNames[month - 1].unicodeScalars)
            let replacement: [Unicode.Scalar] = (hasStop ? [] : ["."]) + [" "] + name
            let start = hasStop ? dayEnd + 1 : dayEnd
            let replacedMap = [Int](repeating: map[start], count: replacement.count)
            s.replaceSubrange(start..<end, with: replacement)
            map.replaceSubrange(start..<end, with: replacedMap)
            i = start + replacement.count
        }
    }

    static let monthNames = CalendarDate.monthNames

    /// The month a word of four or more letters names with OCR damage: "rn" read for "m", or one
    /// letter wrong, added or missing, when that leaves only one month.
    static func damagedMonth(_ word: String) -> Int? {
        let fixed = word.replacingOccurrences(of: "rn", with: "m")
        if let month = months[fixed], fixed.count >= 3 { return month }
        guard word.count >= 4 else { return nil }
        let scalars = Array(word.unicodeScalars)
        let near = monthNames.indices.filter { index in
            let name = Array(monthNames[index].unicodeScalars)
            return name.count >= 4 && abs(name.count - scalars.count) <= 1
                && Fuzzy.boundedDistance(scalars, name, limit: 1) <= 1
        }
        return near.count == 1 ? near[0] + 1 : nil
    }
}
