import ArkivatorCore
internal import CLeptonica

/// A large colour TIFF page read in bands of rows.
///
/// Leptonica reads a colour TIFF page through libtiff's RGBA reader into a buffer of its own and
/// then copies it into the image: two 32-bit copies of the page at once (476 MB at the page
/// limit). Here the page's strips are handed to Leptonica a few at a time, each band as a small
/// TIFF of its own (the page's tags, its height and strips changed), and each band is turned
/// into the lean page's gray rows and half-size colour rows at once (``LeanPage``). Strips are
/// compressed each on its own, so nothing is decompressed here. A tiled, planar or turned page
/// is left to Leptonica whole. The file is read from memory or, for a large file left on disk, a
/// band's strips at a time from there (``ByteSource``).
struct TIFFBands {
    private struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// The value's bytes as stored, in the file's byte order.
        var data: [UInt8]
    }

    private let source: any ByteSource
    private let little: Bool
    private let entries: [Entry]
    let width: Int
    let height: Int
    private let rowsPerStrip: Int
    private let offsets: [Int]
    private let counts: [Int]

    /// The page `index`'s layout, or nil when it is not a page to read in bands (not colour, or
    /// tiled, planar, turned, or anything unusual): then it is decoded whole.
    init?(_ source: any ByteSource, page index: Int) {
        guard let head = source.bytes(at: 0, count: 8), head[0] == head[1], head[0] == 0x49 || head[0] == 0x4D else { return nil }
        self.source = source
        let little = head[0] == 0x49
        self.little = little
        let number = { (at: Int, size: Int) in Self.number(in: source, at: at, size: size, little: little) }
        guard let ifd = Self.directory(index, in: source, little: little) else { return nil }
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        guard let count = number(ifd, 2), count > 0, count < 500 else { return nil }
        var found: [Entry] = []
        for k in 0..<count {
            let at = ifd + 2 + 12 * k
            guard let tag = number(at, 2), let type = number(at + 2, 2), let n = number(at + 4, 4),
                  let size = sizes[type], n < 1 << 24 else { return nil }
            let length = size * n
            let start = length <= 4 ? at + 8 : (number(at + 8, 4) ?? -1)
            guard start >= 0, start + length <= source.count, let data = source.bytes(at: start, count: length) else { return nil }
            found.append(Entry(tag: tag, type: type, count: n, data: data))
        }
        entries = found
        func values(_ tag: Int) -> [Int]? {
            guard let entry = found.first(where: { $0.tag == tag }), entry.type == 3 || entry.type == 4 else { return nil }
            let size = entry.type == 3 ? 2 : 4
            return (0..<entry.count).map { i in
                (0..<size).reduce(0) { $0 | Int(entry.data[i * size + (little ? $1 : size - 1 - $1)]) << (8 * $1) }
            }
        }
        let tags = Set(found.map(\.tag))
        guard let w = values(256)?.first, let h = values(257)?.first, w > 0, h > 0,
              let offsets = values(273), let counts = values(279), offsets.count == counts.count, !offsets.isEmpty,
              (values(277)?.first ?? 1) >= 3, (values(284)?.first ?? 1) == 1, (values(274)?.first ?? 1) == 1,
              !tags.contains(322), (values(258) ?? [8]).allSatisfy({ $0 == 8 }) else { return nil }
        let rows = min(values(278)?.first ?? h, h)
        guard rows > 0, offsets.count == (h + rows - 1) / rows,
              zip(offsets, counts).allSatisfy({ $0 >= 0 && $1 >= 0 && $0 + $1 <= source.count }) else { return nil }
        width = w
        height = h
        rowsPerStrip = rows
        self.offsets = offsets
        self.counts = counts
    }

    /// The page as a lean page, read a band of strips (some 256 rows, an even number) at a time.
    func decodeLean() throws(InputError) -> PagePixels {
        guard let page = LeanPage(width: width, height: height, colour: true) else { throw InputError.undecodable }
        var perBand = max(1, 256 / rowsPerStrip)
        if rowsPerStrip * perBand % 2 == 1 { perBand += 1 }
        var strip = 0
        while strip < offsets.count {
            let last = min(offsets.count, strip + perBand)
            let top = strip * rowsPerStrip, rows = min(height, last * rowsPerStrip) - top
            guard let band = self.band(strips: strip..<last, rows: rows) else { throw InputError.changedWhileRead }
            let pix = band.withUnsafeBufferPointer { buffer in buffer.baseAddress.flatMap { pixReadMemTiff($0, buffer.count, 0) } }
            guard let pix else { throw InputError.undecodable }
            let image = Image(owning: pix)
            guard image.width == width, image.height == rows, image.depth == 32, let data = pixGetData(pix) else {
                throw InputError.undecodable
            }
            if strip == 0, let dpi = image.recordedDPI { page.setResolution(dpi) }
            let wpl = Int(pixGetWpl(pix))
            for y in 0..<rows { page.add(wordRow: data + y * wpl, y: top + y) }
            strip = last
        }
        return page.pixels
    }

    /// A TIFF of one page: this page's tags with its height, strip offsets and byte counts set for
    /// `strips`, which follow.
    private func band(strips: Range<Int>, rows: Int) -> [UInt8]? {
        func encode(_ value: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { i in UInt8(truncatingIfNeeded: value >> (8 * (little ? i : size - 1 - i))) }
        }
        var stripData = 0
        var newOffsets: [Int] = []
        for index in strips {
            newOffsets.append(stripData)
            stripData += counts[index]
        }
        var list = entries
        for k in list.indices {
            switch list[k].tag {
            case 257: list[k] = Entry(tag: 257, type: 4, count: 1, data: encode(rows, 4))
            case 279: list[k] = Entry(tag: 279, type: 4, count: strips.count, data: strips.flatMap { encode(counts[$0], 4) })
            case 273: list[k] = Entry(tag: 273, type: 4, count: strips.count, data: [])  // filled below
            default: break
            }
        }
        let ifdSize = 2 + 12 * list.count + 4
        var outOfLine = 8 + ifdSize
        // The values stored after the directory (those over 4 bytes), each padded to an even length.
        let extras = list.reduce(0) { sum, entry in
            let size = entry.tag == 273 ? 4 * strips.count : entry.data.count
            return sum + (size > 4 ? size + size % 2 : 0)
        }
        let stripsStart = outOfLine + extras
        var out = (little ? Array("II".utf8) : Array("MM".utf8)) + encode(42, 2) + encode(8, 4) + encode(list.count, 2)
        var tail: [UInt8] = []
        for entry in list {
            let data = entry.tag == 273 ? newOffsets.flatMap { encode(stripsStart + $0, 4) } : entry.data
            out += encode(entry.tag, 2) + encode(entry.type, 2) + encode(entry.count, 4)
            if data.count <= 4 {
                out += data + [UInt8](repeating: 0, count: 4 - data.count)
            } else {
                out += encode(outOfLine, 4)
                tail += data
                if data.count % 2 == 1 { tail.append(0) }
                outOfLine += data.count + data.count % 2
            }
        }
        out += encode(0, 4) + tail
        out.reserveCapacity(out.count + stripData)
        for index in strips {
            guard let data = source.bytes(at: offsets[index], count: counts[index]) else { return nil }
            out += data
        }
        return out
    }

    /// The width and height of each page, from the file's directories alone (for a file left on
    /// disk, which Leptonica cannot measure without reading it whole); nil when they cannot be read.
    static func pageSizes(in source: any ByteSource, limit: Int) -> [(width: Int, height: Int)]? {
        guard let head = source.bytes(at: 0, count: 8), head[0] == head[1], head[0] == 0x49 || head[0] == 0x4D else { return nil }
        let little = head[0] == 0x49
        var sizes: [(width: Int, height: Int)] = []
        while sizes.count <= limit, let ifd = directory(sizes.count, in: source, little: little) {
            guard let count = number(in: source, at: ifd, size: 2, little: little), count > 0, count < 500 else { return nil }
            var width: Int?, height: Int?
            for k in 0..<count {
                let at = ifd + 2 + 12 * k
                guard let tag = number(in: source, at: at, size: 2, little: little),
                      let type = number(in: source, at: at + 2, size: 2, little: little) else { return nil }
                guard tag == 256 || tag == 257, type == 3 || type == 4,
                      let value = number(in: source, at: at + 8, size: type == 3 ? 2 : 4, little: little) else { continue }
                if tag == 256 { width = value } else { height = value }
            }
            guard let width, let height else { return nil }
            sizes.append((width, height))
        }
        return sizes.isEmpty ? nil : sizes
    }

    /// Where page `index`'s directory starts, following the chain from the header.
    private static func directory(_ index: Int, in source: any ByteSource, little: Bool) -> Int? {
        guard var ifd = number(in: source, at: 4, size: 4, little: little), ifd > 0 else { return nil }
        var seen: Set<Int> = [ifd]
        for _ in 0..<index {
            guard let count = number(in: source, at: ifd, size: 2, little: little),
                  let next = number(in: source, at: ifd + 2 + 12 * count, size: 4, little: little), next > 0,
                  seen.insert(next).inserted else { return nil }
            ifd = next
        }
        return ifd
    }

    private static func number(in source: any ByteSource, at: Int, size: Int, little: Bool) -> Int? {
        guard at >= 0, let bytes = source.bytes(at: at, count: size) else { return nil }
        return (0..<size).reduce(0) { $0 | Int(bytes[little ? $1 : size - 1 - $1]) << (8 * $1) }
    }
}
