import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import ArkivatorOCR
import ArkivatorPipeline
import Foundation

extension Household {
    /// How a page is to be read again: corners, a turn, or the whole picture; what is not given
    /// stays as filing found it.
    public struct Recrop: Sendable, Equatable {
        /// x, y of the four corners (top-left, top-right, bottom-right, bottom-left) in the
        /// original's pixels; nil keeps the outline found.
        public var corners: [[Double]]?
        /// Quarter turns clockwise (0…3); nil keeps the turn applied.
        public var quarterTurns: Int?
        /// Use the whole picture (overrides `corners`).
        public var whole: Bool

        public init(corners: [[Double]]? = nil, quarterTurns: Int? = nil, whole: Bool = false) {
            self.corners = corners
            self.quarterTurns = quarterTurns
            self.whole = whole
        }
    }

    /// Where a page came from: the original kept for it, which page or frame of it, and the
    /// outline and turn stored for it (or the whole picture when none was stored).
    public struct PageOrigin: Sendable {
        public var document: LibraryDocument
        public var original: DocumentOriginal
        /// 1…
        public var originalPage: Int
        public var crop: PageCrop?
    }

    /// The original a page of a document came from, or why there is none to read again.
    public func pageOrigin(_ id: String, page: Int) throws -> PageOrigin {
        let document = try library.documents.document(id, revealNumbers: true)
        guard document.trashedAt == nil else { throw LibraryFailure.trashed(document.shortID) }
        guard let row = document.pages.first(where: { $0.number == page }) else {
            throw RecropFailure.noSuchPage(page, pages: max(document.pageCount, document.pages.count))
        }
        guard document.files.images.contains(where: { $0.page == page }) else { throw RecropFailure.textLayerPage }
        guard let number = row.original,
              let original = try library.documents.originals(of: document.sha256).first(where: { $0.number == number }) else {
            throw RecropFailure.noOriginal
        }
        return PageOrigin(document: document, original: original, originalPage: row.originalPage ?? 1, crop: row.crop)
    }

    /// Reads one page of a filed document again from the photo as taken, inside the corners and
    /// with the turn given (the sheet detector, the orientation check and the reading as it came
    /// are not asked), and puts the result in place in one crash-safe step
    /// (``DocumentStore/replacePage(_:programVersion:)``): the page's text, the fields classified
    /// again from the new text (fields corrected by hand are kept), the page image, the PDF, the
    /// `.docx`, the file names when the title changes, and the index.
    @discardableResult
    public func recrop(_ id: String, page: Int, _ change: Recrop, programVersion: String = ArkivatorVersion.current,
                       language: String = "nor") throws -> LibraryDocument {
        let origin = try pageOrigin(id, page: page)
        let document = origin.document
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: origin.original.url))
        } catch {
            throw RecropFailure.noOriginal
        }
        let encoded = try EncodedPages.inspect(bytes)
        guard (1...max(1, encoded.count)).contains(origin.originalPage) else { throw RecropFailure.noOriginal }
        let pixels = try encoded.decodePixels(page: origin.originalPage - 1)
        let (width, height) = (pixels.gray.width, pixels.gray.height)
        let stored = origin.crop.flatMap { $0.width == width && $0.height == height ? $0 : nil }
        let turns = change.quarterTurns ?? stored?.quarterTurns ?? 0
        var crop: PageCrop
        if change.whole {
            crop = .whole(width: width, height: height, quarterTurns: turns, source: .user)
        } else {
            crop = PageCrop(corners: change.corners ?? stored?.corners ?? PageCrop.whole(width: width, height: height).corners,
                            quarterTurns: turns, width: width, height: height, source: .user)
            if let problem = crop.problem { throw RecropFailure.badCorners(problem) }
            crop = crop.clamped
        }
        Leptonica.silence()
        let read = try readers.with(language) { try $0.read(pixels, encodeJPEG: true, crop: crop) }
        guard let jpeg = read.jpeg else { throw RecropFailure.noOriginal }

        var updated = try rereadDocument(document, page: page, ocr: read.ocr, crop: read.crop ?? crop,
                                         size: (read.cleaned.gray.width, read.cleaned.gray.height))
        updated.numberMarks = NumberMarks.rereading(document, into: updated, page: page, ocr: read.ocr)
        updated.files = document.files
        let pdf = try document.files.pdf.flatMap { file in
            try Self.searchablePDF(of: updated, old: file.url, page: page, jpeg: jpeg, ocr: read.ocr,
                                   size: (read.cleaned.gray.width, read.cleaned.gray.height))
        }
        let replaced = try library.documents.replacePage(PageRereading(page: page, document: updated, startedFrom: document.updatedAt,
                                                             jpeg: jpeg, pdf: pdf), programVersion: programVersion)
        // The first page changed: its thumbnail is made again.
        if page == 1 { _ = try? ThumbnailMaker.thumbnail(replaced.sha256, in: library, remake: true) }
        // The new text may state the appointment otherwise (unless a person corrected it by hand).
        try rereadAppointments(replaced.sha256)
        try rereadLabs(replaced.sha256, typedByPerson: false, dropBoxesOn: page)
        return replaced
    }

    /// The document with page `page`'s new reading: its text in place of the old page's, the
    /// low-confidence words moved along, the confidence, and the fields classified again from
    /// the new text (those corrected by hand kept).
    func rereadDocument(_ document: LibraryDocument, page: Int, ocr: OCRPage, crop: PageCrop,
                        size: (width: Int, height: Int)) throws -> LibraryDocument {
        var updated = document
        let separator = RecordAssembler.pageSeparator
        var texts = document.text.components(separatedBy: separator)
        let count = max(document.pageCount, document.pages.count, page)
        while texts.count < count { texts.append("") }
        let starts = texts.indices.map { index in
            texts[..<index].reduce(0) { $0 + $1.unicodeScalars.count + separator.unicodeScalars.count }
        }
        let oldLength = texts[page - 1].unicodeScalars.count
        let newLength = ocr.text.unicodeScalars.count
        let pageStart = starts[page - 1], pageEnd = pageStart + oldLength
        var low: [LibraryDocument.TextRange] = []
        for range in document.lowConfidence {
            if range.start + range.length <= pageStart {
                low.append(range)
            } else if range.start >= pageEnd {
                low.append(.init(start: range.start - oldLength + newLength, length: range.length))
            }
        }
        low += ocr.lowConfidenceWords().map { .init(start: pageStart + $0.start, length: $0.length) }
        updated.lowConfidence = low.sorted { $0.start < $1.start }
        texts[page - 1] = ocr.text
        updated.text = texts.joined(separator: separator)

        var pages = document.pages
        if let index = pages.firstIndex(where: { $0.number == page }) {
            pages[index].ocrConfidence = ocr.noText ? 0 : (ocr.meanConfidence * 1000).rounded() / 1000
            pages[index].width = size.width
            pages[index].height = size.height
            pages[index].crop = crop
        }
        updated.pages = pages
        // The document's confidence: the pages' own, weighted by the length of their text.
        let weights = texts.map { Double($0.unicodeScalars.count) }
        let total = zip(pages, weights).reduce(0.0) { $0 + ($1.0.ocrConfidence ?? 0) * $1.1 }
        let sum = weights.prefix(pages.count).reduce(0, +)
        updated.ocrConfidence = sum > 0 ? total / sum : nil

        guard !updated.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return updated }
        let scan = document.scanDate.flatMap(CalendarDate.init(iso:)) ?? CalendarDate.today() ?? .fallback
        let found = Classifier(family: try family()).classify(updated.text, scanDate: scan)
        var merged = Self.merged(found, into: updated, from: document, corrected: try library.documents.correctedFields(document.sha256))
        merged.markDoubtful(NumberDoubt.doubtfulNumbers(in: merged.text, lowConfidence: merged.lowConfidence.map { ($0.start, $0.length) },
                                                        rows: found.labs ?? []))
        return merged
    }

    /// The classification of the new text, with every field a person corrected by hand kept as
    /// it was (and the title following a corrected date or type).
    static func merged(_ found: Classification, into document: LibraryDocument, from old: LibraryDocument,
                       corrected: Set<String>) -> LibraryDocument {
        var updated = document
        if !corrected.contains("docType") { updated.docType = found.docType }
        if !corrected.contains("documentDate") { updated.documentDate = found.documentDate }
        if !corrected.contains("person") {
            updated.person = found.familyMember ?? found.person
            updated.familyMember = found.familyMember
        }
        if !corrected.contains("institution") { updated.institution = found.institution }
        if !corrected.contains("specialty") { updated.specialty = found.specialty }
        if !corrected.contains("keywords") { updated.keywords = found.keywords }
        if corrected.contains("title") {
            updated.title = DocumentTitle.redated(old.title, from: old.documentDate, to: updated.documentDate)
        } else {
            var title = found.title
            if corrected.contains("documentDate") {
                title = DocumentTitle.redated(title, from: found.documentDate, to: updated.documentDate)
            }
            if corrected.contains("docType") {
                title = DocumentTitle.retyped(title, date: updated.documentDate, from: found.docType.titleWord,
                                              to: updated.docType.titleWord)
            }
            updated.title = title
        }
        updated.needsReview = found.needsReview.filter { !corrected.contains($0) }
        updated.fieldConfidence = found.confidence
        return updated
    }

    /// The archive PDF made again with one page new: the other pages' images as archived, with
    /// the text laid over them as the old PDF holds it; nil when the old PDF cannot be read
    /// (it is then left as it is).
    static func searchablePDF(of document: LibraryDocument, old: URL, page: Int, jpeg: [UInt8], ocr: OCRPage,
                              size: (width: Int, height: Int)) throws -> [UInt8]? {
        guard let bytes = try? [UInt8](Data(contentsOf: old)), let layers = PDFTextLayer.pageLayers(ofPDF: bytes) else {
            return nil
        }
        var pages: [SearchablePDF.Page] = []
        for image in document.files.images {
            if image.page == page {
                pages.append(SearchablePDF.Page(jpeg: jpeg, width: size.width, height: size.height, dpi: 300,
                                                lines: ocr.lines.map { SearchablePDF.Line(text: $0.text, box: $0.box) }))
                continue
            }
            guard let archived = try? [UInt8](Data(contentsOf: image.url)),
                  let row = document.pages.first(where: { $0.number == image.page }) else { return nil }
            let layer = layers.indices.contains(image.page - 1) ? layers[image.page - 1] : nil
            let lines = (layer?.lines ?? []).map { words in
                SearchablePDF.Line(text: words.map(\.text).joined(separator: " "), box: Self.union(words.map(\.box)))
            }
            pages.append(SearchablePDF.Page(jpeg: archived, width: row.width, height: row.height, dpi: 300, lines: lines))
        }
        return SearchablePDF(title: Redaction.redact(document.title), pages: pages).data()
    }

    private static func union(_ boxes: [[Int]]) -> [Int] {
        let valid = boxes.filter { $0.count == 4 }
        guard let first = valid.first else { return [0, 0, 1, 1] }
        var (left, top, right, bottom) = (first[0], first[1], first[0] + first[2], first[1] + first[3])
        for b in valid.dropFirst() {
            left = min(left, b[0]); top = min(top, b[1])
            right = max(right, b[0] + b[2]); bottom = max(bottom, b[1] + b[3])
        }
        return [left, top, right - left, bottom - top]
    }
}

extension Household {
    /// The longest side of a page's photo as shown for moving its corners.
    public static let photoPreviewSide = 1600

    /// Page `page`'s photo as taken, as a JPEG of at most ``photoPreviewSide`` pixels a side, in
    /// colour where it has colour: the page as decoded (a phone photo turned upright by its EXIF
    /// orientation), so the stored corners, in its pixels, lie where they are drawn over it.
    /// Also for an original a browser cannot show itself (HEIC, TIFF, a PDF page).
    public func photoPreview(_ id: String, page: Int) throws -> (jpeg: [UInt8], width: Int, height: Int) {
        let origin = try pageOrigin(id, page: page)
        guard let bytes = try? [UInt8](Data(contentsOf: origin.original.url)) else { throw RecropFailure.noOriginal }
        let encoded = try EncodedPages.inspect(bytes)
        guard (1...max(1, encoded.count)).contains(origin.originalPage) else { throw RecropFailure.noOriginal }
        let pixels = try encoded.decodePixels(page: origin.originalPage - 1)
        let (width, height) = (pixels.gray.width, pixels.gray.height)
        let source = pixels.colour ?? pixels.gray
        let factor = min(1, Double(Self.photoPreviewSide) / Double(max(source.width, source.height)))
        let shown = factor < 1 ? try source.scaled(by: factor) : source
        return (try shown.jpegData(quality: 80), width, height)
    }
}
