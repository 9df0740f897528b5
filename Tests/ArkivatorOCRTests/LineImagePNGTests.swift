import ArkivatorImaging
import CArkivatorPNG
import Testing

/// Tesseract makes a PNG in memory of every line it reads and reads it back at once. While a page
/// is read, such PNGs are stored rather than compressed: the same pixels in less time. Every other
/// PNG (a black and white page kept in the archive) is compressed as before.
@Suite struct LineImagePNGTests {
    /// Stripes of gray: a picture that compresses to a small fraction of its pixels.
    static func stripes() throws -> (image: Image, bytes: [UInt8]) {
        let width = 400, height = 300
        let bytes = (0..<(width * height)).map { UInt8(($0 % width) / 40 * 25) }
        return (try Image(gray: bytes, width: width, height: height), bytes)
    }

    @Test func pngsWrittenWhileReadingAreStoredAndHoldTheSamePixels() throws {
        let (image, bytes) = try Self.stripes()
        let usual = try image.pngData()
        arkivator_png_quick_begin()
        let quick = try image.pngData()
        arkivator_png_quick_end()
        let after = try image.pngData()
        // Stored: at least one byte a pixel; compressed: far less.
        #expect(quick.count >= bytes.count)
        #expect(usual.count * 10 < bytes.count)
        #expect(after == usual)
        let back = try #require(try Image.decodePages(quick).first)
        #expect(try back.grayBytes() == bytes)
    }

    /// Calls nest, and an end without a beginning changes nothing.
    @Test func quickWritesNestAndEndCleanly() throws {
        let (image, _) = try Self.stripes()
        let usual = try image.pngData()
        arkivator_png_quick_end()
        #expect(try image.pngData() == usual)
        arkivator_png_quick_begin()
        arkivator_png_quick_begin()
        arkivator_png_quick_end()
        #expect(try image.pngData().count > usual.count)
        arkivator_png_quick_end()
        #expect(try image.pngData() == usual)
    }
}
