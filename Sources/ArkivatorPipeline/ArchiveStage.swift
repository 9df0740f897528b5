import ArkivatorArchive
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
    /// Replace fødselsnumre with `DDMMYY •••••` in the text, the .docx and the PDF text, and box them on
    /// the page images (see ``PageRedaction``), before filing.
    public var redact: Bool

    public init(root: URL, programVersion: String = ArkivatorVersion.current, library: Library? = nil, redact: Bool = false) {
        self.root = root
        self.programVersion = programVersion
        self.library = library
        self.redact = redact
    }
}


/// Stage 5: files one read and classified document through the filing layer
/// (``DocumentFiling``): `<Person>/Dokumenter/<title>.docx`, `<Person>/Bilder/<title>.jpeg`
/// (` - side N` for more pages) and `<Person>/Bilder/<title>.pdf`. What is here is only what the
/// pipeline alone has: the page JPEGs and the searchable PDF made from the read pages, or the
/// PDF a letter came as when its own text was read.
struct ArchiveStage {
    let options: ArchiveOptions

    /// Files the document; `originalPDF`, when given, is the archive's PDF as it came (a letter
    /// made on a computer, whose text was read from it), else a searchable PDF is made.
    func write(_ document: LibraryDocument, pages: [PageReader.ReadPage], originalPDF: [UInt8]? = nil,
               willPublish: ([URL]) throws -> Void = { _ in }) throws -> [ArchivedFile] {
        let filing = DocumentFiling(programVersion: options.programVersion)
        let pdf = try filing.temporaryPDF(root: options.root, person: document.familyMember)
        do {
            // Private from the first byte, like every archive file (it holds the letter's text).
            let bytes = originalPDF ?? Self.searchablePDF(title: document.title, pages: pages, redact: options.redact).data()
            try AtomicFile.write(bytes, to: pdf, overwrite: false)
        } catch {
            try? FileManager.default.removeItem(at: pdf)
            throw error
        }
        return try filing.write(document, root: options.root, images: pages.compactMap(\.jpeg), pdf: pdf,
                                willPublish: willPublish)
    }

    /// The searchable PDF: each page's archive JPEG with its text lines laid over it invisibly.
    static func searchablePDF(title: String, pages: [PageReader.ReadPage], redact: Bool = false) -> SearchablePDF {
        SearchablePDF(title: title, pages: pages.compactMap { page in
            guard let jpeg = page.jpeg else { return nil }
            return SearchablePDF.Page(jpeg: jpeg, width: page.width, height: page.height,
                                      dpi: 300, lines: page.ocr.lines.map {
                                          SearchablePDF.Line(text: redact ? Redaction.redact($0.text) : $0.text,
                                                             box: $0.box)
                                      })
        })
    }
}
