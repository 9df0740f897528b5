import ArkivatorCore
import Foundation

/// Why a letter waits for review, derived from what the library stores: its text, its
/// household member, `needsReview` (the fields the rules were unsure of) and the words the
/// OCR read with low confidence. The one place that decides it; the web's review page and the
/// API show these, each in plain words (``message``).
public enum ReviewReason: Sendable, Equatable {
    /// No text was found on the pages.
    case noText
    /// No household member matched the letter.
    case noHouseholdMember
    /// The letter's own date was not found: the scan date stands in for it.
    case noLetterDate
    /// Fields the rules were unsure of (their stored names: `title`, `person`, `docType`,
    /// `institution`, `specialty`, `documentDate`), in that order.
    case uncertainFields([String])
    /// Words the OCR was unsure of, as they stand in the text (each once, in reading order, at
    /// most ``ReviewReason/wordLimit``), and how many such words there are in all.
    case lowConfidence(words: [String], total: Int)
    /// Numbers that may be misread (OCR was unsure of them, they show OCR damage, or a lab value
    /// is implausible for its analysis, unit or range): «Usikkert tall», each named as it stands,
    /// in reading order. Shown first among the text's reasons: a misread number is the costliest.
    case uncertainNumbers([String])

    /// The name ``LibraryDocument/needsReview`` holds when the pipeline found numbers in doubt;
    /// their places are among the document's low-confidence ranges.
    public static let numbersField = "numbers"

    /// The most words ``lowConfidence(words:total:)`` lists.
    public static let wordLimit = 12

    /// The field names in the order they are shown.
    static let fieldOrder = ["title", "person", "docType", "documentDate", "institution", "specialty"]

    /// The reasons `document` waits, most pressing first; empty when nothing is in doubt.
    public static func of(_ document: LibraryDocument) -> [ReviewReason] {
        var reasons: [ReviewReason] = []
        let hasText = !document.text.isEmpty
        if !hasText { reasons.append(.noText) }
        if document.familyMember == nil { reasons.append(.noHouseholdMember) }
        var uncertain = Set(document.needsReview)
        // Without text no date was looked for: "no text" says it already.
        let dateMissing = uncertain.contains("documentDate")
            && ((document.fieldConfidence?["documentDate"] ?? 0) <= 0.1 || document.documentDate == document.scanDate)
        if dateMissing {
            uncertain.remove("documentDate")
            // The title starts with the date: unsure of it only for that reason, it is not named twice.
            if !uncertain.contains("docType") { uncertain.remove("title") }
            if hasText { reasons.append(.noLetterDate) }
        }
        // The person is named by "no household member" when none was matched.
        if document.familyMember == nil { uncertain.remove("person") }
        if !hasText { uncertain.removeAll() }
        let numbers = uncertain.remove(numbersField) != nil ? uncertainNumbers(document) : []
        let fields = fieldOrder.filter(uncertain.contains) + uncertain.subtracting(fieldOrder).sorted()
        if !fields.isEmpty { reasons.append(.uncertainFields(fields)) }
        if !numbers.isEmpty { reasons.append(.uncertainNumbers(Array(numbers.prefix(wordLimit)))) }
        // Words to check: two letters or two digits or more, without the punctuation around them;
        // a dash, a bracket, a lone letter or digit read poorly is nothing a person can check.
        var shown: Set<String> = []
        let words = lowConfidenceWords(document).filter { !numbers.contains($0) }
            .map { $0.trimmingCharacters(in: .punctuationCharacters.union(.symbols).union(.whitespaces)) }
            .filter { word in
                let scalars = word.unicodeScalars
                return (scalars.filter(CharacterSet.letters.contains).count >= 2 || scalars.filter(CharacterSet.decimalDigits.contains).count >= 2)
                    && shown.insert(word.lowercased()).inserted
            }
        if !words.isEmpty {
            reasons.append(.lowConfidence(words: Array(words.prefix(wordLimit)), total: words.count))
        }
        return reasons
    }

    /// The distinct words in the document's low-confidence ranges, in reading order.
    static func lowConfidenceWords(_ document: LibraryDocument) -> [String] {
        let scalars = Array(document.text.unicodeScalars)
        var seen: Set<String> = [], words: [String] = []
        for range in document.lowConfidence.sorted(by: { $0.start < $1.start })
        where range.start >= 0 && range.length > 0 && range.start < scalars.count {
            let end = min(scalars.count, range.start + range.length)
            let word = String(String.UnicodeScalarView(scalars[range.start..<end]))
                .trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
            guard !word.isEmpty, seen.insert(word.lowercased()).inserted else { continue }
            words.append(word)
        }
        return words
    }

    /// The low-confidence words that hold a digit: the numbers in doubt, as they stand.
    static func uncertainNumbers(_ document: LibraryDocument) -> [String] {
        lowConfidenceWords(document).filter { $0.contains(where: \.isNumber) }
    }

    /// A field's name for people.
    public static func fieldName(_ field: String) -> UserMessage {
        switch field {
        case "title": UserMessage(nb: "tittel", en: "title")
        case "person": UserMessage(nb: "person", en: "person")
        case "docType": UserMessage(nb: "type", en: "type")
        case "documentDate": UserMessage(nb: "brevdato", en: "letter date")
        case "institution": UserMessage(nb: "avsender", en: "sender")
        case "specialty": UserMessage(nb: "fagområde", en: "specialty")
        case numbersField: UserMessage(nb: "tall", en: "numbers")
        default: UserMessage(nb: field, en: field)
        }
    }

    /// The reason in plain words, saying what to do.
    public var message: UserMessage {
        switch self {
        case .noText:
            UserMessage(nb: "Ingen tekst funnet — skriv inn selv eller ta bildet på nytt.",
                        en: "No text found — type it in yourself or take the photo again.")
        case .noHouseholdMember:
            UserMessage(nb: "Ingen i husstanden passet til brevet. Velg hvem det gjelder.",
                        en: "No one in the household matched the letter. Choose who it is about.")
        case .noLetterDate:
            UserMessage(nb: "Fant ingen dato i brevet; datoen det ble skannet står i stedet. Skriv inn brevets dato.",
                        en: "No date was found in the letter; the date it was scanned stands instead. Enter the letter's date.")
        case .uncertainFields(let fields):
            UserMessage(nb: "Usikkert: " + Self.list(fields.map { Self.fieldName($0).norwegian }, and: "og")
                            + ". Se over og rett om det trengs.",
                        en: "Uncertain: " + Self.list(fields.map { Self.fieldName($0).english }, and: "and")
                            + ". Look them over and correct them if needed.")
        case .uncertainNumbers(let numbers):
            UserMessage(nb: "Usikkert tall: " + numbers.joined(separator: ", ")
                            + ". Sammenlign med sidebildet og rett tallet om det er feil lest.",
                        en: "Uncertain number: " + numbers.joined(separator: ", ")
                            + ". Compare with the page image and correct the number if it was misread.")
        case .lowConfidence(let words, let total):
            total > words.count
                ? UserMessage(nb: "\(total) ord var vanskelige å lese. Sjekk disse først (merket med farge i teksten):",
                              en: "\(total) words were hard to read. Check these first (marked in colour in the text):")
                : UserMessage(nb: "Noen ord var vanskelige å lese. Sjekk disse (merket med farge i teksten):",
                              en: "Some words were hard to read. Check these (marked in colour in the text):")
        }
    }

    /// "a, b og c".
    static func list(_ items: [String], and word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + (items.last ?? "")
    }
}

extension LibraryDocument {
    /// Why the letter waits for review (see ``ReviewReason``).
    public var reviewReasons: [ReviewReason] { ReviewReason.of(self) }
}
