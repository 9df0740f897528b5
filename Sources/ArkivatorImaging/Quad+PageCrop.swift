import ArkivatorCore

extension Quad {
    /// The corners of a page's outline (``PageCrop``) as a quadrilateral.
    public init?(_ crop: PageCrop) {
        guard crop.corners.count == 4, crop.corners.allSatisfy({ $0.count == 2 }) else { return nil }
        let p = crop.corners.map { Point(x: $0[0], y: $0[1]) }
        self.init(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3])
    }

    /// The quadrilateral as a page's outline in a `width × height` picture.
    public func crop(width: Int, height: Int, quarterTurns: Int, source: PageCrop.Source) -> PageCrop {
        PageCrop(corners: corners.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] },
                 quarterTurns: quarterTurns, width: width, height: height, source: source)
    }
}
