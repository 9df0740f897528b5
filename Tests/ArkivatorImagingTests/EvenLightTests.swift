@testable import ArkivatorImaging
internal import CLeptonica
import TestSupport
import Testing

/// Evening the light divides each pixel by the paper's brightness and stretches the result in one
/// pass written in Swift; it must give the very pixels of Leptonica's two passes
/// (`pixBackgroundNormMorph`, then `pixGammaTRC`), or OCR would read pages differently.
@Suite struct EvenLightTests {
    /// Paper darkening to one side, a shadow band, and rows of dark and faint strokes.
    static func page(width: Int, height: Int) throws -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var paper = 215 - 60 * x / max(1, width) - (y > height / 2 && y < height * 3 / 4 ? 70 : 0)
                if (y / 9) % 3 == 0, (x / 4) % 3 != 2 { paper = (x / 40) % 2 == 0 ? 30 : paper - 45 }
                bytes[y * width + x] = UInt8(max(0, min(255, paper)))
            }
        }
        return try Image(gray: bytes, width: width, height: height)
    }

    static func leptonicaEvened(_ image: Image) throws -> Image {
        let normalised = try Image.wrap(pixBackgroundNormMorph(image.pix, nil, 4, 11, 200), "pixBackgroundNormMorph")
        return try Image.wrap(pixGammaTRC(nil, normalised.pix, 1.0, 30, 190), "pixGammaTRC")
    }

    // Whole tiles, and sizes that leave a part tile at the right and the bottom.
    @Test(arguments: [(400, 300), (403, 297), (1001, 1414), (64, 66)])
    func theSamePixelsAsLeptonica(width: Int, height: Int) throws {
        let image = try Self.page(width: width, height: height)
        let ours = try image.evenedLight(), theirs = try Self.leptonicaEvened(image)
        #expect(ours.width == width && ours.height == height)
        let a = try ours.grayBytes(), b = try theirs.grayBytes()
        let differing = zip(a, b).filter { $0 != $1 }.count
        #expect(a.count == b.count && differing == 0, "\(differing) of \(a.count) pixels differ from Leptonica's")
    }

    /// The same on a photographed page from the fixtures.
    @Test func aPhotographedPageIsEvenedAsLeptonicaEvensIt() throws {
        let gray = try #require(try Image.decodePages(Fixtures.bytes("photo.jpg")).first).grayscale()
        let a = try gray.evenedLight().grayBytes(), b = try Self.leptonicaEvened(gray).grayBytes()
        #expect(a == b)
    }
}
