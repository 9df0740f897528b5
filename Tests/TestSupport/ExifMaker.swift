/// A JPEG with an EXIF orientation tag, as a phone writes one: an APP1 `Exif` segment put right
/// after the start-of-image marker, holding one directory with the orientation (tag 0x0112).
public enum ExifMaker {
    public static func jpeg(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool = true) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] : [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)]
        }
        func u32(_ value: Int) -> [UInt8] { bigEndian ? u16(value >> 16) + u16(value & 0xffff) : u16(value & 0xffff) + u16(value >> 16) }
        var tiff: [UInt8] = bigEndian ? Array("MM".utf8) : Array("II".utf8)
        tiff += u16(42) + u32(8)
        tiff += u16(1)                                            // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)                                            // no next directory
        let payload = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xff)] + payload
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
    }
}
