/// File kinds known by their first bytes, where more than one stage must know them: intake
/// names a file's format, imaging picks the decoder.
public enum FileSignature {
    /// `%PDF`.
    public static func isPDF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("%PDF".utf8))
    }

    /// An ISO media file (`ftyp`) whose brand is one of HEIF's: `heic`, `mif1` …
    public static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        return heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
    }

    /// `GIF87a` or `GIF89a`.
    public static func isGIF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
    }

    /// `BM` followed, after the 14-byte file header, by the length of one of the Windows bitmap
    /// headers (12, 40, 52, 56, 64, 108 or 124 bytes): two letters alone are too weak a sign.
    public static func isBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 26, bytes.starts(with: Array("BM".utf8)) else { return false }
        let header = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        return [12, 40, 52, 56, 64, 108, 124].contains(header)
    }

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
}
