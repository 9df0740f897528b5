internal import ArkivatorCrypto
import Foundation

/// Why a passkey's answer was not taken: said to the person in plain words by the caller.
public struct PasskeyFailure: Error, Sendable, Equatable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A passkey (WebAuthn): what the browser's authenticator (Face ID, Touch ID, a fingerprint, a
/// phone's screen lock) answers is checked here. Registration keeps the credential's id and its
/// P-256 public key (ES256, the algorithm every platform authenticator offers); a sign-in checks
/// the signature over the authenticator data and the client data, the challenge, the origin and
/// the relying party. Attestation is not asked for ("none"): a household does not pick makers.
public enum Passkey {
    /// A new credential, checked.
    public struct Registered: Sendable, Equatable {
        public var credentialID: [UInt8]
        /// The public key, uncompressed (0x04 ‖ x ‖ y).
        public var publicKey: [UInt8]
        public var signCount: UInt32
    }

    /// Checks a registration's `clientDataJSON` and `attestationObject` against the challenge
    /// given, this site's origin and relying party id.
    public static func register(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8], origin: String,
                                rpID: String) throws -> Registered {
        try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge, origin: origin)
        guard case .map(let attestation)? = try? CBOR.decode(attestationObject),
              case .bytes(let authData)? = attestation.first(where: { $0.0 == .text("authData") })?.1 else {
            throw PasskeyFailure("attestationObject")
        }
        let flags = try checkAuthenticatorData(authData, rpID: rpID)
        guard flags & 0x40 != 0, authData.count > 55 else { throw PasskeyFailure("no credential data") }
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        guard authData.count >= 55 + idLength else { throw PasskeyFailure("credential id") }
        let credentialID = Array(authData[55..<(55 + idLength)])
        var rest = Array(authData[(55 + idLength)...])
        guard case .map(let key) = try CBOR.decode(&rest) else { throw PasskeyFailure("public key") }
        func value(_ label: Int64) -> CBOR? { key.first { $0.0 == CBOR.integer(label) }?.1 }
        guard value(1) == .integer(2), value(3) == .integer(-7), value(-1) == .integer(1),
              case .bytes(let x)? = value(-2), case .bytes(let y)? = value(-3), x.count == 32, y.count == 32 else {
            throw PasskeyFailure("only ES256 (P-256) keys")
        }
        let publicKey = [0x04] + x + y
        guard P256.isPublicKey(publicKey) else { throw PasskeyFailure("public key") }
        return Registered(credentialID: credentialID, publicKey: publicKey, signCount: signCount(authData))
    }

    /// Checks a sign-in's answer for a credential with `publicKey`; returns its new signature
    /// count. A count that does not grow (when the authenticator counts) means a copied key.
    public static func signIn(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8],
                              origin: String, rpID: String, publicKey: [UInt8], storedCount: UInt32) throws -> UInt32 {
        try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge, origin: origin)
        _ = try checkAuthenticatorData(authenticatorData, rpID: rpID)
        let signed = authenticatorData + SHA256.hash(data: clientDataJSON)
        guard P256.isValidSignature(signature, of: signed, publicKey: publicKey) else { throw PasskeyFailure("signature") }
        let count = signCount(authenticatorData)
        if count != 0 || storedCount != 0, count <= storedCount { throw PasskeyFailure("signature count") }
        return count
    }

    static func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8], origin: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              object["type"] as? String == type, let sent = object["challenge"] as? String,
              base64URLDecode(sent) == challenge, object["origin"] as? String == origin else {
            throw PasskeyFailure("client data")
        }
    }

    /// Checks the relying party's hash and the user-present flag; returns the flags.
    static func checkAuthenticatorData(_ data: [UInt8], rpID: String) throws -> UInt8 {
        guard data.count >= 37, Array(data[0..<32]) == Array(SHA256.hash(data: Data(rpID.utf8))) else {
            throw PasskeyFailure("relying party")
        }
        guard data[32] & 0x01 != 0 else { throw PasskeyFailure("user not present") }
        return data[32]
    }

    static func signCount(_ data: [UInt8]) -> UInt32 {
        data[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// base64url without padding, as WebAuthn writes binary in JSON.
    public static func base64URLDecode(_ text: String) -> [UInt8]? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base += String(repeating: "=", count: (4 - base.count % 4) % 4)
        return Data(base64Encoded: base).map(Array.init)
    }

    public static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The part of CBOR (RFC 8949) a passkey's answer uses: integers, byte and text strings, arrays,
/// maps, and the simple values. Definite lengths only, as WebAuthn requires; nesting bounded.
enum CBOR: Equatable, Sendable {
    case integer(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(CBOR, CBOR)])
    case simple(UInt8)

    static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): x == y
        case let (.bytes(x), .bytes(y)): x == y
        case let (.text(x), .text(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.map(x), .map(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.simple(x), .simple(y)): x == y
        default: false
        }
    }

    struct Malformed: Error {}

    static func decode(_ bytes: [UInt8]) throws -> CBOR {
        var rest = bytes
        return try decode(&rest)
    }

    /// Decodes one item from the front of `bytes`, leaving the rest.
    static func decode(_ bytes: inout [UInt8], depth: Int = 0) throws -> CBOR {
        guard depth < 16, let first = bytes.first else { throw Malformed() }
        bytes.removeFirst()
        let major = first >> 5, info = first & 0x1f
        func argument() throws -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                let size = 1 << Int(info - 24)
                guard bytes.count >= size else { throw Malformed() }
                let value = bytes.prefix(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                bytes.removeFirst(size)
                return value
            default: throw Malformed()
            }
        }
        switch major {
        case 0:
            let value = try argument()
            guard value <= UInt64(Int64.max) else { throw Malformed() }
            return .integer(Int64(value))
        case 1:
            let value = try argument()
            guard value < UInt64(Int64.max) else { throw Malformed() }
            return .integer(-1 - Int64(value))
        case 2, 3:
            let length = try argument()
            guard length <= UInt64(bytes.count) else { throw Malformed() }
            let content = Array(bytes.prefix(Int(length)))
            bytes.removeFirst(Int(length))
            if major == 2 { return .bytes(content) }
            guard let text = String(bytes: content, encoding: .utf8) else { throw Malformed() }
            return .text(text)
        case 4:
            let count = try argument()
            guard count <= UInt64(bytes.count) else { throw Malformed() }
            return .array(try (0..<Int(count)).map { _ in try decode(&bytes, depth: depth + 1) })
        case 5:
            let count = try argument()
            guard count <= UInt64(bytes.count) else { throw Malformed() }
            return .map(try (0..<Int(count)).map { _ in (try decode(&bytes, depth: depth + 1), try decode(&bytes, depth: depth + 1)) })
        case 7:
            guard info < 24 else { throw Malformed() }
            return .simple(info)
        default:
            throw Malformed()
        }
    }
}
