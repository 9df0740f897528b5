import ArkivatorCore
import Foundation

/// The document type, read from the whole letter.
extension Classifier {
    /// Scores every type by what the whole letter says about itself:
    /// - a cue in the heading counts three times: the heading is where a letter names its kind;
    /// - a type's name further down ("nye resepter er sendt", "kopi av henvisningen") is only a
    ///   mention of another paper, and counts for less than the letter's own structure and
    ///   purpose ("innlagt … utskrevet", "forskrevet av", "referanseområde", "innvilget");
    /// - of two cues for different types where one holds the other ("påminnelse om time" and
    ///   "påminnelse"), only the longer counts: it says more;
    /// - a reference to another letter ("Deres ref.: Henvisning av 1.2.2025") names that letter,
    ///   not this one, wherever it stands on its line (columns side by side run together);
    ///   A type's name on a line of its own ("Henvisning") is a title wherever it stands;
    /// - a date after the letter's own, with a time of day, is an appointment: the letter calls
    ///   someone in ("Innleggelsesdag: 12.3.2025, kl. 08.00"), whatever else it is about; an
    ///   admission and a discharge dated before it are a stay that is over, which an epikrise
    ///   reports.
    func documentType(_ letter: LetterText, letterDate: CalendarDate? = nil) -> (DocumentType, Double) {
        let heading = headingText(letter)
        let bodyLines = letter.lowercasedLines.map(Self.withoutReference)
        let body = bodyLines.joined(separator: "\n")
        // Lines that read as a title: short, not a sentence, and starting with the words in question.
        let titleLines = bodyLines.filter { LetterText.words($0).count <= 6 && !$0.hasSuffix(".") }
        var found: [(type: DocumentType, cue: Vocabulary.TypeCue, inHeading: Bool, asTitle: Bool)] = []
        for (name, cues) in vocabulary.typeCues {
            guard let type = DocumentType(rawValue: name) else { continue }
            for cue in cues {
                let inHeading = cue.heading == true && heading.contains(cue.cue)
                guard inHeading || body.contains(cue.cue) else { continue }
                let asTitle = cue.heading == true && titleLines.contains { line in
                    line.hasPrefix(cue.cue) && !(line.dropFirst(cue.cue.count).first?.isLetter ?? false)
                }
                found.append((type, cue, inHeading, asTitle))
            }
        }
        var scores: [DocumentType: Double] = [:]
        for item in found {
            // A cue inside a longer cue for another type, found where it is ("påminnelse" in the
            // heading "Påminnelse om time").
            let held = found.contains { other in
                other.type != item.type && other.cue.cue.count > item.cue.cue.count && other.cue.cue.contains(item.cue.cue)
                    && (!item.inHeading || heading.contains(other.cue.cue))
            }
            if held { continue }
            let weight = item.inHeading ? item.cue.weight * 3
                : item.cue.heading == true && !item.asTitle ? item.cue.weight * Self.mentionShare : item.cue.weight
            scores[item.type, default: 0] += weight
        }
        if let letterDate {
            if Self.callsIn(letter, after: letterDate) { scores[.innkalling, default: 0] += Self.eventWeight }
            if Self.reportsStay(letter, before: letterDate) { scores[.epikrise, default: 0] += Self.eventWeight }
        }
        let ranked = scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
        guard let top = ranked.first, top.value >= 3 else { return (.annet, 0.4) }
        let second = ranked.dropFirst().first?.value ?? 0
        let margin = (top.value - second) / top.value
        return (top.key, min(0.98, 0.5 + margin))
    }

    /// What a type's name is worth outside the heading, as a share of its weight.
    static let mentionShare = 0.4
    /// What an appointment after the letter's date is worth for `innkalling`, and a stay in
    /// hospital before it for `epikrise`.
    static let eventWeight = 3.0

    /// Words that open and close a stay in hospital.
    static let admissionWords = ["innlagt", "innlagd", "innkomst", "innleggelse", "innlegging"]
    static let dischargeWords = ["utskrevet", "utskriven", "utskrivning", "utskriving", "utreise", "reiste hjem"]

    /// Whether the letter reports a stay that is over: an admission word and a discharge word,
    /// each on a line with a date no later than the letter's ("Innlagt 2.3.2025, utskrevet
    /// 6.3.2025"), or a date under its label on the next line.
    static func reportsStay(_ letter: LetterText, before letterDate: CalendarDate) -> Bool {
        func dated(_ words: [String]) -> Bool {
            letter.lowercasedLines.indices.contains { index in
                let line = letter.lowercasedLines[index]
                guard let position = words.compactMap({ line.range(of: $0)?.upperBound }).min() else { return false }
                let rest = String(line[position...])
                let next = index + 1 < letter.lines.count ? letter.lines[index + 1] : ""
                let dates = NorwegianDate.find(in: rest) + (rest.trimmingCharacters(in: .whitespaces).count <= 1 ? NorwegianDate.find(in: next) : [])
                return dates.first.map { $0.date <= letterDate } ?? false
            }
        }
        return dated(admissionWords) && dated(dischargeWords)
    }

    /// Labels that start a reference to another letter.
    static let referenceLabels = ["vår ref", "vår referanse"] + LetterText.theirReferenceLabels

    /// A lower-cased line up to where a reference to another letter starts.
    static func withoutReference(_ line: String) -> String {
        let cut = referenceLabels.compactMap { line.range(of: $0)?.lowerBound }.min()
        return cut.map { String(line[..<$0]) } ?? line
    }

    /// Whether a line names a date after `letterDate` together with a time of day ("kl. 08.00",
    /// "klokken 9", "08:30").
    static func callsIn(_ letter: LetterText, after letterDate: CalendarDate) -> Bool {
        for (index, line) in letter.lines.enumerated() {
            let later = NorwegianDate.find(in: line).filter { $0.date > letterDate }
            guard !later.isEmpty else { continue }
            let lower = letter.lowercasedLines[index]
            // The time may stand on the line itself or, in a label block, on the next line.
            let next = index + 1 < letter.lines.count ? letter.lowercasedLines[index + 1] : ""
            let nextIsLabelled = next.firstIndex(of: ":").map { next.distance(from: next.startIndex, to: $0) <= 24 } ?? false
            if hasTimeOfDay(lower) || (nextIsLabelled && hasTimeOfDay(next)) { return true }
        }
        return false
    }

    /// "kl. 8.15", "klokken 10", "kl 14:30", a bare "14:30", or a time after a time label
    /// (``ClockTime/labelled(_:)``: "Oppmøte: kl. 07.55", however OCR marked the "kl.").
    static func hasTimeOfDay(_ line: String) -> Bool {
        if ClockTime.labelled(line) != nil { return true }
        let words = line.split(whereSeparator: { $0.isWhitespace }).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;()")) }
        for (i, word) in words.enumerated() {
            if ["kl", "kl.", "klokka", "klokken", "klokka:", "klokken:"].contains(word), i + 1 < words.count,
               words[i + 1].first?.isNumber == true { return true }
            let parts = word.split(separator: ":")
            if parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }) { return true }
        }
        return false
    }

    /// The heading lines: lines in capitals, and the first lines after the address and reference
    /// block (a short line followed by body text), lower-cased.
    func headingText(_ letter: LetterText) -> String {
        var heading: [String] = []
        for (index, line) in letter.lines.enumerated() where index < 30 {
            let letters = line.filter(\.isLetter)
            if letters.count >= 5 && letters.allSatisfy(\.isUppercase) { heading.append(letter.lowercasedLines[index]) }
        }
        // The first short line without a colon after the last date/reference line in the head.
        let head = letter.headLines
        let lastReference = head.last { letter.lowercasedLines[$0].contains("ref") || !NorwegianDate.find(in: letter.lines[$0]).isEmpty } ?? 0
        var index = lastReference + 1
        while index < min(letter.lines.count, lastReference + 4) {
            let line = letter.lines[index]
            if !line.contains(":") && LetterText.words(line).count <= 10 {
                heading.append(letter.lowercasedLines[index])
                break
            }
            index += 1
        }
        return heading.joined(separator: "\n")
    }
}
