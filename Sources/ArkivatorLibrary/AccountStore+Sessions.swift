import ArkivatorCore
import Foundation

/// A browser signed in to the web app.
public struct WebSession: Sendable, Equatable {
    /// The token the browser holds in its cookie (only ever in memory and in the cookie).
    public var token: String
    /// The token every form and `fetch` must send back (`_csrf`, `X-CSRF-Token`).
    public var csrf: String
    public var lastSeen: Date
    /// Whose session: an account's id, nil for the owner.
    public var account: Int? = nil
    /// Until when a remembered browser stays signed in however long it is idle; nil: the app lock.
    public var rememberedUntil: Date? = nil
}

extension AccountStore {
    /// The web app's password hash (bcrypt), nil before one is set.
    public func webPasswordHash() throws -> String? {
        try library.withReader { try $0.firstRow("SELECT password_hash FROM web_account WHERE id = 1")?[0].string }
    }

    /// Sets the web app's password hash and signs the owner's browsers out (the accounts the
    /// owner made keep theirs: they sign in with their own passwords).
    public func setWebPasswordHash(_ hash: String) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                try database.execute("""
                    INSERT INTO web_account (id, password_hash, changed_at) VALUES (1, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, changed_at = excluded.changed_at
                    """, [hash, Library.now()])
                try database.execute("DELETE FROM web_sessions WHERE account_id IS NULL")
            }
        }
    }

    /// Stores the same password hashed again (another bcrypt cost) in place of `old`, signing no
    /// one out; false when the password was changed meanwhile (then nothing is written).
    @discardableResult
    public func rehashWebPassword(_ new: String, replacing old: String) throws -> Bool {
        try library.withDatabase { database in
            try database.execute("UPDATE web_account SET password_hash = ? WHERE id = 1 AND password_hash = ?", [new, old])
            return database.changes == 1
        }
    }

    /// Starts a session: a new random token and CSRF token; only the token's hash is stored.
    /// How long a remembered browser stays signed in, idle or not.
    public static let rememberedFor: TimeInterval = 30 * 24 * 3600

    /// `account`: whose (nil: the owner's); `device`: the kind of device, as the audit log names it;
    /// `remember`: the app lock does not end it for ``rememberedFor``.
    public func startWebSession(account: Int? = nil, device: String = "", remember: Bool = false, now: Date = Date()) throws -> WebSession {
        var session = WebSession(token: Library.randomToken(), csrf: Library.randomToken(), lastSeen: now, account: account)
        if remember { session.rememberedUntil = now.addingTimeInterval(Self.rememberedFor) }
        // Not flushed on its own: lost only at a power cut, and then the person signs in again.
        try library.withUnflushedCommit { database in
            try database.execute("""
                INSERT INTO web_sessions (token_hash, csrf, created_at, last_seen, account_id, device, remember_until)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [Library.tokenHash(session.token), session.csrf, Self.sessionTime(now), Self.sessionTime(now), account,
                      String(device.prefix(40)), session.rememberedUntil.map(Self.sessionTime)])
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
        let found = try library.withReader { database -> (csrf: String, seen: Date, account: Int?, remembered: Date?)? in
            guard let row = try database.firstRow("SELECT csrf, last_seen, account_id, remember_until FROM web_sessions WHERE token_hash = ?",
                                                  [hash]),
                  let csrf = row[0].string, let seen = row[1].string.flatMap(Self.date(sessionTime:)) else { return nil }
            return (csrf, seen, row[2].int, row[3].string.flatMap(Self.date(sessionTime:)))
        }
        guard let (csrf, seen, account, remembered) = found else { return nil }
        // A remembered browser is not locked for idling until its time is up; then it is ended.
        let alive = remembered.map { now <= $0 } ?? (now.timeIntervalSince(seen) <= idle)
        guard alive else {
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
        return WebSession(token: token, csrf: csrf, lastSeen: now, account: account, rememberedUntil: remembered)
    }

    /// The browsers signed in as `account` (nil: the owner), most recently seen first; `current`
    /// marks the one asking.
    public func devices(account: Int?, current token: String) throws -> [SignedInDevice] {
        let mine = Library.tokenHash(token)
        return try library.withReader { database in
            try database.rows("""
                SELECT rowid, device, created_at, last_seen, token_hash FROM web_sessions
                WHERE account_id IS ? ORDER BY last_seen DESC
                """, [account]).map { row in
                SignedInDevice(id: row[0].int ?? 0, device: row[1].string ?? "",
                               since: row[2].string.flatMap(Self.date(sessionTime:)) ?? Date(timeIntervalSince1970: 0),
                               lastSeen: row[3].string.flatMap(Self.date(sessionTime:)) ?? Date(timeIntervalSince1970: 0),
                               current: row[4].string == mine)
            }
        }
    }

    /// Signs out one of `account`'s browsers; false when it has none with that id.
    @discardableResult
    public func endDevice(_ id: Int, account: Int?) throws -> Bool {
        try library.withDatabase { database in
            try database.execute("DELETE FROM web_sessions WHERE rowid = ? AND account_id IS ?", [id, account])
            return database.changes == 1
        }
    }

    /// Ends a session (signing out).
    public func endWebSession(token: String) throws {
        try library.withDatabase { try $0.execute("DELETE FROM web_sessions WHERE token_hash = ?", [Library.tokenHash(token)]) }
    }

    /// Removes sessions idle longer than `idle` seconds.
    public func endIdleWebSessions(idle: TimeInterval, now: Date = Date()) throws {
        try library.withDatabase {
            try $0.execute("DELETE FROM web_sessions WHERE last_seen < ? AND (remember_until IS NULL OR remember_until < ?)",
                           [Self.sessionTime(now.addingTimeInterval(-idle)), Self.sessionTime(now)])
        }
    }

    /// Seconds since 1970 with milliseconds, as text that sorts by time.
    private static func sessionTime(_ date: Date) -> String { String(format: "%014.3f", date.timeIntervalSince1970) }

    private static func date(sessionTime: String) -> Date? { Double(sessionTime).map(Date.init(timeIntervalSince1970:)) }
}

/// A browser signed in to the web app, as its account sees it.
public struct SignedInDevice: Sendable, Equatable {
    public var id: Int
    /// «telefon», «nettbrett», «datamaskin»…
    public var device: String
    public var since: Date
    public var lastSeen: Date
    /// The browser asking.
    public var current: Bool
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
    /// `account`: whose token (nil: the owner's); it acts as that account.
    public func createAPIToken(name: String, account: Int? = nil) throws -> (token: String, row: APIToken) {
        let label = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(StoredField.tokenName.limit))
        let token = "ark_" + Library.randomToken()
        let now = Library.now()
        let id = try library.withDatabase { database -> Int in
            try database.execute("INSERT INTO api_tokens (name, token_hash, created_at, account_id) VALUES (?, ?, ?, ?)",
                                 [label.isEmpty ? "enhet" : label, Library.tokenHash(token), now, account])
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
    public func isAPIToken(_ token: String) throws -> Bool { try apiTokenAccess(token) != nil }

    /// What a device's token may see: its account's (the owner's for the owner's tokens); nil
    /// when it is no token. Notes its use, at most once a minute.
    public func apiTokenAccess(_ token: String) throws -> Access? {
        guard token.hasPrefix("ark_"), token.count <= 200 else { return nil }
        let hash = Library.tokenHash(token)
        let earlier = Date().addingTimeInterval(-Library.lastUseResolution).formatted(.iso8601)
        let known = try library.withReader { database -> (access: Access?, due: Bool) in
            guard let row = try database.firstRow("SELECT last_used, account_id FROM api_tokens WHERE token_hash = ?", [hash]) else {
                return (nil, false)
            }
            let access = try row[1].int.map { try Self.accounts(in: database, id: $0).first?.access } ?? .owner
            return (access, row[0].string.map { $0 < earlier } ?? true)
        }
        guard let access = known.access else { return nil }
        if known.due {
            try library.withDatabase { database in
                try database.execute("""
                    UPDATE api_tokens SET last_used = ? WHERE token_hash = ? AND (last_used IS NULL OR last_used < ?)
                    """, [Library.now(), hash, earlier])
            }
        }
        return access
    }
}
