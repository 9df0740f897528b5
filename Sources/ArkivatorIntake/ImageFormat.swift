import ArkivatorCore

/// The image formats Arkivator reads, recognised by their first bytes, never by the file name.
public enum ImageFormat: String, Sendable, Equatable, Codable {
    case jpeg
    case png
    case tiff
    case webp
    case heic
    case pdf
    case gif
    case bmp

    /// How much of a file's start and end ``sniff(head:tail:size:)`` looks at.
    public static let probeBytes = 64 * 1024

    /// Checks the magic bytes (and, for JPEG and PNG, the end marker) of a whole file.
    ///
    /// Throws an `InputError` that names what the bytes look like when they are not an image we read.
    public static func sniff(_ bytes: [UInt8]) throws(InputError) -> ImageFormat {
        try sniff(head: Array(bytes.prefix(probeBytes)), tail: Array(bytes.suffix(probeBytes)), size: bytes.count)
    }

    /// ``sniff(_:)`` for a file that is not in memory: its first and last bytes (up to
    /// ``probeBytes`` each; the same bytes when the file is that short) and its size.
    public static func sniff(head: [UInt8], tail: [UInt8], size: Int) throws(InputError) -> ImageFormat {
        guard size > 0, !head.isEmpty else { throw .empty }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            guard hasJPEGEnd(tail) else { throw .truncated }
            return .jpeg
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard hasPNGEnd(tail) else { throw .truncated }
            return .png
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return .tiff
        }
        if FileSignature.isPDF(head) {
            // A whole PDF ends with `%%EOF` (a writer may add a line or two after it).
            let end = Array(tail.suffix(1024)), marker = Array("%%EOF".utf8)
            guard end.count >= marker.count, (0...(end.count - marker.count)).contains(where: { Array(end[$0..<($0 + marker.count)]) == marker }) else {
                throw .truncated
            }
            return .pdf
        }
        if FileSignature.isHEIF(head) { return .heic }
        if head.count > 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            // The RIFF header says how long the file is.
            let length = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            guard size >= length + 8 else { throw .truncated }
            return .webp
        }
        if FileSignature.isGIF(head) {
            // A whole GIF ends with its trailer byte, 0x3B (a writer may pad with zeros after it).
            guard tail.last(where: { $0 != 0 }) == 0x3B else { throw .truncated }
            return .gif
        }
        if FileSignature.isBMP(head) {
            // An uncompressed bitmap's header says how many bytes of pixels follow.
            if let needed = bmpLength(head), size < needed { throw .truncated }
            return .bmp
        }
        throw otherFormat(head)
    }

    /// The length an uncompressed Windows bitmap must have: where its pixels start plus its rows
    /// (each padded to 4 bytes); nil when the header does not tell (compressed, or an old header).
    private static func bmpLength(_ bytes: [UInt8]) -> Int? {
        func number(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        guard bytes.count >= 34, number(14, 4) >= 40, number(30, 4) == 0 else { return nil }
        let width = number(18, 4), rawHeight = UInt32(number(22, 4)), depth = number(28, 2)
        let height = Int(Int32(bitPattern: rawHeight).magnitude)
        guard width > 0, width <= 100_000, height <= 100_000, (1...32).contains(depth) else { return nil }
        return number(10, 4) + (width * depth + 31) / 32 * 4 * height
    }

    /// A JPEG ends with the EOI marker FF D9; some writers pad after it, so look near the end.
    private static func hasJPEGEnd(_ bytes: [UInt8]) -> Bool {
        let window = bytes.suffix(4096)
        var previous: UInt8 = 0
        for byte in window {
            if previous == 0xFF && byte == 0xD9 { return true }
            previous = byte
        }
        return false
    }

    /// A PNG ends with an IEND chunk.
    private static func hasPNGEnd(_ bytes: [UInt8]) -> Bool {
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44]
        let tail = Array(bytes.suffix(64))
        guard tail.count >= iend.count else { return false }
        for start in 0...(tail.count - iend.count) where Array(tail[start..<start + iend.count]) == iend {
            return true
        }
        return false
    }

    /// Names what a non-image looks like, so the message can say more than "not an image".
    private static func otherFormat(_ bytes: [UInt8]) -> InputError {
        if bytes.count > 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if brand == "avif" { return .unsupportedFormat("AVIF") }
            return .notAnImage(detected: "video")
        }
        if bytes.starts(with: Array("GIF8".utf8)) { return .unsupportedFormat("GIF") }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .notAnImage(detected: "zip") }
        let sample = bytes.prefix(512)
        let printable = sample.filter { $0 == 9 || $0 == 10 || $0 == 13 || $0 >= 32 }.count
        if printable == sample.count || String(validating: sample, as: UTF8.self) != nil {
            return .notAnImage(detected: UILanguage.current == .norwegian ? "tekst" : "text")
        }
        return .notAnImage(detected: UILanguage.current == .norwegian ? "ukjente data" : "unknown data")
    }
}

private extension String {
    init?(validating bytes: ArraySlice<UInt8>, as: UTF8.Type) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var result = ""
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value < 9 { return nil }
                result.unicodeScalars.append(scalar)
            case .emptyInput:
                self = result
                return
            case .error:
                return nil
            }
        }
    }
}
