@testable import ArkivatorImaging
import Testing

/// Pen strokes (marks many x-heights tall) are told from typed letters and left out of the copy
/// OCR reads.
@Suite struct PenStrokeTests {
    /// A white page 600 × 400 with dark rectangles (x, y, width, height).
    private func page(_ marks: [(Int, Int, Int, Int)]) throws -> Image {
        let width = 600, height = 400
        var bytes = [UInt8](repeating: 255, count: width * height)
        for (x, y, w, h) in marks {
            for row in y..<(y + h) { for column in x..<(x + w) { bytes[row * width + column] = 0 } }
        }
        return try Image(gray: bytes, width: width, height: height).binarized()
    }

    @Test func aTallStrokeAndTheWritingBesideItAreMarkedLettersAreNot() throws {
        // Letters of x-height 10 (some with ascenders, 16 tall) in a row; a stroke 80 tall across
        // the page's middle and a dot of the same writing 2 pixels from it.
        let letters = (0..<12).map { (40 + 14 * $0, 100 + ($0 % 3 == 0 ? -6 : 0), 8, $0 % 3 == 0 ? 16 : 10) }
        let stroke = (300, 150, 4, 80), dot = (306, 160, 3, 3)
        let image = try page(letters + [stroke, dot])
        let mask = try #require(try image.penStrokeMask(xHeight: 10))
        let pixels = try mask.grayBytes()
        func marked(_ x: Int, _ y: Int) -> Bool { pixels[y * mask.width + x] != 255 }
        #expect(marked(301, 190), "the stroke")
        #expect(marked(307, 161), "the dot beside it")
        #expect(!letters.contains { marked($0.0 + 4, $0.1 + 5) }, "no letter")
    }

    @Test func aPageOfLettersOnlyHasNoStrokes() throws {
        let letters = (0..<20).map { (40 + 14 * $0, 100, 8, 10) }
        #expect(try page(letters).penStrokeMask(xHeight: 10) == nil)
        // A table's frame, over half the page wide and tall, is no stroke either.
        let frame = [(20, 20, 560, 3), (20, 377, 560, 3), (20, 20, 3, 360), (577, 20, 3, 360)]
        #expect(try page(letters + frame).penStrokeMask(xHeight: 10) == nil)
    }
}
