/// The EXIF orientation of a JPEG (a phone's photo is stored as the sensor saw it, with a tag
/// that says how to turn it): read from the APP1 `Exif` segment's first directory, tag 0x0112.
public enum ExifOrientation {
    /// 1 (upright) … 8, or nil when the file has no (readable) orientation tag.
    public static func of(jpeg bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        // Walk the segments before the image data (start of scan).
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 8, Array(bytes[(i + 4)..<(i + 10)]) == Array("Exif\0\0".utf8) {
                return orientation(inTIFF: Array(bytes[(i + 10)..<(i + 2 + length)]))
            }
            i += 2 + length
        }
        return nil
    }

    /// The orientation tag of a TIFF structure's first directory (the EXIF payload).
    static func orientation(inTIFF tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let directory = u32(4), let count = u16(directory), count < 1000 else { return nil }
        for entry in 0..<count {
            let at = directory + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}
