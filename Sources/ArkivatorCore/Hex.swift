/// Bytes as lowercase hexadecimal, two digits a byte: the one writer of digests (SHA-256 of a
/// file, a token's hash) and of random names.
public enum Hex {
    /// `bytes` as hexadecimal (a SHA-256 digest: 64 digits).
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(64)
        for byte in bytes {
            digits.append(alphabet[Int(byte >> 4)])
            digits.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `count` random bytes as hexadecimal (a name no one can guess).
    public static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return string((0..<max(count, 0)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static let alphabet = Array("0123456789abcdef".utf8)
}
