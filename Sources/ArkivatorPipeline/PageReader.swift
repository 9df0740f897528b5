import ArkivatorImaging
import ArkivatorOCR
import Foundation

/// One worker's tools: a page cleaner and a Tesseract engine of its own, made once and reused.
/// Used by one thread at a time.
final class PageReader: @unchecked Sendable {
    let engine: TesseractEngine
    let cleaner: PageCleaner
    private var orientation: OrientationDetector?

    init(language: String) throws {
        engine = try TesseractEngine(language: language)
        cleaner = PageCleaner()
    }

    struct Result {
        var cleaned: CleanedPage
        var ocr: OCRPage
        var cleanupSeconds: Double
        var ocrSeconds: Double
    }

    /// Cleans and reads one page. When the first reading looks poor, or the page lies in landscape
    /// (letters are portrait), asks OSD whether the page is sideways or upside down, and keeps the
    /// better of the two readings.
    func read(_ image: Image) throws -> Result {
        let start = Date()
        var cleaned = try cleaner.clean(image)
        let cleaned_at = Date()
        var ocr = try engine.recognize(cleaned.gray)
        if Self.looksPoor(ocr) || cleaned.gray.width > cleaned.gray.height {
            if orientation == nil { orientation = try? OrientationDetector() }
            if let osd = orientation?.uprightTurns(cleaned.binary), osd.quarterTurns != 0, osd.confidence >= 1 {
                let turned = try cleaned.rotated(quarterTurns: osd.quarterTurns)
                let second = try engine.recognize(turned.gray)
                // Tesseract reads sideways lines too, but in the wrong order: trust OSD unless the
                // upright reading is clearly worse.
                if Self.score(second) >= 0.9 * Self.score(ocr) {
                    cleaned = turned
                    ocr = second
                }
            }
        }
        let done = Date()
        return Result(cleaned: cleaned, ocr: ocr,
                      cleanupSeconds: cleaned_at.timeIntervalSince(start),
                      ocrSeconds: done.timeIntervalSince(cleaned_at))
    }

    private static func looksPoor(_ page: OCRPage) -> Bool {
        page.noText || page.meanConfidence < 0.6
    }

    private static func score(_ page: OCRPage) -> Double {
        page.noText ? 0 : page.meanConfidence * Double(page.words.count)
    }
}
