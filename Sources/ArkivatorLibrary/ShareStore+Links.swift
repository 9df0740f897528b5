import ArkivatorCore
import Foundation

/// A read-only link to chosen letters, for a doctor: it works without signing in until it
/// expires or is revoked, and every opening is written down for the owner to see.
public struct ShareLink: Sendable, Equatable, Codable {
    /// The link's number (what `arkivator share revoke` and the web app's «Delinger» name).
    public var id: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?
    /// The letters shared, in the order chosen: short id and title (numbers masked). A letter
    /// purged from the trash since is no longer among them.
    public var letters: [Letter]
    /// Every opening, newest first.
    public var openings: [ShareOpening]

    public struct Letter: Sendable, Equatable, Codable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    public init(id: Int, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, letters: [Letter], openings: [ShareOpening] = []) {
        self.id = id
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.letters = letters
        self.openings = openings
    }

    public enum Status: String, Sendable, Codable {
        case active, expired, revoked
    }

    public func status(now: Date = Date()) -> Status {
        if revokedAt != nil { return .revoked }
        return now >= expiresAt ? .expired : .active
    }

    /// A time as the share pages and `arkivator share list` show it, in this machine's time
    /// zone: `2026-12-10 14:02`.
    public static func shown(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}

/// One opening of a share link: when, what was opened, and a coarse hint of the client.
public struct ShareOpening: Sendable, Equatable, Codable {
    public enum What: String, Sendable, Codable {
        case page, pdf
    }

    public var openedAt: Date
    public var what: What
    /// `mobile · Safari`: the kind of device and browser, never an address.
    public var client: String

    public init(openedAt: Date, what: What, client: String) {
        self.openedAt = openedAt
        self.what = what
        self.client = client
    }
}

/// What a share link's secret opens.
public enum SharedLetters: Sendable {
    /// No link has this secret.
    case unknown
    case expired(ShareLink)
    case revoked(ShareLink)
    /// The link works: its letters (whole, every fødselsnummer masked; a letter in the trash left
    /// out), in the order chosen.
    case open(ShareLink, [LibraryDocument])
}

extension ShareStore {
    /// The lifetimes a share link may be given, in days; the default is 14.
    public static let shareLinkDays = [1, 7, 14, 30]
    public static let defaultShareLinkDays = 14
    /// Where a share link's letters are read below the web app's own address: `/delt/<secret>`.
    public static let shareLinkPrefix = "/delt"
    public static func shareLinkPath(_ token: String) -> String { "\(shareLinkPrefix)/\(token)" }
    /// The folder of the share PDFs: `<library>/Delinger`, the library's own (never uploaded).
    public static let shareFolder = LibraryFolder.shares.rawValue

    /// Makes a link to the letters `ids` (short ids or longer) that works for `days` days. Returns
    /// its secret (only ever here: the library keeps its SHA-256) and the link.
    public func createShareLink(_ ids: [String], days: Int = defaultShareLinkDays,
                                now: Date = Date()) throws -> (token: String, link: ShareLink) {
        guard (1...366).contains(days) else { throw LibraryFailure.badShareDays(days) }
        let token = Library.randomToken()
        let id = try library.withDatabase { database -> Int in
            var rows: [Int] = []
            for id in ids {
                let row = try library.documents.resolve(id, in: database)
                if try database.firstRow("SELECT trashed_at FROM documents WHERE id = ?", [row])?[0].string != nil {
                    throw LibraryFailure.trashed(id)
                }
                if !rows.contains(row) { rows.append(row) }
            }
            guard !rows.isEmpty else { throw LibraryFailure.noLettersToShare }
            return try database.inTransaction {
                try database.execute("INSERT INTO share_links (token_hash, created_at, expires_at) VALUES (?, ?, ?)",
                                     [Library.tokenHash(token), Self.shareTime(now),
                                      Self.shareTime(now.addingTimeInterval(TimeInterval(days) * 86_400))])
                let link = database.lastInsertedRowID
                for (position, row) in rows.enumerated() {
                    try database.execute("INSERT INTO share_link_documents (link_id, position, document_id) VALUES (?, ?, ?)",
                                         [link, position, row])
                }
                return link
            }
        }
        guard let link = try shareLink(id) else { throw LibraryFailure.noLettersToShare }
        return (token, link)
    }

    /// Every share link, newest first.
    public func shareLinks() throws -> [ShareLink] {
        try library.withReader { database in
            try database.rows("SELECT id FROM share_links ORDER BY id DESC").compactMap { row in
                try row[0].int.flatMap { try shareLink($0, in: database) }
            }
        }
    }

    /// The link with number `id`, nil when there is none.
    public func shareLink(_ id: Int) throws -> ShareLink? {
        try library.withReader { try shareLink(id, in: $0) }
    }

    /// The number of the link whose secret is `token` (or an address ending in it), nil when none.
    public func shareLinkID(token: String) throws -> Int? {
        let secret = String(token.split(separator: "/").last ?? "")
        guard !secret.isEmpty, secret.count <= 200 else { return nil }
        return try library.withReader {
            try $0.firstRow("SELECT id FROM share_links WHERE token_hash = ?", [Library.tokenHash(secret)])?[0].int
        }
    }

    /// What the secret `token` opens now (see ``SharedLetters``). Only reads: the opening is
    /// written down by ``recordShareOpening(_:what:client:now:)``. Each letter is masked as the
    /// share PDF is: every fødselsnummer, and the digits of the letter's own numbers and the
    /// household's however OCR split them (``LibraryDocument/masked(known:)``).
    public func sharedLetters(token: String, now: Date = Date()) throws -> SharedLetters {
        guard let id = try shareLinkID(token: token) else { return .unknown }
        let household = Set(try library.familyProfiles().compactMap { $0.fodselsnummer?.digits })
        return try library.withReader { database in
            guard let link = try shareLink(id, in: database) else { return .unknown }
            switch link.status(now: now) {
            case .revoked: return .revoked(link)
            case .expired: return .expired(link)
            case .active:
                let rows = try database.rows("""
                    SELECT d.id FROM share_link_documents s JOIN documents d ON d.id = s.document_id
                    WHERE s.link_id = ? AND d.trashed_at IS NULL ORDER BY s.position
                    """, [id]).compactMap { $0[0].int }
                return .open(link, try rows.map { row in
                    let document = try library.documents.read(row: row, in: database, revealNumbers: true)
                    return document.masked(known: household.union(document.heldNumbers))
                })
            }
        }
    }

    /// Writes down one opening of link `id` (the client as a coarse hint, at most 60 characters).
    public func recordShareOpening(_ id: Int, what: ShareOpening.What, client: String, now: Date = Date()) throws {
        try library.withDatabase { database in
            try database.execute("INSERT INTO share_link_openings (link_id, opened_at, what, client) VALUES (?, ?, ?, ?)",
                                 [id, Self.shareTime(now), what.rawValue, String(ShownName.of(client).prefix(60))])
        }
    }

    /// Revokes link `id` (it never works again) and removes its PDF; false when there is no such
    /// link. Revoking one already revoked keeps its first time.
    @discardableResult
    public func revokeShareLink(_ id: Int, now: Date = Date()) throws -> Bool {
        let found = try library.withDatabase { database -> Bool in
            try database.execute("UPDATE share_links SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", [Self.shareTime(now), id])
            return database.changes == 1
        }
        if found { removeSharePacks(id) }
        return found
    }

    /// Moves link `id`'s expiry (a link whose expiry is past answers as expired); false when
    /// there is no such link.
    @discardableResult
    public func setShareLinkExpiry(_ id: Int, to date: Date) throws -> Bool {
        try library.withDatabase { database in
            try database.execute("UPDATE share_links SET expires_at = ? WHERE id = ?", [Self.shareTime(date), id])
            return database.changes == 1
        }
    }

    /// Where link `id`'s share PDF of `letters` is kept once made:
    /// `<library>/Delinger/<id>-<version>.pdf`, the version changing with the letters (one put in
    /// the trash, a text corrected), so a PDF of what the link no longer shows is never served.
    public func sharePackURL(_ id: Int, letters: [LibraryDocument]) -> URL {
        let version = Library.tokenHash(letters.map { "\($0.sha256) \($0.updatedAt)" }.joined(separator: "\n")).prefix(16)
        return shareFolderURL.appendingPathComponent("\(id)-\(version).pdf")
    }

    /// `<library>/Delinger`.
    public var shareFolderURL: URL { library.location.directory.appendingPathComponent(Self.shareFolder, isDirectory: true) }

    /// Removes link `id`'s PDFs and their page images but `keeping`'s (best effort: one left is
    /// removed next time).
    public func removeSharePacks(_ id: Int, keeping: URL? = nil) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shareFolderURL.path)) ?? []
        for name in names where name.hasPrefix("\(id)-") && !(keeping.map { Self.belongsToPack(name, pack: $0) } ?? false) {
            try? FileManager.default.removeItem(at: shareFolderURL.appendingPathComponent(name))
        }
    }

    /// Overwrites and removes the PDFs of the links that share the document in row `row` (it is
    /// being purged: no copy of its pages stays behind).
    func shredSharePacks(ofRow row: Int, in database: Database) throws {
        let links = try database.rows("SELECT DISTINCT link_id FROM share_link_documents WHERE document_id = ?", [row]).compactMap { $0[0].int }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shareFolderURL.path)) ?? []
        for link in links {
            for name in names where name.hasPrefix("\(link)-") { Shredder.shred(shareFolderURL.appendingPathComponent(name).path) }
        }
    }

    /// Whether the share PDF just written at `url` may stay: link `id` still works and still
    /// shares each of `letters`. When it was revoked, or one of the letters purged, while the
    /// pages were being read, the file is shredded and false returned (revoking and purging
    /// remove only the files already there).
    public func keepsSharePack(_ url: URL, link id: Int, letters: [LibraryDocument], now: Date = Date()) throws -> Bool {
        if let link = try shareLink(id), link.status(now: now) == .active,
           Set(letters.map(\.shortID)).isSubset(of: link.letters.map(\.id)) {
            return true
        }
        shredSharePack(url)
        return false
    }

    /// Removes the PDFs of links that no longer work (revoked or expired); best effort.
    public func removeStaleSharePacks(now: Date = Date()) throws {
        for link in try shareLinks() where link.status(now: now) != .active { removeSharePacks(link.id) }
    }

    func shareLink(_ id: Int, in database: Database) throws -> ShareLink? {
        guard let row = try database.firstRow("SELECT created_at, expires_at, revoked_at FROM share_links WHERE id = ?", [id]),
              let created = row[0].string.flatMap(Self.date(shareTime:)),
              let expires = row[1].string.flatMap(Self.date(shareTime:)) else { return nil }
        let letters = try database.rows("""
            SELECT d.sha256, d.title FROM share_link_documents s JOIN documents d ON d.id = s.document_id
            WHERE s.link_id = ? ORDER BY s.position
            """, [id]).map { ShareLink.Letter(id: ShortID.of($0[0].string ?? ""), title: Redaction.redact($0[1].string ?? "")) }
        let openings = try database.rows("""
            SELECT opened_at, what, client FROM share_link_openings WHERE link_id = ? ORDER BY id DESC
            """, [id]).compactMap { row -> ShareOpening? in
                guard let at = row[0].string.flatMap(Self.date(shareTime:)) else { return nil }
                return ShareOpening(openedAt: at, what: ShareOpening.What(rawValue: row[1].string ?? "") ?? .page,
                                    client: row[2].string ?? "")
            }
        return ShareLink(id: id, createdAt: created, expiresAt: expires,
                         revokedAt: row[2].string.flatMap(Self.date(shareTime:)), letters: letters, openings: openings)
    }

    /// UTC, ISO 8601 with milliseconds (sorts by time).
    static func shareTime(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(shareTime text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension LibraryFailure {
    static func badShareDays(_ days: Int) -> LibraryFailure {
        .init(.badShareDays, nb: "En delingslenke kan virke fra 1 til 366 dager (fikk \(days)).",
              en: "A share link can work for 1 to 366 days (got \(days)).")
    }

    static let noLettersToShare = LibraryFailure(.noLettersToShare,
        nb: "Velg minst ett brev å dele.", en: "Choose at least one letter to share.")
}
