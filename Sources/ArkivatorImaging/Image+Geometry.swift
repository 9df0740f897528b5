internal import CLeptonica

extension Image {
    /// The image scaled by `factor` (area averaging when shrinking, interpolation when enlarging;
    /// a 1-bit mask by sampling).
    public func scaled(by factor: Double) throws(ImagingError) -> Image {
        if abs(factor - 1) < 0.001 { return self }
        let f = Float(factor)
        if depth == 1 { return try .wrap(pixScaleBinary(pix, f, f), "pixScaleBinary") }
        if factor < 0.7 {
            return try .wrap(pixScaleAreaMap(pix, f, f), "pixScaleAreaMap")
        }
        return try .wrap(pixScale(pix, f, f), "pixScale")
    }

    /// The image turned clockwise by `quarterTurns` × 90°.
    public func rotated(quarterTurns: Int) throws(ImagingError) -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        return try .wrap(pixRotateOrth(pix, Int32(turns)), "pixRotateOrth")
    }

    /// The image mirrored left to right.
    public func mirrored() throws(ImagingError) -> Image {
        try .wrap(pixFlipLR(nil, pix), "pixFlipLR")
    }

    /// The image turned upright as an EXIF orientation (1…8) says it should be shown.
    public func upright(exifOrientation: Int) throws(ImagingError) -> Image {
        switch exifOrientation {
        case 2: try mirrored()
        case 3: try rotated(quarterTurns: 2)
        case 4: try mirrored().rotated(quarterTurns: 2)
        case 5: try mirrored().rotated(quarterTurns: 3)
        case 6: try rotated(quarterTurns: 1)
        case 7: try mirrored().rotated(quarterTurns: 1)
        case 8: try rotated(quarterTurns: 3)
        default: self
        }
    }

    /// The image turned by `degrees` (positive: clockwise on screen), white brought in at the
    /// corners, same size.
    public func rotated(degrees: Double) throws(ImagingError) -> Image {
        if abs(degrees) < 0.01 { return self }
        let radians = Float(degrees * .pi / 180)
        // Small turns by shearing, which moves whole pixels and keeps thin strokes (typewriter
        // text, faint print) sharp; larger ones by area mapping, which has no visible steps (a
        // 1-bit mask by sampling).
        let kind = abs(degrees) < 2 ? Int32(L_ROTATE_SHEAR) : depth == 1 ? Int32(L_ROTATE_SAMPLING) : Int32(L_ROTATE_AREA_MAP)
        return try .wrap(pixRotate(pix, radians, kind, Int32(L_BRING_IN_WHITE), 0, 0),
                         "pixRotate")
    }

    /// The sheet inside `quad` flattened to an upright rectangle of `width × height` pixels
    /// (a four-corner projective transform). The image must be 8-bit gray or a 1-bit mask.
    public func flattened(_ quad: Quad, width: Int, height: Int) throws(ImagingError) -> Image {
        // Leptonica writes the result on a canvas the size of the source: grow it when needed.
        var source = self
        if width > self.width || height > self.height {
            let right = max(0, width - self.width), bottom = max(0, height - self.height)
            source = try .wrap(pixAddBorderGeneral(pix, 0, Int32(right), 0, Int32(bottom), depth == 1 ? 0 : 255), "pixAddBorderGeneral")
        }
        guard let destination = ptaCreate(4), let origin = ptaCreate(4) else { throw ImagingError(operation: "ptaCreate") }
        var d: UnsafeMutablePointer<PTA>? = destination
        var o: UnsafeMutablePointer<PTA>? = origin
        defer { ptaDestroy(&d); ptaDestroy(&o) }
        let w = Float(width - 1), h = Float(height - 1)
        for (x, y) in [(0, 0), (w, 0), (w, h), (0, h)] as [(Float, Float)] { ptaAddPt(destination, x, y) }
        for p in quad.corners { ptaAddPt(origin, Float(p.x), Float(p.y)) }
        let warped = try depth == 1
            ? Image.wrap(pixProjectiveSampledPta(source.pix, destination, origin, Int32(L_BRING_IN_WHITE)), "pixProjectiveSampledPta")
            : Image.wrap(pixProjectivePtaGray(source.pix, destination, origin, 255), "pixProjectivePtaGray")
        return try warped.cropped(x: 0, y: 0, width: width, height: height)
    }

    /// A rectangle cut out of the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(ImagingError) -> Image {
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        guard let box = boxCreate(Int32(x), Int32(y), Int32(width), Int32(height)) else {
            throw ImagingError(operation: "boxCreate")
        }
        var b: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&b) }
        return try .wrap(pixClipRectangle(pix, box, nil), "pixClipRectangle")
    }

    /// The skew of the text lines in degrees (positive: the page is turned clockwise on screen,
    /// so `rotated(degrees: -skew)` straightens it), and Leptonica's confidence in it.
    /// The image must be 1-bit.
    public func measureSkew() -> (degrees: Double, confidence: Double)? {
        var angle: Float = 0
        var confidence: Float = 0
        guard pixFindSkewSweepAndSearch(pix, &angle, &confidence, 4, 2, 7.0, 1.0, 0.01) == 0 else { return nil }
        return (-Double(angle), Double(confidence))
    }
}
