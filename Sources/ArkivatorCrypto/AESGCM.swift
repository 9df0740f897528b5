internal import CLibCrypto

/// AES-256-GCM, the one cipher of the library (fødselsnumre and other sealed fields). Sealed bytes
/// are nonce (12) ‖ ciphertext ‖ tag (16): the layout values have been stored in from the start,
/// so what a library sealed before opens the same.
public enum AESGCM {
    public static let keyCount = 32
    public static let nonceCount = 12
    public static let tagCount = 16

    /// `plain` sealed under `key` with a fresh random nonce, bound to `context` (authenticated, not
    /// encrypted); nil when the key is not 32 bytes or the cipher fails.
    public static func seal(_ plain: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        guard key.count == keyCount, plain.count < Int(Int32.max) - tagCount, context.count < Int(Int32.max) else { return nil }
        var nonce = [UInt8](repeating: 0, count: nonceCount)
        guard RAND_bytes(&nonce, Int32(nonceCount)) == 1, let cipher = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(cipher) }
        guard EVP_EncryptInit_ex(cipher, EVP_aes_256_gcm(), nil, key, nonce) == 1 else { return nil }
        var length: Int32 = 0
        if !context.isEmpty, EVP_EncryptUpdate(cipher, nil, &length, context, Int32(context.count)) != 1 { return nil }
        var sealed = [UInt8](repeating: 0, count: plain.count + tagCount)
        var written: Int32 = 0
        if !plain.isEmpty, EVP_EncryptUpdate(cipher, &sealed, &written, plain, Int32(plain.count)) != 1 { return nil }
        var rest = [UInt8](repeating: 0, count: tagCount)
        guard written == Int32(plain.count), EVP_EncryptFinal_ex(cipher, &rest, &length) == 1, length == 0 else { return nil }
        var tag = [UInt8](repeating: 0, count: tagCount)
        guard EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_AEAD_GET_TAG, Int32(tagCount), &tag) == 1 else { return nil }
        return nonce + sealed.prefix(plain.count) + tag
    }

    /// What ``seal(_:key:context:)`` made, opened with the same key and context; nil when the key
    /// or the context is another, or the bytes were changed.
    public static func open(_ sealed: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        guard key.count == keyCount, sealed.count >= nonceCount + tagCount, sealed.count < Int(Int32.max),
              context.count < Int(Int32.max), let cipher = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(cipher) }
        let nonce = Array(sealed.prefix(nonceCount))
        let body = Array(sealed[nonceCount..<(sealed.count - tagCount)])
        var tag = Array(sealed.suffix(tagCount))
        guard EVP_DecryptInit_ex(cipher, EVP_aes_256_gcm(), nil, key, nonce) == 1 else { return nil }
        var length: Int32 = 0
        if !context.isEmpty, EVP_DecryptUpdate(cipher, nil, &length, context, Int32(context.count)) != 1 { return nil }
        var plain = [UInt8](repeating: 0, count: body.count + tagCount)
        var written: Int32 = 0
        if !body.isEmpty, EVP_DecryptUpdate(cipher, &plain, &written, body, Int32(body.count)) != 1 { return nil }
        guard EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_AEAD_SET_TAG, Int32(tagCount), &tag) == 1 else { return nil }
        var rest = [UInt8](repeating: 0, count: tagCount)
        guard written == Int32(body.count), EVP_DecryptFinal_ex(cipher, &rest, &length) == 1, length == 0 else { return nil }
        return Array(plain.prefix(body.count))
    }
}
