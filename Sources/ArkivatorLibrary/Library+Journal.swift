import ArkivatorCore
import Foundation

/// One file (or folder, or group of page files) received by `arkivator watch`, keyed by its
/// content: the stage it reached, so that a restart resumes and no document is filed twice.
public struct JournalEntry: Sendable, Equatable {
    /// How far a received document has come. The order is the order of the work.
    public enum Stage: String, Sendable, CaseIterable {
        /// Recorded, before any work on it.
        case received, cleaned, recognised, classified, written
        /// Filed: its files are in the archive and its row in the library and the search index.
        case indexed
        /// Filed and the original moved out of the watched folder (or deleted or kept).
        case done
        /// The library already had it; nothing was filed.
        case duplicate
        /// It could not be filed: with `nextAttemptAt`, a passing problem that is tried again
        /// then; without it, for good (the original is in `failed/` until the user moves it back).
        case failed

        /// True for the stages no work follows (a failure waiting for a retry is not final).
        public var isFinal: Bool { self == .done || self == .duplicate }
    }

    /// The document's SHA-256 (of the file, or of its page files' hashes in order).
    public var sha256: String
    /// The file or folder as received; the page files of a group, one per line.
    public var source: String
    public var stage: Stage
    /// Failed attempts so far.
    public var attempts: Int
    /// Why the last attempt failed: stage, code and message in both languages.
    public var failure: DocumentFailure?
    /// When a passing failure is tried again; nil otherwise.
    public var nextAttemptAt: Date?
    /// The library's row for the document once it is filed (or found there).
    public var documentID: Int?
    public var receivedAt: Date
    public var updatedAt: Date

    /// A failure that is tried again at `nextAttemptAt`.
    public var isWaitingForRetry: Bool { stage == .failed && nextAttemptAt != nil }
    /// A failure that is not tried again until the file is moved back into the watched folder.
    public var hasFailedForGood: Bool { stage == .failed && nextAttemptAt == nil }
    /// The page files or folder named by `source`.
    public var sourcePaths: [String] { source.split(separator: "\n").map(String.init) }
}

extension Library {
    /// The `watch` journal in this library (the `journal` table of migration 3).
    public var journal: Journal { Journal(library: self) }

    /// Reads and writes the `journal` table. Every write commits at once (the database runs with
    /// `synchronous = FULL`), so a row is on disk before the work it announces begins.
    public struct Journal: Sendable {
        let library: Library

        private static let columns = "sha256, source, stage, attempts, reason, next_attempt_at, document_id, received_at, updated_at"

        /// The entry for a document, if it was ever received.
        public func entry(sha256: String) throws -> JournalEntry? {
            try library.withReader { database in
                try database.firstRow("SELECT \(Self.columns) FROM journal WHERE sha256 = ?", [sha256]).flatMap(entry)
            }
        }

        /// The entry whose source is `source` (a folder, or page files one per line), if any.
        public func entry(source: String) throws -> JournalEntry? {
            try library.withReader { database in
                try database.firstRow("SELECT \(Self.columns) FROM journal WHERE source = ? ORDER BY updated_at DESC LIMIT 1",
                                      [stored(source)]).flatMap(entry)
            }
        }

        /// Records that a document was received, before any work on it, and returns its entry.
        ///
        /// A document never seen before gets a new row at `received`. One the journal knows keeps
        /// its row (its stage and attempts) with the new source; with `restart`, a final or
        /// failed row starts over at `received` (the user put the file back, or the library no
        /// longer holds it) — a row still in progress is never reset.
        @discardableResult
        public func receive(sha256: String, source: String, restart: Bool = false) throws -> JournalEntry {
            let kept = stored(source)
            return try library.withDatabase { database in
                try database.inTransaction {
                    let now = Library.now()
                    let existing = try database.firstRow("SELECT \(Self.columns) FROM journal WHERE sha256 = ?", [sha256])
                        .flatMap(entry)
                    if let existing {
                        if restart && (existing.stage.isFinal || existing.stage == .failed) {
                            try database.execute("""
                                UPDATE journal SET source = ?, stage = 'received', attempts = 0, reason = NULL,
                                    next_attempt_at = NULL, document_id = NULL, updated_at = ? WHERE sha256 = ?
                                """, [kept, now, sha256])
                        } else if existing.source != source {
                            try database.execute("UPDATE journal SET source = ?, updated_at = ? WHERE sha256 = ?",
                                                 [kept, now, sha256])
                        }
                    } else {
                        try database.execute("""
                            INSERT INTO journal (sha256, source, stage, attempts, received_at, updated_at)
                            VALUES (?, ?, 'received', 0, ?, ?)
                            """, [sha256, kept, now, now])
                    }
                    guard let row = try database.firstRow("SELECT \(Self.columns) FROM journal WHERE sha256 = ?", [sha256]),
                          let received = entry(row) else {
                        throw DatabaseError.failure(1, connection: nil, sql: nil, message: "journal row vanished")
                    }
                    return received
                }
            }
        }

        /// Moves a document on to `stage` (any stage but `failed`: see ``fail(sha256:failure:retryAt:)``).
        /// From `indexed` on, the entry points at the library's row for the document. A failure
        /// waiting for a retry that moves on forgets its retry time but keeps its attempts.
        public func advance(sha256: String, to stage: JournalEntry.Stage) throws {
            precondition(stage != .failed, "use fail(sha256:failure:retryAt:)")
            try library.withDatabase { database in
                let linked: Set<JournalEntry.Stage> = [.indexed, .done, .duplicate]
                try database.execute("""
                    UPDATE journal SET stage = ?, next_attempt_at = NULL, updated_at = ?,
                        reason = CASE WHEN ? THEN NULL ELSE reason END,
                        document_id = CASE WHEN ? THEN (SELECT id FROM documents WHERE sha256 = ?) ELSE document_id END
                    WHERE sha256 = ?
                    """, [stage.rawValue, Library.now(), stage.isFinal, linked.contains(stage), sha256, sha256])
            }
        }

        /// Records a failed attempt: why (code and message in both languages, kept as JSON in
        /// `reason`), and with `retryAt` the time it is tried again (nil: failed for good).
        /// Returns the number of failed attempts so far.
        @discardableResult
        public func fail(sha256: String, failure: DocumentFailure, retryAt: Date?) throws -> Int {
            let reason = String(decoding: try JSONEncoder().encode(failure), as: UTF8.self)
            return try library.withDatabase { database in
                try database.inTransaction {
                    try database.execute("""
                        UPDATE journal SET stage = 'failed', attempts = attempts + 1, reason = ?, next_attempt_at = ?,
                            updated_at = ? WHERE sha256 = ?
                        """, [reason, retryAt.map(Self.timestamp), Library.now(), sha256])
                    return try database.firstRow("SELECT attempts FROM journal WHERE sha256 = ?", [sha256])?[0].int ?? 0
                }
            }
        }

        /// Forgets a document (a source that changed before it was read, so it has another SHA-256).
        public func remove(sha256: String) throws {
            try library.withDatabase { database in
                try database.execute("DELETE FROM journal WHERE sha256 = ? AND stage NOT IN ('done', 'duplicate')", [sha256])
            }
        }

        /// The entries whose work is not finished: every stage before `done`, and failures waiting
        /// for a retry; oldest first. Failures for good are left out.
        public func unfinished() throws -> [JournalEntry] {
            try library.withReader { database in
                try database.rows("""
                    SELECT \(Self.columns) FROM journal
                    WHERE stage NOT IN ('done', 'duplicate', 'failed') OR (stage = 'failed' AND next_attempt_at IS NOT NULL)
                    ORDER BY received_at, sha256
                    """).compactMap(entry)
            }
        }

        /// Every entry at one stage, oldest first (for reports and tests).
        public func entries(at stage: JournalEntry.Stage) throws -> [JournalEntry] {
            try library.withReader { database in
                try database.rows("SELECT \(Self.columns) FROM journal WHERE stage = ? ORDER BY received_at, sha256",
                                  [stage.rawValue]).compactMap(entry)
            }
        }

        // MARK: Rows

        /// A source as stored: each path (one a line) as ``LibraryPaths`` stores it, so an upload
        /// waiting in `<library>/Innboks` is found in a copied or moved library, never in the original.
        func stored(_ source: String) -> String {
            source.split(separator: "\n", omittingEmptySubsequences: false).map { library.paths.stored(String($0)) }
                .joined(separator: "\n")
        }

        func resolved(_ source: String) -> String {
            source.split(separator: "\n", omittingEmptySubsequences: false).map { library.paths.resolved(String($0)) }
                .joined(separator: "\n")
        }

        func entry(_ row: Row) -> JournalEntry? {
            guard let sha = row[0].string, let source = row[1].string.map(resolved),
                  let stage = row[2].string.flatMap(JournalEntry.Stage.init(rawValue:)) else { return nil }
            return JournalEntry(
                sha256: sha, source: source, stage: stage, attempts: row[3].int ?? 0,
                failure: row[4].string.map(Self.failure),
                nextAttemptAt: row[5].string.flatMap(Self.date), documentID: row[6].int,
                receivedAt: row[7].string.flatMap(Self.date) ?? Date(), updatedAt: row[8].string.flatMap(Self.date) ?? Date())
        }

        /// A stored reason: JSON written by ``fail(sha256:failure:retryAt:)``, or the plain text
        /// of a journal written before reasons kept both languages.
        static func failure(_ text: String) -> DocumentFailure {
            if let failure = try? JSONDecoder().decode(DocumentFailure.self, from: Data(text.utf8)) { return failure }
            return DocumentFailure(stage: .intake, code: "unknown", message: UserMessage(nb: text, en: text))
        }

        /// UTC, ISO 8601 to the second (as every timestamp in the library): sorts as text.
        static func timestamp(_ date: Date) -> String {
            date.formatted(.iso8601)
        }

        static func date(_ text: String) -> Date? {
            try? Date(text, strategy: .iso8601)
        }
    }
}

extension Library {
    /// Gives back the memory SQLite holds for the connections' caches (a long-running `watch`
    /// calls it when idle): the writer's is emptied and idle readers are closed; both fill again
    /// as they are used.
    public func releaseMemory() {
        _ = try? withDatabase { database in try database.execute(script: "PRAGMA shrink_memory") }
        closeIdleReaders()
    }
}
