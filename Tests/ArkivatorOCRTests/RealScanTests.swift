@testable import ArkivatorImaging
import ArkivatorOCR
import Foundation
import TestSupport
import Testing

/// The ways cleanup and reading order went wrong on real scans, each on a page that showed it
/// (made by `scripts/fixtures/make_realworld.py --test-fixtures`, with its exact text beside it).
@Suite(.serialized) struct RealScanTests {
    private func page(_ name: String) throws -> Image {
        try #require(try Image.decodePages(Fixtures.bytes("realworld/\(name).jpg")).first)
    }

    private func read(_ name: String) throws -> (cleaned: CleanedPage, text: String, cer: Double) {
        let cleaned = try PageCleaner().clean(try page(name))
        let text = try TesseractEngine(language: "nor").recognize(cleaned.text).text
        let truth = try Fixtures.text("realworld/\(name).txt")
        return (cleaned, text, characterErrorRate(truth: truth, predicted: text))
    }

    /// A flatbed scan with no background around the page, a stained band across its top and the
    /// scanner's edge on three sides. Edges alone make a "sheet" of it whose top lies below the
    /// stain, and cropping to it cut away the letterhead; with no background outside the edges
    /// there is no sheet, and the whole page is read.
    @Test func aFlatbedScanIsNotCroppedAsAPhoto() throws {
        let image = try page("flatbed-stained-top")
        let analysis = try image.grayscale().analysisCopy(longSide: 600)
        let bytes = try analysis.image.grayBytes()
        var edgesOnly = SheetDetector()
        edgesOnly.backgroundSides = 0
        let wrong = try #require(edgesOnly.detect(gray: bytes, width: analysis.image.width, height: analysis.image.height))
        #expect(wrong.topLeft.y > 0.05 * Double(analysis.image.height), "the page that showed it")
        #expect(SheetDetector().detect(gray: bytes, width: analysis.image.width, height: analysis.image.height) == nil)

        let result = try read("flatbed-stained-top")
        #expect(result.cleaned.report.sheet == nil)
        #expect(result.text.hasPrefix("BJERKELY SYKEHUS"), "\(result.text.prefix(80))")
        #expect(result.cer < 0.05, "CER \(result.cer)")
    }

    /// Typewritten lines justified with extra spaces, where the wide spaces of three lines line
    /// up: they were split as two columns and read left halves first. They are read whole.
    @Test func justifiedTypewriterLinesAreReadWhole() throws {
        let result = try read("justified-typewriter")
        #expect(result.text.contains("begynnelsen av januar"), "\(result.text)")
        #expect(result.text.contains("venstre ben"))
        #expect(result.cer < 0.05, "CER \(result.cer)")
    }

    /// The top part of a letter scanned at 300 DPI, with no resolution in the file: taken as A4 it
    /// is a 173 DPI page, and was scaled up by 1.7. Its letters show it is 300 DPI.
    @Test func aStripOfAScanKeepsItsResolution() throws {
        let image = try page("strip-of-a-scan")
        #expect(PageCleaner.dpi(forPageWidth: Double(image.width), height: Double(image.height)) < 180)
        let result = try read("strip-of-a-scan")
        #expect(result.cleaned.report.dpiSource == "text")
        #expect(result.cleaned.report.scale == 1)
        #expect(result.cleaned.report.estimatedDPI > 250 && result.cleaned.report.estimatedDPI < 360)
        #expect(result.cer < 0.05, "CER \(result.cer)")
    }

    /// A colour scan with a violet "MOTTATT" stamp over the date line, a pen signature and a tick
    /// in the margin. Read with its marks, the stamp's letters are read as text and cut the date
    /// line and the paragraphs into blocks; the copy OCR reads leaves the marks out, and the page
    /// people look at keeps them.
    @Test func colouredMarksAreLeftOutOfTheReading() throws {
        let cleaned = try PageCleaner().clean(try page("stamp-over-the-date"))
        let marks = try #require(cleaned.report.colouredMarks)
        #expect(marks >= 3, "stamp, signature and tick")
        let truth = try Fixtures.text("realworld/stamp-over-the-date.txt")
        let engine = try TesseractEngine(language: "nor")
        let withMarks = try engine.recognize(cleaned.gray).text
        let text = try engine.recognize(cleaned.text).text
        let cer = characterErrorRate(truth: truth, predicted: text)
        #expect(cer < 0.02, "CER \(cer)")
        #expect(characterErrorRate(truth: truth, predicted: withMarks) > cer + 0.02, "the page that showed it")
        #expect(!text.uppercased().contains("MOTTATT"))
        #expect(text.contains("Lysaker, 30. april 2008") || text.contains("30. april 2008"), "\(text.prefix(400))")
        // The archived page keeps the marks: it has more ink than the copy OCR read.
        func ink(_ image: Image) throws -> Int { try image.grayBytes().reduce(0) { $0 + ($1 < 128 ? 1 : 0) } }
        #expect(try ink(cleaned.gray) > ink(cleaned.text) + 2000)
    }

    /// Typewritten text in faded ink on yellowed, foxed paper. Read as it came, the letterhead
    /// and the address are lost. Evening the light took every pixel brighter than black for
    /// paper, the faint letters too, and evened them away: the cleaned reading lost the same
    /// lines. The paper is now what is left when the page is closed over its letters.
    @Test func fadedTypewritingOnYellowedPaperKeepsEveryLine() throws {
        let name = "faint-typewriter-on-yellowed-paper"
        let result = try read(name)
        #expect(result.text.contains("TRYGDEKASSE"), "\(result.text.prefix(120))")
        #expect(result.text.contains("Einar Lund") && result.text.contains("Tøyengata 31"), "\(result.text.prefix(160))")
        #expect(result.cer < 0.04, "CER \(result.cer)")
        let asItCame = try TesseractEngine(language: "nor").recognize(try page(name).grayscale()).text
        let truth = try Fixtures.text("realworld/\(name).txt")
        #expect(characterErrorRate(truth: truth, predicted: asItCame) > result.cer + 0.05, "the page that showed it")
    }
}
