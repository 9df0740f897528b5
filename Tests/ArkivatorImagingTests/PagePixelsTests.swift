import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A large page held lean (gray at full size, colour at half size) gives cleanup the same gray
/// page as the usual decoding, whatever the format, and cleanup then lets the colour go.
@Suite struct PagePixelsTests {
    /// The test letter in colour (each gray level tinted, as yellowed paper), as `Image`.
    private func colourPage() throws -> Image {
        let gray = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
        return try gray.tinted()
    }

    @Test(arguments: ["png", "tiff", "bmp"])
    func aLargePageHeldLeanHasTheSameGrayPage(format: String) throws {
        let page = try colourPage()
        let bytes: [UInt8] = switch format {
        case "png": try page.pngData()
        case "tiff": try page.tiffData()
        default: try page.bmpData(colour: true)
        }
        let pages = try EncodedPages.inspect(bytes)
        let usual = try PagePixels(try pages.decode(page: 0))
        let lean = try pages.decodePixels(page: 0, largePage: 1)
        #expect(lean.colourScale == 0.5 && usual.colourScale == 1)
        #expect(try lean.gray.grayBytes() == usual.gray.grayBytes(), "\(format): another gray page")
        let colour = try #require(lean.colour)
        #expect(colour.width == page.width / 2 && colour.height == page.height / 2)

        let cleaned = try PageCleaner().clean(lean)
        #expect(lean.colour == nil, "the colour copy is let go once the marks are found")
        #expect(cleaned.gray.width > 0)
    }

    @Test func aLargeJPEGIsDecodedAsGrayAndHalfColour() throws {
        let pages = try EncodedPages.inspect(try colourPage().jpegData(quality: 90))
        let lean = try pages.decodePixels(page: 0, largePage: 1)
        #expect(lean.gray.depth == 8 && lean.gray.width == 2480 && lean.gray.height == 3508)
        #expect(lean.colour?.depth == 32 && lean.colour?.width == 1240)
    }
}
