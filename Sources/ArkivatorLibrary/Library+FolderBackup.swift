import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a whole-library backup holds besides the database: every file, with its size and
/// SHA-256, so a restore can tell a sound backup from a damaged or unfinished one. Written
/// last, as `arkivator-sikkerhetskopi.json`, before the folder gets its name.
struct BackupManifest: Codable, Sendable {
    struct Entry: Codable, Sendable, Equatable {
        /// Relative to the library folder (and to the backup folder): `Arkiv/Kari/Dokumenter/x.docx`.
        var path: String
        var bytes: Int64
        var sha256: String
    }

    static let format = "arkivator-sikkerhetskopi"
    var format: String
    var version: Int
    var made: String
    var program: String
    var documents: Int
    var database: Entry
    var files: [Entry]
    /// What the library folder holds that the backup leaves out on purpose, by name.
    var leftOut: [String]
}

extension Library {
    /// The file in a backup folder that lists everything in it (see ``backup(toFolder:)``).
    public static let backupManifestName = "arkivator-sikkerhetskopi.json"
    /// The secrets kept in the library folder that no backup holds: keep them apart, as before.
    public static let secretFileNames = [LibraryKey.fileName, "llm.key", "webdav.secret"]
    /// The library's own folders, every file of which a backup holds: the archive, the trash
    /// (with its letters' files and originals), the photos as taken, the thumbnails, the share
    /// links' PDFs and page images, and the web app's inbox (letters waiting, read, or failed).
    public static let backedUpFolders = LibraryFolder.backedUp.map(\.rawValue)
    /// `Originaler/`, the photos and files as received.
    public static let originalsFolder = LibraryFolder.originals.rawValue
    /// `Innboks/`, where the web app hands uploaded letters to `serve`'s watcher.
    public static let inboxFolder = LibraryFolder.inbox.rawValue
    /// Beside the target while a backup is written; the folder gets its own name only when whole.
    public static let unfinishedBackupSuffix = ".ufullstendig-"
    /// The hidden folder in the library folder that a restore copies the files into first.
    static let restoreStagingPrefix = ".arkivator-gjenoppretting-"

    /// What ``backup(toFolder:)`` wrote.
    public struct FolderBackupReport: Sendable {
        public var folder: URL
        public var documents: Int
        /// Files by the library's top folder they lie in (`Arkiv`, `Originaler` …), the database not counted.
        public var files: [String: Int]
        public var bytes: Int64
        /// Files the database names that were not on disk (not in the backup; `reindex` names them too).
        public var missing: [String]
        /// Files the database names outside the library folder (an archive chosen with `--archive`
        /// elsewhere): not in the backup.
        public var outside: [String]
    }

    /// Writes the whole library to the new folder `target`: a consistent copy of the database
    /// (as ``backup(to:)``), then every file of the library's own folders (``backedUpFolders``)
    /// and any other file inside the library folder the database names, each copied with its
    /// SHA-256, and last the list of them all (``backupManifestName``). Everything is written
    /// under `<target>.ufullstendig-<pid>` and flushed to disk; only then does the folder get
    /// its name, so a backup that could not finish never looks whole. The secrets
    /// (``secretFileNames``) are left out, as they always were: keep `library.key` apart.
    ///
    /// The database is copied first: a letter filed while the files are copied is in the
    /// backup's folders but not its database (`reindex --adopt` takes it in after a restore);
    /// a file the copy names that was moved meanwhile is reported in ``FolderBackupReport/missing``.
    public func backup(toFolder target: URL) throws -> FolderBackupReport {
        let target = target.standardizedFileURL
        var isFolder: ObjCBool = false
        guard !FileManager.default.fileExists(atPath: target.path) else { throw LibraryFailure.targetExists(target.path) }
        let parent = target.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryFailure.backupFolderMissing(parent.path)
        }
        guard access(parent.path, W_OK) == 0 else { throw LibraryFailure.backupFolderNotWritable(parent.path) }
        let library = location.directory.standardizedFileURL.path
        guard !(target.path + "/").hasPrefix(library + "/") else { throw LibraryFailure.backupInsideLibrary(target.path) }

        let unfinished = parent.appendingPathComponent(target.lastPathComponent + Self.unfinishedBackupSuffix + "\(getpid())")
        guard !FileManager.default.fileExists(atPath: unfinished.path) else { throw LibraryFailure.targetExists(unfinished.path) }
        try AtomicFile.createDirectory(unfinished)
        do {
            let report = try writeBackup(into: unfinished, named: target)
            try Self.flushAll(unfinished)
            try Self.nameBackup(unfinished, target)
            try AtomicFile.syncDirectory(parent)
            return report
        } catch {
            try? FileManager.default.removeItem(at: unfinished)
            throw error
        }
    }

    /// Gives the finished backup its name, never over anything there.
    private static func nameBackup(_ unfinished: URL, _ target: URL) throws {
        do throws(AtomicFileError) {
            try AtomicFile.renameNoReplace(unfinished.path, target.path)
        } catch {
            if error.kind == .exists { throw LibraryFailure.targetExists(target.path) }
            guard error.errorNumber == ENOSYS || error.errorNumber == EINVAL else { throw error }
            guard !FileManager.default.fileExists(atPath: target.path) else { throw LibraryFailure.targetExists(target.path) }
            guard rename(unfinished.path, target.path) == 0 else {
                throw AtomicFileError(errno: errno, operation: "rename", path: target.path)
            }
        }
    }

    private func writeBackup(into folder: URL, named target: URL) throws -> FolderBackupReport {
        let databaseCopy = folder.appendingPathComponent(Database.fileName)
        let documents = try copySnapshot(to: databaseCopy)
        let database = try Self.hashedCopy(of: databaseCopy, path: Database.fileName)

        // What the copy of the database names, and where.
        let snapshot = try Database(readingFrom: databaseCopy)
        let named = try snapshot.rows("""
            SELECT path FROM document_files UNION SELECT path FROM document_originals
            UNION SELECT thumbnail FROM documents WHERE thumbnail IS NOT NULL AND thumbnail <> ''
            """).compactMap { $0[0].string.map(paths.stored) }
        var wanted = Set<String>()
        var outside: [String] = []
        for path in named {
            if path.hasPrefix("/") { outside.append(path) } else if Self.isSafeRelativePath(path) { wanted.insert(path) }
        }
        let base = location.directory.standardizedFileURL
        for name in Self.backedUpFolders {
            for file in Self.plainFiles(under: base.appendingPathComponent(name, isDirectory: true)) {
                let relative = paths.stored(file)
                // Hidden names are work in progress (a file half written, an upload arriving).
                if !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { wanted.insert(relative) }
            }
        }

        var entries: [BackupManifest.Entry] = []
        var missing: [String] = []
        var counts: [String: Int] = [:]
        var bytes: Int64 = 0
        for path in wanted.sorted() {
            let source = base.appendingPathComponent(path)
            var info = stat()
            guard lstat(source.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                missing.append(source.path)
                continue
            }
            let copy = folder.appendingPathComponent(path)
            try AtomicFile.createDirectory(copy.deletingLastPathComponent())
            guard let entry = try Self.copyHashing(source, to: copy, path: path) else {
                missing.append(source.path)  // gone while being copied
                continue
            }
            entries.append(entry)
            counts[String(path.split(separator: "/").first ?? ""), default: 0] += 1
            bytes += entry.bytes
        }
        let manifest = BackupManifest(
            format: BackupManifest.format, version: 1, made: Library.now(), program: ArkivatorVersion.current,
            documents: documents, database: database, files: entries,
            leftOut: Self.secretFileNames + outside)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write([UInt8](try encoder.encode(manifest)), to: folder.appendingPathComponent(Self.backupManifestName))
        return FolderBackupReport(folder: target, documents: documents, files: counts, bytes: bytes + database.bytes,
                                  missing: missing.sorted(), outside: outside.sorted())
    }

    // MARK: Restore

    /// Whether `folder` is a backup folder written by ``backup(toFolder:)`` (it holds the list of its files).
    public static func isBackupFolder(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(backupManifestName).path)
    }

    /// Brings a whole-library backup (``backup(toFolder:)``) back into the library at `location`,
    /// which must hold no library yet: no database with documents, and no file in any folder the
    /// backup brings back; the secrets (`library.key` …) may be there, and must be when the
    /// backup holds sealed fødselsnumre (see ``restore(backup:into:replace:withoutKey:environment:)``
    /// for the key and `withoutKey`). An empty database there is kept aside, never deleted.
    ///
    /// The backup is checked first (its list, the database's integrity, the key). Every file is
    /// copied into a hidden folder in the library folder and checked against its size and
    /// SHA-256; only when all are sound are they moved into place (never over an existing file),
    /// and the database last. A failure at any step takes back what was moved: nothing half
    /// restored is left.
    public static func restore(backupFolder source: URL, into location: LibraryLocation, withoutKey: Bool,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BackupRestoreReport {
        let manifest = try readManifest(source)
        let databaseFile = source.appendingPathComponent(Database.fileName)
        guard try sha256(of: databaseFile) == manifest.database.sha256 else {
            throw LibraryFailure.notABackup(source.path, nb: "databasen i den er endret eller skadet", en: "its database was changed or is damaged")
        }
        try location.prepare()
        let library = location.directory.standardizedFileURL
        let tops = Set(manifest.files.compactMap { $0.path.split(separator: "/").first.map(String.init) })
        try checkEmpty(location, folders: tops)
        let (documents, sealed) = try inspect(backup: databaseFile, location: location, withoutKey: withoutKey,
                                              environment: environment)

        let lock = try exclusiveLock(location)
        defer { close(lock) }
        try checkEmpty(location, folders: tops)  // again, now that no other arkivator can start
        for name in (try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? []
            where name.hasPrefix(restoreStagingPrefix) {
            try? FileManager.default.removeItem(at: library.appendingPathComponent(name))  // a restore that died
        }
        let staging = library.appendingPathComponent(restoreStagingPrefix + UUID().uuidString, isDirectory: true)
        try AtomicFile.createDirectory(staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        for entry in manifest.files {
            let copy = staging.appendingPathComponent(entry.path)
            try AtomicFile.createDirectory(copy.deletingLastPathComponent())
            let copied = try copyHashing(source.appendingPathComponent(entry.path), to: copy, path: entry.path)
            guard copied == entry else {
                throw LibraryFailure.notABackup(source.path, nb: "filen \(entry.path) i den er endret, skadet eller borte",
                                                en: "its file \(entry.path) was changed, is damaged or is gone")
            }
        }
        try flushAll(staging)

        var placed: [String] = []
        let keptAside: URL?
        do {
            for entry in manifest.files {
                let target = library.appendingPathComponent(entry.path)
                try AtomicFile.createDirectory(target.deletingLastPathComponent())
                try AtomicFile.publish(temporary: staging.appendingPathComponent(entry.path), to: target, overwrite: false,
                                       mode: nil)
                placed.append(target.path)
            }
            keptAside = try placeDatabase(backup: databaseFile, into: location, replace: false, withoutKey: withoutKey,
                                          sealed: sealed)
        } catch {
            for path in placed { unlink(path) }
            for top in tops { DocumentStore.removeEmptyFolders(library.appendingPathComponent(top)) }
            throw error
        }
        _ = flock(lock, LOCK_UN)
        return try report(location, documents: documents, keptAside: keptAside, sealed: sealed, withoutKey: withoutKey,
                          files: placed.count, environment: environment)
    }

    /// The backup's list of files, checked: its own format, a known version, only plain relative
    /// paths inside the library folder, never a secret or the database among the files.
    private static func readManifest(_ source: URL) throws -> BackupManifest {
        let file = source.appendingPathComponent(backupManifestName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw LibraryFailure.notABackup(source.path, nb: "mappen har ikke listen \(backupManifestName); den er ikke en hel sikkerhetskopi fra arkivator backup (en kopi som ikke ble ferdig, heter …\(unfinishedBackupSuffix)…)",
                                            en: "the folder lacks the list \(backupManifestName); it is not a whole backup made by arkivator backup (one that did not finish is named …\(unfinishedBackupSuffix)…)")
        }
        guard let manifest = try? JSONDecoder().decode(BackupManifest.self, from: data), manifest.format == BackupManifest.format else {
            throw LibraryFailure.notABackup(source.path, nb: "listen \(backupManifestName) i den kan ikke leses", en: "its list \(backupManifestName) cannot be read")
        }
        guard manifest.version == 1 else {
            throw LibraryFailure.notABackup(source.path, nb: "den er laget av en nyere arkivator; oppdater arkivator først",
                                            en: "it was made by a newer arkivator; update arkivator first")
        }
        let forbidden = Set(secretFileNames + [Database.fileName, backupManifestName])
        for entry in manifest.files where !isSafeRelativePath(entry.path) || forbidden.contains(entry.path) {
            throw LibraryFailure.notABackup(source.path, nb: "listen i den nevner en fil utenfor biblioteket (\(entry.path))",
                                            en: "its list names a file outside the library (\(entry.path))")
        }
        return manifest
    }

    /// No library in `location` that a restore could overwrite: no database with documents, and
    /// no file in any of `folders`.
    private static func checkEmpty(_ location: LibraryLocation, folders: Set<String>) throws {
        let database = location.directory.appendingPathComponent(Database.fileName)
        if FileManager.default.fileExists(atPath: database.path) {
            let documents = (try? Database(readingFrom: database).firstRow("SELECT count(*) FROM documents")?[0].int) ?? 1
            if documents > 0 { throw LibraryFailure.libraryNotEmptyForFolder(location.directory.path, documents: documents) }
        }
        for folder in folders.sorted() {
            let files = plainFiles(under: location.directory.appendingPathComponent(folder, isDirectory: true))
            if !files.isEmpty {
                throw LibraryFailure.libraryFolderNotEmpty(location.directory.path, folder: folder, files: files.count)
            }
        }
    }

    // MARK: Files

    /// A path a backup may hold: relative, and without empty, `.` or `..` parts.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    static func copyHashing(_ source: URL, to target: URL, path: String) throws -> BackupManifest.Entry? {
        try BackupCopy.copyHashing(source, to: target, path: path)
    }

    /// The size and SHA-256 of the file at `url`, read through once.
    static func hashedCopy(of url: URL, path: String) throws -> BackupManifest.Entry {
        guard let entry = try BackupCopy.copyHashing(url, to: nil, path: path) else {
            throw AtomicFileError(errno: ENOENT, operation: "open", path: url.path)
        }
        return entry
    }

    static func sha256(of url: URL) throws -> String {
        try hashedCopy(of: url, path: "").sha256
    }

    /// Flushes every folder below `root` (files were flushed as they were written).
    static func flushAll(_ root: URL) throws {
        var folders = [root.path]
        if let walker = FileManager.default.enumerator(atPath: root.path) {
            for case let relative as String in walker {
                var info = stat()
                let path = root.appendingPathComponent(relative).path
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { folders.append(path) }
            }
        }
        for folder in folders { try AtomicFile.syncDirectory(URL(fileURLWithPath: folder)) }
    }
}
