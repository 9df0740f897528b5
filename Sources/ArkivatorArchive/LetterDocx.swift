import ArkivatorCore
import Foundation

/// The `.docx` of one filed letter: a header with title, date, sender, person and type; the text
/// with low-confidence words highlighted; a footer with scan date, program version and file name;
/// the metadata as custom properties. Made at filing and again when the library changes a
/// document (`edit`, `redact`), so both give the same file.
public struct LetterDocx: Sendable {
    public var title: String
    /// The letter's date (or the scan date when it has none), `YYYY-MM-DD`.
    public var date: String
    public var institution: String?
    public var specialty: String?
    /// The household member or printed name; nil prints "Ukjent person".
    public var person: String?
    /// The document type's name, nil when the document was not classified.
    public var docType: String?
    public var documentDate: String?
    public var scanDate: String?
    public var keywords: [String]
    public var ocrConfidence: Double?
    public var sha256: String
    public var text: String
    /// (start, length) in `text`, in Unicode scalars.
    public var lowConfidence: [(start: Int, length: Int)]
    public var sourceName: String
    public var programVersion: String

    public init(title: String, date: String, institution: String?, specialty: String?, person: String?,
                docType: String?, documentDate: String?, scanDate: String?, keywords: [String], ocrConfidence: Double?,
                sha256: String, text: String, lowConfidence: [(start: Int, length: Int)], sourceName: String,
                programVersion: String) {
        self.title = title
        self.date = date
        self.institution = institution
        self.specialty = specialty
        self.person = person
        self.docType = docType
        self.documentDate = documentDate
        self.scanDate = scanDate
        self.keywords = keywords
        self.ocrConfidence = ocrConfidence
        self.sha256 = sha256
        self.text = text
        self.lowConfidence = lowConfidence
        self.sourceName = sourceName
        self.programVersion = programVersion
    }

    /// The content. `mask` is applied to every metadata value (never to the text itself).
    public func content(mask: (String) -> String = { $0 }, created: Date = Date()) -> DocxContent {
        let unknown = ShownPerson.unknown.norwegian
        var header: [(label: String, value: String)] = [("Dato", date)]
        if let institution { header.append(("Avsender", institution)) }
        header.append(("Person", person ?? unknown))
        if let docType { header.append(("Type", docType)) }
        let custom: [(name: String, value: String)] = [
            ("person", person ?? unknown),
            ("docType", docType ?? ""),
            ("institution", institution ?? ""),
            ("specialty", specialty ?? ""),
            ("documentDate", documentDate ?? ""),
            ("scanDate", scanDate ?? ""),
            ("keywords", keywords.joined(separator: ", ")),
            ("ocrConfidence", String(format: "%.3f", ocrConfidence ?? 0)),
            ("sourceSHA256", sha256),
        ]
        return DocxContent(
            title: title, headerFields: header.map { ($0.label, mask($0.value)) },
            paragraphs: DocxContent.paragraphs(fromText: text, lowConfidence: lowConfidence),
            footer: "Skannet \(scanDate ?? "") · Arkivator \(programVersion) · \(sourceName)",
            created: created, customProperties: custom.map { ($0.name, mask($0.value)) })
    }
}
