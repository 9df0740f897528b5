internal import CLeptonica

extension Image {
    /// Evens out the light: shadows, gradients and yellowed paper become an even white background,
    /// and the ink is stretched to full black. The image must be 8-bit gray.
    public func evenedLight() throws(ImagingError) -> Image {
        // The paper's brightness: the page closed over (a gray-level closing, at a quarter of
        // its size, 44 pixels wide) so that letters, which are narrower, are gone whatever their
        // shade, faint typewriting and gray print included. Shadows, gradients and yellowing stay,
        // and each pixel is divided by it: the paper becomes 200.
        // A sliver too small to close over (under 64 pixels either way) holds no text to even.
        let normalised = min(width, height) < 64
            ? self : try Image.wrap(pixBackgroundNormMorph(pix, nil, 4, 11, 200), "pixBackgroundNormMorph")
        // Map the normalised paper (200) to white and the darkest ink to black.
        return try .wrap(pixGammaTRC(nil, normalised.pix, 1.0, 30, 190), "pixGammaTRC")
    }

    /// A copy with a white frame `pixels` wide: photo and scanner edges (dark lines where the
    /// sheet ended) otherwise confuse OCR's layout analysis. Letters keep wider margins than this.
    public func whiteFramed(pixels: Int) throws(ImagingError) -> Image {
        let copy = try Image.wrap(pixCopy(nil, pix), "pixCopy")
        let m = Int32(max(0, min(pixels, min(width, height) / 4)))
        guard pixSetBorderVal(copy.pix, m, m, m, m, 255) == 0 else {
            throw ImagingError(operation: "pixSetBorderVal")
        }
        return copy
    }

    /// A copy with the pixels set in `mask` (1-bit, aligned at the top left) white.
    func whitened(where mask: Image) throws(ImagingError) -> Image {
        let copy = try Image.wrap(pixCopy(nil, pix), "pixCopy")
        guard pixSetMasked(copy.pix, mask.pix, 255) == 0 else { throw ImagingError(operation: "pixSetMasked") }
        return copy
    }

    /// A black and white page for OCR: a global threshold on an evened-light gray page.
    public func binarized(threshold: Int = 160) throws(ImagingError) -> Image {
        try .wrap(pixThresholdToBinary(pix, Int32(threshold)), "pixThresholdToBinary")
    }

    /// The image as JPEG bytes.
    public func jpegData(quality: Int = 80) throws(ImagingError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&data, &size, pix, Int32(quality), 0) == 0, let data else {
            throw ImagingError(operation: "pixWriteMemJpeg")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The image as WebP bytes (for tests: WebP pages are read like any other).
    package func webpData(quality: Int = 80) throws(ImagingError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemWebP(&data, &size, pix, Int32(quality), 0) == 0, let data else {
            throw ImagingError(operation: "pixWriteMemWebP")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The image as PNG bytes (lossless; used for black and white pages and in tests).
    public func pngData() throws(ImagingError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemPng(&data, &size, pix, 0) == 0, let data else {
            throw ImagingError(operation: "pixWriteMemPng")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// A small version for analysis: median-filtered so text disappears and edges stay sharp.
    func analysisCopy(longSide: Int) throws(ImagingError) -> (image: Image, scale: Double) {
        let scale = Double(longSide) / Double(max(width, height))
        let small = try scaled(by: min(1, scale))
        let smooth = try Image.wrap(pixMedianFilter(small.pix, 5, 5), "pixMedianFilter")
        return (smooth, min(1, scale))
    }
}
