import ArkivatorImaging
import Testing

@Suite struct SheetDetectorTests {
    /// A synthetic photo: a bright sheet with a margin of smooth paper on a mid-gray textured table.
    private func photo(width: Int, height: Int, corners: [Point]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height)
        func inside(_ x: Double, _ y: Double) -> Bool {
            var sign = 0.0
            for i in 0..<4 {
                let a = corners[i], b = corners[(i + 1) % 4]
                let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
                if sign == 0 { sign = cross } else if cross * sign < 0 { return false }
            }
            return true
        }
        for y in 0..<height {
            for x in 0..<width {
                let texture = UInt8((x * 7 + y * 13) % 23)
                bytes[y * width + x] = inside(Double(x), Double(y)) ? 225 : 70 + texture
            }
        }
        return bytes
    }

    @Test func findsATiltedSheet() throws {
        let truth = [Point(x: 80, y: 60), Point(x: 420, y: 75), Point(x: 400, y: 560), Point(x: 65, y: 545)]
        let bytes = photo(width: 480, height: 600, corners: truth)
        let quad = try #require(SheetDetector().detect(gray: bytes, width: 480, height: 600))
        for (found, expected) in zip(quad.corners, truth) {
            #expect(abs(found.x - expected.x) < 4 && abs(found.y - expected.y) < 4, "\(found) vs \(expected)")
        }
    }

    @Test func findsNothingOnAPlainPage() {
        let bytes = [UInt8](repeating: 230, count: 400 * 560)
        #expect(SheetDetector().detect(gray: bytes, width: 400, height: 560) == nil)
    }

    @Test func quadHelpers() {
        let quad = Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 10, y: 0),
                        bottomRight: Point(x: 10, y: 20), bottomLeft: Point(x: 0, y: 20))
        #expect(quad.meanSize.width == 10 && quad.meanSize.height == 20)
        #expect(quad.scaled(by: 2).bottomRight == Point(x: 20, y: 40))
    }
}
