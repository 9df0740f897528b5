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
        guard min(width, height) >= 64 else { return try .wrap(pixGammaTRC(nil, pix, 1.0, 30, 190), "pixGammaTRC") }
        guard depth == 8 else { throw ImagingError(operation: "pixGetBackgroundGrayMapMorph") }
        var paper: UnsafeMutablePointer<PIX>?
        guard pixGetBackgroundGrayMapMorph(pix, nil, 4, 11, &paper) == 0, let paper else {
            // Leptonica finds no paper only where every pixel is black: nothing to even.
            return try .wrap(pixGammaTRC(nil, pix, 1.0, 30, 190), "pixGammaTRC")
        }
        let background = Image(owning: paper)
        // 256 × 200 / paper, per 4 × 4 tile (the reduction of 4 asked for above).
        let factors = try Image.wrap(pixGetInvBackgroundMap(background.pix, 200, 0, 0), "pixGetInvBackgroundMap")
        // Then the normalised paper (200) becomes white and the darkest ink black.
        let tones = try Self.toneCurve(black: 30, white: 190)
        return try dividedByTiles(factors, then: tones)
    }

    /// Leptonica's linear tone curve: `black` and below become 0, `white` and above 255.
    private static func toneCurve(black: Int32, white: Int32) throws(ImagingError) -> [UInt8] {
        guard let made = numaGammaTRC(1.0, black, white) else { throw ImagingError(operation: "numaGammaTRC") }
        var curve: UnsafeMutablePointer<NUMA>? = made
        defer { numaDestroy(&curve) }
        var table = [UInt8](repeating: 0, count: 256)
        for level in 0..<256 {
            var value: Int32 = 0
            numaGetIValue(made, Int32(level), &value)
            table[level] = UInt8(clamping: value)
        }
        return table
    }

    /// Each pixel times its tile's factor in `factors` (16-bit, 1/256ths, one per 4 × 4 pixels),
    /// at most 255, through `tones`: in one pass, the same pixels as Leptonica's
    /// `pixApplyInvBackgroundGrayMap` followed by `pixTRCMap` in two (pixels past the last whole
    /// tile stay black there too, and the white frame covers them later).
    private func dividedByTiles(_ factors: Image, then tones: [UInt8]) throws(ImagingError) -> Image {
        guard let made = pixCreateTemplate(pix) else { throw ImagingError(operation: "pixCreateTemplate") }
        let result = Image(owning: made)
        guard let sourceWords = pixGetData(pix), let targetWords = pixGetData(made),
              let factorWords = pixGetData(factors.pix) else { throw ImagingError(operation: "pixGetData") }
        let source = UnsafeRawPointer(sourceWords).assumingMemoryBound(to: UInt32.self)
        let target = UnsafeMutableRawPointer(targetWords).assumingMemoryBound(to: UInt32.self)
        let factor = UnsafeRawPointer(factorWords).assumingMemoryBound(to: UInt16.self)
        let sourceRow = Int(pixGetWpl(pix)), targetRow = Int(pixGetWpl(made))
        let factorRow = Int(pixGetWpl(factors.pix)) * 2
        // Leptonica keeps 8-bit pixels four to a 32-bit word, so a word of a row is the row of
        // one tile, and its four pixels share a factor and a curve: their order in the word does
        // not matter. 16-bit factors are two to a word, most significant first: on this
        // little-endian machine factor x of a row is at x ^ 1.
        let columns = min(width, factors.width * 4), rows = min(height, factors.height * 4)
        let wholeWords = columns / 4
        let black = UInt32(tones[0])
        let blackWord = black | black << 8 | black << 16 | black << 24
        tones.withUnsafeBufferPointer { tone in
            @inline(__always) func curve(_ pixel: UInt32, _ factor: UInt32) -> UInt32 {
                UInt32(tone[Int(min((pixel &* factor) &>> 8, 255))])
            }
            for y in 0..<rows {
                let input = source + y &* sourceRow, output = target + y &* targetRow
                let factorLine = factor + (y &>> 2) &* factorRow
                for w in 0..<wholeWords {
                    let f = UInt32(factorLine[w ^ 1]), v = input[w]
                    output[w] = curve(v & 0xFF, f) | curve(v &>> 8 & 0xFF, f) &<< 8
                        | curve(v &>> 16 & 0xFF, f) &<< 16 | curve(v &>> 24, f) &<< 24
                }
                // The pixels of a tile cut by the right edge, and those past the last tile.
                let inputBytes = UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self)
                let outputBytes = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
                for x in (wholeWords &* 4)..<columns {
                    outputBytes[x ^ 3] = UInt8(truncatingIfNeeded: curve(UInt32(inputBytes[x ^ 3]), UInt32(factorLine[(x &>> 2) ^ 1])))
                }
                for x in columns..<width { outputBytes[x ^ 3] = UInt8(truncatingIfNeeded: black) }
            }
            for y in rows..<height {
                let output = target + y &* targetRow
                for w in 0..<targetRow { output[w] = blackWord }
            }
        }
        return result
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

    /// The image as GIF bytes (for tests: GIF pages are read like any other). Colour is reduced
    /// to 256 colours; gray stays as it is.
    package func gifData() throws(ImagingError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemGif(&data, &size, pix) == 0, let data else { throw ImagingError(operation: "pixWriteMemGif") }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The image as an uncompressed Windows bitmap (for tests: BMP pages are read like any other);
    /// `colour` writes 24-bit RGB, else as the image is (8-bit gray with a gray palette).
    package func bmpData(colour: Bool = false) throws(ImagingError) -> [UInt8] {
        let source = colour && depth != 32 ? try Image.wrap(pixConvertTo32(pix), "pixConvertTo32") : self
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemBmp(&data, &size, source.pix) == 0, let data else { throw ImagingError(operation: "pixWriteMemBmp") }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The image as a TIFF (zip-compressed; for tests: TIFF pages are read like any other).
    package func tiffData() throws(ImagingError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemTiff(&data, &size, pix, Int32(IFF_TIFF_ZIP)) == 0, let data else {
            throw ImagingError(operation: "pixWriteMemTiff")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// A colour copy of a gray page, each level tinted as yellowed paper is (for tests of colour
    /// pages made from the gray fixtures).
    package func tinted() throws(ImagingError) -> Image {
        let gray = try grayscale()
        let colour = try Image.wrap(pixConvertTo32(gray.pix), "pixConvertTo32")
        guard let data = pixGetData(colour.pix) else { throw ImagingError(operation: "pixGetData") }
        let wpl = Int(pixGetWpl(colour.pix))
        for y in 0..<colour.height {
            let line = data + y * wpl
            for x in 0..<colour.width {
                let v = (line[x] >> 24) & 0xFF
                line[x] = v << 24 | (v * 246 / 255) << 16 | (v * 222 / 255) << 8
            }
        }
        return colour
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

    /// A copy `longSide` pixels long (never enlarged), each of whose pixels is the mean of the
    /// page's pixels it covers, with the scale it was made at: the one small copy a page's tone
    /// range and its sheet's outline are both read from.
    func reduced(longSide: Int) throws(ImagingError) -> (image: Image, scale: Double) {
        let scale = min(1, Double(longSide) / Double(max(width, height)))
        return (try scaled(by: scale), scale)
    }

    /// The darkest and lightest gray of the page, and its mean, read from a copy `longSide`
    /// pixels long, each of whose pixels is the mean of the page's pixels it covers (so a speck of
    /// noise counts for little, and a line of print for a lot). The image must be 8-bit gray.
    public func toneRange(longSide: Int = 600) throws(ImagingError) -> (darkest: Int, lightest: Int, mean: Double) {
        try reduced(longSide: longSide).image.tones()
    }

    /// The darkest and lightest gray of all this image's pixels, and their mean.
    func tones() throws(ImagingError) -> (darkest: Int, lightest: Int, mean: Double) {
        let bytes = try grayBytes()
        var darkest = 255, lightest = 0, sum = 0
        for byte in bytes {
            let value = Int(byte)
            darkest = min(darkest, value)
            lightest = max(lightest, value)
            sum += value
        }
        let count = bytes.count
        return (darkest, lightest, count == 0 ? 255 : Double(sum) / Double(count))
    }

    /// A small version for analysis: median-filtered so text disappears and edges stay sharp.
    func analysisCopy(longSide: Int) throws(ImagingError) -> (image: Image, scale: Double) {
        try Self.analysisCopy(of: reduced(longSide: longSide))
    }

    /// ``analysisCopy(longSide:)`` from a copy ``reduced(longSide:)`` made.
    static func analysisCopy(of reduced: (image: Image, scale: Double)) throws(ImagingError) -> (image: Image, scale: Double) {
        (try Image.wrap(pixMedianFilter(reduced.image.pix, 5, 5), "pixMedianFilter"), reduced.scale)
    }
}
