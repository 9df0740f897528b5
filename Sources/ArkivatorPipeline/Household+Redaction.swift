import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import ArkivatorOCR
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
    /// those pages with the numbers masked in its text; then the library masks the text, every
    /// column, the index, the `.docx` and the file names, and cleans the database file (see
    /// ``Library/redact(_:programVersion:)``). A letter archived as the PDF it came as (no
    /// page images) gets a PDF of its pages drawn, boxed and masked in its place.
    public func redact(_ id: String, programVersion: String = ArkivatorVersion.current,
                       language: String = "nor") throws -> RedactionReport {
        let document = try library.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        let metadata = [document.title, document.sourceName, document.person ?? "", document.familyMember ?? ""]
        let known = Set(Fodselsnummer.numbers(in: ([document.text] + metadata).joined(separator: "\n")).map(\.digits))
        let engine = try TesseractEngine(language: language)
        var report = RedactionReport(inText: 0, boxes: 0, pages: 0, unreadable: 0)
        var pdfPages: [SearchablePDF.Page] = []
        if !document.files.images.isEmpty {
            for file in document.files.images {
                // A page that cannot be read again is counted, and the others are still done.
                guard let bytes = try? [UInt8](Data(contentsOf: file.url)), let image = try? Image.decodePages(bytes).first,
                      let page = try? engine.recognize(image) else {
                    report.unreadable += 1
                    continue
                }
                let (jpeg, pdfPage, boxes) = try Self.redactedPage(image, page: page, known: known, original: bytes)
                if jpeg != bytes { try AtomicFile.write(jpeg, to: file.url, overwrite: true) }
                pdfPages.append(pdfPage)
                report.boxes += boxes
                report.pages += 1
            }
        } else if let pdf = document.files.pdf {
            guard let encoded = try? EncodedPages.inspect([UInt8](Data(contentsOf: pdf.url))) else {
                report.unreadable += 1
                report.inText = try library.redact(document.sha256, programVersion: programVersion)
                try library.forgetOriginals(document.sha256)
                return report
            }
            for index in 0..<encoded.count {
                guard let image = try? encoded.decodePixels(page: index).gray,
                      let page = try? encoded.textLayer(page: index).map(OCRPage.init(textLayer:)) ?? engine.recognize(image) else {
                    report.unreadable += 1
                    continue
                }
                let (_, pdfPage, boxes) = try Self.redactedPage(image, page: page, known: known, original: nil)
                pdfPages.append(pdfPage)
                report.boxes += boxes
                report.pages += 1
            }
        }
        if let pdf = document.files.pdf, !pdfPages.isEmpty, report.unreadable == 0 {
            let bytes = SearchablePDF(title: Redaction.redact(document.title), pages: pdfPages).data()
            try AtomicFile.write(bytes, to: pdf.url, overwrite: true)
        }
        report.inText = try library.redact(document.sha256, programVersion: programVersion)
        // The photo as taken shows the number too: it is not kept.
        try library.forgetOriginals(document.sha256)
        // The first page may now hold a box: its thumbnail is made again.
        _ = try? ThumbnailMaker.thumbnail(document.sha256, in: library, remake: true)
        return report
    }

    /// One page with its numbers boxed: the archive JPEG (the original bytes, marked, when there
    /// was nothing to box), the PDF page made from it, and how many words were boxed.
    private static func redactedPage(_ image: Image, page: OCRPage, known: Set<String>,
                                     original: [UInt8]?) throws -> ([UInt8], SearchablePDF.Page, Int) {
        let marked = PageRedaction.numberWords(in: page, known: known)
        let jpeg: [UInt8]
        if marked.isEmpty, let original {
            jpeg = PageRedaction.withMarker(original)
        } else {
            jpeg = try PageRedaction.boxedJPEG(image, boxes: PageRedaction.boxes(page, marked: marked))
        }
        let pdfPage = SearchablePDF.Page(jpeg: jpeg, width: image.width, height: image.height, dpi: 300,
                                         lines: PageRedaction.redactedLines(page, marked: marked))
        return (jpeg, pdfPage, marked.count)
    }
}
