import ArkivatorCore
import Foundation

/// A letter as a household member's timeline first reads it: enough to gather it into an
/// episode, without its text.
public struct TimelineEntry: Sendable, Equatable {
    /// The library row: what ``Library/summaries(rows:)`` reads the shown letters by.
    public var row: Int
    public var documentDate: String
    public var docType: String
    public var specialty: String?
    public var institution: String?
}

extension DocumentStore {
    /// The letters filed under household member `member` (exactly as the family names them), not
    /// in the trash, newest first: at most `limit`, and whether there are more. Read from the
    /// `documents_timeline` index alone, so 100,000 letters cost no row read.
    public func timelineEntries(member: String, limit: Int) throws -> (entries: [TimelineEntry], more: Bool) {
        let query = Self.timelineQuery(member: member, limit: limit + 1)
        let rows = try library.withReader { try $0.rows(query.sql, query.arguments) }
        let entries = rows.prefix(max(limit, 0)).map {
            TimelineEntry(row: $0[0].int ?? 0, documentDate: $0[1].string ?? "", docType: $0[2].string ?? "annet",
                          specialty: $0[3].string, institution: $0[4].string)
        }
        return (entries, rows.count > limit)
    }

    /// A number drawn anew whenever a letter is added or deleted, or a column its timeline reads
    /// changes (member, date, type, specialty, sender, the trash), by this process or any other:
    /// triggers on `documents` draw it (see ``Migrations``). The same stamp means the same letters
    /// to gather, so a member's episodes can be kept by it; nil when the database keeps none.
    public func lettersStamp() throws -> Int? {
        try library.withReader { try $0.firstRow("SELECT stamp FROM letters_changed WHERE id = 1")?[0].int }
    }

    static func timelineQuery(member: String, limit: Int) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        ("""
            SELECT d.id, d.document_date, d.doc_type, d.specialty, d.institution FROM documents d
            WHERE d.family_member = ? AND d.trashed_at IS NULL AND d.family_member IS NOT NULL
            ORDER BY d.document_date DESC, d.id DESC LIMIT ?
            """, [member, max(limit, 0)])
    }

    /// The list lines of the letters in library rows `rows` (those in the trash or gone are left
    /// out), by row.
    public func summaries(rows: [Int]) throws -> [Int: DocumentSummary] {
        guard !rows.isEmpty else { return [:] }
        return try library.withReader { database in
            var found: [Int: DocumentSummary] = [:]
            // In slices, well under SQLite's limit on a statement's arguments.
            for start in stride(from: 0, to: rows.count, by: 500) {
                let slice = Array(rows[start..<min(rows.count, start + 500)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                let sql = "SELECT \(Self.summaryColumns), d.id FROM documents d WHERE d.trashed_at IS NULL AND d.id IN (\(marks))"
                for row in try database.rows(sql, slice) {
                    if let id = row[12].int { found[id] = summary(row) }
                }
            }
            return found
        }
    }
}

extension DocumentStore {
    /// The appointments of household member `member` on or after `from`, not cancelled, by day and
    /// time (see ``appointments(ofMember:from:)``).
    public func upcomingAppointments(member: String, from: CalendarDate) throws -> [StoredAppointment] {
        try library.calendar.appointments(ofMember: member, from: from)
    }
}
