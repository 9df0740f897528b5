import ArkivatorCore
import Foundation

/// What the audit log records: each opening of a letter or its files, each reveal of a
/// fødselsnummer, each change, share and feed, each sign-in and account change.
public enum AuditAction: String, Sendable, Codable, CaseIterable {
    case signedIn, signInFailed, signedOut, deviceSignedOut
    case letterOpened, pageOpened, originalOpened, pdfOpened, docxOpened, numberRevealed
    case textCorrected, letterChanged, labConfirmed, redacted, deleted, restored
    case shareLinkMade, shareLinkRevoked, feedMade, feedRevoked
    case accountInvited, accountJoined, inviteExpired, accountRemoved, tokenMade, totpOn, totpOff, passkeyAdded, passkeyRemoved

    /// What happened, in words, for the log's page and `arkivator audit`.
    public var label: UserMessage {
        switch self {
        case .signedIn: UserMessage(nb: "logget inn", en: "signed in")
        case .signInFailed: UserMessage(nb: "feil passord", en: "wrong password")
        case .signedOut: UserMessage(nb: "logget ut", en: "signed out")
        case .deviceSignedOut: UserMessage(nb: "logget ut en enhet", en: "signed a device out")
        case .letterOpened: UserMessage(nb: "åpnet brevet", en: "opened the letter")
        case .pageOpened: UserMessage(nb: "åpnet et sidebilde", en: "opened a page image")
        case .originalOpened: UserMessage(nb: "åpnet originalen", en: "opened the original")
        case .pdfOpened: UserMessage(nb: "åpnet PDF-en", en: "opened the PDF")
        case .docxOpened: UserMessage(nb: "åpnet Word-filen", en: "opened the Word file")
        case .numberRevealed: UserMessage(nb: "viste fødselsnummeret", en: "showed the national ID number")
        case .textCorrected: UserMessage(nb: "rettet teksten", en: "corrected the text")
        case .letterChanged: UserMessage(nb: "endret brevet", en: "changed the letter")
        case .labConfirmed: UserMessage(nb: "bekreftet en prøveverdi", en: "confirmed a lab value")
        case .redacted: UserMessage(nb: "sladdet", en: "redacted")
        case .deleted: UserMessage(nb: "slettet brevet", en: "deleted the letter")
        case .restored: UserMessage(nb: "hentet brevet tilbake", en: "restored the letter")
        case .shareLinkMade: UserMessage(nb: "laget en delingslenke", en: "made a share link")
        case .shareLinkRevoked: UserMessage(nb: "stengte en delingslenke", en: "closed a share link")
        case .feedMade: UserMessage(nb: "laget en kalenderlenke", en: "made a calendar feed")
        case .feedRevoked: UserMessage(nb: "stengte en kalenderlenke", en: "closed a calendar feed")
        case .accountInvited: UserMessage(nb: "inviterte en konto", en: "invited an account")
        case .accountJoined: UserMessage(nb: "tok imot invitasjonen", en: "accepted the invite")
        case .inviteExpired: UserMessage(nb: "åpnet en utløpt invitasjon", en: "opened an expired invite")
        case .accountRemoved: UserMessage(nb: "fjernet en konto", en: "removed an account")
        case .tokenMade: UserMessage(nb: "laget en enhetsnøkkel", en: "made a device token")
        case .passkeyAdded: UserMessage(nb: "la til en passnøkkel", en: "added a passkey")
        case .passkeyRemoved: UserMessage(nb: "fjernet en passnøkkel", en: "removed a passkey")
        case .totpOn: UserMessage(nb: "slo på kode fra app", en: "turned on the app code")
        case .totpOff: UserMessage(nb: "slo av kode fra app", en: "turned off the app code")
        }
    }

    /// Only looking (a view): committed without its own flush, like a sign-in's session.
    var isOpening: Bool {
        [.letterOpened, .pageOpened, .originalOpened, .pdfOpened, .docxOpened].contains(self)
    }
}

/// One line of the audit log: who, what, when, from which kind of device. Never an address,
/// never a letter's text: a letter by its short id and the member it is filed to.
public struct AuditEntry: Sendable, Equatable, Codable {
    public var id: Int
    /// UTC, ISO 8601.
    public var at: String
    /// The account's name («eier» for the owner), kept when the account is removed.
    public var account: String
    public var action: AuditAction
    public var document: String?
    public var member: String?
    /// A few words more (the account invited, the device signed out); never a letter's text.
    public var detail: String
    /// «telefon», «nettbrett», «datamaskin», «skript» or «maskinen».
    public var device: String
}

/// The audit log (``AuditEntry``): written by the app as things happen, read by the owner. It
/// cannot be changed: the database refuses to alter a line or remove one younger than two years
/// (migration 21).
public struct AuditStore: Sendable {
    let library: Library

    /// The device of a line written at the command line on the library's own machine.
    public static let machine = "maskinen"

    /// The line for what the owner did at the command line (`edit`, `delete`, `share`…), about
    /// `document` when there is one. A line that cannot be written does not undo the change.
    public func recordAtMachine(_ action: AuditAction, document: LibraryDocument? = nil, detail: String = "") {
        try? record(action, by: .owner, document: document?.shortID, member: document?.familyMember, detail: detail, device: Self.machine)
    }

    /// Writes one line.
    public func record(_ action: AuditAction, by access: Access, document: String? = nil, member: String? = nil,
                       detail: String = "", device: String = "", now: Date = Date()) throws {
        let arguments: [any DatabaseValueConvertible] = [
            now.formatted(.iso8601), access.account, access.name, action.rawValue, document, member,
            String(detail.prefix(200)), String(device.prefix(40)),
        ]
        let sql = """
            INSERT INTO audit_log (at, account_id, account, action, document, member, detail, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        if action.isOpening {
            try library.withUnflushedCommit { try $0.execute(sql, arguments) }
        } else {
            try library.withDatabase { try $0.execute(sql, arguments) }
        }
    }

    /// The newest lines first, at most `limit`; only an account's (`account`, by name) or only
    /// those about a member's letters (`member`).
    public func entries(account: String? = nil, member: String? = nil, limit: Int = 200) throws -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let account, !account.isEmpty {
            conditions.append("account = ? COLLATE NOCASE")
            arguments.append(account)
        }
        if let member, !member.isEmpty {
            conditions.append("member = ? COLLATE NOCASE")
            arguments.append(member)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try library.withReader { database in
            try database.rows("""
                SELECT id, at, account, action, document, member, detail, device FROM audit_log \(filter)
                ORDER BY id DESC LIMIT ?
                """, arguments + [max(1, min(limit, 10_000))]).compactMap { row in
                guard let action = row[3].string.flatMap(AuditAction.init(rawValue:)) else { return nil }
                return AuditEntry(id: row[0].int ?? 0, at: row[1].string ?? "", account: row[2].string ?? "", action: action,
                                  document: row[4].string, member: row[5].string, detail: row[6].string ?? "", device: row[7].string ?? "")
            }
        }
    }

    /// Removes lines older than two years; returns how many.
    @discardableResult
    public func removeExpired(now: Date = Date()) throws -> Int {
        try library.withDatabase { database in
            // The same two years as the trigger that guards the log counts.
            try database.execute("DELETE FROM audit_log WHERE at < strftime('%Y-%m-%dT%H:%M:%SZ', ?, '-2 years')", [now.formatted(.iso8601)])
            return database.changes
        }
    }
}

extension Library {
    /// Who opened, changed and shared what (``AuditStore``).
    public var audit: AuditStore { AuditStore(library: self) }
}
