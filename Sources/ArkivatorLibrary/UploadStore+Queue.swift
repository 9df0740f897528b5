import ArkivatorArchive
import ArkivatorCore
import Foundation

/// One row of the upload queue: a document to be copied to a destination.
public struct UploadJob: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Waiting for its (next) try; due when `nextAttemptAt` is nil or has passed.
        case queued
        /// Being uploaded now (or left so by a process that died: see ``Library/claimUpload(_:includeWaiting:staleAfter:now:)``).
        case uploading
        case done
        /// Gave up; `arkivator queue retry` puts it back in the queue.
        case error
    }

    public var id: Int
    /// The document's row number.
    public var documentNumber: Int
    /// The document's short id (first 10 hex digits of its SHA-256).
    public var documentID: String
    public var title: String
    /// `folder:PATH`, `webdav:URL` or `rclone:REMOTE:PATH`, as it was set when the job was made.
    public var destination: String
    public var state: State
    /// Failed tries that counted (a refused login does not count).
    public var attempts: Int
    /// Why the last try failed, in plain words.
    public var lastError: String?
    /// UTC, ISO 8601 with milliseconds: when a job that failed is tried again.
    public var nextAttemptAt: String?
    public var createdAt: String
    public var updatedAt: String
    /// True while the document is in the trash (its copy lies in the destination's trash folder).
    public var trashed: Bool
    /// How many times the letter changed since the job was made: a change during a copy sends
    /// the job round again.
    public var generation: Int
    /// UTC, ISO 8601: the first failed try in a row (nil once a try succeeds).
    public var failingSince: String?

    /// Since when the copy has been failing, as a date.
    public var failingSinceDate: Date? { failingSince.flatMap(Library.parseTimestamp) }

    enum CodingKeys: String, CodingKey {
        case id, documentNumber, documentID, title, destination, state, attempts, lastError, nextAttemptAt, createdAt, updatedAt,
             trashed, generation, failingSince
    }

    public init(id: Int, documentNumber: Int, documentID: String, title: String, destination: String, state: State, attempts: Int,
                lastError: String?, nextAttemptAt: String?, createdAt: String, updatedAt: String, trashed: Bool,
                generation: Int = 0, failingSince: String? = nil) {
        (self.id, self.documentNumber, self.documentID, self.title, self.destination) = (id, documentNumber, documentID, title, destination)
        (self.state, self.attempts, self.lastError, self.nextAttemptAt) = (state, attempts, lastError, nextAttemptAt)
        (self.createdAt, self.updatedAt, self.trashed, self.generation, self.failingSince) = (createdAt, updatedAt, trashed, generation, failingSince)
    }

    /// Reads a job as the API writes it; one written before the mirror has no generation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(Int.self, forKey: .id), documentNumber: try c.decode(Int.self, forKey: .documentNumber),
                  documentID: try c.decode(String.self, forKey: .documentID), title: try c.decode(String.self, forKey: .title),
                  destination: try c.decode(String.self, forKey: .destination), state: try c.decode(State.self, forKey: .state),
                  attempts: try c.decode(Int.self, forKey: .attempts), lastError: try c.decodeIfPresent(String.self, forKey: .lastError),
                  nextAttemptAt: try c.decodeIfPresent(String.self, forKey: .nextAttemptAt),
                  createdAt: try c.decode(String.self, forKey: .createdAt), updatedAt: try c.decode(String.self, forKey: .updatedAt),
                  trashed: try c.decode(Bool.self, forKey: .trashed),
                  generation: try c.decodeIfPresent(Int.self, forKey: .generation) ?? 0,
                  failingSince: try c.decodeIfPresent(String.self, forKey: .failingSince))
    }
}

/// A file of a document to upload: where it is, and where it goes below the destination.
public struct UploadFile: Sendable, Equatable {
    public var path: String
    /// `Person/Dokumenter/Title.docx`: the file's place below the archive root, kept at the destination.
    public var relativePath: String

    public init(path: String, relativePath: String) {
        self.path = path
        self.relativePath = relativePath
    }

    public var url: URL { URL(fileURLWithPath: path) }
}

/// How much of the queue is left, and when the next job is due.
public struct UploadQueueStatus: Sendable, Equatable {
    /// Jobs queued or being uploaded (documents in the trash not counted).
    public var pending: Int
    /// Jobs that gave up.
    public var failed: Int
    /// When the next pending job is due (now or in the past: due now); nil when none is pending.
    public var nextDue: Date?
}

extension UploadStore {
    // MARK: Reading the queue

    /// The columns of ``UploadJob``, from `upload_jobs AS j JOIN documents AS d`.
    private static let jobColumns = """
        j.id, j.document_id, d.sha256, d.title, j.destination, j.state, j.attempts, j.last_error, j.next_attempt_at,
        j.created_at, j.updated_at, d.trashed_at, j.generation, j.failing_since
        """

    private static func job(_ row: Row) -> UploadJob {
        UploadJob(id: row[0].int ?? 0, documentNumber: row[1].int ?? 0, documentID: ShortID.of(row[2].string ?? ""),
                  title: row[3].string ?? "", destination: row[4].string ?? "",
                  state: UploadJob.State(rawValue: row[5].string ?? "") ?? .queued, attempts: row[6].int ?? 0,
                  lastError: row[7].string, nextAttemptAt: row[8].string, createdAt: row[9].string ?? "",
                  updatedAt: row[10].string ?? "", trashed: !row[11].isNull, generation: row[12].int ?? 0,
                  failingSince: row[13].string)
    }

    /// The upload jobs, oldest first; only those in `states` when given.
    public func uploadJobs(states: Set<UploadJob.State>? = nil) throws -> [UploadJob] {
        try library.withReader { database in
            try database.rows("""
                SELECT \(Self.jobColumns) FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id ORDER BY j.id
                """).map(Self.job).filter { states?.contains($0.state) ?? true }
        }
    }

    /// One upload job.
    /// - Throws: ``LibraryFailure`` `.noUploadJob`.
    public func uploadJob(_ id: Int) throws -> UploadJob {
        try library.withReader { database in try job(id, in: database) }
    }

    private func job(_ id: Int, in database: Database) throws -> UploadJob {
        guard let row = try database.firstRow("""
            SELECT \(Self.jobColumns) FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id WHERE j.id = ?
            """, [id]) else { throw LibraryFailure.noUploadJob(id) }
        return Self.job(row)
    }

    /// The condition that makes a job due (with arguments: include waiting, now, stale before).
    private static let dueCondition = """
        ((j.state = 'queued' AND (? OR j.next_attempt_at IS NULL OR j.next_attempt_at <= ?))
            OR (j.state = 'uploading' AND j.updated_at <= ?))
        """

    private static func dueArguments(includeWaiting: Bool, staleAfter: TimeInterval, now: Date) -> [any DatabaseValueConvertible] {
        [includeWaiting, Library.uploadTimestamp(now), Library.timestamp(now.addingTimeInterval(-staleAfter))]
    }

    /// The ids of the jobs due now, oldest first: queued ones whose time has come (all queued ones with
    /// `includeWaiting`), and ones left `uploading` for longer than `staleAfter` seconds (by a
    /// process that died: a live uploader touches its jobs every few seconds). A letter in the
    /// trash is due too: its copy goes to the destination's trash folder.
    public func dueUploads(includeWaiting: Bool = false, staleAfter: TimeInterval = 60, now: Date = Date()) throws -> [Int] {
        try library.withReader { database in
            try database.rows("""
                SELECT j.id FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id
                WHERE \(Self.dueCondition) ORDER BY j.id
                """, Self.dueArguments(includeWaiting: includeWaiting, staleAfter: staleAfter, now: now)).compactMap { $0[0].int }
        }
    }

    /// Marks the job `uploading` if it is still due (see ``dueUploads(includeWaiting:staleAfter:now:)``),
    /// in one transaction, so two uploaders never take the same job; returns it, or nil when it is
    /// no longer due (done, given up, taken or gone).
    public func claimUpload(_ id: Int, includeWaiting: Bool = false, staleAfter: TimeInterval = 60,
                            now: Date = Date()) throws -> UploadJob? {
        try claimUploads([id], includeWaiting: includeWaiting, staleAfter: staleAfter, now: now).first
    }

    /// ``claimUpload(_:includeWaiting:staleAfter:now:)`` for several jobs in one transaction:
    /// returns those taken, in id order.
    public func claimUploads(_ ids: [Int], includeWaiting: Bool = false, staleAfter: TimeInterval = 60,
                             now: Date = Date()) throws -> [UploadJob] {
        guard !ids.isEmpty else { return [] }
        return try library.withUnflushedCommit { database in
            try database.inTransaction { () throws -> [UploadJob] in
                let stamp = Library.now()
                var taken: [Int] = []
                for id in ids {
                    let due = try database.firstRow("""
                        SELECT 1 FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id WHERE j.id = ? AND \(Self.dueCondition)
                        """, [id] + Self.dueArguments(includeWaiting: includeWaiting, staleAfter: staleAfter, now: now))
                    guard due != nil else { continue }
                    try database.execute("UPDATE upload_jobs SET state = 'uploading', updated_at = ? WHERE id = ?", [stamp, id])
                    taken.append(id)
                }
                return try jobs(taken, in: database)
            }
        }
    }

    /// The jobs with these ids that still exist, in id order.
    public func uploadJobs(_ ids: [Int]) throws -> [UploadJob] {
        try library.withReader { database in try jobs(ids, in: database) }
    }

    private func jobs(_ ids: [Int], in database: Database) throws -> [UploadJob] {
        guard !ids.isEmpty else { return [] }
        return try database.rows("""
            SELECT \(Self.jobColumns) FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id
            WHERE j.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ","))) ORDER BY j.id
            """, ids.map { $0 as any DatabaseValueConvertible }).map(Self.job)
    }

    /// Tells other uploaders that the jobs are still being worked on (call every few seconds).
    public func touchUploads(_ ids: [Int]) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                let now = Library.now()
                for id in ids {
                    try database.execute("UPDATE upload_jobs SET updated_at = ? WHERE id = ? AND state = 'uploading'", [now, id])
                }
            }
        }
    }

    /// Puts jobs this process took back in the queue as they were, due now (an uploader that
    /// was stopped before it finished them).
    public func releaseUploads(_ ids: [Int]) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                let now = Library.now()
                for id in ids {
                    try database.execute("UPDATE upload_jobs SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'uploading'",
                                         [now, id])
                }
            }
        }
    }

    /// Puts every `uploading` job back in the queue: for an uploader that knows no other one is
    /// running (it holds the upload lock), these were left by a process that died.
    @discardableResult
    public func requeueInterruptedUploads() throws -> Int {
        try library.withDatabase { database in
            try database.execute("UPDATE upload_jobs SET state = 'queued', updated_at = ? WHERE state = 'uploading'", [Library.now()])
            return database.changes
        }
    }

    /// Pending and failed jobs, and when the next pending one is due; copies of purged letters
    /// still to be removed count as pending, due now.
    public func uploadQueueStatus(staleAfter: TimeInterval = 60) throws -> UploadQueueStatus {
        try library.withReader { database in
            let rows = try database.rows("""
                SELECT j.state, j.next_attempt_at, j.updated_at FROM upload_jobs AS j JOIN documents AS d ON d.id = j.document_id
                WHERE j.state != 'done'
                """)
            var status = UploadQueueStatus(pending: 0, failed: 0, nextDue: nil)
            let now = Date()
            let orphans = try database.firstRow("""
                SELECT count(*) FROM remote_files AS r WHERE r.destination = (SELECT value FROM settings WHERE key = 'destination')
                AND NOT EXISTS (SELECT 1 FROM documents AS d WHERE d.id = r.document_id)
                """)?[0].int ?? 0
            // Removed on the next pass (not "due": a destination that is down would be asked again at once).
            status.pending += orphans
            for row in rows {
                let due: Date
                switch row[0].string {
                case "queued":
                    due = row[1].string.flatMap(Library.parseTimestamp) ?? now
                case "uploading":
                    due = (row[2].string.flatMap(Library.parseTimestamp) ?? now).addingTimeInterval(staleAfter)
                default:
                    status.failed += 1
                    continue
                }
                status.pending += 1
                status.nextDue = min(status.nextDue ?? due, due)
            }
            return status
        }
    }

    /// The files of the job's document, each with its place below the destination
    /// (`Person/Dokumenter/x.docx`; a letter in the trash `Papirkurv/<id>/x.docx`): the `.docx`,
    /// then the page images in order, then the PDF.
    public func uploadFiles(of job: UploadJob) throws -> [UploadFile] {
        try library.withReader { database in
            let trashed = try database.firstRow("SELECT trashed_at FROM documents WHERE id = ?", [job.documentNumber]).map { !$0[0].isNull } ?? false
            let files = try database.rows("""
                SELECT kind, page, path FROM document_files WHERE document_id = ?
                ORDER BY CASE kind WHEN 'docx' THEN 0 WHEN 'image' THEN 1 ELSE 2 END, page, path
                """, [job.documentNumber]).compactMap { row -> ArchivedFile? in
                guard let path = row[2].string.map(library.paths.resolved) else { return nil }
                return ArchivedFile(kind: ArchivedFile.Kind(rawValue: row[0].string ?? "") ?? .docx, page: row[1].int ?? 0, path: path)
            }
            return Self.placed(files, shortID: job.documentID, trashed: trashed)
        }
    }

    // MARK: Results

    /// The job is done: its document's copy status follows. When the letter changed while it
    /// was copied (its generation is no longer `generation`), the job goes round again, due now.
    public func completeUpload(_ id: Int, generation: Int? = nil) throws {
        try library.withDatabase { database in
            try database.execute("""
                UPDATE upload_jobs SET state = CASE WHEN ? IS NULL OR generation = ? THEN 'done' ELSE 'queued' END,
                    last_error = NULL, next_attempt_at = NULL, failing_since = NULL, updated_at = ? WHERE id = ?
                """, [generation, generation, Library.now(), id])
        }
    }

    /// Records a failed try: with `retryAt` the job goes back in the queue until then, without it
    /// the job gives up (`error`, the document's upload status `failed`). `counted` adds one to
    /// its attempts (a refused login does not count). Returns the job as it is now.
    @discardableResult
    public func recordUploadFailure(_ id: Int, message: String, counted: Bool, retryAt: Date?) throws -> UploadJob {
        try library.withDatabase { database in
            try database.inTransaction {
                let now = Library.now()
                try database.execute("""
                    UPDATE upload_jobs SET state = ?, attempts = attempts + ?, last_error = ?, next_attempt_at = ?, updated_at = ?,
                        failing_since = coalesce(failing_since, ?)
                    WHERE id = ?
                    """, [retryAt == nil ? "error" : "queued", counted ? 1 : 0, message, retryAt.map(Library.uploadTimestamp),
                          now, now, id])
                return try job(id, in: database)
            }
        }
    }

    /// Puts a job back in the queue, due now, with its attempts at 0: one that gave up, or one
    /// waiting for its next try.
    /// - Throws: ``LibraryFailure`` `.noUploadJob`, `.alreadyUploaded`.
    public func retryUpload(_ id: Int) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                let job = try job(id, in: database)
                guard job.state != .done else { throw LibraryFailure.alreadyUploaded(id, title: job.title) }
                // A job being uploaded right now is left alone.
                guard job.state != .uploading else { return }
                try requeue("id = ?", [id], in: database)
            }
        }
    }

    /// Puts every job that gave up or waits for a later try back in the queue, due now; returns how many.
    @discardableResult
    public func retryAllUploads() throws -> Int {
        try library.withDatabase { database in
            try database.inTransaction {
                try requeue("state = 'error' OR (state = 'queued' AND (attempts > 0 OR next_attempt_at IS NOT NULL))", [], in: database)
            }
        }
    }

    @discardableResult
    private func requeue(_ condition: String, _ arguments: [any DatabaseValueConvertible], in database: Database) throws -> Int {
        let ids = try database.rows("SELECT id FROM upload_jobs WHERE \(condition)", arguments).compactMap { $0[0].int }
        for id in ids {
            try database.execute("""
                UPDATE upload_jobs SET state = 'queued', attempts = 0, last_error = NULL, next_attempt_at = NULL, updated_at = ?
                WHERE id = ?
                """, [Library.now(), id])
        }
        return ids.count
    }

    /// The letter's copy at the destination (see ``CopyStatus``).
    public func copyStatus(ofDocument number: Int) throws -> CopyStatus {
        try library.withReader { database in
            CopyStatus(stored: try database.firstRow("SELECT upload_status FROM documents WHERE id = ?", [number])?[0].string)
        }
    }
}
