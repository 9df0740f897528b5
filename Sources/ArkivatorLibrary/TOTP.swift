import ArkivatorCore
internal import ArkivatorCrypto
import Foundation

/// Time-based one-time codes (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits), as authenticator
/// apps make them from a shared secret.
public enum TOTP {
    public static let step: TimeInterval = 30
    public static let digits = 6

    /// The time step `date` falls in.
    public static func timeStep(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / step).rounded(.down)) }

    /// The code for `secret` at time step `counter`, `digits` long (RFC 4226's truncation).
    public static func code(secret: [UInt8], counter: Int64, digits: Int = digits) -> String {
        var big = UInt64(bitPattern: counter).bigEndian
        let message = withUnsafeBytes(of: &big) { Data($0) }
        let mac = HMACSHA1.code(key: secret, message: Array(message))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let number = String(value % modulus)
        return String(repeating: "0", count: max(0, digits - number.count)) + number
    }

    /// The time step whose code `typed` is, within one step of `now` (a phone's clock a little
    /// off), and after `after` (a code works once); nil when none is.
    public static func matchingStep(_ typed: String, secret: [UInt8], now: Date, after: Int64) -> Int64? {
        let code = typed.filter(\.isNumber)
        guard code.count == digits else { return nil }
        let current = timeStep(now)
        for counter in [current, current - 1, current + 1] where counter > after {
            if constantTimeEqual(Self.code(secret: secret, counter: counter), code) { return counter }
        }
        return nil
    }

    /// A new secret: 20 random bytes.
    public static func newSecret() -> [UInt8] {
        SecureRandom.bytes(20)
    }

    /// `bytes` in base32 (RFC 4648, no padding), as authenticator apps take a secret.
    public static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var result = "", buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                result.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { result.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return result
    }

    /// The address an authenticator app reads the secret from (`otpauth://totp/…`).
    public static func uri(secret: [UInt8], account: String) -> String {
        let label = "Arkivator:\(account)".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "Arkivator"
        return "otpauth://totp/\(label)?secret=\(base32(secret))&issuer=Arkivator&algorithm=SHA1&digits=\(digits)&period=\(Int(step))"
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension AccountStore {
    private static let totpContext = Data("arkivator web_account totp".utf8)

    /// Whether the owner's sign-in asks for a code from an app after the password.
    public func totpEnabled() throws -> Bool {
        try library.withReader { try $0.firstRow("SELECT totp_sealed IS NOT NULL FROM web_account WHERE id = 1")?[0].int == 1 }
    }

    /// Starts setting up the code: a new secret, kept aside until its first code is typed
    /// (``confirmTOTP(_:now:)``); returns it for the app.
    public func beginTOTP() throws -> [UInt8] {
        let secret = TOTP.newSecret()
        guard let sealed = library.key.seal(Data(secret), context: Self.totpContext) else { throw AccountFailure.totpUnavailable }
        try library.withDatabase { database in
            try database.execute("UPDATE web_account SET totp_pending = ? WHERE id = 1", [sealed])
            guard database.changes == 1 else { throw AccountFailure.totpUnavailable }
        }
        return secret
    }

    /// The secret being set up, while its first code has not been typed.
    public func pendingTOTP() throws -> [UInt8]? {
        try library.withReader { database in
            guard let sealed = try database.firstRow("SELECT totp_pending FROM web_account WHERE id = 1")?[0].data else { return nil }
            return library.key.unseal(sealed, context: Self.totpContext).map(Array.init)
        }
    }

    /// Turns the code on when `code` is the secret being set up's; false when it is not.
    public func confirmTOTP(_ code: String, now: Date = Date()) throws -> Bool {
        try library.withDatabase { database in
            guard let sealed = try database.firstRow("SELECT totp_pending FROM web_account WHERE id = 1")?[0].data,
                  let secret = library.key.unseal(sealed, context: Self.totpContext),
                  let step = TOTP.matchingStep(code, secret: Array(secret), now: now, after: 0) else { return false }
            try database.execute("UPDATE web_account SET totp_sealed = totp_pending, totp_pending = NULL, totp_last_step = ? WHERE id = 1",
                                 [step])
            return true
        }
    }

    /// Whether `code` is the owner's current code, not taken before (each code works once).
    public func checkTOTP(_ code: String, now: Date = Date()) throws -> Bool {
        try library.withDatabase { database in
            guard let row = try database.firstRow("SELECT totp_sealed, totp_last_step FROM web_account WHERE id = 1"),
                  let sealed = row[0].data, let secret = library.key.unseal(sealed, context: Self.totpContext),
                  let step = TOTP.matchingStep(code, secret: Array(secret), now: now, after: Int64(row[1].int ?? 0)) else { return false }
            try database.execute("UPDATE web_account SET totp_last_step = ? WHERE id = 1", [step])
            return true
        }
    }

    /// Turns the code off: the password alone signs the owner in again.
    public func disableTOTP() throws {
        try library.withDatabase { try $0.execute("UPDATE web_account SET totp_sealed = NULL, totp_pending = NULL WHERE id = 1") }
    }
}
