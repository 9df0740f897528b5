import ArkivatorArchive
import ArkivatorCore
internal import Crypto
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

/// The destination's trash folder: a letter in the local trash lies there, as
/// `Papirkurv/<short id>/<file name>`, until the local trash is emptied.
public enum RemoteTrash {
    public static let folder = "Papirkurv"

    public static func path(shortID: String, fileName: String) -> String {
        folder + "/" + shortID + "/" + fileName
    }
}

extension Library {
    // MARK: What the destination should hold

    /// The files the destination should hold for the job's letter, each with its content's
    /// SHA-256 and size (read now, off the database lock).
    /// - Throws: ``LibraryFailure`` for the database; a file that cannot be read is left out of
    ///   nothing: the copy then fails with the file missing.
    public func mirrorFiles(of job: UploadJob) throws -> [MirrorFile] {
        try uploadFiles(of: job).map { file in
            let (sha256, size) = Self.digest(file.path) ?? ("", -1)
            return MirrorFile(file: file, sha256: sha256, size: size)
        }
    }

    /// SHA-256 (hex) and size of a file, read in pieces; nil when it cannot be read.
    public static func digest(_ path: String) -> (String, Int)? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        var hasher = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 1), 1 << 20))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            size += count
        }
        return (hasher.finalize().map { String(format: "%02x", $0) }.joined(), size)
    }

    /// Every letter's files as the destination should hold them, by letter row (letters in the
    /// trash under ``RemoteTrash``), without their content: what `sync --check` compares with.
    public func expectedMirror() throws -> [Int: [UploadFile]] {
        let rows = try withReader { database in
            try database.rows("""
                SELECT d.id, d.sha256, d.trashed_at, f.kind, f.page, f.path FROM documents AS d
                JOIN document_files AS f ON f.document_id = d.id ORDER BY d.id
                """).map { row in
                (row[0].int ?? 0, row[1].string ?? "", !row[2].isNull,
                 ArchivedFile(kind: ArchivedFile.Kind(rawValue: row[3].string ?? "") ?? .docx, page: row[4].int ?? 0,
                              path: paths.resolved(row[5].string ?? "")))
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
        try withReader { database in
            try database.rows("""
                SELECT path, document_id, sha256, size FROM remote_files WHERE document_id = ? AND destination = ? ORDER BY path
                """, [number, destination]).map(Self.remoteFile)
        }
    }

    /// Every file recorded at `destination`.
    public func remoteFiles(at destination: String) throws -> [RemoteFileRecord] {
        try withReader { database in
            try database.rows("SELECT path, document_id, sha256, size FROM remote_files WHERE destination = ? ORDER BY path",
                              [destination]).map(Self.remoteFile)
        }
    }

    /// Files recorded at `destination` whose letter is gone (purged): to be removed there.
    public func orphanRemoteFiles(at destination: String) throws -> [RemoteFileRecord] {
        try withReader { database in
            try database.rows("""
                SELECT r.path, r.document_id, r.sha256, r.size FROM remote_files AS r
                WHERE r.destination = ? AND NOT EXISTS (SELECT 1 FROM documents AS d WHERE d.id = r.document_id)
                ORDER BY r.path
                """, [destination]).map(Self.remoteFile)
        }
    }

    private static func remoteFile(_ row: Row) -> RemoteFileRecord {
        RemoteFileRecord(path: row[0].string ?? "", documentNumber: row[1].int ?? 0, sha256: row[2].string ?? "", size: row[3].int ?? 0)
    }

    /// Records that `destination` now holds `file` (replacing whatever was recorded at its place).
    public func recordRemoteFile(_ file: RemoteFileRecord, at destination: String) throws {
        try withDatabase { database in
            try database.execute("""
                INSERT INTO remote_files (destination, path, document_id, sha256, size, copied_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (destination, path) DO UPDATE SET document_id = excluded.document_id, sha256 = excluded.sha256,
                    size = excluded.size, copied_at = excluded.copied_at
                """, [destination, file.path, file.documentNumber, file.sha256, file.size, Self.now()])
        }
    }

    /// Records, in one transaction, what a copy did at `destination` (`placed` files now there,
    /// `removed` places no longer holding Arkivator's file) and, with `completing`, that the job
    /// is done (see ``completeUpload(_:generation:)``).
    public func recordMirror(at destination: String, placed: [RemoteFileRecord], removed: [String],
                             completing job: (id: Int, generation: Int)? = nil) throws {
        try withBookkeeping { database in
            try database.inTransaction {
                let now = Self.now()
                for path in removed {
                    try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [destination, path])
                }
                for file in placed {
                    try database.execute("""
                        INSERT INTO remote_files (destination, path, document_id, sha256, size, copied_at) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (destination, path) DO UPDATE SET document_id = excluded.document_id, sha256 = excluded.sha256,
                            size = excluded.size, copied_at = excluded.copied_at
                        """, [destination, file.path, file.documentNumber, file.sha256, file.size, now])
                }
                if let job {
                    try database.execute("""
                        UPDATE upload_jobs SET state = CASE WHEN generation = ? THEN 'done' ELSE 'queued' END,
                            last_error = NULL, next_attempt_at = NULL, failing_since = NULL, updated_at = ? WHERE id = ?
                        """, [job.generation, now, job.id])
                }
            }
        }
    }

    /// Runs `body` on the library's connection with `synchronous = NORMAL` (WAL: a commit is not
    /// flushed on its own): for the copies' bookkeeping, where a record the power took is only a
    /// copy done again, never a letter lost. Everything else keeps `FULL`.
    func withBookkeeping<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase { database in
            try database.execute(script: "PRAGMA synchronous = NORMAL")
            defer { try? database.execute(script: "PRAGMA synchronous = FULL") }
            return try body(database)
        }
    }

    /// Records that `destination` no longer holds a file at `path`.
    public func forgetRemoteFile(_ path: String, at destination: String) throws {
        try withDatabase { database in
            try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [destination, path])
        }
    }

    // MARK: Queueing

    /// Queues every letter's copy at the destination set now (a new destination, or a repair):
    /// each job due now; returns how many letters there are to bring in line.
    @discardableResult
    public func queueWholeArchive() throws -> Int {
        try withDatabase { database in
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
        let now = Self.now()
        try database.execute("""
            INSERT INTO upload_jobs (document_id, destination, state, created_at, updated_at)
            SELECT id, ?, 'queued', ?, ? FROM documents WHERE true
            ON CONFLICT (document_id, destination) DO UPDATE SET generation = generation + 1,
                state = CASE WHEN state = 'uploading' THEN 'uploading' ELSE 'queued' END,
                attempts = 0, next_attempt_at = NULL, updated_at = excluded.updated_at
            """, [destination, now, now])
    }

    /// Queues the copies of the given letters again, due now (what `sync` does for each one it
    /// found out of line); with `forgetting`, the library also forgets that the destination holds
    /// those paths, so they are sent again.
    public func queueCopies(of numbers: Set<Int>, forgetting stale: [String] = []) throws {
        try withDatabase { database in
            try database.inTransaction {
                guard let destination = try database.firstRow("SELECT value FROM settings WHERE key = 'destination'")?[0].string,
                      !destination.isEmpty else { return }
                for path in stale {
                    try database.execute("DELETE FROM remote_files WHERE destination = ? AND path = ?", [destination, path])
                }
                let now = Self.now()
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
        try withReader { database in
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
