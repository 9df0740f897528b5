internal import CArkivatorFTS
internal import CSQLite
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to the library database: owns its `sqlite3` handle and closes it when released.
///
/// Opened in WAL journal mode with foreign keys on and a 5 s busy timeout, so a second arkivator
/// process waits for a lock instead of failing at once. The file and its `-wal`/`-shm` companions
/// are readable by the owner only (mode 0600).
///
/// `@unchecked Sendable` because it wraps the `sqlite3` handle, which must be used from one thread
/// at a time (the connection is opened in SQLite's multi-thread mode, without its own mutex):
/// ``Library`` keeps its writer in a lock-guarded box and hands it only to the thread holding the
/// lock, and lends each read-only connection to one thread at a time. Anything else that opens a
/// `Database` keeps it on one thread.
public final class Database: @unchecked Sendable {
    /// The database file's name inside the library folder.
    public static let fileName = "arkivator.sqlite"
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// The database file.
    public let url: URL
    let handle: OpaquePointer
    /// The `norwegian` tokenizer kept for ``norwegianTokens(_:)`` (freed before the connection).
    var tokenizer: OpaquePointer?
    /// Index terms known to be in the library's `vocabulary` table (filled on first use): the
    /// library's cache of this connection's data, kept with it and used under the same lock.
    var knownTerms: Set<String>?
    /// Term document counts gathered during a batch of filings, written once at its end (nil
    /// outside a batch).
    var batchCounts: [String: Int]?
    /// Statements run through ``execute(_:_:)``, ``rows(_:_:)`` and ``firstRow(_:_:)``, kept
    /// prepared by their SQL text (emptied when it grows past ``keptStatementLimit``).
    private var kept: [String: Statement] = [:]
    static let keptStatementLimit = 256

    /// Opens (creating if needed) the database file at `url`, without migrating it.
    public init(url: URL) throws(DatabaseError) {
        let path = url.path
        try Self.createPrivately(path)
        self.url = url
        self.handle = try Self.connect(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        // From here on `deinit` closes the connection if configuring fails.
        try registerNorwegianTokenizer()
        try execute(script: "PRAGMA foreign_keys = ON")
        let mode = try switchToWAL()
        if mode?.lowercased() != "wal" {
            throw DatabaseError.failure(SQLITE_CANTOPEN, connection: nil, sql: "PRAGMA journal_mode = WAL",
                                        message: "the file system does not allow WAL mode (got \(mode ?? "nothing"))")
        }
        // FULL: a commit is on disk before the files it announces are touched (see `filing_intents`).
        // secure_delete: deleted or redacted text is overwritten with zeros, not left in free pages.
        try execute(script: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
        // Searches read the index pages of every word: keep up to 64 MB of them decoded in memory
        // and map the file, instead of a read call per page (the default cache is 2 MB).
        try execute(script: "PRAGMA cache_size = -65536; PRAGMA mmap_size = 268435456")
        try Self.restrictPermissions(path)
    }

    /// Puts the file in WAL mode (a no-op when it is already) and returns the mode it is in.
    ///
    /// A new file starts with a rollback journal, and switching it needs the file to itself: while
    /// another process holds a lock on it (creating the same library at the same moment), SQLite
    /// answers "busy" at once, without asking the busy handler. So it is tried again here, every
    /// 20 ms, for as long as any statement waits for a lock.
    private func switchToWAL() throws(DatabaseError) -> String? {
        var waited: Int32 = 0
        while true {
            do {
                return try rows("PRAGMA journal_mode = WAL").first?[0].string
            } catch {
                guard error.isBusy, waited < Self.busyTimeoutMilliseconds else { throw error }
                usleep(20_000)
                waited += 20
            }
        }
    }

    /// Opens a read-only connection to an existing database (a library's reader, or a backup's source).
    ///
    /// In WAL mode it reads the last committed state while a writer writes, and a writer never
    /// waits for it. It has the `norwegian` tokenizer and the ranking function, like the writer;
    /// it never creates, migrates or changes the file (a write fails with `SQLITE_READONLY`). Its
    /// page cache is a quarter of the writer's: the file is mapped, and a library keeps a few.
    init(readingFrom url: URL) throws(DatabaseError) {
        self.url = url
        self.handle = try Self.connect(url.path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        try registerNorwegianTokenizer()
        try execute(script: "PRAGMA cache_size = -16384; PRAGMA mmap_size = 268435456")
    }

    /// Opens a connection with extended result codes and the busy timeout; closes it again when that fails.
    private static func connect(_ path: String, flags: Int32) throws(DatabaseError) -> OpaquePointer {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        do throws(DatabaseError) {
            try DatabaseError.check(code, connection: connection, sql: nil)
            guard let connection else { throw DatabaseError.failure(SQLITE_NOMEM, connection: nil, sql: nil) }
            sqlite3_extended_result_codes(connection, 1)
            try DatabaseError.check(sqlite3_busy_timeout(connection, busyTimeoutMilliseconds), connection: connection)
            return connection
        } catch {
            sqlite3_close_v2(connection)
            throw error
        }
    }

    /// Opens the database of a library: creates the folder (mode 0700) if needed, opens
    /// `<library>/arkivator.sqlite` and applies the migrations it lacks.
    public static func open(library: LibraryLocation, migrations: [Migration] = Migrations.all) throws -> Database {
        try library.prepare()
        try restrictFolder(library.directory.path)
        let database = try Database(url: library.directory.appendingPathComponent(fileName))
        try database.migrate(migrations)
        return database
    }

    deinit {
        kept.removeAll()
        arkivator_fts_tokenizer_close(tokenizer)
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Prepares one statement.
    public func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// The statement for `sql`, prepared once and kept for the next time.
    private func keptStatement(_ sql: String) throws(DatabaseError) -> Statement {
        if let statement = kept[sql] { return statement }
        let statement = try Statement(database: self, sql: sql, kept: true)
        if kept.count >= Self.keptStatementLimit { kept.removeAll() }
        kept[sql] = statement
        return statement
    }

    /// Runs one statement with `arguments` bound to its `?` parameters, ignoring any rows.
    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws(DatabaseError) {
        let statement = try keptStatement(sql)
        defer { statement.finish() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs several statements separated by semicolons, without parameters (schema scripts).
    public func execute(script sql: String) throws(DatabaseError) {
        try DatabaseError.check(sqlite3_exec(handle, sql, nil, nil, nil), connection: handle, sql: sql)
    }

    /// Every row of one statement.
    public func rows(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws(DatabaseError) -> [Row] {
        let statement = try keptStatement(sql)
        defer { statement.finish() }
        try statement.bind(arguments)
        return try statement.rows()
    }

    /// The first row of one statement, or nil.
    public func firstRow(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws(DatabaseError) -> Row? {
        let statement = try keptStatement(sql)
        defer { statement.finish() }
        try statement.bind(arguments)
        return try statement.step() ? statement.row() : nil
    }

    /// The rowid of the last row inserted through this connection.
    public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// True while a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Starts with `BEGIN IMMEDIATE`, so the write lock is taken (waiting up to the busy timeout)
    /// before `body` reads anything; inside another transaction it runs in a savepoint instead.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        let nested = isInTransaction
        let savepoint = "arkivator_nested"
        try execute(script: nested ? "SAVEPOINT \(savepoint)" : "BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
        } catch {
            if nested {
                try? execute(script: "ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            } else if isInTransaction {
                try? execute(script: "ROLLBACK")
            }
            throw error
        }
        do {
            try execute(script: nested ? "RELEASE \(savepoint)" : "COMMIT")
        } catch {
            if !nested, isInTransaction { try? execute(script: "ROLLBACK") }
            throw error
        }
        return result
    }

    // MARK: Maintenance

    /// Copies everything in the `-wal` file into the database file and empties the `-wal` file.
    public func checkpoint() throws(DatabaseError) {
        try DatabaseError.check(
            sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil), connection: handle,
            sql: "wal_checkpoint(TRUNCATE)")
    }

    /// The journal mode in use (`wal` after opening).
    public func journalMode() throws(DatabaseError) -> String {
        try rows("PRAGMA journal_mode").first?[0].string ?? ""
    }

    // MARK: File permissions

    /// Creates an empty database file with mode 0600 before SQLite opens it, so the file is never
    /// readable by others, whatever the umask. SQLite gives `-wal` and `-shm` the database file's mode.
    private static func createPrivately(_ path: String) throws(DatabaseError) {
        let descriptor = Self.openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let error = errno
        guard error != EEXIST else { return }
        throw DatabaseError.failure(SQLITE_CANTOPEN, connection: nil, sql: nil,
                                    message: "cannot create \(path): \(String(cString: strerror(error)))")
    }

    /// POSIX `open(2)` (the name `open` in here is ``open(library:migrations:)``).
    private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    /// Makes the library folder private (0700) when others could read it.
    private static func restrictFolder(_ path: String) throws(DatabaseError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0, info.st_uid == getuid() else { return }
        if chmod(path, info.st_mode & 0o700 | 0o700) != 0 {
            let error = errno
            throw DatabaseError.failure(SQLITE_PERM, connection: nil, sql: nil,
                                        message: "cannot make \(path) private: \(String(cString: strerror(error)))")
        }
    }

    /// Tightens an existing file (and its companions) to mode 0600.
    private static func restrictPermissions(_ path: String) throws(DatabaseError) {
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            guard info.st_mode & 0o7077 != 0 else { continue }
            if chmod(file, 0o600) != 0 {
                let error = errno
                throw DatabaseError.failure(SQLITE_PERM, connection: nil, sql: nil,
                                            message: "cannot make \(file) private: \(String(cString: strerror(error)))")
            }
        }
    }
}

// A statement belongs to the thread that holds its connection: the compiler refuses to send one across.
@available(*, unavailable)
extension Statement: Sendable {}
