internal import CLeptonica

/// How tall the text on a page is, measured from its letters: a page's resolution follows from it
/// whatever the paper size (A5, a cut-off strip, a long foolscap sheet) or the file claims.
public struct TextSize: Sendable, Equatable, Codable {
    /// The height of lower-case letters without ascenders (x-height), in pixels of the measured image.
    public var xHeight: Double
    /// How many letter-sized marks the estimate rests on.
    public var letters: Int

    /// Body text of letters is set at 10–12 pt; its x-height is about 0.42–0.55 of that, so about
    /// 5.3 pt (0.074 inch) in the middle of that range.
    public static let typicalXHeightInches = 5.3 / 72

    /// How many letters ``Image/textSize(in:longSide:minimumLetters:)`` needs in a small picture:
    /// one short typed line.
    public static let snippetLetters = 8

    /// The resolution at which this x-height is that of ordinary body text.
    public var dpi: Double { xHeight / Self.typicalXHeightInches }
}

extension Image {
    /// The x-height of the page's text, or nil when the page holds too few letters to tell.
    ///
    /// Measured inside `region` (x, y, width, height; the whole image when nil), on a copy at most
    /// `longSide` pixels long: light evened, thresholded, and the bounding boxes of its connected
    /// marks. Lower-case letters without ascenders (a c e m n o r s u …) are the commonest marks
    /// of one height in any text, so the most frequent height among letter-shaped marks is the
    /// x-height. Marks under 5 pixels at that scale are left out: they are paper grain, dust and
    /// the texture of a table, which would otherwise outnumber the letters of a photo; a peak
    /// just above that is no estimate either.
    ///
    /// `minimumLetters` is how many letter-shaped marks an estimate needs: a page's 150 by
    /// default. A small picture (a line cut from a screen, a label, a receipt's strip) holds only
    /// a few dozen letters, and is measured with ``snippetLetters``: the picture is measured at
    /// its own size then, so its letters are never shrunk towards grain.
    public func textSize(in region: (x: Int, y: Int, width: Int, height: Int)? = nil,
                         longSide: Int = 1400, minimumLetters: Int = 150) throws(ImagingError) -> TextSize? {
        var source = try grayscale()
        if let region {
            source = try source.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        }
        let factor = min(1, Double(longSide) / Double(max(source.width, source.height)))
        let small = try source.scaled(by: factor)
        let binary = try small.evenedLight().binarized()
        guard let boxes = pixConnCompBB(binary.pix, 8) else { throw ImagingError(operation: "pixConnCompBB") }
        var list: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&list) }
        let count = Int(boxaGetCount(boxes))
        // Marks taller than a twentieth of the page are lines, boxes or pictures, not letters; in a
        // small picture of a few lines a letter may stand almost as tall as the picture.
        let tallest = max(8, minimumLetters < 150 ? small.height * 9 / 10 : small.height / 20)
        var histogram = [Int](repeating: 0, count: tallest + 2)
        var letters = 0
        for index in 0..<count {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, Int32(index), &x, &y, &w, &h) == 0 else { continue }
            // Letter-shaped: 3 pixels or more, not much wider than tall, not a thin rule.
            guard h >= 5, Int(h) <= tallest, w >= 2, w <= 2 * h, 3 * w >= h else { continue }
            histogram[Int(h)] += 1
            letters += 1
        }
        guard letters >= minimumLetters else { return nil }
        // The peak of the histogram smoothed over neighbouring heights, refined to the centre of
        // mass of the three heights around it.
        var best = 5
        var bestCount = -1
        for h in 5...tallest {
            let smoothed = histogram[h - 1] + 2 * histogram[h] + histogram[h + 1]
            if smoothed > bestCount { best = h; bestCount = smoothed }
        }
        // A peak at the smallest heights is grain and dust (or letters too small and blurred to
        // stand apart): no estimate. A picture measured at its own size has no grain made small.
        guard best > (factor < 1 ? 6 : 5) else { return nil }
        let around = (best - 1)...(best + 1)
        let mass = around.reduce(0) { $0 + histogram[$1] }
        // Few letters make a peak only when most of them share it: a third of the marks.
        guard letters >= 150 || 3 * mass >= letters else { return nil }
        let centre = mass > 0 ? Double(around.reduce(0) { $0 + $1 * histogram[$1] }) / Double(mass) : Double(best)
        return TextSize(xHeight: centre / factor, letters: letters)
    }
}
