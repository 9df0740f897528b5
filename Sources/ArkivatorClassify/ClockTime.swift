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

    /// Words of a label that says the line gives a time ("Tid:", "Tidspunkt for oppmøte:", "Møt kl.:",
    /// "Oppmøte", "Klokkeslett:", "Ny tid:"). A label is a few words before a colon, a time marker
    /// or the time itself, at least one of them a time word and none a word of another purpose.
    static let labelWords: Set<String> = ["tid", "tidspunkt", "klokkeslett", "klokken", "klokka", "kl", "oppmøte",
                                          "oppmøtetid", "oppmøtetidspunkt", "møt", "møte", "møtetid", "møtetidspunkt",
                                          "frammøte", "fremmøte", "frammøtetid", "ankomst", "ankomsttid", "time",
                                          "starttid", "behandlingstid", "undersøkelsestid"]

    /// Label words that say the time is when to be there rather than when the appointment is.
    static let arrivalStems = ["møt", "ankomst"]

    /// Words that mark a time as something else's: opening and telephone hours, a sample taken or
    /// received, a stay, the letter's own writing or printing.
    static let otherStems = ["telefon", "sentralbord", "åpning", "opning", "åpent", "besøk", "prøve",
                             "tatt", "teken", "mottatt", "motteke", "svar", "innlagt", "innlegg", "utskr", "skrevet",
                             "dato", "født", "fødd", "sendt", "tidligere", "tidlegare", "opprinnelig", "avlyst", "død"]

    /// Filler words a time label may hold besides its time words ("Tid for oppmøte", "Møt opp kl.").
    static let labelFiller: Set<String> = ["opp", "fram", "frem", "for", "til", "ny", "nytt", "ditt", "din", "og",
                                           "avtalt", "avtalte", "planlagt", "kom", "vennligst", "venleg"]

    /// A time on a line that starts with a time label ("Tid: kl. 08.30", "Klokka: 09.00",
    /// "Oppmøte: kl. 13.15 i resepsjonen", "Møt kl.: 14.10", "klokken 08.45."), with whether it
    /// is an arrival time and where the time ends.
    static func labelled(_ line: String) -> (time: ClockTime, arrival: Bool, end: Int)? {
        guard let label = label(of: line) else { return nil }
        let s = Array(line.unicodeScalars)
        guard let (time, end) = parse(s, at: label.valueStart, needMinutes: !label.marked) else { return nil }
        return (time, label.arrival, end)
    }

    /// Whether the line is a time label alone ("Tid:", "Møt kl.:", "Oppmøte"), its time on the next line.
    static func labelAlone(_ line: String) -> (arrival: Bool, marked: Bool)? {
        guard let label = label(of: line), label.valueStart >= line.unicodeScalars.count, label.words > 0 || label.marked
        else { return nil }
        return (label.arrival, label.marked)
    }

    /// A time standing first on a line (after a time marker, when the label above had none).
    static func leading(_ line: String, marked: Bool) -> ClockTime? {
        let s = Array(line.unicodeScalars)
        var j = 0
        var hasMarker = marked
        if let end = marker(s, at: 0) {
            hasMarker = true
            j = end
        }
        while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
        return parse(s, at: j, needMinutes: !hasMarker)?.0
    }

    /// A time that ends `text` after its marker, but for a weekday and a "den" that lead to the
    /// date after it: "kl. 09.30 tirsdag " before "3. juni 2025".
    static func ending(_ text: String, weekdays: [String]) -> ClockTime? {
        var words = text.split(separator: " ").map(String.init)
        while let last = words.last {
            let word = last.trimmingCharacters(in: CharacterSet(charactersIn: ",.:;–-"))
            guard word.isEmpty || word == "den" || weekdays.contains(word) else { break }
            words.removeLast()
        }
        guard let last = words.last else { return nil }
        var body = last
        while let c = body.last, ",;–-".contains(c) { body.removeLast() }
        // The marker is its own word ("kl. 09.30") or stuck to the time ("kl.09.30").
        var markerWord = words.count >= 2 ? words[words.count - 2] : ""
        let s = Array(body.unicodeScalars)
        var start = 0
        if let end = marker(s, at: 0) {
            markerWord = String(String.UnicodeScalarView(s[..<end]))
            start = end
            while start < s.count, s[start] == "." || s[start] == ":" { start += 1 }
        }
        let markerScalars = Array(markerWord.trimmingCharacters(in: CharacterSet(charactersIn: ".:")).unicodeScalars)
        guard marker(markerScalars, at: 0) == markerScalars.count, !markerScalars.isEmpty,
              let (time, end) = parse(s, at: start, needMinutes: false) else { return nil }
        // "kl. 09.30." may close with a stop; nothing else may follow the time.
        guard s[end...].allSatisfy({ $0 == "." }) else { return nil }
        return time
    }

    /// A time to be there inside a sentence: an arrival word, then "opp" or "fram", then a time
    /// marker and the time ("Ver venleg og møt opp klokka 10.45 i skranken").
    static func arrivalPhrase(in line: String) -> ClockTime? {
        let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;:()")) }
        if words.contains(where: { word in otherStems.contains { word.contains($0) } }) { return nil }
        for (index, word) in words.enumerated() where arrivalStems.contains(where: { word.hasPrefix($0) })
            || word.hasSuffix("møte") || word.hasSuffix("møt") {
            var next = index + 1
            if next < words.count, ["opp", "fram", "frem"].contains(words[next]) { next += 1 }
            guard next < words.count else { continue }
            let rest = words[next...].joined(separator: " ")
            let s = Array(rest.unicodeScalars)
            guard var j = marker(s, at: 0) else { continue }
            while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
            if let (time, _) = parse(s, at: j, needMinutes: false) { return time }
        }
        return nil
    }

    private struct Label {
        var words: Int
        var arrival: Bool
        var marked: Bool
        /// Where the value after the label, its colon and its marker starts (in scalars of the line).
        var valueStart: Int
    }

    /// The time label a line starts with: at most four words before a colon, a time marker or a
    /// digit, at least one a time word and none of another purpose; a line that starts with a
    /// time marker has an empty label.
    private static func label(of line: String) -> Label? {
        let s = Array(line.unicodeScalars)
        var i = 0
        while i < s.count, "-–•*· ".unicodeScalars.contains(s[i]) { i += 1 }
        let labelStart = i
        var end = i
        var markerEnd: Int?
        while end < s.count {
            if s[end] == ":" || NorwegianDate.isDigit(s[end]) { break }
            if end == 0 || !isLetter(s[end - 1]), let m = marker(s, at: end) {
                markerEnd = m
                break
            }
            end += 1
        }
        let text = String(String.UnicodeScalarView(s[labelStart..<end])).lowercased()
        let words = text.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "," })
            .map { $0.trimmingCharacters(in: .punctuationCharacters) }.filter { !$0.isEmpty }
        guard words.count <= 4 else { return nil }
        if words.contains(where: { word in otherStems.contains { word.contains($0) } }) { return nil }
        let timeWords = words.filter { labelWords.contains($0) }
        guard markerEnd != nil || !timeWords.isEmpty,
              words.allSatisfy({ labelWords.contains($0) || labelFiller.contains($0) }) else { return nil }
        var j = end
        if let markerEnd { j = markerEnd }
        while j < s.count, s[j] == ":" || s[j] == "." || s[j] == " " { j += 1 }
        var marked = markerEnd != nil
        if !marked, let m = marker(s, at: j) ?? strayBeforeMarker(s, at: j) {
            marked = true
            j = m
            while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
        }
        let arrival = words.contains { word in arrivalStems.contains { word.contains($0) } }
        return Label(words: words.count, arrival: arrival, marked: marked, valueStart: j)
    }

    /// The end of a time marker that one or two stray characters stand before, glued to it, after
    /// a time label ("Oppmøte: *Kk1.07.55" for "Oppmøte: kl. 07.55": a mark over the "k"): only
    /// when a time follows the marker.
    private static func strayBeforeMarker(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        for skip in 1...2 where i + skip < s.count {
            guard !s[i..<(i + skip)].contains(where: { $0 == " " || NorwegianDate.isDigit($0) }) else { return nil }
            guard let end = marker(s, at: i + skip) else { continue }
            var j = end
            while j < s.count, s[j] == "." || s[j] == ":" || s[j] == " " { j += 1 }
            return parse(s, at: j, needMinutes: true) != nil ? end : nil
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
