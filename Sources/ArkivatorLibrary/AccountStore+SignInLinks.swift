import Foundation

extension AccountStore {
    /// How long a sign-in link works.
    public static let signInLinkLifetime: TimeInterval = 10 * 60

    /// Makes a one-time sign-in link's secret for the web app: it works once, within
    /// ``signInLinkLifetime``; only its SHA-256 is stored.
    public func createSignInLink(now: Date = Date()) throws -> String {
        let token = Library.randomToken()
        try library.withDatabase { database in
            try database.execute("DELETE FROM web_sign_in_links WHERE expires_at < ?", [Self.linkTime(now)])
            try database.execute("INSERT INTO web_sign_in_links (token_hash, expires_at) VALUES (?, ?)",
                                 [Library.tokenHash(token), Self.linkTime(now.addingTimeInterval(Self.signInLinkLifetime))])
        }
        return token
    }

    /// Uses up a sign-in link: true when it was unused and unexpired (it never works again).
    public func redeemSignInLink(_ token: String, now: Date = Date()) throws -> Bool {
        guard !token.isEmpty, token.count <= 200 else { return false }
        return try library.withDatabase { database in
            try database.execute("DELETE FROM web_sign_in_links WHERE token_hash = ? AND expires_at >= ?",
                                 [Library.tokenHash(token), Self.linkTime(now)])
            return database.changes == 1
        }
    }

    private static func linkTime(_ date: Date) -> String { String(format: "%014.3f", date.timeIntervalSince1970) }
}
