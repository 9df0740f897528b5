/// A point in image pixel coordinates.
public struct Point: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// The four corners of a sheet: top-left, top-right, bottom-right, bottom-left.
public struct Quad: Sendable, Equatable, Codable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The quad with every coordinate multiplied by `factor`.
    public func scaled(by factor: Double) -> Quad {
        func s(_ p: Point) -> Point { Point(x: p.x * factor, y: p.y * factor) }
        return Quad(topLeft: s(topLeft), topRight: s(topRight), bottomRight: s(bottomRight), bottomLeft: s(bottomLeft))
    }

    /// True when the corners are a `width × height` picture's own (within half a pixel).
    public func isWhole(width: Int, height: Int) -> Bool {
        let w = Double(width), h = Double(height)
        let expected = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)]
        return zip(corners, expected).allSatisfy { abs($0.x - $1.x) < 0.5 && abs($0.y - $1.y) < 0.5 }
    }

    /// Mean lengths of the top and bottom edges, and of the left and right edges.
    public var meanSize: (width: Double, height: Double) {
        func d(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        return ((d(topLeft, topRight) + d(bottomLeft, bottomRight)) / 2,
                (d(topLeft, bottomLeft) + d(topRight, bottomRight)) / 2)
    }
}

/// Finds a sheet of paper lying on a darker background (a phone photo) in a small gray image.
///
/// From each image border it walks inward along every other row or column until the first sharp
/// step up in brightness that is followed by a smooth, bright stretch: paper margin, not wood
/// grain or text. A robust line fit through those points gives each edge; the four edges meet in
/// the corners. A flatbed scan has no such steps, and then there is no sheet to find.
public struct SheetDetector: Sendable {
    /// Smallest brightness step (0–255) that can be a paper edge.
    public var minimumStep: Double = 20
    /// How far in from each border an edge may lie, as a share of the image size.
    public var searchDepth: Double = 0.45
    /// Share of scan lines that must agree on an edge.
    public var minimumSupport: Double = 0.3
    /// How wide the background outside an edge must be to count, as a share of the image's longer side.
    public var minimumBackground: Double = 0.02
    /// How many sides must have background outside them.
    public var backgroundSides = 2

    public init() {}

    /// The sheet in `gray` (`width × height` bytes), or nil when no sheet edge is found.
    public func detect(gray: [UInt8], width: Int, height: Int) -> Quad? {
        guard width >= 40, height >= 40, gray.count == width * height else { return nil }
        let raster = Raster(bytes: gray, width: width, height: height)
        // Each side is found by scanning one view of the raster, turned so the side is on the left.
        guard let left = edge(in: raster.view(.left)),
              let right = edge(in: raster.view(.right)),
              let top = edge(in: raster.view(.top)),
              let bottom = edge(in: raster.view(.bottom)) else { return nil }
        let w = Double(width - 1), h = Double(height - 1)
        // Lines as functions: x = f(y) for the left and right edges, y = f(x) for top and bottom.
        let l = { (y: Double) in left.a * y + left.b }
        let r = { (y: Double) in w - (right.a * y + right.b) }
        let t = { (x: Double) in top.a * x + top.b }
        let b = { (x: Double) in h - (bottom.a * x + bottom.b) }
        func meet(_ fx: (Double) -> Double, _ fy: (Double) -> Double) -> Point {
            var x = w / 2, y = h / 2
            for _ in 0..<30 { y = fy(x); x = fx(y) }
            return Point(x: x, y: y)
        }
        let quad = Quad(topLeft: meet(l, t), topRight: meet(r, t), bottomRight: meet(r, b), bottomLeft: meet(l, b))
        guard plausible(quad, width: Double(width), height: Double(height)),
              sidesWithBackground(quad, raster) >= backgroundSides else { return nil }
        return quad
    }

    /// How many of the quad's sides have background outside them: along most of the side, a band
    /// at least `minimumBackground` wide between the edge and the image border whose brightness
    /// (at a quarter, half and three quarters of the way out) is clearly below the paper's just
    /// inside the edge.
    func sidesWithBackground(_ quad: Quad, _ raster: Raster) -> Int {
        let c = quad.corners
        let centre = Point(x: c.map(\.x).reduce(0, +) / 4, y: c.map(\.y).reduce(0, +) / 4)
        let w = Double(raster.width - 1), h = Double(raster.height - 1)
        let band = minimumBackground * Double(max(raster.width, raster.height))
        func value(_ x: Double, _ y: Double) -> Double {
            let xi = min(max(Int(x.rounded()), 0), raster.width - 1), yi = min(max(Int(y.rounded()), 0), raster.height - 1)
            return Double(raster.bytes[yi * raster.width + xi])
        }
        var sides = 0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard length > 0 else { continue }
            // The unit normal pointing into the sheet.
            var n = Point(x: -(b.y - a.y) / length, y: (b.x - a.x) / length)
            if (centre.x - a.x) * n.x + (centre.y - a.y) * n.y < 0 { n = Point(x: -n.x, y: -n.y) }
            var background = 0
            let samples = 12
            for k in 0..<samples {
                let t = 0.15 + 0.7 * Double(k) / Double(samples - 1)
                let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                // Distance from the edge to the image border, going outwards.
                var out = Double.infinity
                if n.x > 1e-6 { out = min(out, p.x / n.x) } else if n.x < -1e-6 { out = min(out, (p.x - w) / n.x) }
                if n.y > 1e-6 { out = min(out, p.y / n.y) } else if n.y < -1e-6 { out = min(out, (p.y - h) / n.y) }
                guard out.isFinite, out >= band else { continue }
                let outside = [0.25, 0.5, 0.75].map { value(p.x - n.x * out * $0, p.y - n.y * out * $0) }.reduce(0, +) / 3
                let inside = [4.0, 7, 10].map { value(p.x + n.x * $0, p.y + n.y * $0) }.reduce(0, +) / 3
                if outside <= inside - minimumStep { background += 1 }
            }
            if background * 10 >= samples * 6 { sides += 1 }
        }
        return sides
    }

    /// A sheet must be a convex, roughly rectangular shape covering a fair part of the photo.
    private func plausible(_ q: Quad, width: Double, height: Double) -> Bool {
        let c = q.corners
        for p in c where p.x < -0.02 * width || p.y < -0.02 * height || p.x > 1.02 * width || p.y > 1.02 * height {
            return false
        }
        var area = 0.0
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4], n = c[(i + 2) % 4]
            area += a.x * b.y - b.x * a.y
            let cross = (b.x - a.x) * (n.y - b.y) - (b.y - a.y) * (n.x - b.x)
            if sign == 0 { sign = cross > 0 ? 1 : -1 } else if cross * sign <= 0 { return false }
        }
        return abs(area) / 2 > 0.2 * width * height
    }

    private struct Line { var a: Double; var b: Double }

    /// Finds the left edge of a view: for each scan line the first plausible step, then a line fit.
    private func edge(in view: Raster.View) -> Line? {
        var points: [(u: Double, v: Double)] = []
        let rows = view.rows
        let limit = Int(Double(view.columns) * searchDepth)
        // The smooth paper after an edge must be longer than the squares of a checked table
        // cloth (about 2 % of the photo), and shorter than a letter's margin.
        let run = max(8, view.columns / 35)
        var row = Int(Double(rows) * 0.05)
        while row < Int(Double(rows) * 0.95) {
            var x = 2
            while x < limit {
                let step = view[row, x + 2] - view[row, x - 2]
                if step > minimumStep, isPaperStretch(view, row: row, from: x + 2, count: run,
                                                      above: view[row, max(0, x - 4)]) {
                    points.append((Double(row), Double(x)))
                    break
                }
                x += 1
            }
            row += 2
        }
        let needed = Int(Double(rows) / 2 * minimumSupport)
        return fit(points, needed: needed)
    }

    /// Paper just inside an edge is bright compared to what lies outside, and smooth.
    private func isPaperStretch(_ view: Raster.View, row: Int, from start: Int, count: Int, above outside: Double) -> Bool {
        guard start + count < view.columns else { return false }
        var minimum = 255.0, sum = 0.0, sumSquares = 0.0
        for x in start..<(start + count) {
            let value = view[row, x]
            minimum = min(minimum, value)
            sum += value
            sumSquares += value * value
        }
        let mean = sum / Double(count)
        let deviation = max(0, sumSquares / Double(count) - mean * mean).squareRoot()
        return minimum > outside + minimumStep * 0.8 && deviation < 6
    }

    /// RANSAC over pairs of points (deterministic sampling), then least squares over the inliers.
    private func fit(_ points: [(u: Double, v: Double)], needed: Int) -> Line? {
        guard points.count >= max(needed, 10) else { return nil }
        var generator = SplitMix(seed: 0x5EED)
        var best: [Int] = []
        for _ in 0..<200 {
            let i = Int(generator.next() % UInt64(points.count))
            let j = Int(generator.next() % UInt64(points.count))
            guard points[i].u != points[j].u else { continue }
            let a = (points[j].v - points[i].v) / (points[j].u - points[i].u)
            let b = points[i].v - a * points[i].u
            let inliers = points.indices.filter { abs(points[$0].v - (a * points[$0].u + b)) < 2 }
            if inliers.count > best.count { best = inliers }
        }
        guard best.count >= needed else { return nil }
        let n = Double(best.count)
        let su = best.reduce(0.0) { $0 + points[$1].u }, sv = best.reduce(0.0) { $0 + points[$1].v }
        let suu = best.reduce(0.0) { $0 + points[$1].u * points[$1].u }
        let suv = best.reduce(0.0) { $0 + points[$1].u * points[$1].v }
        let denominator = n * suu - su * su
        guard abs(denominator) > 1e-9 else { return nil }
        let a = (n * suv - su * sv) / denominator
        return Line(a: a, b: (sv - a * su) / n)
    }
}

/// A gray raster with views that turn it so that any side can be scanned as "the left".
struct Raster {
    let bytes: [UInt8]
    let width: Int
    let height: Int

    enum Side { case left, right, top, bottom }

    struct View {
        let raster: Raster
        let side: Side
        var rows: Int { side == .left || side == .right ? raster.height : raster.width }
        var columns: Int { side == .left || side == .right ? raster.width : raster.height }

        subscript(row: Int, column: Int) -> Double {
            let (x, y): (Int, Int)
            switch side {
            case .left: (x, y) = (column, row)
            case .right: (x, y) = (raster.width - 1 - column, row)
            case .top: (x, y) = (row, column)
            case .bottom: (x, y) = (row, raster.height - 1 - column)
            }
            return Double(raster.bytes[y * raster.width + x])
        }
    }

    func view(_ side: Side) -> View { View(raster: self, side: side) }
}

/// A small fixed-seed generator, so that detection is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
