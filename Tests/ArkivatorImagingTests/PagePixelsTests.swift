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

    /// WebP and HEIC pages are coded as luma and half-size chroma: a large one is made lean from
    /// those planes, its gray the luma (as a large JPEG's), close to the usual gray page.
    @Test(arguments: ["webp", "heic"])
    func aLargePageCodedAsPlanesIsMadeLeanFromThem(format: String) throws {
        let page = try colourPage()
        let bytes: [UInt8]
        if format == "webp" {
            bytes = try page.webpData(quality: 90)
        } else {
            bytes = try withTemporaryDirectory { folder in
                let png = folder.appendingPathComponent("side.png"), heic = folder.appendingPathComponent("side.heic")
                try Data(try page.pngData()).write(to: png)
                let encoder = Process()
                encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
                encoder.arguments = ["-q", "90", "-p", "preset=ultrafast", "-o", heic.path, png.path]
                encoder.standardOutput = FileHandle.nullDevice
                try encoder.run()
                encoder.waitUntilExit()
                return [UInt8](try Data(contentsOf: heic))
            }
        }
        let pages = try EncodedPages.inspect(bytes)
        let usual = try PagePixels(try pages.decode(page: 0)).gray.grayBytes()
        let lean = try pages.decodePixels(page: 0, largePage: 1)
        let gray = try lean.gray.grayBytes()
        #expect(gray.count == usual.count)
        let difference = zip(gray, usual).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, gray.count)) < 4, "\(format): mean gray difference")
        let colour = try #require(lean.colour)
        #expect(colour.width == page.width / 2 && colour.height == page.height / 2)
    }
}
