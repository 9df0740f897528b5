@testable import ArkivatorImaging
internal import CLeptonica
import TestSupport
import Testing

/// The page's resolution from its size, its file and the height of its letters.
@Suite struct ResolutionTests {
    private func clean() throws -> Image {
        try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
    }

    @Test func lettersTellTheResolution() throws {
        let page = try clean()
        let size = try #require(try page.textSize())
        // The fixture is an A4 letter at 300 DPI; the letters tell it to within a quarter.
        #expect(size.dpi > 240 && size.dpi < 375, "x-height \(size.xHeight) px")
        let half = try #require(try page.scaled(by: 0.5).textSize())
        #expect(abs(half.xHeight * 2 - size.xHeight) <= 2)
    }

    @Test func aBlankPageHasNoTextSize() throws {
        let blank = try Image(gray: [UInt8](repeating: 250, count: 800 * 1100), width: 800, height: 1100)
        #expect(try blank.textSize() == nil)
    }

    @Test func theSizeWinsWhenTheLettersBearItOut() {
        #expect(PageCleaner.resolution(page: 300, recorded: nil, text: 360) == (300, "page"))
        #expect(PageCleaner.resolution(page: 150, recorded: 72, text: 170) == (150, "page"))
        #expect(PageCleaner.resolution(page: 300, recorded: nil, text: nil) == (300, "page"))
    }

    @Test func theFileOrTheLettersWinWhenTheSizeIsWrong() {
        // A strip cut from a 300 DPI page: as A4 it would be 137 DPI.
        #expect(PageCleaner.resolution(page: 137, recorded: 300, text: 290) == (300, "file"))
        #expect(PageCleaner.resolution(page: 137, recorded: 72, text: 290) == (290, "text"))
        #expect(PageCleaner.resolution(page: 137, recorded: nil, text: 290) == (290, "text"))
    }

    /// A strip cut from a 300 DPI scan (the top of a letter) is not scaled up as if it were a
    /// small A4 page.
    @Test func aStripOfAScanIsNotScaledUp() throws {
        let page = try clean()
        let strip = try page.cropped(x: 0, y: 0, width: page.width, height: 1400)
        let cleaned = try PageCleaner().clean(strip)
        // The PNG records 300 DPI, and its letters bear that out.
        #expect(cleaned.report.dpiSource == "file")
        #expect(cleaned.report.scale == 1)
        #expect(cleaned.gray.width == page.width)
    }

    /// The fixture's letters at `factor` of their size, on a white A4 sheet of `dpi`.
    private func sheet(lettersScaledBy factor: Double, dpi: Double) throws -> Image {
        let letters = try clean().scaled(by: factor)
        let width = Int(dpi * 210 / 25.4), height = Int(dpi * 297 / 25.4)
        return try Image.wrap(pixAddBorderGeneral(letters.pix, 0, Int32(max(0, width - letters.width)), 0,
                                                  Int32(max(0, height - letters.height)), 255), "pixAddBorderGeneral")
    }

    /// A page at about 200 DPI is brought to 250 DPI, not 300: Tesseract reads body text there as
    /// well as at 300 DPI, and 300 would give cleanup and OCR 44 % more pixels.
    @Test func aPageAt200DPIIsBroughtTo250() throws {
        let page = try sheet(lettersScaledBy: 2.0 / 3, dpi: 200)
        let cleaned = try PageCleaner().clean(page)
        #expect(abs(cleaned.report.estimatedDPI - 200) < 5)
        #expect(try #require(cleaned.report.textDPI) >= 175)
        #expect(abs(cleaned.report.scale - 1.25) < 0.02)
        #expect(abs(cleaned.gray.width - page.width * 5 / 4) < 5)
    }

    /// A page at about 245 DPI or more is read at its own resolution.
    @Test func aPageNear250DPIIsNotEnlarged() throws {
        let page = try sheet(lettersScaledBy: 0.83, dpi: 249)
        let cleaned = try PageCleaner().clean(page)
        #expect(cleaned.report.scale == 1)
        #expect(cleaned.gray.width == page.width)
    }

    /// Letters smaller than body text at 175 DPI are enlarged to about 300 DPI even on a sheet
    /// whose size says 200 DPI (small print, or a letter set in a small face).
    @Test func smallLettersOnA200DPIPageAreEnlarged() throws {
        let page = try sheet(lettersScaledBy: 0.48, dpi: 200)
        let cleaned = try PageCleaner().clean(page)
        #expect(abs(cleaned.report.estimatedDPI - 200) < 5)
        #expect(try #require(cleaned.report.textDPI) < 175)
        #expect(abs(cleaned.report.scale - 1.5) < 0.05)
    }
}
