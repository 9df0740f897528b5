/// Multi-page TIFF files made in memory: bilevel, uncompressed, every page pointing at the same
/// strip of white pixels. A thousand A4 pages at 300 DPI fit in ~1.2 MB on disk but would take
/// ~1 GB decoded — the shape of a file that must be refused (or read a page at a time).
public enum TIFFMaker {
    /// `black`: every pixel black (BlackIsZero) instead of white.
    public static func pages(_ count: Int, width: Int = 2480, height: Int = 3508, black: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) { bytes += [UInt8(value & 0xff), UInt8((value >> 8) & 0xff)] }
        func u32(_ value: Int) { u16(value & 0xffff); u16((value >> 16) & 0xffff) }
        let rowBytes = (width + 7) / 8
        let stripBytes = rowBytes * height
        let stripOffset = 8
        let firstIFD = stripOffset + stripBytes + (stripBytes % 2)
        // Header: little-endian, 42, the first directory.
        bytes += Array("II".utf8)
        u16(42)
        u32(firstIFD)
        bytes += [UInt8](repeating: 0, count: firstIFD - 8)  // the strip: white (WhiteIsZero), or black
        // (tag, type, value): type 3 = SHORT, 4 = LONG; one value each, in tag order.
        let entries: [(Int, Int, Int)] = [
            (256, 4, width), (257, 4, height), (258, 3, 1), (259, 3, 1), (262, 3, black ? 1 : 0),
            (273, 4, stripOffset), (277, 3, 1), (278, 4, height), (279, 4, stripBytes),
        ]
        let ifdSize = 2 + entries.count * 12 + 4
        for page in 0..<count {
            u16(entries.count)
            for (tag, type, value) in entries {
                u16(tag)
                u16(type)
                u32(1)
                if type == 3 { u16(value); u16(0) } else { u32(value) }
            }
            u32(page + 1 < count ? firstIFD + (page + 1) * ifdSize : 0)
        }
        return bytes
    }
}
