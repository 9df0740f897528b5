import ArkivatorArchive
import ArkivatorCore
import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's storage core: the database, its connections and the folders; the letters, the
/// search index and the other features are small stores over it (``documents``, ``index`` …).
///
/// Owns one writing connection, behind a lock (`NIOLockedValueBox`), so one `Library` can be
/// shared by the pipeline's worker threads: SQLite's connection is not thread-safe on its own,
/// and only the thread holding the lock ever touches it. Every method that only reads uses one of
/// a few read-only connections instead (``ReadConnections``), in a read transaction of its own:
/// it sees every change committed before it began, and never waits for the lock, so a long
/// change (a reindex, a filing) holds no read up. Other processes open their own `Library`: WAL
/// mode lets `search` and `backup` read while `ingest` writes.
///
/// Opening a library finishes what a crashed process left half done (see ``recover()``).
public final class Library: Sendable {
    public let location: LibraryLocation
    /// The connection, reached only through ``withDatabase(_:)``.
    private let connection: NIOLockedValueBox<Database>
    /// The read-only connections, reached only through ``withReader(_:)``.
    private let readers: ReadConnections
    let key: LibraryKey
    /// How stored paths are made and read back (relative to the library folder).
    let paths: LibraryPaths
    /// The database file.
    public let databaseURL: URL
    /// A shared `flock` on `filing.lock` held while this library is open: recovery only runs when
    /// no other process holds it (no other process is in the middle of filing).
    private let lockFile: Int32

    /// How long a deleted document stays in the trash.
    public static let trashDays = 30
    /// The trash folder's name inside the library folder.
    public static let trashFolder = LibraryFolder.trash.rawValue

    /// Opens (creating if needed) the library in `location`, migrates its database and takes back
    /// the files of any step a crashed process left unfinished.
    public static func open(_ location: LibraryLocation,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Library {
        let database = try Database.open(library: location)
        let key = try LibraryKey.load(library: location, environment: environment, sealed: { try SealedInventory.read(database) })
        let library = try Library(location: location, database: database, key: key)
        try library.recoverIfAlone()
        // Once: numbers an older detector missed are sealed (best effort; until then they are
        // masked when read).
        _ = try? library.sealNumbersTheDetectorNowReads()
        return library
    }

    private init(location: LibraryLocation, database: Database, key: LibraryKey) throws {
        self.location = location
        self.paths = LibraryPaths(location)
        self.connection = NIOLockedValueBox(database)
        self.readers = ReadConnections(url: database.url)
        self.databaseURL = database.url
        self.key = key
        lockFile = try openLockFile(in: location)
    }

    deinit {
        close(lockFile)
    }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.withLockedValue { try body($0) }
    }

    /// Runs `body` with the connection, one caller at a time, and `synchronous = NORMAL` (WAL: the
    /// commit is not flushed on its own; the next flushed commit or checkpoint takes it along), so
    /// it never waits for the disk behind large files being written. Only for rows whose loss at a
    /// power cut costs work done again (a copy's bookkeeping, a sign-in), never a letter or a change
    /// a person made: everything else is flushed at commit (`FULL`).
    func withUnflushedCommit<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase { database in
            try database.execute(script: "PRAGMA synchronous = NORMAL")
            defer { try? database.execute(script: "PRAGMA synchronous = FULL") }
            return try body(database)
        }
    }

    /// Runs `body` with a read-only connection in a read transaction of its own, without the lock.
    func withReader<T>(_ body: (Database) throws -> T) throws -> T {
        try readers.read(body)
    }

    /// Closes the read-only connections not in use, giving back their page caches.
    func closeIdleReaders() {
        readers.closeIdle()
    }

    /// Runs `body` with the household, over the library's own connection (one caller at a time).
    /// For reading only, ``readFamily(_:)`` never waits for a change.
    @discardableResult
    public func family<T>(_ body: (FamilyStore) throws -> T) throws -> T {
        try withDatabase { try body(FamilyStore(database: $0, key: key)) }
    }

    /// Runs `body` with the household over a read-only connection: listing, profiles, never a
    /// change (one fails with the database's read-only error).
    public func readFamily<T>(_ body: (FamilyStore) throws -> T) throws -> T {
        try withReader { try body(FamilyStore(database: $0, key: key)) }
    }

    /// The household, by name (fødselsnumre masked), read without waiting for a change.
    public func familyMembers() throws -> [FamilyMemberSummary] {
        try readFamily { try $0.list() }
    }

    /// The household member a person typed: the whole name in any case, the id, or a part of
    /// the name only one member's name holds («Nina» for «Nina Berg»), as `list --person` finds
    /// letters. Several or none: a plain refusal that says what to type.
    public func familyMember(matching typed: String) throws -> FamilyMemberSummary {
        let wanted = typed.trimmingCharacters(in: .whitespaces)
        let members = try familyMembers()
        if let member = members.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame || String($0.id) == wanted }) {
            return member
        }
        let partial = wanted.isEmpty ? [] : members.filter { $0.name.range(of: wanted, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        guard partial.count < 2 else { throw FamilyError.ambiguous(wanted, partial.map(\.name)) }
        guard let member = partial.first else { throw FamilyError.notFound(wanted) }
        return member
    }

    /// The household with the fødselsnumre opened, for matching letters to people.
    public func familyProfiles() throws -> [FamilyProfile] {
        try readFamily { try $0.profiles() }
    }

    /// The default archive folder: `<library>/Arkiv`.
    public var defaultArchiveRoot: URL { location.folder(.archive) }

    /// The trash folder: `<library>/Papirkurv`.
    public var trashRoot: URL { location.directory.appendingPathComponent(Self.trashFolder, isDirectory: true) }

    /// The current UTC time as ISO 8601.
    static func now() -> String {
        Date().formatted(.iso8601)
    }

    /// `next_attempt_at`: UTC, ISO 8601 with milliseconds (every value in the column has this
    /// form, so they compare as text).
    static func uploadTimestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `created_at`/`updated_at`: as ``now()`` writes them, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    // MARK: Recovery

    /// Takes an exclusive lock if no other process has the library open for filing, runs
    /// ``recover()``, then keeps a shared lock like every other open library.
    private func recoverIfAlone() throws {
        if flock(lockFile, LOCK_EX | LOCK_NB) == 0 {
            defer { _ = flock(lockFile, LOCK_SH) }
            try recover()
            removeStaleSnapshots()
            // Best effort: a trash that cannot be emptied now is emptied next time.
            _ = try? documents.emptyTrash()
        } else {
            _ = flock(lockFile, LOCK_SH)
        }
    }

    /// Undoes the file steps that a crashed process began but never recorded: files written for a
    /// document that never got its row are removed (its source is still where it came from, so
    /// nothing is lost), files moved for a change that was never committed are moved back.
    /// A file that a recorded document uses is never touched. Returns the number of files fixed.
    @discardableResult
    func recover() throws -> Int {
        try withDatabase { database in
            var fixed = 0
            let intents = try database.rows("SELECT id FROM filing_intents ORDER BY id").compactMap { $0[0].int }
            for id in intents { fixed += try undo(intent: id, in: database) }
            // A writer that died may have left temporary files (a PDF made before its names were
            // reserved): no writer is running now, so every one in the archive folders is garbage.
            if !intents.isEmpty {
                for root in try archiveRoots(in: database).union([documents.originalsRoot]) { fixed += Self.removeTemporaries(under: root) }
            }
            return fixed
        }
    }

    /// The archive folders in use: the default one and those of the latest documents (not the
    /// trash: three levels above a file in it is the library folder itself).
    func archiveRoots(in database: Database) throws -> Set<URL> {
        var roots: Set<URL> = [defaultArchiveRoot]
        let trash = trashRoot.standardizedFileURL.path + "/"
        for row in try database.rows("SELECT path FROM document_files ORDER BY document_id DESC LIMIT 200") {
            if let path = row[0].string.map(paths.resolved), !URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(trash),
               let root = ArchiveLayout.root(of: [ArchivedFile(kind: .docx, path: path)]) {
                roots.insert(root)
            }
        }
        return roots
    }

    /// Overwrites and removes arkivator's temporary files (`.arkivator-….tmp`) below `root`.
    static func removeTemporaries(under root: URL) -> Int {
        var removed = 0
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects ?? []
        for case let url as URL in files where AtomicFile.isTemporaryName(url.lastPathComponent) {
            if Shredder.shred(url.path) { removed += 1 }
        }
        return removed
    }

    /// Undoes one intent's file steps (see ``recover()``) and deletes it; returns the files fixed.
    func undo(intent id: Int, in database: Database) throws -> Int {
        guard let row = try database.firstRow("SELECT action, paths FROM filing_intents WHERE id = ?", [id]) else {
            return 0
        }
        var fixed = 0
        let paths = Data((row[1].string ?? "[]").utf8)
        if row[0].string == "file", let files = try? JSONDecoder().decode([String].self, from: paths) {
            for path in files.map(self.paths.resolved) where FileManager.default.fileExists(atPath: path) {
                let used = try self.paths.lookupForms(path).contains {
                    try database.firstRow("SELECT 1 FROM document_files WHERE path = ?", [$0]) != nil
                        || database.firstRow("SELECT 1 FROM document_originals WHERE path = ?", [$0]) != nil
                }
                if !used, unlink(path) == 0 { fixed += 1 }
            }
        } else if row[0].string == "publish", let moves = try? JSONDecoder().decode([[String]].self, from: paths) {
            // Committed with the change it belongs to (a corrected text): finish it.
            for move in moves where move.count == 2 {
                let (from, to) = (self.paths.resolved(move[0]), self.paths.resolved(move[1]))
                if FileManager.default.fileExists(atPath: from), rename(from, to) == 0 { fixed += 1 }
            }
        } else if row[0].string == "move", let moves = try? JSONDecoder().decode([[String]].self, from: paths) {
            for move in moves.reversed() where move.count == 2 {
                let (from, to) = (self.paths.resolved(move[0]), self.paths.resolved(move[1]))
                if FileManager.default.fileExists(atPath: to), !FileManager.default.fileExists(atPath: from) {
                    try? FileManager.default.createDirectory(
                        at: URL(fileURLWithPath: from).deletingLastPathComponent(), withIntermediateDirectories: true)
                    if rename(to, from) == 0 { fixed += 1 }
                }
            }
        } else if let action = row[0].string, let replace = PageReplacement.Action(rawValue: action) {
            fixed += PageReplacement.recover(replace, paths: paths, library: self)
        }
        try database.execute("DELETE FROM filing_intents WHERE id = ?", [id])
        return fixed
    }

    // MARK: Intents

    /// Records (and commits) that files are about to be written or moved; returns the intent's id.
    /// The paths given are stored as ``LibraryPaths`` stores them (callers pass them so).
    func beginIntent(_ action: String, paths: some Encodable) throws -> Int {
        let json = String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)
        return try withDatabase { database in
            try database.execute("INSERT INTO filing_intents (action, paths, created_at) VALUES (?, ?, ?)",
                                 [action, json, Self.now()])
            return database.lastInsertedRowID
        }
    }

    func updateIntent(_ id: Int, paths: some Encodable) throws {
        let json = String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)
        try withDatabase { database in
            try database.execute("UPDATE filing_intents SET paths = ? WHERE id = ?", [json, id])
        }
    }

    func endIntent(_ id: Int) {
        _ = try? withDatabase { database in
            try database.execute("DELETE FROM filing_intents WHERE id = ?", [id])
        }
    }
}

/// Hands the archive writer a way to announce the names it is about to publish.
public final class FilingReservation: Sendable {
    private let library: Library
    private let intent: Int
    /// Files the library itself wrote for the document first (its originals): announced with
    /// every reservation, so they are found after a crash too.
    private let kept: [URL]

    init(library: Library, intent: Int, kept: [URL] = []) {
        self.library = library
        self.intent = intent
        self.kept = kept
    }

    /// Records (durably) that these files are about to appear, before any of them does. Call
    /// again with the new names when the writer moves on to another name.
    public func reserve(_ files: [URL]) throws {
        try library.updateIntent(intent, paths: (kept + files).map { library.paths.stored($0.path) })
    }
}

/// Opens the library's `filing.lock` (made if missing), or says in words why it cannot. A free
/// function, because inside `Library` `open` is ``Library/open(_:environment:)``, not POSIX `open(2)`.
func openLockFile(in location: LibraryLocation) throws -> Int32 {
    let path = location.directory.appendingPathComponent("filing.lock").path
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
        throw LibraryError(message: UserMessage(
            nb: "Kunne ikke åpne \(path): \(String(cString: strerror(errno))).",
            en: "Could not open \(path): \(String(cString: strerror(errno)))."))
    }
    return descriptor
}
