import ArkivatorCore
import ArkivatorImaging
import TestSupport
import Testing

/// GIF and BMP pages: measured from their headers before any pixel is decoded, a GIF's first frame
/// as the page, unusual bitmaps refused by name.
@Suite struct GIFAndBMPTests {
    /// A gray page of `width × height` with a dark bar, as a GIF Leptonica writes.
    private func gif(width: Int, height: Int) throws -> [UInt8] {
        var gray = [UInt8](repeating: 240, count: width * height)
        for x in 0..<width { gray[(height / 2) * width + x] = 20 }
        return try Image(gray: gray, width: width, height: height).gifData()
    }

    /// Where the image block starts and the trailer sits in a one-frame GIF.
    private func frame(_ gif: [UInt8]) -> Range<Int> {
        var position = 13 + (gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0)
        while gif[position] == 0x21 {
            position += 2
            while gif[position] != 0 { position += 1 + Int(gif[position]) }
            position += 1
        }
        return position..<(gif.count - 1)
    }

    @Test func anAnimatedGIFIsReadAsItsFirstFrame() throws {
        let first = try gif(width: 64, height: 48), second = try gif(width: 100, height: 20)
        let animated = Array(first.dropLast()) + Array(second[frame(second)]) + [0x3B]
        let pages = try EncodedPages.inspect(animated)
        #expect(pages.count == 1 && pages.sizes[0].width == 64 && pages.sizes[0].height == 48)
        let image = try pages.decode(page: 0)
        #expect(image.width == 64 && image.height == 48)
    }

    @Test func aGIFTooLargeIsRefusedFromItsHeader() throws {
        // One frame that says it is 60,000 × 60,000 pixels, with hardly any data.
        let bomb = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
            + [0x2C, 0, 0, 0, 0, 0x60, 0xEA, 0x60, 0xEA, 0] + [2, 2, 0x4C, 0x01, 0] + [0x3B]
        #expect(throws: InputError.tooLarge(width: 60_000, height: 60_000, limit: Image.defaultPixelBudget)) {
            try EncodedPages.inspect(bomb)
        }
        // Cut off inside its first frame.
        let whole = try gif(width: 64, height: 48)
        #expect(throws: InputError.truncated) { try EncodedPages.inspect(Array(whole.prefix(frame(whole).lowerBound + 14))) }
    }

    @Test func bitmapsOfEveryDepthLeptonicaWritesAreRead() throws {
        let gray = try Image(gray: [UInt8](repeating: 200, count: 50 * 30), width: 50, height: 30)
        for colour in [false, true] {
            var bytes = try gray.bmpData(colour: colour)
            bytes += [0, 0]  // padding some writers leave after the pixels
            let pages = try EncodedPages.inspect(bytes)
            #expect(pages.sizes[0].width == 50 && pages.sizes[0].height == 30)
            #expect(try pages.decode(page: 0).width == 50)
        }
    }

    @Test func aCompressedOrCutOffBitmapIsRefusedByName() throws {
        var rle = try Image(gray: [UInt8](repeating: 200, count: 50 * 30), width: 50, height: 30).bmpData()
        rle[30] = 1
        do {
            _ = try EncodedPages.inspect(rle)
            Issue.record("a run-length bitmap was accepted")
        } catch {
            #expect(error.errorCode == "unsupportedFormat" && error.userMessage.english.contains("BMP (RLE8)"))
        }
        let whole = try Image(gray: [UInt8](repeating: 200, count: 50 * 30), width: 50, height: 30).bmpData()
        #expect(throws: InputError.truncated) { try EncodedPages.inspect(Array(whole.dropLast(100))) }
    }
}
