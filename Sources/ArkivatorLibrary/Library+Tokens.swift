import ArkivatorCore
internal import ArkivatorCrypto
import Foundation

/// The secrets the library hands out (sessions, sign-in links, API tokens, share links, calendar
/// feeds): made here, and only their hashes stored.
extension Library {
    /// How often a session's or token's last use is written down (seconds).
    static let lastUseResolution: TimeInterval = 60

    /// 32 random bytes as URL-safe base64 without padding.
    static func randomToken() -> String {
        let bytes = Data(SecureRandom.bytes(32))
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func tokenHash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Data(token.utf8)))
    }
}
