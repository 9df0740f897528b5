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

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
}
