import ArkivatorCore
import Foundation

/// Types, dates, attributes and titles a letter from its text, by rules over Norwegian letter
/// conventions and the vocabularies in `Resources/`.
public struct Classifier: Sendable {
    public var vocabulary: Vocabulary
    public var family: [FamilyProfile]
    /// Fields with confidence under this are listed in `needsReview`.
    public var reviewThreshold: Double = 0.6

    public init(vocabulary: Vocabulary = .standard, family: [FamilyProfile] = []) {
        self.vocabulary = vocabulary
        self.family = family
    }

    /// Classifies `text`. `scanDate` stands in for the letter date when the text has none.
    public func classify(_ text: String, scanDate: CalendarDate) -> Classification {
        let letter = LetterText(text)
        var confidence: [String: Double] = [:]

        let person = PersonMatcher(family: family, labels: vocabulary.labels).match(letter)
        confidence["person"] = person.confidence
        let birthDates = Set(person.fodselsnumre.map { CalendarDate(iso: $0.birthDateISO) }.compactMap { $0 }
            + PersonMatcher.birthDates(in: letter, labels: vocabulary.labels).compactMap(CalendarDate.init(iso:)))

        var documentDate = scanDate
        var dateSource = "scan"
        if let found = DocumentDateFinder(labels: vocabulary.labels, scanDate: scanDate, birthDates: birthDates).choose(in: letter) {
            documentDate = found.date
            dateSource = "letter"
            confidence["documentDate"] = found.confidence
        } else {
            confidence["documentDate"] = 0.1
        }

        let (docType, typeConfidence) = documentType(letter, letterDate: dateSource == "letter" ? documentDate : nil)
        confidence["docType"] = typeConfidence

        let institution = InstitutionFinder(vocabulary: vocabulary).find(in: letter)
        confidence["institution"] = institution?.confidence ?? 0.1
        let specialty = SpecialtyFinder(vocabulary: vocabulary).find(in: letter)
        if let specialty { confidence["specialty"] = specialty.confidence }

        let keywords = Keywords(vocabulary: vocabulary).pick(from: letter, docType: docType,
                                                             specialty: specialty?.printed, exclude: family.map(\.name))
        let title = TitleMaker.title(date: documentDate, type: docType, specialty: specialty?.specialty,
                                     printedSpecialty: specialty?.printed, institution: institution?.name)
        confidence["title"] = min(confidence["docType"] ?? 0, confidence["documentDate"] ?? 0)

        let appointments = AppointmentFinder(letterDate: dateSource == "letter" ? documentDate : nil, birthDates: birthDates,
                                             scanDate: scanDate)
            .find(in: letter)

        let labs = LabTable.rows(in: text)
        let doubtfulNumbers = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [], rows: labs)

        let needsReview = confidence.filter { $0.value < reviewThreshold }.map(\.key).sorted()
        return Classification(
            docType: docType, documentDate: documentDate.iso, documentDateSource: dateSource, scanDate: scanDate.iso,
            institution: institution?.name, specialty: specialty?.specialty.name,
            person: person.member?.name ?? person.printedName, familyMember: person.member?.name,
            keywords: keywords, title: title, confidence: confidence.mapValues { ($0 * 100).rounded() / 100 },
            needsReview: needsReview, containsFodselsnummer: !person.fodselsnumre.isEmpty,
            appointments: appointments, labs: labs, doubtfulNumbers: doubtfulNumbers)
    }
}

/// Picks salient words: the type, the department, and the most frequent content words.
struct Keywords {
    let vocabulary: Vocabulary

    func pick(from letter: LetterText, docType: DocumentType, specialty: String?, exclude: [String]) -> [String] {
        var result = [docType.titleWord.lowercased()]
        if let specialty { result.append(specialty) }
        let excluded = Set(exclude.flatMap { PersonMatcher.parts($0) })
        var counts: [String: (count: Int, form: String, first: Int)] = [:]
        for (index, line) in letter.lines.enumerated() {
            for word in LetterText.words(line) {
                let lower = word.lowercased()
                guard lower.count >= 5, !vocabulary.stopwords.contains(lower), !excluded.contains(lower),
                      lower.allSatisfy({ $0.isLetter || $0 == "-" }) else { continue }
                let entry = counts[lower] ?? (0, word, index)
                counts[lower] = (entry.count + 1, entry.form, entry.first)
            }
        }
        let ranked = counts.sorted { a, b in
            let sa = Double(a.value.count) + Double(a.key.count) / 20, sb = Double(b.value.count) + Double(b.key.count) / 20
            if sa != sb { return sa > sb }
            return a.value.first != b.value.first ? a.value.first < b.value.first : a.key < b.key
        }
        for (lower, entry) in ranked where result.count < 8 {
            if !result.contains(where: { $0.lowercased() == lower }) { result.append(entry.form) }
        }
        return result
    }
}

/// `YYYY-MM-DD Epikrise ortopedisk avdeling St. Olavs hospital`: 3–10 words.
enum TitleMaker {
    static func title(date: CalendarDate, type: DocumentType, specialty: Vocabulary.Specialty?,
                      printedSpecialty: String?, institution: String?) -> String {
        var words = [type.titleWord]
        if let printed = printedSpecialty, let specialty {
            let lower = printed.lowercased()
            // Keep the department as printed when it names one ("Nevrologisk poliklinikk"), else the adjective.
            if ["avdeling", "poliklinikk", "klinikk", "seksjon", "sengepost"].contains(where: { lower.contains($0) }),
               printed.split(separator: " ").count <= 4 {
                words.append(lower)
            } else {
                words.append(specialty.adjective)
            }
        }
        if let institution {
            words.append(contentsOf: institution.split(separator: " ").prefix(5).map(String.init))
        }
        if words.count < 2 { words.append("uten avsender") }
        let title = words.prefix(10).joined(separator: " ")
        return DocumentTitle.make(date: date, Self.withoutNumbers(title))
    }

    /// A title never carries long digit runs (no fødselsnummer, no reference numbers).
    static func withoutNumbers(_ s: String) -> String {
        var out = ""
        var run = ""
        for c in s {
            if c.isNumber { run.append(c) } else {
                if run.count <= 4 { out += run }
                run = ""
                out.append(c)
            }
        }
        if run.count <= 4 { out += run }
        return out
    }
}
