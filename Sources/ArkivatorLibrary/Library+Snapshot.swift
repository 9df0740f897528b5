internal import CSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// The name of every backup snapshot that ``backupSnapshot()`` writes in the library folder
    /// (and of any other file made for one answer, such as the web app's export): one left behind
    /// is removed the next time a process opens the library alone.
    public static let snapshotPrefix = ".arkivator-kopi-"

    /// Makes a backup, as ``backup(to:)`` does, in a new private file (mode 0600) in the library
    /// folder, and returns it: for a caller that sends it on (the web's download) and then removes
    /// it. A snapshot that a process left behind when it died is removed the next time a process
    /// opens the library alone.
    public func backupSnapshot() throws -> URL {
        let url = location.directory.appendingPathComponent(Self.snapshotPrefix + UUID().uuidString + ".sqlite")
        _ = try copySnapshot(to: url)
        return url
    }

    /// Copies the database to the new file `url` from a snapshot on a read-only connection of its
    /// own (one of the library's readers would be held for seconds), then makes it one file and
    /// checks it; returns its number of documents. On failure nothing is left at `url`.
    /// `whileCopying` runs once the snapshot is taken, before its pages are copied (for tests).
    func copySnapshot(to url: URL, whileCopying: () throws -> Void = {}) throws -> Int {
        do {
            return try Self.copy(from: databaseURL, to: url, whileCopying: whileCopying)
        } catch {
            // Both connections are closed by now: nothing writes the files again.
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
            throw error
        }
    }

    static func copy(from source: URL, to url: URL, whileCopying: () throws -> Void = {}) throws -> Int {
        let source = try Database(readingFrom: source)
        let target = try Database(url: url)
        // The snapshot: a read transaction, begun at its first read and held while the pages are copied.
        try source.execute(script: "BEGIN")
        defer { if source.isInTransaction { try? source.execute(script: "ROLLBACK") } }
        _ = try source.firstRow("SELECT count(*) FROM schema_migrations")
        try whileCopying()
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw DatabaseError.failure(sqlite3_errcode(target.handle), connection: target.handle, sql: "backup")
        }
        var code = sqlite3_backup_step(backup, -1)
        while code == SQLITE_BUSY || code == SQLITE_LOCKED {
            sqlite3_sleep(50)
            code = sqlite3_backup_step(backup, -1)
        }
        let finish = sqlite3_backup_finish(backup)
        try DatabaseError.check(code == SQLITE_DONE ? finish : code, connection: target.handle, sql: "backup")
        try source.execute(script: "COMMIT")
        // One self-contained file: no -wal beside it.
        _ = try target.rows("PRAGMA journal_mode = DELETE")
        let check = try target.rows("PRAGMA integrity_check").first?[0].string
        guard check == "ok" else {
            throw DatabaseError.failure(SQLITE_CORRUPT, connection: nil, sql: "PRAGMA integrity_check",
                                        message: "the copy failed its check: \(check ?? "no answer")")
        }
        return try target.firstRow("SELECT count(*) FROM documents")?[0].int ?? 0
    }

    /// Overwrites and removes the backup snapshots in the library folder (with no other process
    /// using the library, every one is left over from a process that died). Returns how many.
    @discardableResult
    func removeStaleSnapshots() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: location.directory.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(Self.snapshotPrefix) {
            if Shredder.shred(location.directory.appendingPathComponent(name).path) { removed += 1 }
        }
        return removed
    }
}
