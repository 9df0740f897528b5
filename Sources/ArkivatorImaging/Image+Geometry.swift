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
        guard width > 0, height > 0, let destination = ptaCreate(4), let origin = ptaCreate(4) else {
            throw ImagingError(operation: "ptaCreate")
        }
        var d: UnsafeMutablePointer<PTA>? = destination
        var o: UnsafeMutablePointer<PTA>? = origin
        defer { ptaDestroy(&d); ptaDestroy(&o) }
        let w = Float(width - 1), h = Float(height - 1)
        for (x, y) in [(0, 0), (w, 0), (w, h), (0, h)] as [(Float, Float)] { ptaAddPt(destination, x, y) }
        for p in quad.corners { ptaAddPt(origin, Float(p.x), Float(p.y)) }
        if depth == 1 {
            // Leptonica writes the result on a canvas the size of the source: grow it when needed.
            var source = self
            if width > self.width || height > self.height {
                source = try .wrap(pixAddBorderGeneral(pix, 0, Int32(max(0, width - self.width)), 0,
                                                       Int32(max(0, height - self.height)), 0), "pixAddBorderGeneral")
            }
            return try Image.wrap(pixProjectiveSampledPta(source.pix, destination, origin, Int32(L_BRING_IN_WHITE)),
                                  "pixProjectiveSampledPta").cropped(x: 0, y: 0, width: width, height: height)
        }
        // The transform from each pixel of the result back to the source.
        var coefficients: UnsafeMutablePointer<Float>?
        guard getProjectiveXformCoeffs(destination, origin, &coefficients) == 0, let coefficients else {
            throw ImagingError(operation: "getProjectiveXformCoeffs")
        }
        defer { lept_free(coefficients) }
        return try projected(Array(UnsafeBufferPointer(start: coefficients, count: 8)), width: width, height: height)
    }

    /// An 8-bit gray image of `width × height` whose pixel (x, y) is this image's at the point the
    /// projective transform `c` (Leptonica's eight coefficients) maps it to, interpolated between
    /// the four pixels around it in sixteenths of a pixel; points outside the image are white.
    /// The same pixels as Leptonica's `pixProjectiveGray`, worked out the same way, in the same
    /// precision, but without a function call per pixel and only over the result: Leptonica
    /// writes on a canvas the size of the source, and a photographed page enlarged to 300 DPI on
    /// the way took a fifth of a second to flatten.
    private func projected(_ c: [Float], width: Int, height: Int) throws(ImagingError) -> Image {
        guard c.count == 8, depth == 8, let made = pixCreate(Int32(width), Int32(height), 8) else {
            throw ImagingError(operation: "pixCreate")
        }
        let result = Image(owning: made)
        pixCopyResolution(made, pix)
        guard let sourceWords = pixGetData(pix), let resultWords = pixGetData(made) else {
            throw ImagingError(operation: "pixGetData")
        }
        // Leptonica keeps 8-bit pixels in 32-bit words, most significant byte first: on this
        // little-endian machine byte x of a row is at x ^ 3.
        let source = UnsafeRawPointer(sourceWords).assumingMemoryBound(to: UInt8.self)
        let target = UnsafeMutableRawPointer(resultWords).assumingMemoryBound(to: UInt8.self)
        let sourceRow = Int(pixGetWpl(pix)) * 4, targetRow = Int(pixGetWpl(made)) * 4
        let sw = self.width, sh = self.height
        let limitX = Float(sw), limitY = Float(sh)
        let (c0, c1, c2, c3, c4, c5, c6, c7) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])
        let lastX = sw - 1, lastY = sh - 1
        // Each row in two passes: first where its pixels come from, in sixteenths of a pixel
        // (arithmetic alone, which the compiler does several pixels at a time), then the pixels
        // themselves. -1 marks a point outside the image, which is white.
        var fromX = [Int32](repeating: 0, count: width), fromY = [Int32](repeating: 0, count: width)
        fromX.withUnsafeMutableBufferPointer { fx16 in
            fromY.withUnsafeMutableBufferPointer { fy16 in
                for y in 0..<height {
                    let fy = Float(y)
                    let r1 = c1 * fy, r4 = c4 * fy, r7 = c7 * fy
                    for x in 0..<width {
                        let fx = Float(x)
                        let factor = Float(1 / (Double(c6 * fx + r7) + 1))
                        let px = factor * (c0 * fx + r1 + c2), py = factor * (c3 * fx + r4 + c5)
                        // Not a number fails every comparison, and is white too.
                        let inside = px >= 0 && py >= 0 && px < limitX && py < limitY
                        // 16 × a float is exact, and inside the image it is far from overflowing.
                        fx16[x] = inside ? Int32(16 * px) : -1
                        fy16[x] = inside ? Int32(16 * py) : 0
                    }
                    let out = target + y &* targetRow
                    for x in 0..<width {
                        let xpm = Int(fx16[x])
                        var value: UInt32 = 255
                        if xpm >= 0 {
                            let ypm = Int(fy16[x])
                            let xp = xpm &>> 4, yp = ypm &>> 4
                            let xf = UInt32(truncatingIfNeeded: xpm & 15), yf = UInt32(truncatingIfNeeded: ypm & 15)
                            // The last column and row stand in for the ones past them.
                            let xp2 = xp < lastX ? xp &+ 1 : lastX
                            let top = source + yp &* sourceRow
                            let bottom = yp < lastY ? top + sourceRow : top
                            let v00 = UInt32(top[xp ^ 3]), v10 = UInt32(top[xp2 ^ 3])
                            let v01 = UInt32(bottom[xp ^ 3]), v11 = UInt32(bottom[xp2 ^ 3])
                            let left = (16 &- yf) &* v00 &+ yf &* v01, right = (16 &- yf) &* v10 &+ yf &* v11
                            value = ((16 &- xf) &* left &+ xf &* right) &>> 8
                        }
                        out[x ^ 3] = UInt8(truncatingIfNeeded: value)
                    }
                }
            }
        }
        return result
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
