import ArkivatorCore
import Foundation

/// Finds who a letter is about and whether that is a member of the household.
///
/// Evidence, strongest first: a fødselsnummer equal to a member's; the printed patient name
/// ("Pasient:", "Gjelder:", "Navn:", the first column of a table headed "Pasient", or the
/// addressee above a street and postcode) matched by
/// first and last name, in either order, with middle names or initials, tolerating OCR damage;
/// a printed birth date. Two members who share a first name are told apart by surname, birth date
/// or number; when they cannot be, nobody is chosen.
public struct PersonMatcher {
    let family: [FamilyProfile]

    struct Result {
        var printedName: String?
        var member: FamilyProfile?
        var confidence: Double
        var fodselsnumre: [Fodselsnummer]
    }

    let labels: Vocabulary.Labels

    func match(_ text: LetterText) -> Result {
        let numbers = Self.findFodselsnumre(in: text)
        let printed = Self.patientName(in: text, labels: labels) ?? Self.tablePatient(in: text, labels: labels)
            ?? Self.addressee(in: text, labels: labels)
        let printedBirthDates = Self.birthDates(in: text, labels: labels) + numbers.map(\.birthDateISO)

        // 1. A fødselsnummer that is a member's.
        for number in numbers {
            if let member = family.first(where: { $0.fodselsnummer?.digits == number.digits }) {
                return Result(printedName: printed, member: member, confidence: 0.99, fodselsnumre: numbers)
            }
        }
        // 2. The printed name.
        if let printed {
            let candidates = family.filter { Self.sameName(printed, $0.name) }
            var chosen: FamilyProfile?
            if candidates.count == 1 {
                chosen = candidates[0]
            } else if candidates.count > 1 {
                let byBirth = candidates.filter { member in member.birthDate.map(printedBirthDates.contains) ?? false }
                if byBirth.count == 1 { chosen = byBirth[0] }
            }
            if let chosen {
                // A printed number or birth date that belongs to someone else overrules the name.
                let contradicted = (!numbers.isEmpty && chosen.fodselsnummer != nil)
                    || (!printedBirthDates.isEmpty && chosen.birthDate != nil && !printedBirthDates.contains(chosen.birthDate ?? ""))
                if !contradicted {
                    let exact = Fuzzy.normalized(printed) == Fuzzy.normalized(chosen.name)
                    return Result(printedName: printed, member: chosen, confidence: exact ? 0.95 : 0.85, fodselsnumre: numbers)
                }
            }
            return Result(printedName: printed, member: nil, confidence: 0.75, fodselsnumre: numbers)
        }
        // 3. Only a birth date: a member born that day (and no other member is).
        let byBirth = family.filter { member in member.birthDate.map(printedBirthDates.contains) ?? false }
        if byBirth.count == 1 {
            return Result(printedName: nil, member: byBirth[0], confidence: 0.7, fodselsnumre: numbers)
        }
        return Result(printedName: nil, member: nil, confidence: 0.4, fodselsnumre: numbers)
    }

    /// Valid fødselsnumre in the text (see ``Fodselsnummer/matches(in:)``).
    static func findFodselsnumre(in text: LetterText) -> [Fodselsnummer] {
        Fodselsnummer.numbers(in: text.lines.joined(separator: "\n"))
    }

    /// The name after a patient label: "Pasient: Kari Nordmann, f.nr. …" → "Kari Nordmann".
    static func patientName(in text: LetterText, labels: Vocabulary.Labels) -> String? {
        for (index, lower) in text.lowercasedLines.enumerated() {
            for label in labels.patient {
                guard lower.hasPrefix(label) else { continue }
                let rest = text.lines[index].dropFirst(label.count)
                guard let colon = rest.firstIndex(of: ":"), rest[rest.startIndex..<colon].trimmingCharacters(in: .whitespaces).count <= 2 else { continue }
                let value = rest[rest.index(after: colon)...]
                if let name = cleanName(String(value)), !hasRole(name, labels: labels), !looksLikeInstitution(name) { return name }
            }
        }
        return nil
    }

    /// The patient in a table whose first column is theirs: a header line of label words with a
    /// patient label first ("Pasient  Født  Rekvirent"), and the name at the start of the row
    /// under it ("Kari Nordmann  01.02.1980  Per Lund"). The other columns may name a health
    /// worker; only the first is read.
    static func tablePatient(in text: LetterText, labels: Vocabulary.Labels) -> String? {
        for index in text.lines.indices.dropLast() {
            let header = LetterText.words(text.lowercasedLines[index])
            guard (2...6).contains(header.count), !text.lines[index].contains(":"), let first = header.first,
                  labels.patient.contains(first), header.allSatisfy({ $0.allSatisfy(\.isLetter) }) else { continue }
            // The row's leading words that read as a name ("Nordmann, Kari" keeps its comma).
            let row = text.lines[index + 1].split(separator: " ")
            let leading = row.prefix { word in
                word.first?.isUppercase == true && word.dropLast(word.hasSuffix(",") ? 1 : 0).allSatisfy { $0.isLetter || "-.'".contains($0) }
            }.prefix(4)
            if let name = cleanName(leading.joined(separator: " ")), !hasRole(name, labels: labels), !looksLikeInstitution(name) {
                return name
            }
        }
        return nil
    }

    /// The addressee: the name line above a street line and a "NNNN PLACE" line, near the top.
    /// An institution's or a health worker's address block (a letterhead) is passed over.
    static func addressee(in text: LetterText, labels: Vocabulary.Labels) -> String? {
        for index in text.headLines where index >= 2 {
            let line = text.lines[index]
            let words = line.split(separator: " ")
            guard let code = words.first, code.count == 4, code.allSatisfy(\.isNumber), words.count >= 2 else { continue }
            // The name stands above the street line; a date or reference set beside the address
            // may have landed between them.
            for back in 2...5 where index - back >= 0 {
                if let name = cleanName(text.lines[index - back]), !looksLikeInstitution(name), !hasRole(name, labels: labels) {
                    return name
                }
            }
        }
        return nil
    }

    /// Birth dates printed after "Født:" and the like (not on a line that names a health or case
    /// worker: that is the worker's, not the patient's).
    static func birthDates(in text: LetterText, labels: Vocabulary.Labels) -> [String] {
        var dates: [String] = []
        for line in text.lines where !hasRole(line, labels: labels) {
            let lower = line.lowercased()
            for match in NorwegianDate.find(in: line) {
                let prefix = String(String.UnicodeScalarView(Array(lower.unicodeScalars)[..<match.range.lowerBound]))
                if labels.birth.contains(where: { prefix.trimmingCharacters(in: .whitespaces).hasSuffix($0 + ":") || prefix.hasSuffix($0 + " ") }) {
                    dates.append(match.date.iso)
                }
            }
        }
        return dates
    }

    /// A person's name from the start of a field value, or nil when it does not look like one.
    static func cleanName(_ value: String) -> String? {
        var s = value.trimmingCharacters(in: .whitespaces)
        for stop in ["(", " f.nr", " f. ", " født", " fødd", " fnr", " fødselsnr", "  ", " - ", " – "] {
            if let range = s.range(of: stop, options: .caseInsensitive) { s = String(s[..<range.lowerBound]) }
        }
        let segments = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = segments.first else { return nil }
        // "Etternavn, Fornavn Mellomnavn"
        if segments.count >= 2, first.split(separator: " ").count == 1, isName(segments[1]) {
            return first + ", " + segments[1]
        }
        return isName(first) && first.split(separator: " ").count >= 2 ? first : nil
    }

    private static func isName(_ s: String) -> Bool {
        let words = s.split(separator: " ")
        return (1...5).contains(words.count)
            && words.allSatisfy { w in w.first?.isUppercase == true && w.allSatisfy { $0.isLetter || $0 == "-" || $0 == "." || $0 == "'" } }
    }

    /// Whether a word of `name` is a role ("Fastlege Tone Aasland", "Lege Per Lund"): a health or
    /// case worker, not the person a letter is about.
    static func hasRole(_ name: String, labels: Vocabulary.Labels) -> Bool {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).contains { word in
            labels.roles.contains(String(word)) || labels.roles.contains(String(word.drop { $0 == "(" }.prefix { $0 != ")" }))
        }
    }

    /// Whether `name` names an institution: a word that is one of the kinds ("Helse", "NAV",
    /// "HF") or holds one ("Universitetssykehuset", "Bydelslegekontoret").
    static func looksLikeInstitution(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["sykehus", "sjukehus", "legekontor", "legesenter", "legevakt", "kommune", "herad", "klinikk", "avdeling",
                "nav", "helfo", "hospital", "laboratori", "senter", "apotek", "as", "hf", "rhf", "helse", "dps", "bup",
                "statsforvalter", "institutt", "stiftelse", "tjeneste", "kontor", "sentral"].contains { word in
            lower.split(separator: " ").contains { $0 == word || $0.contains(word) && word.count > 4 }
        }
    }

    /// Name parts in reading order: "Bøe, Nina Vilde" → ["nina", "vilde", "bøe"].
    public static func parts(_ name: String) -> [String] {
        let pieces = name.split(separator: ",", maxSplits: 1).map { String($0) }
        let ordered = pieces.count == 2 ? pieces[1] + " " + pieces[0] : name
        return Fuzzy.normalized(ordered).split(separator: " ").map(String.init)
    }

    /// Same person by name: first and last name agree (middle names and initials may differ),
    /// with about one OCR error allowed in a long name part.
    static func sameName(_ printed: String, _ profile: String) -> Bool {
        let p = parts(printed), f = parts(profile)
        guard let pFirst = p.first, let pLast = p.last, let fFirst = f.first, let fLast = f.last, p.count >= 2, f.count >= 2 else {
            return false
        }
        func close(_ a: String, _ b: String) -> Bool {
            if a == b { return true }
            // OCR reads "m" as "rn" and "l" as "I" or "1"; compare with those undone.
            let fix = { (s: String) in s.replacingOccurrences(of: "rn", with: "m").replacingOccurrences(of: "1", with: "l") }
            let a = fix(a), b = fix(b)
            if a == b { return true }
            if a.count == 1 || b.count == 1 { return false }
            return min(a.count, b.count) >= 4
                && Fuzzy.boundedDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: 1) <= 1
        }
        return close(pFirst, fFirst) && close(pLast, fLast)
    }
}
