import ArkivatorCore
internal import CArkivatorPNG
internal import CLeptonica

extension EncodedPages {
    /// Decodes page `index` for cleanup: a large page (``PagePixels/largePage``) lean, the rest
    /// as ``decode(page:)`` makes them. A large JPEG is decoded twice by libjpeg, as gray at full
    /// size and in colour at half size; a large PNG or bitmap is read one row at a time into the
    /// same two, a colour TIFF page a band of strips at a time (``TIFFBands``), a PDF page drawn a
    /// band of rows at a time, an HEIC photo straight from libheif's pixels; any other large page
    /// is decoded whole and made lean at once (``PagePixels/taking(_:largePage:)``).
    /// `largePage` is for tests, which hold small pages lean.
    public func decodePixels(page index: Int, largePage: Int = PagePixels.largePage) throws(InputError) -> PagePixels {
        guard sizes.indices.contains(index) else { throw InputError.noPages }
        let (width, height) = sizes[index]
        do {
            // A file left on disk: a bitmap read from its rows whatever its size, a large colour TIFF
            // page a band of strips at a time; any other page from the file read whole after all.
            if let onDisk {
                let page: PagePixels?
                if container == .tiff {
                    page = width * height >= largePage ? try TIFFBands(DiskBytes(onDisk), page: index)?.decodeLean() : nil
                } else {
                    page = try BMPFile(bytes, fileSize: onDisk.size).decodeLean(onDisk)
                }
                guard let page else { return try readWhole(onDisk).decodePixels(page: index, largePage: largePage) }
                guard page.gray.width == width, page.gray.height == height else { throw InputError.undecodable }
                return page
            }
            if width * height >= largePage, container == .heif {
                let page = try HEIFFile(bytes).decodeLean()
                guard page.gray.width == width, page.gray.height == height else { throw InputError.undecodable }
                return page
            }
            if container == .pdf, let picture = picture(page: index) {
                let page = try picture.decodeLean(from: bytes)
                guard page.gray.width == width, page.gray.height == height else { throw InputError.undecodable }
                return page
            }
            if width * height >= largePage, container == .pdf {
                return try PDFFile(bytes).renderLean(index, size: sizes[index])
            }
            // A TIFF the band reader cannot take (old-style JPEG keeps file offsets in its tags) is
            // left to Leptonica whole, below.
            if width * height >= largePage, container == .tiff, let bands = TIFFBands(bytes, page: index),
               let page = try? bands.decodeLean(), page.gray.width == width, page.gray.height == height {
                return page
            }
            if width * height >= largePage, container == .image {
                if bytes.starts(with: [0xFF, 0xD8, 0xFF]), let page = try leanJPEG(width: width, height: height) { return page }
                if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), let page = try leanPNG(width: width, height: height) { return page }
                if bytes.count > 12, Array(bytes[8..<12]) == Array("WEBP".utf8),
                   let page = try WebPFile.decodeLean(bytes, width: width, height: height) { return page }
                if onDisk == nil, FileSignature.isBMP(bytes), let page = try BMPFile(bytes).decodeLean() {
                    guard page.gray.width == width, page.gray.height == height else { throw InputError.undecodable }
                    return page
                }
            }
            return try PagePixels.taking(decode(page: index), largePage: largePage)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError.undecodable
        }
    }

    /// A large JPEG as gray at full size (libjpeg's own luminance, no colour decoded) and, when it
    /// has colour, in colour at half size (libjpeg scales while it decodes); turned upright by its
    /// EXIF orientation. Nil for a JPEG libjpeg will not give as gray (CMYK).
    private func leanJPEG(width: Int, height: Int) throws -> PagePixels? {
        try bytes.withUnsafeBufferPointer { buffer throws -> PagePixels? in
            guard let base = buffer.baseAddress else { throw InputError.empty }
            return try Self.leanJPEG(base, count: buffer.count, width: width, height: height, exifOrientation: exifOrientation)
        }
    }

    /// The JPEG file of `count` bytes at `base` as ``leanJPEG(width:height:)`` reads it (a
    /// scanned PDF page's picture is one too); nil for a JPEG of another size or not given as gray.
    static func leanJPEG(_ base: UnsafePointer<UInt8>, count: Int, width: Int, height: Int,
                         exifOrientation: Int?) throws(InputError) -> PagePixels? {
        var w: Int32 = 0, h: Int32 = 0, samples: Int32 = 0, ycck: Int32 = 0, cmyk: Int32 = 0
        // The size is checked before decoding: a scanned PDF's picture may be larger than its
        // dictionary (which the pixel budget counted) says.
        guard readHeaderMemJpeg(base, count, &w, &h, &samples, &ycck, &cmyk) == 0, cmyk == 0, ycck == 0,
              Int(w) == width, Int(h) == height else { return nil }
        var warnings: Int32 = 0
        guard let grayPix = pixReadMemJpeg(base, count, 0, 1, &warnings, Int32(L_JPEG_READ_LUMINANCE)) else {
            throw InputError.undecodable
        }
        var gray = Image(owning: grayPix)
        guard gray.depth == 8, gray.width == width, gray.height == height else { return nil }
        var colour: Image?
        if samples >= 3 {
            guard let colourPix = pixReadMemJpeg(base, count, 0, 2, &warnings, 0) else { throw InputError.undecodable }
            colour = Image(owning: colourPix)
        }
        if let exifOrientation {
            do {
                gray = try gray.upright(exifOrientation: exifOrientation)
                colour = try colour?.upright(exifOrientation: exifOrientation)
            } catch {
                throw InputError.undecodable
            }
        }
        return PagePixels(gray: gray, colour: colour, colourScale: 0.5)
    }

    /// A large PNG read one row at a time: gray at full size and, for a colour PNG, colour at half
    /// size (each pixel the mean of four), never the whole page in colour. Nil for a PNG to decode
    /// whole instead (an interlaced one, whose rows come in passes).
    private func leanPNG(width: Int, height: Int) throws -> PagePixels? {
        let sink = PNGRows()
        let result = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return arkivator_png_read_rows(base, buffer.count, Unmanaged.passUnretained(sink).toOpaque(), { context, width, height, channels, dpi in
                guard let context else { return 1 }
                return Unmanaged<PNGRows>.fromOpaque(context).takeUnretainedValue().begin(
                    width: Int(width), height: Int(height), channels: Int(channels), dpi: Int(dpi)) ? 0 : 1
            }, { context, row, y in
                guard let context, let row else { return 1 }
                Unmanaged<PNGRows>.fromOpaque(context).takeUnretainedValue().add(row, y: Int(y))
                return 0
            })
        }
        if result == 1 { return nil }
        guard result == 0, let page = sink.page, page.gray.width == width, page.gray.height == height else {
            throw InputError.undecodable
        }
        return page.pixels
    }
}

/// Where a PNG's rows go as libpng gives them: gray bytes into a full-size 8-bit image, colour
/// into a half-size 32-bit one (``LeanPage``).
private final class PNGRows {
    var page: LeanPage?
    private var channels = 1

    func begin(width: Int, height: Int, channels: Int, dpi: Int) -> Bool {
        page = LeanPage(width: width, height: height, colour: channels == 3)
        if dpi > 0 { page?.setResolution(dpi) }
        self.channels = channels
        return page != nil
    }

    func add(_ row: UnsafePointer<UInt8>, y: Int) {
        if channels == 1 { page?.add(grayRow: row, y: y) } else { page?.add(rgbRow: row, y: y) }
    }
}

/// A large page made row by row: gray at full size, colour at half size (each pixel the mean of
/// four), so the page is never whole in 32 bits. Rows come top to bottom.
final class LeanPage {
    let gray: Image
    let colour: Image?
    private let width: Int
    /// The even row of a colour pair, waiting for the odd one (8-bit red, green, blue).
    private var previous: [UInt8]

    init?(width: Int, height: Int, colour: Bool) {
        guard width > 0, height > 0, let made = pixCreate(Int32(width), Int32(height), 8) else { return nil }
        gray = Image(owning: made)
        if colour, width >= 2, height >= 2 {
            guard let half = pixCreate(Int32(width / 2), Int32(height / 2), 32) else { return nil }
            self.colour = Image(owning: half)
        } else {
            self.colour = nil
        }
        self.width = width
        previous = [UInt8](repeating: 0, count: colour ? width * 3 : 0)
    }

    func setResolution(_ dpi: Int) {
        gray.setResolution(dpi)
        colour?.setResolution(max(1, dpi / 2))
    }

    var pixels: PagePixels { PagePixels(gray: gray, colour: colour, colourScale: 0.5) }

    /// Leptonica keeps 8-bit pixels in 32-bit words, most significant byte first: on this
    /// little-endian machine byte x of gray row y is at x ^ 3.
    private func grayLine(_ y: Int) -> UnsafeMutableRawPointer? {
        guard y < gray.height, let data = pixGetData(gray.pix) else { return nil }
        return UnsafeMutableRawPointer(data + y * Int(pixGetWpl(gray.pix)))
    }

    func add(grayRow row: UnsafePointer<UInt8>, y: Int) {
        guard let target = grayLine(y) else { return }
        for x in 0..<width { target.storeBytes(of: row[x], toByteOffset: x ^ 3, as: UInt8.self) }
    }

    /// A row of 8-bit red, green, blue.
    func add(rgbRow row: UnsafePointer<UInt8>, y: Int) {
        guard let target = grayLine(y) else { return }
        for x in 0..<width {
            let r = Float(row[3 * x]), g = Float(row[3 * x + 1]), b = Float(row[3 * x + 2])
            // By luminance, with Leptonica's weights and rounding, as `Image.grayscale()` does.
            let value: Float = 0.3 * r + 0.5 * g + 0.2 * b
            target.storeBytes(of: UInt8(min(255, Int(Double(value) + 0.5))), toByteOffset: x ^ 3, as: UInt8.self)
        }
        guard let colour, let colourData = pixGetData(colour.pix) else { return }
        if y % 2 == 0 {
            previous.withUnsafeMutableBufferPointer { $0.baseAddress?.update(from: row, count: width * 3) }
            return
        }
        guard y / 2 < colour.height else { return }
        let line = colourData + (y / 2) * Int(pixGetWpl(colour.pix))
        previous.withUnsafeBufferPointer { above in
            for x in 0..<(width / 2) {
                var word: UInt32 = 0
                for channel in 0..<3 {
                    let a = 6 * x + channel, b = a + 3
                    let sum = UInt32(above[a]) + UInt32(above[b]) + UInt32(row[a]) + UInt32(row[b])
                    word |= ((sum + 2) >> 2) << UInt32(24 - 8 * channel)
                }
                line[x] = word
            }
        }
    }

    /// Row `y` of the half-size colour page itself, in 8-bit red, green, blue (for a decoder that
    /// has colour at half size already); gray rows come through ``add(grayRow:y:)``.
    func set(halfColourRow row: UnsafePointer<UInt8>, y: Int) {
        guard let colour, y < colour.height, let colourData = pixGetData(colour.pix) else { return }
        let line = colourData + y * Int(pixGetWpl(colour.pix))
        for x in 0..<(width / 2) {
            line[x] = UInt32(row[3 * x]) << 24 | UInt32(row[3 * x + 1]) << 16 | UInt32(row[3 * x + 2]) << 8
        }
    }

    /// A row of Leptonica's 32-bit pixels (0xRRGGBB00).
    func add(wordRow row: UnsafePointer<UInt32>, y: Int) {
        var rgb = [UInt8](repeating: 0, count: width * 3)
        for x in 0..<width {
            let word = row[x]
            rgb[3 * x] = UInt8(truncatingIfNeeded: word >> 24)
            rgb[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 16)
            rgb[3 * x + 2] = UInt8(truncatingIfNeeded: word >> 8)
        }
        rgb.withUnsafeBufferPointer { if let base = $0.baseAddress { add(rgbRow: base, y: y) } }
    }
}
