import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import ArkivatorOCR
import ArkivatorPipeline
import Foundation

extension Household {
    /// What ``redact(_:programVersion:language:)`` did.
    public struct RedactionReport: Sendable, Equatable {
        /// Numbers hidden in the text (and so in the index and the `.docx`).
        public var inText: Int
        /// Boxes painted over a number's words on the page images.
        public var boxes: Int
        /// Pages read again to find the words.
        public var pages: Int
        /// Archived page images (or PDF pages) that could not be read again: the number may
        /// still show there, and the PDF was left as it was.
        public var unreadable: Int
    }

    /// Hides every fødselsnummer of a document in every copy the archive holds: each page image
    /// is read again with Tesseract (the library keeps no word boxes), a solid black box is
    /// painted over the words that make up a number, and the searchable PDF is made again from
    /// those pages with the numbers masked in its text; the photos as taken are forgotten and the
    /// thumbnail made again; then the library masks the text, every column, the index, the
    /// `.docx`, the file names, the explanation and the appointments, and cleans the database file
    /// (see ``Library/redact(_:programVersion:)``). This is the whole redaction on this machine:
    /// the family's copies are brought in line with it afterwards. A letter archived as the PDF it came as (no
    /// page images) gets a PDF of its pages drawn, boxed and masked in its place.
    public func redact(_ id: String, programVersion: String = ArkivatorVersion.current,
                       language: String = "nor") throws -> RedactionReport {
        let document = try library.documents.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let known = document.heldNumbers
        let read = try readers.with(language) { try Self.boxedPages(of: document, known: known, engine: $0.engine) }
        var report = RedactionReport(inText: 0, boxes: 0, pages: read.pages.count, unreadable: read.unreadable)
        for page in read.pages {
            if let file = page.file, page.changed { try AtomicFile.write(page.jpeg, to: file.url, overwrite: true) }
            report.boxes += page.boxes
        }
        let pdfPages = read.pages.map(\.pdfPage)
        if let pdf = document.files.pdf, !pdfPages.isEmpty, report.unreadable == 0 {
            let bytes = SearchablePDF(title: Redaction.redact(document.title), pages: pdfPages).data()
            try AtomicFile.write(bytes, to: pdf.url, overwrite: true)
        }
        // The photo as taken shows the number too: it is not kept.
        try library.documents.forgetOriginals(document.sha256)
        // The first page may now hold a box: its thumbnail is made again.
        _ = try? ThumbnailMaker.thumbnail(document.sha256, in: library, remake: true)
        // Last, as it ends by cleaning the database file of every row changed above.
        report.inText = try library.documents.redact(document.sha256, programVersion: programVersion)
        return report
    }

    /// A page of a document read again with its numbers boxed.
    struct BoxedPage {
        /// The archived page image it came from; nil for a page of a PDF.
        var file: ArchivedFile?
        /// The page JPEG with its boxes (the archived bytes, marked, when there was nothing to box).
        var jpeg: [UInt8]
        /// Whether ``jpeg`` differs from the archived page image.
        var changed: Bool
        /// The page for a PDF, its text lines with every number hidden.
        var pdfPage: SearchablePDF.Page
        /// How many words were boxed.
        var boxes: Int
        /// The page's text as read again, before anything was hidden.
        var reading: String
    }

    /// Every page of `document` read again (its page images, else the pages of its PDF; a PDF
    /// page with a text layer is taken from it), with each fødselsnummer's words boxed and its
    /// digits hidden in the text lines; `known` are numbers to find even where OCR split them in a
    /// way the detector does not read. Nothing is written. `read` is told after each page.
    static func boxedPages(of document: LibraryDocument, known: Set<String>, engine: TesseractEngine,
                           read: (() -> Void)? = nil) throws -> (pages: [BoxedPage], unreadable: Int) {
        var pages: [BoxedPage] = []
        var unreadable = 0
        if !document.files.images.isEmpty {
            for file in document.files.images {
                defer { read?() }
                // A page that cannot be read again is counted, and the others are still done.
                guard let bytes = try? [UInt8](Data(contentsOf: file.url)), let image = try? Image.decodePages(bytes).first,
                      let page = try? engine.recognize(image) else {
                    unreadable += 1
                    continue
                }
                var boxed = try boxedPage(image, page: page, known: known, original: bytes)
                boxed.file = file
                pages.append(boxed)
            }
        } else if let pdf = document.files.pdf {
            guard let encoded = try? EncodedPages.inspect([UInt8](Data(contentsOf: pdf.url))) else {
                return ([], 1)
            }
            for index in 0..<encoded.count {
                defer { read?() }
                guard let image = try? encoded.decodePixels(page: index).gray,
                      let page = try? encoded.textLayer(page: index).map(OCRPage.init(textLayer:)) ?? engine.recognize(image) else {
                    unreadable += 1
                    continue
                }
                pages.append(try boxedPage(image, page: page, known: known, original: nil))
            }
        }
        return (pages, unreadable)
    }

    /// One page with its numbers boxed.
    private static func boxedPage(_ image: Image, page: OCRPage, known: Set<String>, original: [UInt8]?) throws -> BoxedPage {
        let marked = PageRedaction.numberWords(in: page, known: known)
        let jpeg: [UInt8]
        if marked.isEmpty, let original {
            jpeg = PageRedaction.withMarker(original)
        } else {
            jpeg = try PageRedaction.boxedJPEG(image, boxes: PageRedaction.boxes(page, marked: marked))
        }
        let pdfPage = SearchablePDF.Page(jpeg: jpeg, width: image.width, height: image.height, dpi: 300,
                                         lines: PageRedaction.redactedLines(page, marked: marked, known: known))
        return BoxedPage(file: nil, jpeg: jpeg, changed: jpeg != original, pdfPage: pdfPage, boxes: marked.count,
                         reading: page.text)
    }
}
