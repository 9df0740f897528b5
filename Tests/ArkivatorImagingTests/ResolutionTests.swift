@testable import ArkivatorImaging
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
}
