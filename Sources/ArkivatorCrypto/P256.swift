internal import CLibCrypto

/// ECDSA over P-256 with SHA-256 (ES256), the signatures of passkeys.
public enum P256 {
    /// What comes before an uncompressed P-256 public key (0x04 ‖ x ‖ y) in its
    /// SubjectPublicKeyInfo (RFC 5480): the form libcrypto reads a public key in.
    static let publicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D,
        0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// Whether `key` (0x04 ‖ x ‖ y) is a point of the curve.
    public static func isPublicKey(_ key: [UInt8]) -> Bool { PublicKey(key) != nil }

    /// Whether `signature` (DER) is `publicKey`'s signature of `message`.
    public static func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard let key = PublicKey(publicKey), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// A public key read by libcrypto, freed with its owner.
    final class PublicKey {
        let pointer: OpaquePointer

        init?(_ key: [UInt8]) {
            guard key.count == 65, key[0] == 0x04 else { return nil }
            let info = publicKeyInfoPrefix + key
            let read: OpaquePointer? = info.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
            guard let read else { return nil }
            pointer = read
        }

        deinit { EVP_PKEY_free(pointer) }
    }

    /// A new private key: the authenticator's side, which the tests play.
    public final class SigningKey {
        private let pointer: OpaquePointer

        public init?() {
            guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            var made: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
                  EVP_PKEY_keygen(context, &made) == 1, let made else { return nil }
            pointer = made
        }

        deinit { EVP_PKEY_free(pointer) }

        /// The public key, uncompressed (0x04 ‖ x ‖ y).
        public var publicKey: [UInt8] {
            let count = i2d_PUBKEY(pointer, nil)
            guard count == Int32(publicKeyInfoPrefix.count + 65) else { return [] }
            var info = [UInt8](repeating: 0, count: Int(count))
            let written = info.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return i2d_PUBKEY(pointer, &cursor)
            }
            return written == count ? Array(info.suffix(65)) : []
        }

        /// The signature (DER) of `message`; nil when libcrypto fails.
        public func signature(of message: [UInt8]) -> [UInt8]? {
            guard let context = EVP_MD_CTX_new() else { return nil }
            defer { EVP_MD_CTX_free(context) }
            var count = 0
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
                  EVP_DigestSign(context, nil, &count, message, message.count) == 1 else { return nil }
            var signature = [UInt8](repeating: 0, count: count)
            guard EVP_DigestSign(context, &signature, &count, message, message.count) == 1 else { return nil }
            return Array(signature.prefix(count))
        }
    }
}
