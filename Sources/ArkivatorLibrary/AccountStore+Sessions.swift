import ArkivatorCore
internal import Crypto
import Foundation

/// A browser signed in to the web app.
public struct WebSession: Sendable, Equatable {
    /// The token the browser holds in its cookie (only ever in memory and in the cookie).
    public var token: String
    /// The token every form and `fetch` must send back (`_csrf`, `X-CSRF-Token`).
    public var csrf: String
    public var lastSeen: Date
}

extension AccountStore {
    /// The web app's password hash (bcrypt), nil before one is set.
    public func webPasswordHash() throws -> String? {
        try library.withReader { try $0.firstRow("SELECT password_hash FROM web_account WHERE id = 1")?[0].string }
    }

    /// Sets the web app's password hash and signs every browser out.
    public func setWebPasswordHash(_ hash: String) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                try database.execute("""
                    INSERT INTO web_account (id, password_hash, changed_at) VALUES (1, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, changed_at = excluded.changed_at
                    """, [hash, Library.now()])
                try database.execute("DELETE FROM web_sessions")
            }
        }
    }

    /// Starts a session: a new random token and CSRF token; only the token's hash is stored.
    public func startWebSession(now: Date = Date()) throws -> WebSession {
        let session = WebSession(token: Library.randomToken(), csrf: Library.randomToken(), lastSeen: now)
        // Not flushed on its own: lost only at a power cut, and then the person signs in again.
        try library.withUnflushedCommit { database in
            try database.execute("INSERT INTO web_sessions (token_hash, csrf, created_at, last_seen) VALUES (?, ?, ?, ?)",
                                 [Library.tokenHash(session.token), session.csrf, Self.sessionTime(now), Self.sessionTime(now)])
        }
        return session
    }

    /// The session a browser's token belongs to, when it has been used within `idle` seconds;
    /// marks it used now (written at most once a minute, so most page views cost no disk write). A
    /// session idle longer is ended (the app lock). The lookup is a read: only those writes wait
    /// for the library's writer.
    public func webSession(token: String, idle: TimeInterval, now: Date = Date()) throws -> WebSession? {
        guard !token.isEmpty, token.count <= 200 else { return nil }
        let hash = Library.tokenHash(token)
        let found = try library.withReader { database -> (csrf: String, seen: Date)? in
            guard let row = try database.firstRow("SELECT csrf, last_seen FROM web_sessions WHERE token_hash = ?", [hash]),
                  let csrf = row[0].string, let seen = row[1].string.flatMap(Self.date(sessionTime:)) else { return nil }
            return (csrf, seen)
        }
        guard let (csrf, seen) = found else { return nil }
        guard now.timeIntervalSince(seen) <= idle else {
            try library.withDatabase { try $0.execute("DELETE FROM web_sessions WHERE token_hash = ?", [hash]) }
            return nil
        }
        // Written again once a minute (a quarter of a shorter idle time): the lock stays within that of exact.
        if now.timeIntervalSince(seen) >= min(Library.lastUseResolution, idle / 4) {
            try library.withUnflushedCommit { database in
                try database.execute("UPDATE web_sessions SET last_seen = ? WHERE token_hash = ? AND last_seen < ?",
                                     [Self.sessionTime(now), hash, Self.sessionTime(now)])
            }
        }
        return WebSession(token: token, csrf: csrf, lastSeen: now)
    }

    /// Ends a session (signing out).
    public func endWebSession(token: String) throws {
        try library.withDatabase { try $0.execute("DELETE FROM web_sessions WHERE token_hash = ?", [Library.tokenHash(token)]) }
    }

    /// Removes sessions idle longer than `idle` seconds.
    public func endIdleWebSessions(idle: TimeInterval, now: Date = Date()) throws {
        try library.withDatabase {
            try $0.execute("DELETE FROM web_sessions WHERE last_seen < ?", [Self.sessionTime(now.addingTimeInterval(-idle))])
        }
    }

    /// Seconds since 1970 with milliseconds, as text that sorts by time.
    private static func sessionTime(_ date: Date) -> String { String(format: "%014.3f", date.timeIntervalSince1970) }

    private static func date(sessionTime: String) -> Date? { Double(sessionTime).map(Date.init(timeIntervalSince1970:)) }
}

/// A device allowed to use the API with its own token (shown once, when it is made).
public struct APIToken: Sendable, Equatable {
    public var id: Int
    public var name: String
    public var createdAt: String
    public var lastUsed: String?
}

extension AccountStore {
    /// Makes a token for a device; returns it (the only time it is seen) with its row.
    public func createAPIToken(name: String) throws -> (token: String, row: APIToken) {
        let label = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(StoredField.tokenName.limit))
        let token = "ark_" + Library.randomToken()
        let now = Library.now()
        let id = try library.withDatabase { database -> Int in
            try database.execute("INSERT INTO api_tokens (name, token_hash, created_at) VALUES (?, ?, ?)",
                                 [label.isEmpty ? "enhet" : label, Library.tokenHash(token), now])
            return database.lastInsertedRowID
        }
        return (token, APIToken(id: id, name: label.isEmpty ? "enhet" : label, createdAt: now, lastUsed: nil))
    }

    /// The tokens, newest first.
    public func apiTokens() throws -> [APIToken] {
        try library.withReader { database in
            try database.rows("SELECT id, name, created_at, last_used FROM api_tokens ORDER BY id DESC").map {
                APIToken(id: $0[0].int ?? 0, name: $0[1].string ?? "", createdAt: $0[2].string ?? "", lastUsed: $0[3].string)
            }
        }
    }

    /// Revokes a token; false when there was none with that id.
    @discardableResult
    public func revokeAPIToken(_ id: Int) throws -> Bool {
        try library.withDatabase { database in
            let had = try database.firstRow("SELECT 1 FROM api_tokens WHERE id = ?", [id]) != nil
            try database.execute("DELETE FROM api_tokens WHERE id = ?", [id])
            return had
        }
    }

    /// Whether `token` is a device's token (and notes its use, at most once a minute: only then
    /// does the lookup wait for the library's writer).
    public func isAPIToken(_ token: String) throws -> Bool {
        guard token.hasPrefix("ark_"), token.count <= 200 else { return false }
        let hash = Library.tokenHash(token)
        let earlier = Date().addingTimeInterval(-Library.lastUseResolution).formatted(.iso8601)
        let known = try library.withReader { database -> (found: Bool, due: Bool) in
            guard let row = try database.firstRow("SELECT last_used FROM api_tokens WHERE token_hash = ?", [hash]) else {
                return (false, false)
            }
            return (true, row[0].string.map { $0 < earlier } ?? true)
        }
        guard known.found else { return false }
        if known.due {
            try library.withDatabase { database in
                try database.execute("""
                    UPDATE api_tokens SET last_used = ? WHERE token_hash = ? AND (last_used IS NULL OR last_used < ?)
                    """, [Library.now(), hash, earlier])
            }
        }
        return true
    }
}
