import ArkivatorCore
import Foundation

/// An account the owner made for someone who helps the family.
public struct Account: Sendable, Equatable, Codable {
    public var id: Int
    public var name: String
    public var role: Access.Role
    /// The household members it sees, by name.
    public var members: [String]
    public var createdAt: String
    /// False until the invite is taken and a password chosen.
    public var joined: Bool
    /// When one of its browsers was last seen (seconds since 1970 as text), nil when never.
    public var lastSeen: String?

    /// What this account sees.
    public var access: Access { Access(account: id, name: name, role: role, members: members) }
}

/// Why an account could not be made, found or used, with what to do.
public struct AccountFailure: UserFacingError, Sendable, Equatable {
    public let errorCode: String
    public let userMessage: UserMessage

    init(_ code: String, nb: String, en: String) {
        errorCode = code
        userMessage = UserMessage(nb: nb, en: en)
    }

    static let emptyName = AccountFailure("badAccountName",
        nb: "Skriv et navn på kontoen, for eksempel «Mormor» eller «Ola».",
        en: "Write a name for the account, for example “Grandma” or “Ola”.")
    static let longName = AccountFailure("badAccountName",
        nb: "Navnet er for langt. Bruk høyst 60 tegn.", en: "The name is too long. Use at most 60 characters.")
    static let ownerName = AccountFailure("badAccountName",
        nb: "«eier» er navnet på eierens egen konto. Velg et annet navn.", en: "“eier” is the owner's own account. Choose another name.")
    static func taken(_ name: String) -> AccountFailure {
        AccountFailure("accountExists", nb: "Det finnes alt en konto som heter «\(FamilyError.safe(name))». Velg et annet navn, eller fjern den først.",
                       en: "There is already an account named “\(FamilyError.safe(name))”. Choose another name, or remove it first.")
    }
    static func unknownMember(_ name: String) -> AccountFailure {
        AccountFailure("unknownMember", nb: "«\(FamilyError.safe(name))» er ikke med i familien. Legg personen til først, eller se navnene under Familie.",
                       en: "“\(FamilyError.safe(name))” is not in the household. Add the person first, or see the names under Family.")
    }
    static let totpUnavailable = AccountFailure("totpUnavailable",
        nb: "Koden fra en app kan ikke slås på før et passord er satt.", en: "The app code cannot be turned on before a password is set.")
    static let noMembers = AccountFailure("noMembers",
        nb: "Velg minst ett familiemedlem kontoen skal se brevene til.", en: "Choose at least one household member whose letters the account sees.")
    public static func notFound(_ name: String) -> AccountFailure {
        AccountFailure("noSuchAccount", nb: "Det finnes ingen konto som heter «\(FamilyError.safe(name))». Se kontoene under Innstillinger.",
                       en: "There is no account named “\(FamilyError.safe(name))”. See the accounts under Settings.")
    }
}

extension AccountStore {
    /// How long an invite works.
    public static let inviteLifetime: TimeInterval = 7 * 24 * 3600

    /// Makes an account for `name` who sees `members` (names of the household), and its invite:
    /// a secret that works once, within ``inviteLifetime``, to choose a password. Returns the
    /// secret (the only time it is seen) and the account.
    public func invite(name: String, role: Access.Role, members: [String], now: Date = Date()) throws -> (token: String, account: Account) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw AccountFailure.emptyName }
        guard name.count <= 60 else { throw AccountFailure.longName }
        guard name.lowercased() != "eier", name.lowercased() != "owner" else { throw AccountFailure.ownerName }
        guard role != .owner else { throw AccountFailure("badRole", nb: "Det finnes bare én eier.", en: "There is only one owner.") }
        let token = Library.randomToken()
        let account = try library.withDatabase { database -> Account in
            try database.inTransaction {
                let household = try FamilyStore(database: database, key: library.key).list()
                var chosen: [FamilyMemberSummary] = []
                for wanted in members.map({ $0.trimmingCharacters(in: .whitespaces) }) where !wanted.isEmpty {
                    guard let member = household.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                        throw AccountFailure.unknownMember(wanted)
                    }
                    if !chosen.contains(member) { chosen.append(member) }
                }
                guard !chosen.isEmpty else { throw AccountFailure.noMembers }
                if try database.firstRow("SELECT 1 FROM accounts WHERE name = ?", [name]) != nil { throw AccountFailure.taken(name) }
                let created = Library.now()
                try database.execute("INSERT INTO accounts (name, role, created_at) VALUES (?, ?, ?)", [name, role.rawValue, created])
                let id = database.lastInsertedRowID
                for member in chosen {
                    try database.execute("INSERT INTO account_members (account_id, member_id) VALUES (?, ?)", [id, member.id])
                }
                try database.execute("DELETE FROM account_invites WHERE expires_at < ?", [Self.inviteTime(now)])
                try database.execute("INSERT INTO account_invites (token_hash, account_id, expires_at) VALUES (?, ?, ?)",
                                     [Library.tokenHash(token), id, Self.inviteTime(now.addingTimeInterval(Self.inviteLifetime))])
                return Account(id: id, name: name, role: role, members: chosen.map(\.name), createdAt: created, joined: false, lastSeen: nil)
            }
        }
        return (token, account)
    }

    /// The account an unused, unexpired invite is for; nil when it is used, expired or unknown.
    public func invitedAccount(_ token: String, now: Date = Date()) throws -> Account? {
        try inviteAccount(token, expired: false, now: now)
    }

    /// The account an invite past its 7 days was for (kept until the account is removed, so the
    /// log can say who tried it); nil for a working, used or unknown invite.
    public func expiredInvite(_ token: String, now: Date = Date()) throws -> Account? {
        try inviteAccount(token, expired: true, now: now)
    }

    /// The account of an unused invite that is still working (or, with `expired`, past its days).
    private func inviteAccount(_ token: String, expired: Bool, now: Date) throws -> Account? {
        guard !token.isEmpty, token.count <= 200 else { return nil }
        return try library.withReader { database in
            guard let row = try database.firstRow("""
                SELECT account_id FROM account_invites WHERE token_hash = ? AND expires_at \(expired ? "<" : ">=") ?
                """, [Library.tokenHash(token), Self.inviteTime(now)]), let id = row[0].int else { return nil }
            return try Self.accounts(in: database, id: id).first
        }
    }

    /// Takes an invite: sets the account's password hash and starts its first session; nil when
    /// the invite is used, expired or unknown (it never works twice).
    public func acceptInvite(_ token: String, passwordHash: String, device: String = "", now: Date = Date()) throws -> (account: Account, session: WebSession)? {
        guard !token.isEmpty, token.count <= 200 else { return nil }
        let hash = Library.tokenHash(token)
        let id = try library.withDatabase { database -> Int? in
            try database.inTransaction {
                guard let row = try database.firstRow("SELECT account_id FROM account_invites WHERE token_hash = ? AND expires_at >= ?",
                                                      [hash, Self.inviteTime(now)]),
                      let id = row[0].int else { return nil }
                try database.execute("DELETE FROM account_invites WHERE token_hash = ?", [hash])
                try database.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", [passwordHash, id])
                return id
            }
        }
        guard let id, let account = try library.withReader({ try Self.accounts(in: $0, id: id).first }) else { return nil }
        return (account, try startWebSession(account: id, device: device, now: now))
    }

    /// Every account the owner made, by name.
    public func accounts() throws -> [Account] {
        try library.withReader { try Self.accounts(in: $0, id: nil) }
    }

    /// The account named `name` (any case) and its password hash (nil before it joined).
    public func account(named name: String) throws -> (account: Account, passwordHash: String?)? {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 60 else { return nil }
        return try library.withReader { database in
            guard let row = try database.firstRow("SELECT id, password_hash FROM accounts WHERE name = ?", [name]), let id = row[0].int,
                  let account = try Self.accounts(in: database, id: id).first else { return nil }
            return (account, row[1].string)
        }
    }

    /// What the account with `id` sees; the owner's for nil; nil when the account is gone.
    public func access(account id: Int?) throws -> Access? {
        guard let id else { return .owner }
        return try library.withReader { try Self.accounts(in: $0, id: id).first?.access }
    }

    /// Sets an account's password hash (signing its other browsers out is the caller's choice).
    public func setPasswordHash(_ hash: String, account id: Int) throws {
        try library.withDatabase { try $0.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", [hash, id]) }
    }

    /// Removes an account: its sessions (signed out everywhere at once), device tokens and
    /// invites go with it. The audit log keeps its name.
    @discardableResult
    public func removeAccount(named name: String) throws -> Account {
        guard let (account, _) = try account(named: name) else { throw AccountFailure.notFound(name) }
        try library.withDatabase { database in
            try database.inTransaction {
                try database.execute("DELETE FROM web_sessions WHERE account_id = ?", [account.id])
                try database.execute("DELETE FROM api_tokens WHERE account_id = ?", [account.id])
                try database.execute("DELETE FROM passkeys WHERE account_id = ?", [account.id])
                try database.execute("DELETE FROM account_invites WHERE account_id = ?", [account.id])
                try database.execute("DELETE FROM account_members WHERE account_id = ?", [account.id])
                try database.execute("DELETE FROM accounts WHERE id = ?", [account.id])
            }
        }
        return account
    }

    static func accounts(in database: Database, id: Int?) throws -> [Account] {
        let rows = try database.rows("""
            SELECT a.id, a.name, a.role, a.created_at, a.password_hash IS NOT NULL,
                   (SELECT group_concat(f.name, char(31)) FROM (SELECT f.name FROM account_members m JOIN family f ON f.id = m.member_id
                                                               WHERE m.account_id = a.id ORDER BY f.name) f),
                   (SELECT max(s.last_seen) FROM web_sessions s WHERE s.account_id = a.id)
            FROM accounts a \(id == nil ? "" : "WHERE a.id = ?") ORDER BY a.name
            """, id.map { [$0] } ?? [])
        return rows.map { row in
            Account(id: row[0].int ?? 0, name: row[1].string ?? "", role: row[2].string.flatMap(Access.Role.init(rawValue:)) ?? .reader,
                    members: (row[5].string ?? "").split(separator: "\u{1F}").map(String.init), createdAt: row[3].string ?? "",
                    joined: (row[4].int ?? 0) != 0, lastSeen: row[6].string)
        }
    }

    private static func inviteTime(_ date: Date) -> String { String(format: "%014.3f", date.timeIntervalSince1970) }
}
