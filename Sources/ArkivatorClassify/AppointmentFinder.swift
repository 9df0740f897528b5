import ArkivatorCore
import Foundation

/// Finds the appointment a letter calls its reader to: the day, the time to be there, the place,
/// what to bring and how to cancel or change it.
///
/// A date is an appointment's when the letter reads like a summons (it speaks of a time, an
/// arrival, an operation or an admission) and the date itself is marked as one: a weekday before
/// it, an appointment label ("Tid:", "Tidspunkt:", "Oppmøtedag:", "Operasjonsdato:", "Når:"), a
/// clock time beside it (after it, or right before it: "Kl. 09.30 tirsdag 3. juni 2025") or on the
/// next lines ("Møt kl.: 14.10", "Tid:" over "14:10"). Birth dates, the letter's own date, dates before
/// it and dates labelled as something else (admitted, sampled, referred, due) are not.
struct AppointmentFinder {
    /// The letter's own date, when found: appointments lie after it.
    let letterDate: CalendarDate?
    let birthDates: Set<CalendarDate>
    /// Stands in for the letter's date when the text has none (the year of a day printed without one).
    var scanDate: CalendarDate? = nil

    private struct Candidate {
        var date: CalendarDate
        var line: Int
        var score: Int
        /// The text before and after the date (see ``context(of:in:line:letter:)``).
        var before: String
        var after: String
    }

    /// The appointment the letter states, or none. A letter that moves or cancels one says so in
    /// `cancelled` and `replaces`.
    func find(in letter: LetterText) -> [Appointment] {
        guard Self.readsLikeSummons(letter.lowercased) else { return [] }
        var candidates: [Candidate] = []
        for (index, line) in letter.lowercasedLines.enumerated() {
            let scalars = Array(line.unicodeScalars)
            var matches = NorwegianDate.find(in: line)
            // "tirsdag 15. april kl. 09.30": a weekday's day without a year is the next such day
            // from the letter's date.
            var wrapped: [(NorwegianDate.Match, after: String)] = []
            for dayMonth in NorwegianDate.findWithoutYear(in: line) {
                let before = String(String.UnicodeScalarView(scalars[..<dayMonth.range.lowerBound]))
                // "… fredag 26. april" / "2024 klokken 10.45.": the line breaks before the year.
                if dayMonth.range.upperBound == scalars.count, index + 1 < letter.lines.count,
                   let (year, rest) = Self.leadingYear(letter.lowercasedLines[index + 1]),
                   let date = CalendarDate(year: year, month: dayMonth.month, day: dayMonth.day) {
                    wrapped.append((NorwegianDate.Match(date: date, range: dayMonth.range), rest))
                    continue
                }
                // "tirsdag 15. april kl. 09.30": a weekday's day without a year is the next such day
                // from the letter's date.
                let word = before.split(separator: " ").last.map { $0.trimmingCharacters(in: .punctuationCharacters) }
                guard let reference = letterDate ?? scanDate, let word, Self.weekdays.contains(word),
                      var date = CalendarDate(year: reference.year, month: dayMonth.month, day: dayMonth.day) else { continue }
                if date < reference, let next = CalendarDate(year: reference.year + 1, month: dayMonth.month, day: dayMonth.day) {
                    date = next
                }
                matches.append(NorwegianDate.Match(date: date, range: dayMonth.range))
            }
            var contexts = matches.map { match in (match, Self.context(of: match, in: scalars, line: index, letter: letter)) }
            for (match, after) in wrapped {
                let (before, _) = Self.context(of: match, in: scalars, line: index, letter: letter)
                contexts.append((match, (before, after)))
            }
            for (match, (before, after)) in contexts {
                let score = score(match.date, before: before, after: after, line: index, letter: letter)
                candidates.append(Candidate(date: match.date, line: index, score: score, before: before, after: after))
            }
        }
        guard let best = candidates.filter({ $0.score >= 5 })
            .max(by: { ($0.score, -$0.line) < ($1.score, -$1.line) }) else { return [] }
        var appointment = Appointment(date: best.date.iso)
        appointment.time = time(for: best, in: letter)
        appointment.place = AppointmentDetails.place(in: letter)
        appointment.bring = AppointmentDetails.bring(in: letter)
        appointment.change = AppointmentDetails.change(in: letter)
        let change = AppointmentChange.read(letter, appointment: best.date, letterDate: letterDate)
        appointment.cancelled = change.cancelled
        appointment.replaces = change.replaces?.iso
        appointment.moved = change.moved
        return [appointment]
    }

    /// Words of a letter that calls someone to a time (Bokmål and Nynorsk).
    static let summonsWords = ["innkall", "fått time", "fatt time", "satt opp", "sett opp", "satt av tid", "oppmøte",
                               "operasjonsdato", "innleggelsesdag", "innleggingsdag", "time hos", "time ved", "timen",
                               "ny time", "avlyst", "møt opp", "møte opp", "timeavtale", "tidspunkt"]

    static func readsLikeSummons(_ text: String) -> Bool { summonsWords.contains { text.contains($0) } }

    /// Labels before a date that mark it as the appointment's.
    static let appointmentLabels = ["tidspunkt", "tid:", "tid ", "når:", "nar:", "oppmøtedag", "oppmøtedato", "oppmøte",
                                    "operasjonsdato", "operasjonsdag", "innleggelsesdag", "innleggelsesdato",
                                    "innleggingsdag", "undersøkelsesdato", "behandlingsdato", "timeavtale", "ny time",
                                    "ny dato", "time:", "fått time", "fatt time", "satt opp", "timen"]

    /// Labels before a date that mark it as something else.
    static let otherLabels = ["født", "fødd", "f.", "fødselsdato", "fødselsnr", "vår dato", "deres dato", "brevdato",
                              "datert", "henvis", "tilvis", "innlagt", "utskrevet", "utskriven", "prøve", "tatt",
                              "mottatt", "vedtak", "periode", "fra og med", "f.o.m", "t.o.m", "til og med", "forfall",
                              "betal", "gyldig", "siden", "sist", "skrevet", "besvart", "deres ref", "vår ref",
                              "rekvirert", "dato for", "fakturadato", "utstedt", "søknad"]

    /// Words on the line of an appointment that is moved or cancelled.
    static let earlierMarks = ["avlyst", "flyttet fra", "flytta frå", "opprinnelig", "tidligere time", "tidlegare time",
                               "erstatter", "i stedet for", "istedenfor", "kansellert"]

    static let weekdays = ["mandag", "måndag", "tirsdag", "tysdag", "onsdag", "torsdag", "fredag", "lørdag", "laurdag",
                           "søndag", "sundag"]

    private func score(_ date: CalendarDate, before: String, after: String, line: Int, letter: LetterText) -> Int {
        var score = 0
        let label = String(before.suffix(32))
        let lastWord = before.split(separator: " ").last.map { $0.trimmingCharacters(in: .punctuationCharacters) } ?? ""
        if Self.weekdays.contains(lastWord) { score += 4 }
        if Self.appointmentLabels.contains(where: { label.contains($0) }) { score += 3 }
        var trimmedLabel = label.trimmingCharacters(in: .whitespaces)
        if Self.weekdays.contains(lastWord) {
            trimmedLabel = String(trimmedLabel.dropLast(trimmedLabel.split(separator: " ").last?.count ?? 0))
                .trimmingCharacters(in: .whitespaces)
        }
        let dateLabel = trimmedLabel.hasSuffix("dato:") || trimmedLabel.hasSuffix("dato") || trimmedLabel.hasSuffix("dag:")
        if dateLabel { score += 1 }
        let timed = ClockTime.first(in: after) != nil || Self.timeBefore(before, line: line, in: letter) != nil
            || nextLinesGiveTime(after: line, in: letter)
        if timed { score += 3 }
        // "Dato: 26.12.2026" over "Tid: kl. 10.30" in a summons: a bare date label with a time
        // beside or below it is the appointment's, like "Tidspunkt:" (the letter's own date line
        // has no time, and the letter's date gives way below).
        if dateLabel && timed { score += 2 }
        if Self.otherLabels.contains(where: { label.contains($0) }) { score -= 7 }
        if birthDates.contains(date) { score -= 8 }
        // The earlier appointment a letter moves or cancels gives way to the new one.
        let whole = before + " " + after
        if Self.earlierMarks.contains(where: { whole.contains($0) }) { score -= 3 }
        if let letterDate {
            if date == letterDate && !Self.weekdays.contains(lastWord) { score -= 4 }
            if date < letterDate { score -= 5 }
        }
        return score
    }

    /// The text before and after a date on its line. A line the date starts takes the line above
    /// as its beginning ("… mandag" / "3. november 2025 …"), and a line that ends with a time's
    /// marker takes the line below as its end ("… klokken" / "08.45.").
    static func context(of match: NorwegianDate.Match, in scalars: [Unicode.Scalar], line: Int,
                        letter: LetterText) -> (before: String, after: String) {
        var before = String(String.UnicodeScalarView(scalars[..<match.range.lowerBound]))
        var after = String(String.UnicodeScalarView(scalars[match.range.upperBound...]))
        if before.trimmingCharacters(in: .whitespaces).isEmpty, line > 0 {
            before = letter.lowercasedLines[line - 1] + " "
        }
        let lastWord = after.split(separator: " ").last.map { $0.trimmingCharacters(in: .punctuationCharacters) }
        if let lastWord, ClockTime.markers.contains(lastWord), line + 1 < letter.lines.count {
            after += " " + letter.lowercasedLines[line + 1]
        }
        return (before, after)
    }

    /// A year that starts a line (1900-2099), and the text after it: the end of a date the line
    /// above broke ("26. april" / "2024 klokken 10.45.").
    static func leadingYear(_ line: String) -> (year: Int, rest: String)? {
        let s = Array(line.unicodeScalars)
        guard s.count >= 4, s[..<4].allSatisfy(NorwegianDate.isDigit),
              s.count == 4 || !NorwegianDate.isDigit(s[4]) && !s[4].properties.isAlphabetic else { return nil }
        let year = s[..<4].reduce(0) { $0 * 10 + Int($1.value - 48) }
        guard (1900...2099).contains(year) else { return nil }
        return (year, String(String.UnicodeScalarView(s[4...])))
    }

    /// Whether one of the two lines after `line` gives a time to be there.
    private func nextLinesGiveTime(after line: Int, in letter: LetterText) -> Bool {
        for next in (line + 1)..<min(letter.lines.count, line + 3) {
            if Self.timeLine(next, in: letter) != nil { return true }
        }
        return false
    }

    /// A time a line gives on its own: after a time label ("Tid: 14:10", "Møt kl.: 14.10",
    /// "Oppmøte kl. 08.15", "Møt opp klokka 10.45"), below a label that stands alone ("Tid:" over
    /// "14:10"), or after an arrival word in a sentence ("… og møt opp klokka 10.45 …").
    static func timeLine(_ index: Int, in letter: LetterText) -> (time: ClockTime, arrival: Bool)? {
        let line = letter.lowercasedLines[index]
        if let found = ClockTime.labelled(line) { return (found.time, found.arrival) }
        if let label = ClockTime.labelAlone(line), index + 1 < letter.lines.count,
           let time = ClockTime.leading(letter.lowercasedLines[index + 1], marked: label.marked) {
            return (time, label.arrival)
        }
        if let time = ClockTime.arrivalPhrase(in: line) { return (time, true) }
        return nil
    }

    /// A time that stands right before the date, on its line or at the end of the line above
    /// ("Kl. 09.30 tirsdag 3. juni 2025", "… time kl. 09.30" over "tirsdag 3. juni 2025"), where
    /// no other date stands between them.
    static func timeBefore(_ before: String, line: Int, in letter: LetterText) -> ClockTime? {
        var text = before
        let lead = before.split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
        if line > 0, lead.allSatisfy({ $0.isEmpty || $0 == "den" || weekdays.contains($0) }) {
            text = letter.lowercasedLines[line - 1] + " " + before
        }
        guard NorwegianDate.find(in: text).isEmpty else { return nil }
        return ClockTime.ending(text, weekdays: weekdays)
    }

    /// The time to be there: on the date's line after the date, else right before it, else one a
    /// line gives on the next lines; the appointment's own time before an arrival time.
    private func time(for candidate: Candidate, in letter: LetterText) -> String? {
        if let time = ClockTime.first(in: candidate.after) { return time.text }
        if let time = Self.timeBefore(candidate.before, line: candidate.line, in: letter) { return time.text }
        var arrival: ClockTime?
        for next in (candidate.line + 1)..<min(letter.lines.count, candidate.line + 4) {
            guard let found = Self.timeLine(next, in: letter) else { continue }
            if !found.arrival { return found.time.text }
            if arrival == nil { arrival = found.time }
        }
        if let arrival { return arrival.text }
        // An arrival time before the date ("Oppmøte kl. 07.30" above "Operasjonsdato: …").
        for previous in stride(from: candidate.line - 1, through: max(0, candidate.line - 2), by: -1) {
            if let found = ClockTime.labelled(letter.lowercasedLines[previous]) { return found.time.text }
        }
        return nil
    }
}
