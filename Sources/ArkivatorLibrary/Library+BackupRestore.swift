import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// The name a database replaced by a restore is kept under, before its time stamp.
    public static let replacedDatabasePrefix = Database.fileName + ".før-gjenoppretting-"

    /// What ``restore(backup:into:replace:withoutKey:environment:)`` did.
    public struct BackupRestoreReport: Sendable {
        /// Documents in the restored database.
        public var documents: Int
        /// Where the database that was replaced now lies (nil when the library had none).
        public var keptAside: URL?
        /// The sealed fødselsnumre the backup holds.
        public var sealed: SealedInventory
        /// True when they were dropped (`withoutKey`): they stay masked, and cannot be read again.
        public var numbersDropped: Bool
        /// Archive files the restored database names that are not on disk.
        public var missingFiles: [String]
        /// The photos as taken (`Originaler/`) it names that are not on disk.
        public var missingOriginals: [String]
        /// The thumbnails it names that are not on disk (`reindex` makes them again).
        public var missingThumbnails: [String]
        /// Archive files the restored database does not know (see ``adoptUnknownFiles()``).
        public var unknownFiles: [String]
        /// Files brought back from a whole-library backup (0 for a database alone).
        public var files: Int
    }

    /// Puts a backup made by ``backup(to:)`` in place as the database of the library at
    /// `location`, with no process using the library.
    ///
    /// The backup must pass SQLite's integrity check and be an arkivator library no newer than
    /// this program. A library that holds documents is replaced only with `replace`; the
    /// database replaced is kept aside in the library folder (`arkivator.sqlite.før-gjenoppretting-…`),
    /// never deleted. When the backup holds sealed fødselsnumre, the key at hand (the library's
    /// `library.key` or `$ARKIVATOR_KEY`) must open them; without it the restore is refused
    /// unless `withoutKey`, which drops the sealed numbers (they stay masked in the text) rather
    /// than ever sealing new data under a key that cannot open the old. Unfinished filing steps
    /// recorded in the backup are dropped: they describe files as they were then, and their
    /// files are now either recorded or unknown (to be adopted), never removed.
    public static func restore(backup: URL, into location: LibraryLocation, replace: Bool, withoutKey: Bool,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BackupRestoreReport {
        let target = location.directory.appendingPathComponent(Database.fileName)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: backup.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw LibraryFailure.notABackup(backup.path, nb: "filen finnes ikke", en: "the file does not exist")
        }
        guard backup.resolvingSymlinksInPath().standardizedFileURL.path
                != target.resolvingSymlinksInPath().standardizedFileURL.path else {
            throw LibraryFailure.notABackup(backup.path, nb: "det er bibliotekets egen database", en: "it is the library's own database")
        }
        let (documents, sealed) = try inspect(backup: backup, location: location, withoutKey: withoutKey, environment: environment)

        let lock = try exclusiveLock(location)
        defer { close(lock) }
        let keptAside = try placeDatabase(backup: backup, into: location, replace: replace, withoutKey: withoutKey, sealed: sealed)
        _ = flock(lock, LOCK_UN)
        return try report(location, documents: documents, keptAside: keptAside, sealed: sealed, withoutKey: withoutKey,
                          files: 0, environment: environment)
    }

    /// Copies the checked `backup` into place as the library's database (with the exclusive lock
    /// held): one there is kept aside (only with `replace` when it holds documents), unfinished
    /// filing steps are dropped, and with `withoutKey` the sealed numbers. On failure the
    /// database that was there is put back. Returns where it was kept aside.
    static func placeDatabase(backup: URL, into location: LibraryLocation, replace: Bool, withoutKey: Bool,
                              sealed: SealedInventory) throws -> URL? {
        let target = location.directory.appendingPathComponent(Database.fileName)
        var keptAside: URL?
        if FileManager.default.fileExists(atPath: target.path) {
            let current = (try? Database(url: target).firstRow("SELECT count(*) FROM documents")?[0].int) ?? 0
            if current > 0 && !replace { throw LibraryFailure.libraryNotEmpty(location.directory.path, documents: current) }
            keptAside = try setAside(target)
        }
        do {
            _ = try copy(from: backup, to: target)
            let restored = try Database(url: target)
            try restored.execute("DELETE FROM filing_intents")
            if withoutKey && !sealed.isEmpty {
                try restored.execute("UPDATE documents SET fnr_sealed = NULL")
                try restored.execute("UPDATE family SET fnr_sealed = NULL")
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(target.path + suffix) }
            if let keptAside {
                for suffix in ["", "-wal", "-shm"] { rename(keptAside.path + suffix, target.path + suffix) }
            }
            throw error
        }
        return keptAside
    }

    /// Opens the restored library and says what it holds and lacks.
    static func report(_ location: LibraryLocation, documents: Int, keptAside: URL?, sealed: SealedInventory,
                       withoutKey: Bool, files: Int, environment: [String: String]) throws -> BackupRestoreReport {
        let library = try Library.open(location, environment: environment)
        let missing = try library.missingLibraryFiles()
        return BackupRestoreReport(documents: documents, keptAside: keptAside, sealed: sealed,
                                   numbersDropped: withoutKey && !sealed.isEmpty,
                                   missingFiles: missing.archive, missingOriginals: missing.originals,
                                   missingThumbnails: missing.thumbnails,
                                   unknownFiles: try library.unknownArchiveFiles(), files: files)
    }

    /// Checks the backup (sound, an arkivator library, not newer, its sealed numbers open with
    /// the key at hand unless `withoutKey`); returns its documents and sealed numbers.
    static func inspect(backup: URL, location: LibraryLocation, withoutKey: Bool,
                                environment: [String: String]) throws -> (Int, SealedInventory) {
        let database: Database
        let tables: Set<String>
        do {
            database = try Database(readingFrom: backup)
            let check = try database.rows("PRAGMA integrity_check").first?[0].string
            guard check == "ok" else {
                throw LibraryFailure.notABackup(backup.path, nb: "SQLite fant skader i den (\(check ?? "intet svar"))",
                                                en: "SQLite found damage in it (\(check ?? "no answer"))")
            }
            tables = Set(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].string })
        } catch let failure as LibraryFailure {
            throw failure
        } catch {
            throw LibraryFailure.notABackup(backup.path, nb: "den er ikke en SQLite-database, eller er skadet",
                                            en: "it is not an SQLite database, or is damaged")
        }
        guard tables.isSuperset(of: ["schema_migrations", "documents", "document_files", "family", "filing_intents"]) else {
            throw LibraryFailure.notABackup(backup.path, nb: "den er ikke et arkivator-bibliotek", en: "it is not an arkivator library")
        }
        let newest = try database.firstRow("SELECT max(version) FROM schema_migrations")?[0].int ?? 0
        if newest > (Migrations.all.last?.version ?? 0) {
            throw LibraryFailure.notABackup(backup.path, nb: "den er laget av en nyere arkivator (databaseversjon \(newest)); oppdater arkivator først",
                                            en: "it was made by a newer arkivator (database version \(newest)); update arkivator first")
        }
        let documents = try database.firstRow("SELECT count(*) FROM documents")?[0].int ?? 0
        let sealed = try SealedInventory.read(database)
        guard !sealed.isEmpty, !withoutKey else { return (documents, sealed) }
        try location.prepare()
        let keyPath = location.directory.appendingPathComponent(LibraryKey.fileName).path
        let fromEnvironment = !(environment[LibraryKey.environmentVariable] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        guard fromEnvironment || FileManager.default.fileExists(atPath: keyPath) else {
            throw LibraryFailure.keyMissingForBackup(keyPath, sealed: sealed)
        }
        let key = try LibraryKey.load(library: location, environment: environment, sealed: { sealed })
        guard try SealedInventory.opens(database, with: key) else {
            throw LibraryFailure.keyDoesNotFit(fromEnvironment ? LibraryKey.environmentVariable : keyPath, sealed: sealed)
        }
        return (documents, sealed)
    }

    /// An exclusive `flock` on the library's `filing.lock`: no other process has the library open.
    static func exclusiveLock(_ location: LibraryLocation) throws -> Int32 {
        try location.prepare()
        let descriptor = try openLockFile(in: location)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw LibraryFailure.libraryInUse(location.directory.path)
        }
        return descriptor
    }

    /// Renames the database (and any `-wal`/`-shm` beside it) to a new name in the same folder.
    private static func setAside(_ database: URL) throws -> URL {
        let stamp = Library.now().replacingOccurrences(of: ":", with: "")
        var aside = database.deletingLastPathComponent().appendingPathComponent(replacedDatabasePrefix + stamp)
        var number = 2
        while FileManager.default.fileExists(atPath: aside.path) {
            aside = database.deletingLastPathComponent().appendingPathComponent(replacedDatabasePrefix + "\(stamp)-\(number)")
            number += 1
        }
        guard rename(database.path, aside.path) == 0 else {
            throw LibraryError(message: UserMessage(
                nb: "Kunne ikke flytte \(database.path) til side: \(String(cString: strerror(errno))). Ingenting ble endret.",
                en: "Could not move \(database.path) aside: \(String(cString: strerror(errno))). Nothing was changed."))
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: database.path + suffix) {
            rename(database.path + suffix, aside.path + suffix)
        }
        return aside
    }
}

extension LibraryFailure {
    static func notABackup(_ path: String, nb: String, en: String) -> LibraryFailure {
        .init(.notABackup, nb: "\(path) kan ikke gjenopprettes: \(nb). Ingenting ble endret.",
              en: "\(path) cannot be restored: \(en). Nothing was changed.")
    }

    static func libraryNotEmpty(_ library: String, documents: Int) -> LibraryFailure {
        .init(.libraryNotEmpty,
              nb: "Biblioteket \(library) har \(documents) dokument\(documents == 1 ? "" : "er"). Gjenoppretting erstatter databasen: legg til --replace hvis det er meningen (databasen som erstattes, legges til side i bibliotekmappen, ikke slettet). Ingenting ble endret.",
              en: "The library \(library) holds \(documents) document\(documents == 1 ? "" : "s"). A restore replaces its database: add --replace if that is what you want (the database replaced is kept aside in the library folder, not deleted). Nothing was changed.")
    }

    static func libraryInUse(_ library: String) -> LibraryFailure {
        .init(.libraryInUse,
              nb: "Biblioteket \(library) er i bruk av en annen arkivator (watch, serve eller ingest). Stopp den først, og prøv igjen. Ingenting ble endret.",
              en: "The library \(library) is in use by another arkivator (watch, serve or ingest). Stop it first and try again. Nothing was changed.")
    }

    static func keyMissingForBackup(_ keyPath: String, sealed: SealedInventory) -> LibraryFailure {
        let what = sealed.described
        return .init(.keyMissingForBackup,
              nb: "Kopien har krypterte fødselsnumre (i \(what.norwegian)), og de kan bare leses med den library.key som kopien ble laget med. Den finnes ikke her (\(keyPath)). Legg nøkkelfilen dit (chmod 600) eller sett ARKIVATOR_KEY, og gjenopprett igjen. Er nøkkelen tapt for godt, gjenopprett med --without-key: alt annet kommer tilbake, men numrene blir stående skjult som DDMMYY ••••• og kan aldri leses igjen. Ingenting ble endret.",
              en: "The backup holds encrypted national ID numbers (in \(what.english)), and they can only be read with the library.key the backup was made with. It is not here (\(keyPath)). Put the key file there (chmod 600) or set ARKIVATOR_KEY, and restore again. If the key is lost for good, restore with --without-key: everything else comes back, but the numbers stay hidden as DDMMYY ••••• and can never be read again. Nothing was changed.")
    }

    static func keyDoesNotFit(_ source: String, sealed: SealedInventory) -> LibraryFailure {
        let what = sealed.described
        return .init(.keyDoesNotFit,
              nb: "Nøkkelen i \(source) åpner ikke de krypterte fødselsnumrene i kopien (i \(what.norwegian)): kopien ble laget med en annen library.key. Bruk den nøkkelen, eller gjenopprett med --without-key (numrene blir da stående skjult for godt). Ingenting ble endret.",
              en: "The key in \(source) does not open the encrypted national ID numbers in the backup (in \(what.english)): the backup was made with another library.key. Use that key, or restore with --without-key (the numbers then stay hidden for good). Nothing was changed.")
    }
}
