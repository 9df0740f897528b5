import ArkivatorCore
import Foundation

/// A household member's calendar feed: a secret address a phone's calendar subscribes to. The
/// secret is shown once, when it is made; the library keeps only its SHA-256 (as for sign-in
/// links and sessions), so a copy of the database opens no feed.
public struct CalendarFeed: Sendable, Equatable {
    /// The family row's id.
    public var memberID: Int
    public var member: String
    /// UTC, ISO 8601.
    public var createdAt: String
    /// When a calendar last fetched it (noted at most once a minute); nil before the first time.
    public var lastFetched: String?
}

extension CalendarStore {
    /// The path of a feed's address below the web app's own: `/kalender/<secret>.ics`.
    public static func calendarFeedPath(_ secret: String) -> String { "/kalender/\(secret).ics" }

    /// Makes a new secret address for a member's appointments, replacing the one they had (which
    /// stops working at once). Returns the secret: the only time it is seen.
    public func createCalendarFeed(member id: Int) throws -> String {
        let secret = Library.randomToken()
        try library.withDatabase { database in
            try database.inTransaction {
                guard try database.firstRow("SELECT 1 FROM family WHERE id = ?", [id]) != nil else {
                    throw FamilyError.notFound(String(id))
                }
                try database.execute("""
                    INSERT INTO calendar_feeds (member_id, token_hash, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (member_id) DO UPDATE SET token_hash = excluded.token_hash,
                        created_at = excluded.created_at, last_fetched = NULL
                    """, [id, Library.tokenHash(secret), Library.now()])
            }
        }
        return secret
    }

    /// Stops a member's feed: its address answers nothing from now on. False when they had none.
    @discardableResult
    public func revokeCalendarFeed(member id: Int) throws -> Bool {
        try library.withDatabase { database in
            try database.execute("DELETE FROM calendar_feeds WHERE member_id = ?", [id])
            return database.changes == 1
        }
    }

    /// The feeds of the members still in the household.
    public func calendarFeeds() throws -> [CalendarFeed] {
        try library.withReader { database in
            try database.rows("""
                SELECT f.member_id, m.name, f.created_at, f.last_fetched FROM calendar_feeds AS f
                JOIN family AS m ON m.id = f.member_id ORDER BY m.name
                """).map { CalendarFeed(memberID: $0[0].int ?? 0, member: $0[1].string ?? "", createdAt: $0[2].string ?? "",
                                        lastFetched: $0[3].string) }
        }
    }

    /// The member whose feed `secret` opens, with that member's appointments (all of them,
    /// cancelled ones too, so a calendar that had one removes it); nil for a secret that opens
    /// nothing (never made, replaced, revoked, or its member removed). Found by the secret's
    /// hash: nothing is compared with the secret itself. A read only: see ``noteCalendarFeedFetched(_:)``.
    public func calendarFeed(secret: String) throws -> (feed: CalendarFeed, appointments: [StoredAppointment])? {
        guard (20...200).contains(secret.utf8.count) else { return nil }
        let found = try library.withReader { database -> CalendarFeed? in
            try database.firstRow("""
                SELECT f.member_id, m.name, f.created_at, f.last_fetched FROM calendar_feeds AS f
                JOIN family AS m ON m.id = f.member_id WHERE f.token_hash = ?
                """, [Library.tokenHash(secret)]).map { CalendarFeed(memberID: $0[0].int ?? 0, member: $0[1].string ?? "",
                                                                  createdAt: $0[2].string ?? "", lastFetched: $0[3].string) }
        }
        guard let feed = found else { return nil }
        return (feed, try appointments(ofMember: feed.member))
    }

    /// Whether a fetch of `feed` is to be written down (at most once a minute).
    public static func calendarFeedFetchIsDue(_ feed: CalendarFeed, now: Date = Date()) -> Bool {
        feed.lastFetched.map { $0 < now.addingTimeInterval(-Library.lastUseResolution).formatted(.iso8601) } ?? true
    }

    /// Notes that a calendar fetched a member's feed now (shown beside it, so a forgotten
    /// subscription is seen).
    public func noteCalendarFeedFetched(_ feed: CalendarFeed) throws {
        try library.withDatabase { database in
            try database.execute("UPDATE calendar_feeds SET last_fetched = ? WHERE member_id = ? AND created_at = ?",
                                 [Library.now(), feed.memberID, feed.createdAt])
        }
    }

    /// The appointments of household member `member` (the name exactly, not a part of it), by day
    /// and time: those of letters filed under the member, and those of letters filed under no
    /// member that name the member as printed; never those of a letter since filed under another
    /// member. All of them (cancelled ones too, so a calendar that had one removes it), or with
    /// `from`, those on or after that day and not cancelled. The one rule the feed and the
    /// timeline share.
    public func appointments(ofMember member: String, from: CalendarDate? = nil) throws -> [StoredAppointment] {
        let upcoming = from == nil ? "" : " AND a.date >= ? AND a.cancelled = 0"
        let arguments: [any DatabaseValueConvertible] = [member, member] + (from.map { [$0.iso] } ?? [])
        return try library.withReader { database in
            try database.rows(Self.appointmentQuery + """
                 WHERE d.trashed_at IS NULL
                   AND (d.family_member = ? COLLATE NOCASE OR (d.family_member IS NULL AND a.person = ? COLLATE NOCASE))
                """ + upcoming + " ORDER BY a.date, coalesce(a.time, ''), a.id", arguments).map(Self.appointment)
        }
    }
}
