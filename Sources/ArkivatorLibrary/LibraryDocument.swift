import ArkivatorArchive
import ArkivatorCore
import Foundation

/// One document as the library knows it: its metadata, its text and its files in the archive.
public struct LibraryDocument: Sendable, Equatable, Codable {
    /// The row number in the library (0 before the document is recorded).
    public var number: Int
    /// SHA-256 of the page files: the same paper scanned to the same bytes is the same document.
    public var sha256: String
    /// The first page file's name as it was received.
    public var sourceName: String
    /// `YYYY-MM-DD Beskrivende tittel`.
    public var title: String
    public var docType: DocumentType
    /// The household member's name when matched, else the name as printed, if any.
    public var person: String?
    /// The household member the document is filed under; nil = "Ukjent person".
    public var familyMember: String?
    public var institution: String?
    public var specialty: String?
    /// The letter's own date, `YYYY-MM-DD`.
    public var documentDate: String
    public var scanDate: String?
    public var keywords: [String]
    public var ocrConfidence: Double?
    /// Fields the rules were unsure of.
    public var needsReview: [String]
    public var pageCount: Int
    /// The recognised text, pages separated by a form feed. Holds the fødselsnumre in full when
    /// read back with ``DocumentStore/document(_:revealNumbers:)``, masked otherwise.
    public var text: String
    /// How many fødselsnumre the text holds (0 after `redact`).
    public var fodselsnummerCount: Int
    /// Words the OCR was unsure of: (start, length) in `text`, in Unicode scalars.
    public var lowConfidence: [TextRange]
    public var pages: [Page]
    public var files: [ArchivedFile]
    /// `pending`, `uploaded`, `failed` or `none`.
    public var uploadStatus: String
    /// When the document was recorded and last changed (UTC, ISO 8601).
    public var addedAt: String
    public var updatedAt: String
    /// Set while the document is in the trash.
    public var trashedAt: String?
    /// How sure the rules were of each field (`docType`, `person`, `documentDate` …), 0…1.
    public var fieldConfidence: [String: Double]?
    /// The appointments the letter calls to, moves or cancels (filed into the `appointments` table).
    public var appointments: [Appointment]?
    /// Where the numbers OCR may have misread stand on the pages (see ``NumberMark``); nil when none.
    public var numberMarks: [NumberMark]?
    /// The rows of the lab tables the letter prints, filed into `lab_values` with it (see
    /// ``LabEntry``); nil when not read (an import: a lab result's are read from its text after
    /// it is filed). A document read back holds none here: see ``DocumentStore/labs(of:)``.
    public var labs: [LabEntry]?

    public struct TextRange: Sendable, Equatable, Codable {
        public var start: Int
        public var length: Int
        public init(start: Int, length: Int) {
            self.start = start
            self.length = length
        }
    }

    public struct Page: Sendable, Equatable, Codable {
        /// 1…
        public var number: Int
        public var ocrConfidence: Double?
        public var width: Int
        public var height: Int
        /// Which of the document's originals the page came from (1…; see ``DocumentStore/originals(of:)``)
        /// and which page or frame of it (1…); nil when not recorded.
        public var original: Int?
        public var originalPage: Int?
        /// The sheet's outline in the original and the turn applied; nil for a page read from a
        /// PDF's text, or filed before outlines were kept.
        public var crop: PageCrop?

        public init(number: Int, ocrConfidence: Double?, width: Int, height: Int, original: Int? = nil,
                    originalPage: Int? = nil, crop: PageCrop? = nil) {
            self.number = number
            self.ocrConfidence = ocrConfidence
            self.width = width
            self.height = height
            self.original = original
            self.originalPage = originalPage
            self.crop = crop
        }
    }

    /// The short id people type: the first 10 hex digits of the SHA-256 (see ``ShortID``).
    public var shortID: String { ShortID.of(sha256) }

    /// Who the document is shown as being about (see ``ShownPerson``).
    public var shownPerson: UserMessage { ShownPerson.message(familyMember: familyMember, person: person) }

    public init(sha256: String, sourceName: String, title: String, docType: DocumentType, person: String? = nil,
                familyMember: String? = nil, institution: String? = nil, specialty: String? = nil,
                documentDate: String, scanDate: String? = nil, keywords: [String] = [], ocrConfidence: Double? = nil,
                needsReview: [String] = [], text: String, lowConfidence: [TextRange] = [], pages: [Page] = [],
                files: [ArchivedFile] = []) {
        self.number = 0
        self.sha256 = sha256
        self.sourceName = sourceName
        self.title = title
        self.docType = docType
        self.person = person
        self.familyMember = familyMember
        self.institution = institution
        self.specialty = specialty
        self.documentDate = documentDate
        self.scanDate = scanDate
        self.keywords = keywords
        self.ocrConfidence = ocrConfidence
        self.needsReview = needsReview
        self.pageCount = max(pages.count, text.isEmpty ? 0 : 1)
        self.text = text
        self.fodselsnummerCount = 0
        self.lowConfidence = lowConfidence
        self.pages = pages
        self.files = files
        self.uploadStatus = "pending"
        self.addedAt = ""
        self.updatedAt = ""
        self.trashedAt = nil
    }
}
