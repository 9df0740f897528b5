import Foundation

/// A clock time as letters print it: `kl. 14.30`, `kl 9`, `klokken 08.45`, `Klokkeslett: 11.00`,
/// `14:30`, OCR's `kl. 14,30`.
struct ClockTime: Equatable {
    var hour: Int
    var minute: Int

    /// `HH:MM`.
    var text: String { String(format: "%02d:%02d", hour, minute) }

    /// Words that stand before a time ("kl", its OCR misreadings, "klokken", "klokka").
    static let markers = ["klokkeslett", "klokken", "klokka", "kl", "k1", "ki"]

    /// Labels that start a line giving a time; the arrival ones say when to be there rather than
    /// when the appointment is.
    static let labels: [(word: String, arrival: Bool)] = [
        ("klokkeslett", false), ("klokken", false), ("klokka", false), ("tidspunkt", false), ("tid", false),
        ("kl", false), ("oppmøtetidspunkt", true), ("oppmøtetid", true), ("oppmøte", true), ("møtetid", true),
        ("møt opp", true), ("frammøte", true), ("fremmøte", true),
    ]

    /// The first time in `text` after a marker, or one standing first (after spaces, a comma or
    /// a dash), as after a date: `06.09.2024 14.30`, `23.09.2024, klokken 10.00`.
    static func first(in text: String) -> ClockTime? {
        let s = Array(text.unicodeScalars)
        var start = 0
        while start < s.count, s[start] == " " || s[start] == "," || s[start] == "–" || s[start] == "-" { start += 1 }
        if let (time, _) = parse(s, at: start, needMinutes: true) { return time }
        var i = 0
        while i < s.count {
            if i == 0 || !isLetter(s[i - 1]), let end = marker(s, at: i) {
                var j = end
                while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
                if let (time, _) = parse(s, at: j, needMinutes: false) { return time }
                i = end
            } else {
                i += 1
            }
        }
        return nil
    }

    /// A time on a line that starts with a time label ("Tid: kl. 08.30", "Klokka: 09.00",
    /// "Oppmøte: kl. 13.15 i resepsjonen", "klokken 08.45."), with whether it is an arrival time.
    static func labelled(_ line: String) -> (time: ClockTime, arrival: Bool, end: Int)? {
        var body = Substring(line)
        while let first = body.first, "-–•*· ".contains(first) { body = body.dropFirst() }
        for label in labels where body.hasPrefix(label.word) {
            let rest = body.dropFirst(label.word.count)
            guard let next = rest.unicodeScalars.first, !isLetter(next) else { continue }
            let s = Array(rest.unicodeScalars)
            var j = 0
            while j < s.count, s[j] == ":" || s[j] == "." || s[j] == " " { j += 1 }
            if let end = marker(s, at: j) {
                j = end
                while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
            }
            guard let (time, end) = parse(s, at: j, needMinutes: label.word != "kl") else { return nil }
            return (time, label.arrival, line.unicodeScalars.count - s.count + end)
        }
        return nil
    }

    /// The end of a time marker word at `i`, if one stands there.
    private static func marker(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        for word in markers {
            let w = Array(word.unicodeScalars)
            guard i + w.count <= s.count, Array(s[i..<(i + w.count)]) == w else { continue }
            if i + w.count < s.count, isLetter(s[i + w.count]) { continue }
            return i + w.count
        }
        return nil
    }

    /// `14.30`, `14:30`, `14,30`, `1430` (after a marker), `9` (after a marker): not a date
    /// (`14.03.2025`) and not the start of a range's second half.
    private static func parse(_ s: [Unicode.Scalar], at start: Int, needMinutes: Bool) -> (ClockTime, Int)? {
        var i = start
        var hour = 0, digits = 0
        while i < s.count, digits < 4, NorwegianDate.isDigit(s[i]) {
            hour = hour * 10 + Int(s[i].value - 48)
            digits += 1
            i += 1
        }
        guard digits > 0, i >= s.count || !NorwegianDate.isDigit(s[i]) else { return nil }
        var minute = 0
        if digits == 4 {
            guard !needMinutes else { return nil }
            minute = hour % 100
            hour /= 100
        } else if i + 2 < s.count, s[i] == "." || s[i] == ":" || s[i] == ",",
                  NorwegianDate.isDigit(s[i + 1]), NorwegianDate.isDigit(s[i + 2]) {
            minute = Int(s[i + 1].value - 48) * 10 + Int(s[i + 2].value - 48)
            i += 3
            // A date, not a time: 14.03.2025
            if i < s.count, NorwegianDate.isDigit(s[i]) { return nil }
            if i + 1 < s.count, s[i] == "." || s[i] == "/", NorwegianDate.isDigit(s[i + 1]) { return nil }
        } else if needMinutes || digits > 2 {
            return nil
        }
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (ClockTime(hour: hour, minute: minute), i)
    }

    private static func isLetter(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic }
}
