import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file Arkivator put at a destination, as the library recorded it: its place below the
/// destination, whose letter it is, and the content sent.
public struct RemoteFileRecord: Sendable, Equatable {
    public var path: String
    public var documentNumber: Int
    public var sha256: String
    public var size: Int

    public init(path: String, documentNumber: Int, sha256: String, size: Int) {
        self.path = path
        self.documentNumber = documentNumber
        self.sha256 = sha256
        self.size = size
    }
}

/// A file the destination should hold: the archive file, its place there, and its content now.
public struct MirrorFile: Sendable, Equatable {
    public var file: UploadFile
    public var sha256: String
    public var size: Int

    public var path: String { file.relativePath }
}

/// One letter's copy to bring in line: the files the destination should hold, and those the
/// library recorded there.
public struct MirrorPlan: Sendable {
    public var job: UploadJob
    public var wanted: [MirrorFile]
    public var recorded: [RemoteFileRecord]
}

/// What one try at a letter's copy did at its destination, to be recorded
/// (``UploadStore/recordMirror(_:)``).
public struct MirrorProgress: Sendable {
    public var destination: String
    /// Files now there.
    public var placed: [RemoteFileRecord] = []
    /// Places that no longer hold Arkivator's file.
    public var removed: [String] = []
    /// The job, when the try brought the letter in line, with the generation it was taken at.
    public var completing: (id: Int, generation: Int)?

    public init(destination: String) {
        self.destination = destination
    }

    public var isEmpty: Bool { placed.isEmpty && removed.isEmpty && completing == nil }
}

/// The destination's trash folder: a letter in the local trash lies there, as
/// `Papirkurv/<short id>/<file name>`, until the local trash is emptied.
public enum RemoteTrash {
    public static let folder = "Papirkurv"

    public static func path(shortID: String, fileName: String) -> String {
        folder + "/" + shortID + "/" + fileName
    }
}

extension UploadStore {
    // MARK: What the destination should hold

    /// For each job (taken together, as a pass takes them), the files the destination should
    /// hold for its letter, each with its content's SHA-256 and size, and the files the library
    /// recorded there. Contents come from ``Library/digests(of:)``: only files written or changed
    /// since their digest was recorded are read (off the database lock), and recorded anew.
    /// A file that cannot be read has size -1: its copy then fails with the file missing.
    /// - Throws: ``LibraryFailure`` for the database.
    public func mirrorPlans(of jobs: [UploadJob]) throws -> [MirrorPlan] {
        guard !jobs.isEmpty else { return [] }
        let numbers = Array(Set(jobs.map(\.documentNumber))).sorted()
        let marks = Array(repeating: "?", count: numbers.count).joined(separator: ",")
        let arguments = numbers.map { $0 as any DatabaseValueConvertible }
        let (fileRows, remoteRows) = try library.withReader { database in
            (try database.rows("""
                SELECT f.document_id, f.kind, f.page, f.path, d.trashed_at, c.stamp, c.sha256, c.size
                FROM document_files AS f JOIN documents AS d ON d.id = f.document_id
                LEFT JOIN file_digests AS c ON c.path = f.path
                WHERE f.document_id IN (\(marks))
                ORDER BY f.document_id, CASE f.kind WHEN 'docx' THEN 0 WHEN 'image' THEN 1 ELSE 2 END, f.page, f.path
                """, arguments),
             try database.rows("""
                SELECT path, document_id, sha256, size, destination FROM remote_files WHERE document_id IN (\(marks)) ORDER BY path
                """, arguments))
        }
        typealias Entry = (file: ArchivedFile, stored: String, known: FileDigest?)
        var letters: [Int: (trashed: Bool, files: [Entry])] = [:]
        for row in fileRows {
            guard let number = row[0].int, let stored = row[3].string else { continue }
            let file = ArchivedFile(kind: ArchivedFile.Kind(rawValue: row[1].string ?? "") ?? .docx, page: row[2].int ?? 0,
                                    path: library.paths.resolved(stored))
            let known = row[5].string.map { FileDigest(sha256: row[6].string ?? "", size: row[7].int ?? 0, stamp: $0) }
            letters[number, default: (!row[4].isNull, [])].files.append((file, stored, known))
        }
        let contents = library.digests(of: letters.values.flatMap { $0.files.map { ($0.stored, $0.file.path, $0.known) } })
        if !contents.read.isEmpty {
            _ = try? library.withUnflushedCommit { database in try database.inTransaction { try library.recordDigests(contents.read, in: database) } }
        }
        var recorded: [Int: [(String, RemoteFileRecord)]] = [:]
        for row in remoteRows {
            recorded[row[1].int ?? 0, default: []].append((row[4].string ?? "", Self.remoteFile(row)))
        }
        return jobs.map { job in
            let letter = letters[job.documentNumber] ?? (false, [])
            let places = Self.placed(letter.files.map(\.file), shortID: job.documentID, trashed: letter.trashed)
            let wanted = zip(places, letter.files).map { place, entry in
                let content = contents.all[entry.stored]
                return MirrorFile(file: place, sha256: content?.sha256 ?? "", size: content?.size ?? -1)
            }
            let there = (recorded[job.documentNumber] ?? []).filter { $0.0 == job.destination }.map(\.1)
            return MirrorPlan(job: job, wanted: wanted, recorded: there)
        }
    }

    /// Every letter's files as the destination should hold them, by letter row (letters in the
    /// trash under ``RemoteTrash``), without their content: what `sync --check` compares with.
    public func expectedMirror() throws -> [Int: [UploadFile]] {
        let rows = try library.withReader { database in
            try database.rows("""
                SELECT d.id, d.sha256, d.trashed_at, f.kind, f.page, f.path FROM documents AS d
                JOIN document_files AS f ON f.document_id = d.id ORDER BY d.id
                """).map { row in
                (row[0].int ?? 0, row[1].string ?? "", !row[2].isNull,
                 ArchivedFile(kind: ArchivedFile.Kind(rawValue: row[3].string ?? "") ?? .docx, page: row[4].int ?? 0,
                              path: library.paths.resolved(row[5].string ?? "")))
            }
        }
        var byDocument: [Int: (sha: String, trashed: Bool, files: [ArchivedFile])] = [:]
        for (number, sha, trashed, file) in rows {
            byDocument[number, default: (sha, trashed, [])].files.append(file)
        }
        return byDocument.mapValues { Self.placed($0.files, shortID: ShortID.of($0.sha), trashed: $0.trashed) }
    }

    /// Each file with its place below the destination: below the archive root as it lies in the
    /// archive, or in the destination's trash folder for a letter in the trash.
    static func placed(_ files: [ArchivedFile], shortID: String, trashed: Bool) -> [UploadFile] {
        if trashed {
            return files.map { file in
                // The local trash names files `docx-0-<name>`; the destination's trash keeps the name alone.
                var name = URL(fileURLWithPath: file.path).lastPathComponent
                if let prefix = name.firstMatch(of: /^(docx|image|pdf)-[0-9]+-/), prefix.range.upperBound < name.endIndex {
                    name = String(name[prefix.range.upperBound...])
                }
                return UploadFile(path: file.path, relativePath: RemoteTrash.path(shortID: shortID, fileName: name))
            }
        }
        let root = ArchiveLayout.root(of: files).map { $0.standardizedFileURL.path + "/" }
        return files.map { file in
            let path = URL(fileURLWithPath: file.path).standardizedFileURL.path
            if let root, path.hasPrefix(root), path.count > root.count {
                return UploadFile(path: file.path, relativePath: String(path.dropFirst(root.count)))
            }
            // Not below the root (a moved archive): keep the layout's last three levels.
            return UploadFile(path: file.path, relativePath: URL(fileURLWithPath: path).pathComponents.suffix(3).joined(separator: "/"))
        }
    }

    // MARK: What the destination holds

    /// The files recorded at `destination` for one letter.
    public func remoteFiles(of number: Int, at destination: String) throws -> [RemoteFileRecord] {
        try library.withReader { database in
            try database.rows("""
                SELECT path, document_id, sha256, size FROM remote_files WHERE document_id = ? AND destination = ? ORDER BY path
                """, [number, destination]).map(Self.remoteFile)
        }
    }

    /// Every file recorded at `destination`.
    public func remoteFiles(at destination: String) throws -> [RemoteFileRecord] {
        try library.withReader { database in
            try database.rows("SELECT path, document_id, sha256, size FROM remote_files WHERE destination = ? ORDER BY path",
                              [destination]).map(Self.remoteFile)
        }
    }

    /// Files recorded at `destination` whose letter is gone (purged): to be removed there.
    public func orphanRemoteFiles(at destination: String) throws -> [RemoteFileRecord] {
        try library.withReader { database in
            try database.rows("""
                SELECT r.path, r.document_id, r.sha256, r.size FROM remote_files AS r
                WHERE r.destination = ? AND NOT EXISTS (SELECT 1 FROM documents AS d WHERE d.id = r.document_id)
                ORDER BY r.path
                """, [destination]).map(Self.remoteFile)
        }
    }

    static func remoteFile(_ row: Row) -> RemoteFileRecord {
        RemoteFileRecord(path: row[0].string ?? "", documentNumber: row[1].int ?? 0, sha256: row[2].string ?? "", size: row[3].int ?? 0)
    }

    /// Records that `destination` now holds `file` (replacing whatever was recorded at its place).
    public func recordRemoteFile(_ file: RemoteFileRecord, at destination: String) throws {
        try library.withDatabase { database in
            try database.execute("""
                INSERT INTO remote_files (destination, path, document_id, sha256, size, copied_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (destination, path) DO UPDATE SET document_id = excluded.document_id, sha256 = excluded.sha256,
                    size = excluded.size, copied_at = excluded.copied_at
                """, [destination, file.path, file.documentNumber, file.sha256, file.size, Library.now()])
        }
    }

    /// Records, in one transaction, what copies did at their destinations (files now there,
    /// places no longer holding Arkivator's file) and which jobs are done: a job whose letter
    /// changed while it was copied (its generation moved on) goes round again, due now.
    public func recordMirror(_ progress: [MirrorProgress]) throws {
        guard progress.contains(where: { !$0.isEmpty }) else { return }
        try library.withUnflushedCommit { database in
            try database.inTransaction {
                let now = Library.now()
                for step in progress {
                    for path in step.removed {
                        try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [step.destination, path])
                    }
                    for file in step.placed {
                        try database.execute("""
                            INSERT INTO remote_files (destination, path, document_id, sha256, size, copied_at) VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (destination, path) DO UPDATE SET document_id = excluded.document_id,
                                sha256 = excluded.sha256, size = excluded.size, copied_at = excluded.copied_at
                            """, [step.destination, file.path, file.documentNumber, file.sha256, file.size, now])
                    }
                    if let job = step.completing {
                        try database.execute("""
                            UPDATE upload_jobs SET state = CASE WHEN generation = ? THEN 'done' ELSE 'queued' END,
                                last_error = NULL, next_attempt_at = NULL, failing_since = NULL, updated_at = ? WHERE id = ?
                            """, [job.generation, now, job.id])
                    }
                }
            }
        }
    }

    /// Records that `destination` no longer holds a file at `path`.
    public func forgetRemoteFile(_ path: String, at destination: String) throws {
        try library.withDatabase { database in
            try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [destination, path])
        }
    }

    // MARK: Queueing

    /// Queues every letter's copy at the destination set now (a new destination, or a repair):
    /// each job due now; returns how many letters there are to bring in line.
    @discardableResult
    public func queueWholeArchive() throws -> Int {
        try library.withDatabase { database in
            try database.inTransaction {
                guard let destination = try database.firstRow("SELECT value FROM settings WHERE key = 'destination'")?[0].string,
                      !destination.isEmpty else { return 0 }
                try queueAll(for: destination, in: database)
                return try database.firstRow("SELECT count(*) FROM upload_jobs WHERE destination = ?", [destination])?[0].int ?? 0
            }
        }
    }

    /// The destination changed (or was removed): only the one set now is kept in line, and every
    /// letter is queued for it.
    func destinationChanged(to destination: String?, in database: Database) throws {
        try database.execute("DELETE FROM upload_jobs WHERE destination IS NOT ?", [destination])
        if let destination { try queueAll(for: destination, in: database) }
    }

    private func queueAll(for destination: String, in database: Database) throws {
        let now = Library.now()
        try database.execute("""
            INSERT INTO upload_jobs (document_id, destination, state, created_at, updated_at)
            SELECT id, ?, 'queued', ?, ? FROM documents WHERE true
            ON CONFLICT (document_id, destination) DO UPDATE SET generation = generation + 1,
                state = CASE WHEN state = 'uploading' THEN 'uploading' ELSE 'queued' END,
                attempts = 0, next_attempt_at = NULL, updated_at = excluded.updated_at
            """, [destination, now, now])
    }

    /// The letters whose copies at `destination` were recorded at `since` or later, and the
    /// places of those copies (for ``queueCopies(of:forgetting:)`` after a restart that may have
    /// lost copies not yet written to their disk).
    public func copiesRecorded(at destination: String, since: Date) throws -> (letters: Set<Int>, paths: [String]) {
        try library.withReader { database in
            let rows = try database.rows("SELECT document_id, path FROM remote_files WHERE destination = ? AND copied_at >= ?",
                                         [destination, since.formatted(.iso8601)])
            return (Set(rows.compactMap { $0[0].int }), rows.compactMap { $0[1].string })
        }
    }

    /// Queues the copies of the given letters again, due now (what `sync` does for each one it
    /// found out of line); with `forgetting`, the library also forgets that the destination holds
    /// those paths, so they are sent again.
    public func queueCopies(of numbers: Set<Int>, forgetting stale: [String] = []) throws {
        try library.withDatabase { database in
            try database.inTransaction {
                guard let destination = try database.firstRow("SELECT value FROM settings WHERE key = 'destination'")?[0].string,
                      !destination.isEmpty else { return }
                for path in stale {
                    try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [destination, path])
                }
                let now = Library.now()
                for number in numbers {
                    try database.execute("""
                        INSERT INTO upload_jobs (document_id, destination, state, created_at, updated_at)
                        SELECT id, ?, 'queued', ?, ? FROM documents WHERE id = ?
                        ON CONFLICT (document_id, destination) DO UPDATE SET generation = generation + 1,
                            state = CASE WHEN state = 'uploading' THEN 'uploading' ELSE 'queued' END,
                            attempts = 0, next_attempt_at = NULL, updated_at = excluded.updated_at
                        """, [destination, now, now, number])
                }
            }
        }
    }

    /// Counts of the letters' copies by status (see ``CopyStatus``), letters in the trash left out.
    public func copyCounts() throws -> [CopyStatus: Int] {
        try library.withReader { database in
            var counts: [CopyStatus: Int] = [:]
            for row in try database.rows("SELECT upload_status, count(*) FROM documents WHERE trashed_at IS NULL GROUP BY 1") {
                counts[CopyStatus(stored: row[0].string), default: 0] += row[1].int ?? 0
            }
            return counts
        }
    }
}

/// A letter's copy at the family's destination, as the household sees it: the one mapping the
/// command line, the web app and the API show.
public enum CopyStatus: String, Sendable, Codable, CaseIterable {
    /// No destination is set.
    case none
    /// Not copied yet; waiting for its turn (or for the destination to answer).
    case waiting
    /// Copied once, but the letter has changed since: the copy is being brought in line.
    case stale
    /// The destination holds the letter as the archive has it.
    case copied
    /// The destination refused it; the reason is the job's last error.
    case failed

    /// From `documents.upload_status`, including the values written before the mirror.
    public init(stored: String?) {
        switch stored {
        case "waiting", "queued", "pending", "uploading": self = .waiting
        case "stale": self = .stale
        case "copied", "uploaded", "done": self = .copied
        case "failed", "error": self = .failed
        default: self = .none
        }
    }

    /// A short label.
    public var label: UserMessage {
        switch self {
        case .none: UserMessage(nb: "Ingen kopi satt opp", en: "No copy set up")
        case .waiting: UserMessage(nb: "Venter på å bli kopiert", en: "Waiting to be copied")
        case .stale: UserMessage(nb: "Kopien oppdateres", en: "Copy being updated")
        case .copied: UserMessage(nb: "Kopiert", en: "Copied")
        case .failed: UserMessage(nb: "Kopieringen feilet", en: "Copying failed")
        }
    }
}
