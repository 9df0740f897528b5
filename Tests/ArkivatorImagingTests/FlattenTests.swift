@testable import ArkivatorImaging
internal import CLeptonica
import Testing

/// Flattening a photographed sheet is written out in Swift for speed; it must give the very
/// pixels Leptonica's own projective transform gives, or OCR would read photos differently.
@Suite struct FlattenTests {
    /// A gray page with detail at every scale: a gradient, fine stripes and a few solid blocks,
    /// and white in its last column and row, as a photo's table top is never at the very edge:
    /// Leptonica interpolates the last row with the row past it, we with itself.
    static func page(width: Int, height: Int) throws -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let stripe = (x / 3 + y / 5) % 2 == 0 ? 40 : 0
                let block = (x / 97 + y / 61) % 5 == 0 ? -120 : 0
                let edge = x == width - 1 || y == height - 1
                bytes[y * width + x] = edge ? 255 : UInt8(max(0, min(255, 60 + (x * 7 + y * 3) % 150 + stripe + block)))
            }
        }
        return try Image(gray: bytes, width: width, height: height)
    }

    /// The same flattening by Leptonica's `pixProjectivePtaGray`, on a canvas grown to the result
    /// (and by a white row and column at least, which it reads past the last ones).
    static func leptonicaFlattened(_ image: Image, _ quad: Quad, width: Int, height: Int) throws -> Image {
        let grown = try Image.wrap(pixAddBorderGeneral(image.pix, 0, Int32(max(1, width - image.width)), 0,
                                                       Int32(max(1, height - image.height)), 255), "pixAddBorderGeneral")
        var destination: UnsafeMutablePointer<PTA>? = ptaCreate(4)
        var origin: UnsafeMutablePointer<PTA>? = ptaCreate(4)
        defer { ptaDestroy(&destination); ptaDestroy(&origin) }
        let w = Float(width - 1), h = Float(height - 1)
        for (x, y) in [(0, 0), (w, 0), (w, h), (0, h)] as [(Float, Float)] { ptaAddPt(destination, x, y) }
        for p in quad.corners { ptaAddPt(origin, Float(p.x), Float(p.y)) }
        return try Image.wrap(pixProjectivePtaGray(grown.pix, destination, origin, 255), "pixProjectivePtaGray")
            .cropped(x: 0, y: 0, width: width, height: height)
    }

    @Test(arguments: [
        // A photo's sheet, tilted and in perspective, enlarged on the way (as a phone photo at 160 DPI is).
        (Quad(topLeft: Point(x: 41.3, y: 62.8), topRight: Point(x: 575.2, y: 40.1),
              bottomRight: Point(x: 598.6, y: 790.4), bottomLeft: Point(x: 20.7, y: 812.9)), 1000, 1400),
        // A scanned page's sheet found a little inside it, shrunk.
        (Quad(topLeft: Point(x: 3, y: 1.5), topRight: Point(x: 610, y: 9),
              bottomRight: Point(x: 617.5, y: 836), bottomLeft: Point(x: 0.5, y: 830)), 400, 560),
    ])
    func theSamePixelsAsLeptonica(quad: Quad, width: Int, height: Int) throws {
        let image = try Self.page(width: 620, height: 840)
        let ours = try image.flattened(quad, width: width, height: height)
        let theirs = try Self.leptonicaFlattened(image, quad, width: width, height: height)
        #expect(ours.width == width && ours.height == height)
        let a = try ours.grayBytes(), b = try theirs.grayBytes()
        #expect(a.count == b.count)
        let differing = zip(a, b).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(a.count) pixels differ from Leptonica's")
    }

    /// Corners past the image's edges bring in white. (Leptonica reads a pixel past the last
    /// row and column there; this is where the two may differ.)
    @Test func cornersPastTheEdgesBringInWhite() throws {
        let image = try Self.page(width: 620, height: 840)
        let quad = Quad(topLeft: Point(x: -30, y: -12), topRight: Point(x: 650, y: 5),
                        bottomRight: Point(x: 630, y: 860), bottomLeft: Point(x: 3, y: 845))
        let flat = try image.flattened(quad, width: 400, height: 560)
        let bytes = try flat.grayBytes()
        for (x, y) in [(0, 0), (1, 1), (399, 559), (398, 558)] { #expect(bytes[y * 400 + x] == 255, "(\(x), \(y))") }
        #expect(bytes.contains { $0 < 128 })
    }

    @Test func aSheetWithNoAreaIsWhiteOrRefusedNotACrash() throws {
        // All four corners on one point: there is no sheet to flatten.
        let image = try Self.page(width: 64, height: 64)
        let corner = Point(x: 10, y: 10)
        do {
            let flat = try image.flattened(Quad(topLeft: corner, topRight: corner, bottomRight: corner, bottomLeft: corner),
                                           width: 30, height: 40)
            #expect(flat.width == 30 && flat.height == 40)
        } catch {
            #expect(error.operation == "getProjectiveXformCoeffs")
        }
    }
}
