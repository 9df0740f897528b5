import ArkivatorCore
import ArkivatorImaging
import ArkivatorOCR
import Foundation

/// One worker's tools: a page cleaner and a Tesseract engine of its own, made once and reused.
///
/// `@unchecked Sendable` because it wraps Tesseract handles (the engine, the orientation
/// detector made on first need) that are confined to one thread: the pipeline hands each reader
/// to one worker thread, which alone uses it.
package final class PageReader: @unchecked Sendable {
    package let engine: TesseractEngine
    package let cleaner: PageCleaner
    private var orientation: OrientationDetector?

    package init(language: String) throws {
        engine = try TesseractEngine(language: language)
        cleaner = PageCleaner()
    }

    package struct Result {
        package var cleaned: CleanedPage
        package var ocr: OCRPage
        package var cleanupSeconds: Double
        package var ocrSeconds: Double
        /// The cleaned page as JPEG, when the archive is written.
        package var jpeg: [UInt8]?
        package var writeSeconds: Double = 0
        /// Whether orientation detection (OSD) was asked: only when the first reading looks poor
        /// or the page lies in landscape.
        package var orientationChecked = false
        /// The sheet's outline in the page as decoded and the turn applied (see ``PageCrop``).
        package var crop: PageCrop?

        package var kept: ReadPage {
            ReadPage(report: cleaned.report, width: cleaned.gray.width, height: cleaned.gray.height, ocr: ocr,
                     cleanupSeconds: cleanupSeconds, ocrSeconds: ocrSeconds, jpeg: jpeg, writeSeconds: writeSeconds,
                     orientationChecked: orientationChecked, crop: crop)
        }
    }

    /// What a document keeps of a page until all its pages are read: no pixels but the archive
    /// JPEG, so a long document holds a few hundred kB per page, not the cleaned images.
    package struct ReadPage {
        package var report: CleanupReport
        package var width: Int
        package var height: Int
        package var ocr: OCRPage
        package var cleanupSeconds: Double
        package var ocrSeconds: Double
        package var jpeg: [UInt8]?
        package var writeSeconds: Double
        /// Whether orientation detection (OSD) was asked.
        package var orientationChecked: Bool
        /// The EXIF orientation the page was turned by before cleanup, if any.
        package var exifOrientation: Int?
        /// Whether the text is the PDF's own text layer, read without cleanup or OCR.
        package var fromTextLayer = false
        /// How many pictures of a page read from its text layer were read by OCR as well.
        package var picturesRead = 0
        /// The sheet's outline in the page as decoded and the turn applied; nil for a page read
        /// from a PDF's text layer.
        package var crop: PageCrop?
        /// Which of the document's files the page came from (1…), and which page or frame of it (1…).
        package var original: Int?
        package var originalPage: Int?
    }

    /// Reads a PDF page from its text layer, and by OCR the pictures in it that may hold text
    /// (``PDFTextLayer/pictures``); no cleanup. `rendered` is the page drawn at 300 DPI: the
    /// pictures are read from it, and it is kept as a gray JPEG when `keepsImage` (for an archive
    /// PDF made of page images). Without it the pictures are not read.
    package func read(_ layer: PDFTextLayer, size: (width: Int, height: Int), rendered: PagePixels?, keepsImage: Bool) throws -> ReadPage {
        var jpeg: [UInt8]?
        var writeSeconds = 0.0
        var ocr = OCRPage(textLayer: layer)
        var ocrSeconds = 0.0
        var picturesRead = 0
        // The page's gray copy serves both: the pictures are cut from it.
        let gray = rendered?.gray
        if let gray, !layer.pictures.isEmpty {
            let start = Date()
            let pictures = readPictures(layer.pictures, on: gray)
            if !pictures.isEmpty {
                ocr = OCRPage(textLayer: layer, pictures: pictures)
                picturesRead = pictures.count
            }
            ocrSeconds = Date().timeIntervalSince(start)
        }
        if let gray, keepsImage {
            let start = Date()
            jpeg = try gray.jpegData(quality: Self.jpegQuality)
            writeSeconds = Date().timeIntervalSince(start)
        }
        return ReadPage(report: .renderedPDFPage, width: size.width, height: size.height, ocr: ocr,
                        cleanupSeconds: 0, ocrSeconds: ocrSeconds, jpeg: jpeg, writeSeconds: writeSeconds,
                        orientationChecked: false, fromTextLayer: true, picturesRead: picturesRead)
    }

    /// JPEG quality of archived pages: a cleaned A4 page stays well under 2 MB.
    package static let jpegQuality = 80

    /// Reads a page and, for the archive, encodes the cleaned page as JPEG. With `crop` (corners
    /// and a turn set by hand) the sheet is not looked for, nor the orientation, nor the page read
    /// as it came: the quadrilateral is flattened to a rectangle and turned as told.
    package func read(_ image: PagePixels, encodeJPEG: Bool, crop: PageCrop? = nil) throws -> Result {
        var result = try crop.map { try read(image, crop: $0) } ?? read(image)
        if encodeJPEG {
            let start = Date()
            result.jpeg = try result.cleaned.gray.jpegData(quality: Self.jpegQuality)
            result.writeSeconds = Date().timeIntervalSince(start)
        }
        return result
    }

    /// Cleans and reads one page. When the first reading looks poor, or the page lies in landscape
    /// (letters are portrait), asks OSD whether the page is sideways or upside down, and keeps the
    /// better of the two readings.
    package func read(_ image: PagePixels) throws -> Result {
        let start = Date()
        var cleaned = try cleaner.clean(image)
        let cleanedAt = Date()
        var ocr = try engine.recognize(cleaned.text)
        let checkOrientation = Self.looksPoor(ocr) || cleaned.gray.width > cleaned.gray.height
        if checkOrientation {
            if orientation == nil { orientation = try? OrientationDetector() }
            if let osd = orientation?.uprightTurns(try cleaned.binary()), osd.quarterTurns != 0, osd.confidence >= 1 {
                let turned = try cleaned.rotated(quarterTurns: osd.quarterTurns)
                let second = try engine.recognize(turned.text)
                // Tesseract reads sideways lines too, but in the wrong order: trust OSD unless the
                // upright reading is clearly worse.
                if Self.score(second) >= 0.9 * Self.score(ocr) {
                    cleaned = turned
                    ocr = second
                }
            }
        }
        if let reason = Self.guardReason(cleaned.report, ocr, pixels: cleaned.gray.width * cleaned.gray.height) {
            // The guard, once the page is upright: read it as it came as well (turned the same
            // way), and keep the better reading.
            var asIs = try cleaner.asIs(image, report: cleaned.report)
            if cleaned.report.quarterTurns != 0 { asIs = try asIs.rotated(quarterTurns: cleaned.report.quarterTurns) }
            let second = try engine.recognize(asIs.text, invertedLines: true)
            let cleanedScore = Self.guardScore(ocr), asIsScore = Self.guardScore(second)
            let keepAsIs = Self.keepsAsIs(cleaned: ocr, asIs: second, cleanedScore: cleanedScore, asIsScore: asIsScore)
            var check = CleanupReport.GuardCheck(kept: keepAsIs ? "asIs" : "cleaned", reason: reason,
                                                 cleanedScore: cleanedScore.rounded(), asIsScore: asIsScore.rounded())
            var kept = keepAsIs ? second : ocr
            if Self.closeReadings(cleanedScore, asIsScore) {
                // Words the cleaned reading lacks altogether are taken from the page as it came
                // when both are the same picture (no sheet cut out of a photo).
                let combined = kept.combined(with: keepAsIs ? ocr : second, missingWords: !keepAsIs && cleaned.report.sheet == nil)
                kept = combined.page
                check.wordsFromOther = combined.taken
            }
            if keepAsIs {
                cleaned = asIs
            }
            ocr = kept
            cleaned.report.guardCheck = check
        }
        let done = Date()
        let (width, height) = (image.gray.width, image.gray.height)
        let crop = cleaned.report.sheet?.crop(width: width, height: height, quarterTurns: cleaned.report.quarterTurns, source: .found)
            ?? PageCrop.whole(width: width, height: height, quarterTurns: cleaned.report.quarterTurns)
        return Result(cleaned: cleaned, ocr: ocr,
                      cleanupSeconds: cleanedAt.timeIntervalSince(start),
                      ocrSeconds: done.timeIntervalSince(cleanedAt), orientationChecked: checkOrientation, crop: crop)
    }

    /// Cleans and reads one page inside the given outline, turned as given.
    private func read(_ image: PagePixels, crop: PageCrop) throws -> Result {
        let start = Date()
        guard let quad = Quad(crop), crop.problem == nil else { throw RecropFailure.badCorners(crop.problem) }
        var cleaned = try cleaner.clean(image, sheet: quad)
        if crop.quarterTurns != 0 { cleaned = try cleaned.rotated(quarterTurns: crop.quarterTurns) }
        let cleanedAt = Date()
        let ocr = try engine.recognize(cleaned.text)
        var kept = crop
        kept.source = .user
        return Result(cleaned: cleaned, ocr: ocr, cleanupSeconds: cleanedAt.timeIntervalSince(start),
                      ocrSeconds: Date().timeIntervalSince(cleanedAt), crop: kept)
    }

    private static func looksPoor(_ page: OCRPage) -> Bool {
        page.noText || page.meanConfidence < 0.6
    }

    private static func score(_ page: OCRPage) -> Double {
        page.noText ? 0 : page.meanConfidence * Double(page.words.count)
    }
}
