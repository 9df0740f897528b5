import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Where and how documents are filed.
public struct ArchiveOptions: Sendable {
    /// The archive root: one folder per person below it.
    public var root: URL
    /// Printed in each .docx footer.
    public var programVersion: String
    /// Records each filed document, with its files, in one transaction; nil files without recording.
    public var library: Library?
    /// Replace fødselsnumre with `DDMMYY •••••` in the text, the .docx and the PDF text before filing.
    public var redact: Bool

    public init(root: URL, programVersion: String = ArkivatorVersion.current, library: Library? = nil, redact: Bool = false) {
        self.root = root
        self.programVersion = programVersion
        self.library = library
        self.redact = redact
    }
}

/// Arkivator's version, printed in documents and `--version`.
public enum ArkivatorVersion {
    public static let current = "0.3.0"
}

/// Stage 5: files one read and classified document: `<Person>/Dokumenter/<title>.docx`,
/// `<Person>/Bilder/<title>.jpeg` (` - side N` for more pages) and `<Person>/Bilder/<title>.pdf`.
struct ArchiveStage {
    let options: ArchiveOptions

    /// The person folder for a document: the household member, else "Ukjent person".
    static func folder(for classification: Classification?) -> String? {
        classification?.familyMember
    }

    func write(_ record: DocumentRecord, pages: [PageReader.Result], sourceName: String,
               willPublish: ([URL]) throws -> Void = { _ in }) throws -> DocumentRecord.ArchivedFiles {
        let classification = record.classification
        let title = classification?.title ?? Self.fallbackTitle(record)
        let person = Self.folder(for: classification)
        let docx = try DocxWriter(content: Self.docxContent(record, title: title, sourceName: sourceName,
                                                            version: options.programVersion)).data()
        let layout = ArchiveLayout(root: options.root)
        let pdf = try layout.temporaryURL(person: person, for: .pdf)
        do {
            // Private from the first byte, like every archive file (it holds the letter's text).
            try AtomicFile.write(Self.searchablePDF(title: title, pages: pages, redact: options.redact).data(),
                                 to: pdf, overwrite: false)
        } catch {
            try? FileManager.default.removeItem(at: pdf)
            throw error
        }
        let files = ArchiveFiles(docx: docx, images: pages.compactMap(\.jpeg), pdf: pdf)
        let written = try layout.write(files, person: person, title: title, willPublish: willPublish)
        return DocumentRecord.ArchivedFiles(docx: written.docx?.path ?? "", images: written.images.map(\.path),
                                            pdf: written.pdf?.path ?? "")
    }

    /// The searchable PDF: each page's archive JPEG with its text lines laid over it invisibly.
    static func searchablePDF(title: String, pages: [PageReader.Result], redact: Bool = false) -> SearchablePDF {
        SearchablePDF(title: title, pages: pages.compactMap { page in
            guard let jpeg = page.jpeg else { return nil }
            return SearchablePDF.Page(jpeg: jpeg, width: page.cleaned.gray.width, height: page.cleaned.gray.height,
                                      dpi: 300, lines: page.ocr.lines.map {
                                          SearchablePDF.Line(text: redact ? Fodselsnummer.masking($0.text) : $0.text,
                                                             box: $0.box)
                                      })
        })
    }

    /// A title for a document without text: the scan date and the file name.
    static func fallbackTitle(_ record: DocumentRecord) -> String {
        let name = URL(fileURLWithPath: record.sources.first ?? "dokument").deletingPathExtension().lastPathComponent
        return "\(record.scanDate ?? CalendarDate.fallback.iso) Skannet dokument \(name)"
    }

    /// The .docx: a header with title, date, sender, person and type; the text with low-confidence
    /// words highlighted; a footer with scan date, version and file name; metadata as custom
    /// properties. Never the fødselsnummer, except where it stands in the text itself.
    static func docxContent(_ record: DocumentRecord, title: String, sourceName: String, version: String) -> DocxContent {
        let k = record.classification
        return LetterDocx(
            title: title, date: k?.documentDate ?? record.scanDate ?? "", institution: k?.institution,
            specialty: k?.specialty, person: k?.familyMember ?? k?.person, docType: k?.docType.rawValue,
            documentDate: k?.documentDate, scanDate: record.scanDate, keywords: k?.keywords ?? [],
            ocrConfidence: record.ocrConfidence, sha256: record.id ?? "", text: record.text,
            lowConfidence: record.lowConfidenceWords.map { (start: $0.start, length: $0.length) },
            sourceName: sourceName, programVersion: version
        ).content(mask: Fodselsnummer.masking)
    }

    /// A plain sentence for a failure while filing.
    static func describe(_ error: any Error) -> String {
        if let error = error as? any UserFacingError { return error.userMessage.text() }
        if let error = error as? AtomicFileError { return error.message.text() }
        if let error = error as? ArchiveLayoutError { return error.message.text() }
        if let error = error as? ZipError { return error.userMessage.text() }
        if let error = error as? InputError { return error.message.text() }
        return UserMessage(nb: "Kunne ikke arkivere dokumentet: \(error)", en: "Could not file the document: \(error)").text()
    }
}
