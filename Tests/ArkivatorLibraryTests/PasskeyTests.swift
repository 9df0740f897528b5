import ArkivatorCore
import ArkivatorCrypto
@testable import ArkivatorLibrary
import Foundation
import Testing

/// A passkey's registration and sign-in checked against a software authenticator: a P-256 key
/// made here, answering as a platform authenticator does (attestation "none").
@Suite struct PasskeyTests {
    struct Authenticator {
        let key: P256.SigningKey
        let credentialID: [UInt8] = Array(repeating: 7, count: 16)
        var count: UInt32 = 0

        init() throws { key = try #require(P256.SigningKey()) }

        static func cbor(_ item: CBOR) -> [UInt8] {
            func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
                if value < 24 { return [major << 5 | UInt8(value)] }
                if value < 256 { return [major << 5 | 24, UInt8(value)] }
                return [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xff)]
            }
            switch item {
            case .integer(let n): return n >= 0 ? head(0, UInt64(n)) : head(1, UInt64(-1 - n))
            case .bytes(let b): return head(2, UInt64(b.count)) + b
            case .text(let t): return head(3, UInt64(t.utf8.count)) + Array(t.utf8)
            case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(cbor)
            case .map(let pairs): return head(5, UInt64(pairs.count)) + pairs.flatMap { cbor($0.0) + cbor($0.1) }
            case .simple(let v): return [7 << 5 | v]
            }
        }

        func authenticatorData(rpID: String, attested: Bool) -> [UInt8] {
            var data = Array(SHA256.hash(data: Data(rpID.utf8)))
            data.append(attested ? 0x45 : 0x05)
            data += withUnsafeBytes(of: count.bigEndian) { Array($0) }
            if attested {
                let point = key.publicKey
                let cose = Self.cbor(.map([(.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
                                           (.integer(-2), .bytes(Array(point[1...32]))), (.integer(-3), .bytes(Array(point[33...64])))]))
                data += Array(repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + credentialID + cose
            }
            return data
        }

        static func clientData(_ type: String, challenge: [UInt8], origin: String) -> [UInt8] {
            Array("{\"type\":\"\(type)\",\"challenge\":\"\(Passkey.base64URLEncode(challenge))\",\"origin\":\"\(origin)\",\"crossOrigin\":false}".utf8)
        }

        func register(challenge: [UInt8], origin: String, rpID: String) -> (client: [UInt8], attestation: [UInt8]) {
            let attestation = Self.cbor(.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                                              (.text("authData"), .bytes(authenticatorData(rpID: rpID, attested: true)))]))
            return (Self.clientData("webauthn.create", challenge: challenge, origin: origin), attestation)
        }

        mutating func signIn(challenge: [UInt8], origin: String, rpID: String) throws -> (client: [UInt8], data: [UInt8], signature: [UInt8]) {
            count += 1
            let client = Self.clientData("webauthn.get", challenge: challenge, origin: origin)
            let data = authenticatorData(rpID: rpID, attested: false)
            let signature = try #require(key.signature(of: data + SHA256.hash(data: client)))
            return (client, data, signature)
        }
    }

    @Test func aPasskeyIsRegisteredAndSignsInOnlyWhereAndWhenItShould() throws {
        var authenticator = try Authenticator()
        let origin = "http://localhost:8080", rpID = "localhost", challenge = Array(repeating: UInt8(42), count: 32)
        let made = authenticator.register(challenge: challenge, origin: origin, rpID: rpID)
        let registered = try Passkey.register(clientDataJSON: made.client, attestationObject: made.attestation, challenge: challenge,
                                              origin: origin, rpID: rpID)
        #expect(registered.credentialID == authenticator.credentialID && registered.publicKey == authenticator.key.publicKey)
        #expect(throws: PasskeyFailure.self) {
            try Passkey.register(clientDataJSON: made.client, attestationObject: made.attestation, challenge: Array(repeating: 1, count: 32),
                                 origin: origin, rpID: rpID)
        }
        #expect(throws: PasskeyFailure.self) {
            try Passkey.register(clientDataJSON: made.client, attestationObject: made.attestation, challenge: challenge,
                                 origin: "http://evil.example", rpID: rpID)
        }

        let signed = try authenticator.signIn(challenge: challenge, origin: origin, rpID: rpID)
        let count = try Passkey.signIn(clientDataJSON: signed.client, authenticatorData: signed.data, signature: signed.signature,
                                       challenge: challenge, origin: origin, rpID: rpID, publicKey: registered.publicKey, storedCount: 0)
        #expect(count == 1)
        #expect(throws: PasskeyFailure.self, "a count that does not grow: a copied key") {
            try Passkey.signIn(clientDataJSON: signed.client, authenticatorData: signed.data, signature: signed.signature,
                               challenge: challenge, origin: origin, rpID: rpID, publicKey: registered.publicKey, storedCount: 1)
        }
        #expect(throws: PasskeyFailure.self, "another site's relying party") {
            try Passkey.signIn(clientDataJSON: signed.client, authenticatorData: signed.data, signature: signed.signature,
                               challenge: challenge, origin: origin, rpID: "arkiv.lan", publicKey: registered.publicKey, storedCount: 0)
        }
        var tampered = signed.signature
        tampered[tampered.count - 1] ^= 1
        #expect(throws: PasskeyFailure.self) {
            try Passkey.signIn(clientDataJSON: signed.client, authenticatorData: signed.data, signature: tampered,
                               challenge: challenge, origin: origin, rpID: rpID, publicKey: registered.publicKey, storedCount: 0)
        }
        #expect(throws: (any Error).self) { try CBOR.decode([0x5f]) }
        #expect(throws: (any Error).self) { try CBOR.decode([0x58, 200, 1]) }
    }
}
