import ArkivatorCrypto
import Foundation
import Testing

/// The digests, the cipher and the signatures against published test vectors and against values
/// made by another implementation (Python's `cryptography`, on OpenSSL's C code through its own
/// bindings), so that what a library sealed or hashed before still opens and matches.
@Suite struct CryptoTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
              let byte = UInt8(hex[index..<next], radix: 16) {
            out.append(byte)
            index = next
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesThePublishedVectorsWholeAndInPieces() {
        #expect(Self.hex(SHA256.hash(data: Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(data: [UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let text = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var hasher = SHA256()
        for piece in stride(from: 0, to: text.count, by: 7) {
            hasher.update(data: Data(text[piece..<min(piece + 7, text.count)]))
        }
        #expect(Self.hex(hasher.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hasher.finalize() == SHA256.hash(data: text), "finalize leaves the hasher as it was")
    }

    @Test func hmacSHA1MatchesRFC2202() {
        #expect(Self.hex(HMACSHA1.code(key: Array(repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(Self.hex(HMACSHA1.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(Self.hex(HMACSHA1.code(key: Array(repeating: 0xaa, count: 80),
                                       message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }

    @Test func aesGCMOpensWhatAnotherImplementationSealedAndRefusesAnyChange() throws {
        let key = Array(0..<32).map(UInt8.init), context = Array("fnr:member:7".utf8)
        let sealed = Self.bytes("6465666768696a6b6c6d6e6f7929ed524cdf61a607526ec891041894acb49681c7a59cd6cbeaecb0c7895fca")
        #expect(AESGCM.open(sealed, key: key, context: context) == Array("12345678901 Kari".utf8))
        var changed = sealed
        changed[14] ^= 1
        #expect(AESGCM.open(changed, key: key, context: context) == nil)
        #expect(AESGCM.open(sealed, key: key, context: Array("fnr:member:8".utf8)) == nil)
        #expect(AESGCM.open(sealed, key: Array(repeating: 1, count: 32), context: context) == nil)
        #expect(AESGCM.open(Array(sealed.prefix(27)), key: key, context: context) == nil)

        let plain = Array("Kari Nordmann".utf8)
        let first = try #require(AESGCM.seal(plain, key: key, context: context))
        let second = try #require(AESGCM.seal(plain, key: key, context: context))
        #expect(first.count == 12 + plain.count + 16 && first != second, "a new nonce each time")
        #expect(AESGCM.open(first, key: key, context: context) == plain)
        #expect(AESGCM.open(try #require(AESGCM.seal([], key: key, context: [])), key: key, context: []) == [])
        #expect(AESGCM.seal(plain, key: Array(repeating: 0, count: 16), context: context) == nil)
    }

    @Test func p256ChecksAnotherImplementationsSignatureAndRefusesPointsOffTheCurve() throws {
        let key = Self.bytes("04471c3e758c4904285bba7e53118ed0f524adeb0757d25bd2f8e7b0d76dfa714cdd520f7aca8a8b917acc37f51de8f0c9bbe3ad858382e702dc25a12d09f7a858")
        let signature = Self.bytes("3046022100fae3c272029cee8fee42eed7769b89b1b7751dc52f1d4799229b02cd16a17f8b022100a9f4cf34148b2272c0f2452e2fd0bc6e9d26e3c686ded0b381bad2bc69cbf2bd")
        let message = Array("signed by another implementation".utf8)
        #expect(P256.isPublicKey(key))
        #expect(P256.isValidSignature(signature, of: message, publicKey: key))
        #expect(!P256.isValidSignature(signature, of: message + [0], publicKey: key))
        #expect(!P256.isValidSignature(Array(signature.dropLast()), of: message, publicKey: key))

        var offTheCurve = key
        offTheCurve[64] ^= 1
        #expect(!P256.isPublicKey(offTheCurve))
        #expect(!P256.isValidSignature(signature, of: message, publicKey: offTheCurve))
        #expect(!P256.isPublicKey(Array(key.dropFirst())))

        let own = try #require(P256.SigningKey())
        #expect(own.publicKey.count == 65 && P256.isPublicKey(own.publicKey))
        let signed = try #require(own.signature(of: message))
        #expect(P256.isValidSignature(signed, of: message, publicKey: own.publicKey))
        #expect(!P256.isValidSignature(signed, of: message, publicKey: key))
    }
}
