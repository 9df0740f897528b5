import ArkivatorCore

/// What the rules found about a document. Fields the rules are unsure of are in `needsReview`.
public struct Classification: Sendable, Equatable, Codable {
    public var docType: DocumentType
    /// The letter's own date, `YYYY-MM-DD`.
    public var documentDate: String
    /// Where `documentDate` came from: `letter` (found in the text), `scan` (none found; the scan
    /// date stands in and the field is listed for review) or `llm` (the language model read a date
    /// the rules could not, and the text backs it).
    public var documentDateSource: String
    public var scanDate: String
    public var institution: String?
    public var specialty: String?
    /// The person the letter is about: the household member's name when matched, else the printed name.
    public var person: String?
    /// The household member's name as in the family profiles, or nil ("Ukjent person").
    public var familyMember: String?
    public var keywords: [String]
    /// `YYYY-MM-DD Beskrivende tittel`.
    public var title: String
    /// Confidence per field, 0…1.
    public var confidence: [String: Double]
    /// Fields whose confidence is under the review threshold.
    public var needsReview: [String]
    /// True when the text holds a fødselsnummer (the number itself is never copied out of the text).
    public var containsFodselsnummer: Bool
    /// The appointments the letter calls to (at most one today); nil only in records made
    /// before appointments were read.
    public var appointments: [Appointment]?
    /// The rows of the laboratory tables the letter prints (``LabTable``); nil only in records
    /// made before lab rows were read.
    public var labs: [LabRow]?
    /// The numbers that may be misread (``NumberDoubt``): from the text alone here; the pipeline
    /// adds those in the places OCR was unsure of.
    public var doubtfulNumbers: [DoubtfulNumber]?
}
