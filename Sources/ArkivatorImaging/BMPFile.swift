import ArkivatorCore

/// A Windows bitmap's header, read and checked before Leptonica sees the file.
///
/// Leptonica reads a bitmap's size only by decoding it, and decodes only uncompressed bitmaps of
/// 1, 4, 8, 24 or 32 bits whose length is exactly what the header says; so the header is read
/// here, the page measured against the budget, a compressed or unusual bitmap refused by name,
/// and the bytes handed on cut to the length Leptonica expects.
struct BMPFile {
    let width: Int
    /// Rows, whether stored from the bottom up (as usual) or from the top down.
    let height: Int
    /// The bytes Leptonica decodes: the file up to the end of its pixels, its image-size field
    /// cleared (writers disagree about whether it counts padding; Leptonica wants it exact or 0).
    let decodable: [UInt8]
    private let depth: Int
    private let offset: Int
    /// Rows stored from the top down (a negative height) rather than from the bottom up.
    private let topDown: Bool
    /// The resolution the header records, if any.
    private let dpi: Int?

    /// A 24- or 32-bit bitmap as a large page is held (``PagePixels``), read straight from its
    /// rows: the page is never whole in 32 bits. From `disk` when the file was left there (a band
    /// of rows read at a time, so it is never whole in memory either), else from the bytes. Nil
    /// for other depths (they decode small).
    func decodeLean(_ disk: FileOnDisk? = nil) throws(InputError) -> PagePixels? {
        guard depth == 24 || depth == 32, let page = LeanPage(width: width, height: height, colour: true) else { return nil }
        if let dpi { page.setResolution(dpi) }
        let stride = (width * depth + 31) / 32 * 4, step = depth / 8
        var rgb = [UInt8](repeating: 0, count: width * 3)
        func add(_ stored: UnsafePointer<UInt8>, y: Int) {
            rgb.withUnsafeMutableBufferPointer { row in
                guard let out = row.baseAddress else { return }
                // Stored blue, green, red (and a fourth byte at 32 bits).
                for x in 0..<width {
                    out[3 * x] = stored[step * x + 2]
                    out[3 * x + 1] = stored[step * x + 1]
                    out[3 * x + 2] = stored[step * x]
                }
                page.add(rgbRow: UnsafePointer(out), y: y)
            }
        }
        if let disk {
            let reader = try disk.open()
            let bandRows = max(1, min(height, (4 << 20) / stride))
            var band = [UInt8](repeating: 0, count: bandRows * stride)
            var top = 0
            while top < height {
                let rows = min(bandRows, height - top)
                // Rows top ..< top + rows of the page; bottom-up files keep them in reverse.
                let first = topDown ? top : height - top - rows
                do {
                    try band.withUnsafeMutableBytes {
                        try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(rows * stride)]),
                                        at: offset + first * stride)
                    }
                } catch let error as InputError {
                    throw error
                } catch {
                    throw InputError.undecodable
                }
                band.withUnsafeBufferPointer { stored in
                    guard let base = stored.baseAddress else { return }
                    for y in 0..<rows { add(base + (topDown ? y : rows - 1 - y) * stride, y: top + y) }
                }
                top += rows
            }
            return page.pixels
        }
        decodable.withUnsafeBufferPointer { file in
            guard let base = file.baseAddress else { return }
            for y in 0..<height { add(base + offset + (topDown ? y : height - 1 - y) * stride, y: y) }
        }
        return page.pixels
    }

    /// Reads and checks the header in `bytes`: the whole file, or for a file left on disk its
    /// first part, `fileSize` then the whole file's length.
    init(_ bytes: [UInt8], fileSize: Int? = nil) throws(InputError) {
        guard FileSignature.isBMP(bytes), bytes.count >= 54 else { throw InputError.truncated }
        func number(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let header = number(14, 4)
        // The old OS/2 header and the rare 52-, 56- and 64-byte ones are not Leptonica's.
        guard [40, 108, 124].contains(header) else { throw InputError.unsupportedFormat("BMP (OS/2)") }
        let width = number(18, 4), depth = number(28, 2), compression = number(30, 4)
        let height = Int(Int32(bitPattern: UInt32(number(22, 4))).magnitude)
        let kinds = [1: "RLE8", 2: "RLE4", 3: "BITFIELDS", 4: "JPEG", 5: "PNG", 6: "ALPHABITFIELDS"]
        guard compression == 0 else { throw InputError.unsupportedFormat("BMP (\(kinds[compression] ?? "\(compression)"))") }
        guard [1, 4, 8, 24, 32].contains(depth) else { throw InputError.unsupportedFormat("BMP (\(depth) bit)") }
        guard width > 0, height > 0 else { throw InputError.undecodable }
        // Sizes past the page budget's side limit are refused there; keep the arithmetic small.
        let offset = number(10, 4)
        guard width <= 1_000_000, height <= 1_000_000, offset >= 14 + header else { throw InputError.undecodable }
        let end = offset + (width * depth + 31) / 32 * 4 * height
        guard (fileSize ?? bytes.count) >= end else { throw InputError.truncated }
        let imageSize = number(34, 4)
        if fileSize != nil {
            // Left on disk: the pixels are read from there.
            guard bytes.count >= min(offset, end) else { throw InputError.truncated }
            decodable = bytes
        } else if bytes.count == end, imageSize == 0 || imageSize == end - offset {
            decodable = bytes
        } else {
            // A copy only for a file that needs one.
            var cut = Array(bytes[0..<end])
            for index in 34..<38 { cut[index] = 0 }
            decodable = cut
        }
        self.width = width
        self.height = height
        self.depth = depth
        self.offset = offset
        self.topDown = Int32(bitPattern: UInt32(number(22, 4))) < 0
        let perMetre = number(38, 4)
        self.dpi = perMetre > 0 && perMetre < 10_000_000 ? Int((Double(perMetre) / 39.37 + 0.5).rounded(.down)) : nil
    }
}
