internal import CLibCrypto
import Foundation

/// SHA-256, fed in pieces (a file a buffer at a time) or all at once: the digest of file contents,
/// of a document's identity and of the secrets the library keeps only hashed.
///
/// A plain value, like the context it holds: the low-level calls of the system's libcrypto need
/// no allocation and cannot fail, so neither can a digest.
public struct SHA256 {
    private var context = SHA256_CTX()

    public init() { SHA256_Init(&context) }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, !bufferPointer.isEmpty else { return }
        SHA256_Update(&context, base, bufferPointer.count)
    }

    public mutating func update(data: some DataProtocol) {
        for region in data.regions { region.withUnsafeBytes { update(bufferPointer: $0) } }
    }

    /// The 32 bytes of the digest of everything given so far (the hasher can go on after).
    public func finalize() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&digest, &copy)
        return digest
    }

    public static func hash(data: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// HMAC (RFC 2104) over SHA-1: what authenticator apps compute a one-time code with (RFC 4226).
public enum HMACSHA1 {
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let block = 64
        var padded = key.count > block ? sha1(key) : key
        padded += [UInt8](repeating: 0, count: block - padded.count)
        let inner = sha1(padded.map { $0 ^ 0x36 } + message)
        return sha1(padded.map { $0 ^ 0x5c } + inner)
    }

    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var context = SHA_CTX()
        SHA1_Init(&context)
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, !buffer.isEmpty { SHA1_Update(&context, base, buffer.count) }
        }
        var digest = [UInt8](repeating: 0, count: 20)
        SHA1_Final(&digest, &context)
        return digest
    }
}
