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
    public static func random(bytes count: Int) -> String { string(SecureRandom.bytes(count)) }

    private static let alphabet = Array("0123456789abcdef".utf8)
}

/// Random bytes from the system's generator (`getrandom`): the one source of keys, tokens,
/// secrets, challenges and names no one can guess.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<max(count, 0)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
