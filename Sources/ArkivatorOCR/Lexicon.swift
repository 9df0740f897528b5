import Foundation

/// The words of Norwegian (bokmål and nynorsk, every inflected form) and Danish, as Debian's word
/// lists hold them (`wnorwegian`, `wdanish`, which `make demo` installs): 1.9 million forms, kept as
/// a sorted list of 64-bit hashes of their lower-case spelling (15 MB), loaded once per process on
/// first need. Used to tell a word OCR misread in a known way from a word (``ConfusionRepair``).
/// Without the lists nothing is repaired.
public final class Lexicon: Sendable {
    /// Where Debian puts the word lists; a list that is missing is left out.
    public static let defaultPaths = ["/usr/share/dict/bokmaal", "/usr/share/dict/nynorsk", "/usr/share/dict/danish"]

    /// The lists at ``defaultPaths``, loaded on first use; nil when none is installed.
    public static let shared: Lexicon? = Lexicon(paths: defaultPaths)

    private let hashes: [UInt64]

    /// Reads the word lists at `paths` (one word a line, UTF-8 or ISO 8859-1); nil when none
    /// could be read.
    public init?(paths: [String]) {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(2_000_000)
        var read = false
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            read = true
            let latin1 = String(data: data, encoding: .utf8) == nil
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var hash = Self.offset
                var empty = true
                var previous: UInt8 = 0
                for byte in bytes {
                    defer { previous = byte }
                    if byte == 0x0A || byte == 0x0D {
                        if !empty { hashes.append(hash) }
                        hash = Self.offset
                        empty = true
                        continue
                    }
                    empty = false
                    if latin1, byte >= 0x80 {
                        // ISO 8859-1 as UTF-8, capitals (À–Þ less ×) made small.
                        let small = (0xC0...0xDE).contains(byte) && byte != 0xD7 ? byte + 0x20 : byte
                        Self.mix(&hash, small >= 0xC0 ? 0xC3 : 0xC2)
                        Self.mix(&hash, small >= 0xC0 ? small - 0x40 : small)
                    } else {
                        Self.mix(&hash, Self.lowered(byte, previous: previous))
                    }
                }
                if !empty { hashes.append(hash) }
            }
        }
        guard read, !hashes.isEmpty else { return nil }
        hashes.sort()
        self.hashes = hashes
    }

    /// Whether the word (any case) is in the lists.
    public func contains(_ word: String) -> Bool {
        var hash = Self.offset
        var previous: UInt8?
        for byte in word.utf8 {
            Self.mix(&hash, Self.lowered(byte, previous: previous))
            previous = byte
        }
        var low = 0, high = hashes.count
        while low < high {
            let middle = (low + high) / 2
            if hashes[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < hashes.count && hashes[low] == hash
    }

    private static let offset: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a.
    private static func mix(_ hash: inout UInt64, _ byte: UInt8) {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// A UTF-8 byte made small: ASCII capitals, and the second byte of the Latin-1 capitals
    /// (Æ Ø Å and the accented ones, U+00C0–U+00DE less ×).
    private static func lowered(_ byte: UInt8, previous: UInt8?) -> UInt8 {
        if (0x41...0x5A).contains(byte) { return byte + 0x20 }
        if previous == 0xC3, (0x80...0x9E).contains(byte), byte != 0x97 { return byte + 0x20 }
        return byte
    }
}
