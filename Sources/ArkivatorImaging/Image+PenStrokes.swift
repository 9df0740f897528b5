internal import CLeptonica

extension Image {
    /// How tall a connected mark must be, in x-heights, to be a pen stroke rather than type: a
    /// typed letter with an ascender and a descender, or two lines' letters touching, stay under it.
    static let penStrokeHeight = 4.0

    /// The page's pen strokes as a 1-bit mask, for leaving them out of the copy OCR reads: the
    /// connected dark marks of this black and white page that stand more than
    /// ``penStrokeHeight`` x-heights tall (handwriting, a signature's loops, a tick through a
    /// margin, a scanner's edge), widened by a pixel. Marks over half the page wide or tall (a
    /// table's frame, a border round the page) are left alone. Handwriting read as letters turns
    /// into garbage words in the typed lines beside it, and a stroke that crosses a typed line can
    /// make Tesseract take the line for a picture and skip it.
    /// Nil when there are none. `xHeight` is the body text's x-height in this image's pixels;
    /// a tall mark touching `colour` (the page's coloured marks, 1-bit, the same size) is a
    /// coloured mark's, and left to that step.
    func penStrokeMask(xHeight: Double, apartFrom colour: Image? = nil) throws(ImagingError) -> Image? {
        let tallest = Int32((xHeight * Self.penStrokeHeight).rounded())
        guard depth == 1, tallest > 8 else { return nil }
        var changed: Int32 = 0
        let tall = try Image.wrap(pixSelectBySize(pix, 0, tallest, 8, Int32(L_SELECT_HEIGHT), Int32(L_SELECT_IF_GT), &changed),
                                  "pixSelectBySize")
        var strokes = try Image.wrap(pixSelectBySize(tall.pix, Int32(width / 2), Int32(height / 2), 8,
                                                     Int32(L_SELECT_IF_BOTH), Int32(L_SELECT_IF_LT), &changed), "pixSelectBySize")
        if let colour, colour.width == width, colour.height == height {
            let touching = try Image.wrap(pixAnd(nil, strokes.pix, colour.pix), "pixAnd")
            let coloured = try Image.wrap(pixSeedfillBinary(nil, touching.pix, strokes.pix, 8), "pixSeedfillBinary")
            strokes = try Image.wrap(pixSubtract(nil, strokes.pix, coloured.pix), "pixSubtract")
        }
        var count: Int32 = 0
        guard pixCountPixels(strokes.pix, &count, nil) == 0, count > 0 else { return nil }
        // The pieces of the same writing close by (a dot, a stroke broken by faint ink) go with
        // them: every mark within a third of an x-height of a stroke.
        let reach = Int32(max(3, (xHeight / 3).rounded()))
        let near = try Image.wrap(pixDilateBrick(nil, strokes.pix, 2 * reach + 1, 2 * reach + 1), "pixDilateBrick")
        let writing = try Image.wrap(pixSeedfillBinary(nil, near.pix, pix, 8), "pixSeedfillBinary")
        return try Image.wrap(pixDilateBrick(nil, writing.pix, 3, 3), "pixDilateBrick")
    }
}

extension Image {
    /// The share (0…1) of this 1-bit image's dark pixels that lie under any of `masks` (1-bit,
    /// aligned at the top left); 0 for an image with no dark pixels.
    func share(coveredBy masks: [Image]) throws(ImagingError) -> Double {
        var total: Int32 = 0
        guard depth == 1, pixCountPixels(pix, &total, nil) == 0, total > 0 else { return 0 }
        var union: Image?
        for mask in masks where mask.depth == 1 {
            union = try union.map { (u) throws(ImagingError) in try Image.wrap(pixOr(nil, u.pix, mask.pix), "pixOr") } ?? mask
        }
        guard let union else { return 0 }
        let covered = try Image.wrap(pixAnd(nil, pix, union.pix), "pixAnd")
        var count: Int32 = 0
        guard pixCountPixels(covered.pix, &count, nil) == 0 else { return 0 }
        return (Double(count) / Double(total) * 1000).rounded() / 1000
    }
}
