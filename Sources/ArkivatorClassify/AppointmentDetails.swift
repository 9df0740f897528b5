import ArkivatorCore
import Foundation

/// The place, what to bring and how to cancel or change, as a summons prints them.
enum AppointmentDetails {
    /// Labels of the place line, the surest first.
    static let placeLabels = ["oppmøtested", "oppmøtestad", "frammøtestad", "møtested", "møtestad", "sted", "stad",
                              "adresse", "lokale", "hvor", "kvar"]

    /// The place: a labelled line ("Sted: Poliklinikkbygget, inngang C, 3. etasje"), or what follows
    /// an arrival time ("Oppmøte: kl. 13.15 i resepsjonen, Akuttbygget").
    static func place(in letter: LetterText) -> String? {
        for label in placeLabels {
            for (index, line) in letter.lowercasedLines.enumerated() where line.hasPrefix(label) {
                let rest = line.dropFirst(label.count)
                guard rest.hasPrefix(":") || rest.hasPrefix(" :") else { continue }
                let value = value(of: letter.lines[index], after: label.count)
                if !value.isEmpty { return clipped(value) }
            }
        }
        for (index, line) in letter.lowercasedLines.enumerated() {
            guard let found = ClockTime.labelled(line), found.arrival else { continue }
            var rest = value(of: letter.lines[index], after: found.end)
            for word in ["i ", "på ", "ved ", "til "] where rest.lowercased().hasPrefix(word) { rest.removeFirst(word.count) }
            if rest.count >= 3 { return clipped(rest) }
        }
        return nil
    }

    /// What to bring: the list under a "Ta med" heading, or the sentence that asks for it.
    static func bring(in letter: LetterText) -> String? {
        for (index, line) in letter.lowercasedLines.enumerated() where line.contains("ta med") {
            let isHeading = line.split(separator: " ").count <= 6 && !line.hasSuffix(".")
            if isHeading {
                var items: [String] = []
                for next in (index + 1)..<min(letter.lines.count, index + 8) {
                    let item = letter.lines[next]
                    guard let first = item.first, "-–•*·".contains(first) else { break }
                    items.append(item.dropFirst().trimmingCharacters(in: .whitespaces))
                }
                if !items.isEmpty { return clipped(items.joined(separator: "; ")) }
                continue
            }
            guard let start = line.range(of: "ta ")?.lowerBound else { continue }
            let offset = line.distance(from: line.startIndex, to: start)
            let sentence = self.sentence(in: letter, from: index, offset: offset)
            if !sentence.isEmpty { return clipped(sentence) }
        }
        return nil
    }

    /// Words that tell how to cancel or change, in the order they are looked for.
    static let changeWords = ["avbestill", "avbestil", "ikke kan komme", "ikkje kan kome", "ikke passer", "ikkje passar",
                              "endre", "flytte", "gi beskjed", "gje beskjed", "gi oss beskjed"]

    /// How to cancel or change: the sentence that says so (a short heading like "Dersom du ikke kan
    /// komme" is followed by it).
    static func change(in letter: LetterText) -> String? {
        for word in changeWords {
            for (index, line) in letter.lowercasedLines.enumerated() where line.contains(word) {
                if line.split(separator: " ").count <= 6, !line.contains("."), index + 1 < letter.lines.count {
                    let next = sentence(in: letter, from: index + 1, offset: 0)
                    if !next.isEmpty { return clipped(next) }
                }
                let sentence = sentence(in: letter, from: index, offset: sentenceStart(line, before: word))
                if !sentence.isEmpty { return clipped(sentence) }
            }
        }
        return nil
    }

    /// The text after a label and its colon.
    private static func value(of line: String, after count: Int) -> String {
        String(line.dropFirst(count)).trimmingCharacters(in: CharacterSet(charactersIn: " :.,").union(.whitespaces))
    }

    /// Where the sentence holding `word` starts in `line` (after the last full stop before it).
    private static func sentenceStart(_ line: String, before word: String) -> Int {
        guard let at = line.range(of: word)?.lowerBound else { return 0 }
        guard let stop = fullStops(in: String(line[..<at])).last else { return 0 }
        return stop
    }

    /// Abbreviations whose full stop ends no sentence: «Ring tlf. 22 11 80 80», «kl. 08.00».
    static let abbreviations: Set<String> = ["tlf", "tel", "telefon", "mob", "kl", "ca", "nr", "evt", "f.eks", "bl.a", "dvs", "jf",
                                             "pr", "avd", "mnd", "min", "ev", "o.l", "etc", "kr", "st", "gt", "vn", "dr", "ref", "org"]

    /// The offsets just after each «. » in `text` that ends a sentence: not after an abbreviation,
    /// a lone letter or a number («13. mai»).
    static func fullStops(in text: String) -> [Int] {
        let characters = Array(text)
        var stops: [Int] = []
        var index = 0
        while index + 1 < characters.count {
            defer { index += 1 }
            guard characters[index] == ".", characters[index + 1] == " " else { continue }
            var start = index
            while start > 0, !characters[start - 1].isWhitespace, characters[start - 1] != "(" { start -= 1 }
            let word = String(characters[start..<index]).lowercased()
            if abbreviations.contains(word) || word.count <= 1 || word.allSatisfy(\.isNumber) { continue }
            stops.append(index + 2)
        }
        return stops
    }

    /// A sentence from a line's offset to its full stop, over at most three lines.
    private static func sentence(in letter: LetterText, from index: Int, offset: Int) -> String {
        var text = String(letter.lines[index].dropFirst(offset))
        var line = index
        while !endsSentence(text), line + 1 < letter.lines.count, line < index + 3 {
            line += 1
            text += " " + letter.lines[line]
        }
        if let stop = fullStops(in: text).first { text = String(text.prefix(stop - 1)) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private static func endsSentence(_ text: String) -> Bool {
        guard fullStops(in: text).isEmpty else { return true }
        let last = text.split(separator: " ").last.map { String($0).lowercased() } ?? ""
        guard text.hasSuffix(".") else { return text.hasSuffix("!") || text.hasSuffix("?") }
        return !abbreviations.contains(String(last.dropLast()))
    }

    /// At most 300 characters, any fødselsnummer masked (it stays in the letter's text alone).
    private static func clipped(_ text: String) -> String {
        let masked = Redaction.redact(text)
        return masked.count <= 300 ? masked : String(masked.prefix(299)) + "…"
    }
}

/// Whether a letter moves or cancels an earlier appointment, and which.
enum AppointmentChange {
    static let movedWords = ["ny time", "flyttet", "flytta", "endret", "endra", "ny dato", "nytt tidspunkt", "erstatter",
                             "i stedet for", "istedenfor", "i staden for"]
    static let cancelWords = ["avlyst", "avlyse", "avlysing", "avlysning", "kansellert"]
    /// Words on the line of the earlier appointment.
    static let earlierWords = movedWords + cancelWords + ["opprinnelig", "tidligere", "tidlegare", "var satt opp", "fra "]

    /// `cancelled` when the appointment's own line says it is off; `replaces` the earlier date a
    /// move names (or the appointment's own date when it is cancelled); `moved` when the letter
    /// says it moves or replaces an earlier one.
    static func read(_ letter: LetterText, appointment: CalendarDate, letterDate: CalendarDate?)
        -> (cancelled: Bool, replaces: CalendarDate?, moved: Bool) {
        // Only lines that state a change: not the rules ("Timer som ikke er avlyst …", "Dersom du
        // trenger ny time …").
        let stating = sentences(letter).filter { line in !conditional.contains { line.contains($0) } }
        let moves = stating.contains { line in movedWords.contains { line.contains($0) } }
        let cancels = stating.contains { line in cancelWords.contains { line.contains($0) } }
        guard moves || cancels else { return (false, nil, false) }
        for line in stating where earlierWords.contains(where: { line.contains($0) }) {
            for match in NorwegianDate.find(in: line) where match.date != appointment && match.date != letterDate {
                return (false, match.date, true)
            }
        }
        let ownLine = stating.first { line in NorwegianDate.find(in: line).contains { $0.date == appointment } }
        if cancels, let ownLine, cancelWords.contains(where: { ownLine.contains($0) }) || !moves {
            return (true, appointment, false)
        }
        return (false, nil, moves)
    }

    /// The letter's sentences, lower case: lines joined, split after a full stop, question or
    /// exclamation mark that follows a letter (not a date's "13. mai") and at each heading line.
    static func sentences(_ letter: LetterText) -> [String] {
        var sentences: [String] = []
        var current = ""
        for line in letter.lowercasedLines {
            current += current.isEmpty ? line : " " + line
            var start = current.startIndex
            var previous: Character = " "
            var index = current.startIndex
            while index < current.endIndex {
                let c = current[index]
                let next = current.index(after: index)
                if ".?!".contains(c), previous.isLetter, next == current.endIndex || current[next] == " " {
                    sentences.append(String(current[start..<next]).trimmingCharacters(in: .whitespaces))
                    start = next
                }
                previous = c
                index = next
            }
            current = String(current[start...]).trimmingCharacters(in: .whitespaces)
            // A short line without a stop is a heading: it ends there.
            if line.split(separator: " ").count <= 5, !current.isEmpty {
                sentences.append(current)
                current = ""
            }
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }

    /// Words of a rule or a condition rather than a statement.
    static let conditional = ["ikke er avlyst", "ikkje er avlyst", "ikke avlyst", "ikkje avlyst", "som ikke", "som ikkje",
                              "dersom", "hvis", "viss ", "om du", "om dere", "om de "]
}
