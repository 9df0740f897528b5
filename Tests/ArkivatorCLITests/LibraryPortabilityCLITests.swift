import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// A library copied, moved and restored as a user does it, with the real binary: a copy never
/// touches the original's files, a moved library finds every file, a restore round trip takes
/// the files filed after the backup back in without ` (2)` copies, and a missing key is explained.
@Suite(.serialized) struct LibraryPortabilityCLITests {
    /// Ingests `files` into `library`.
    func ingest(_ files: [URL], into library: URL) throws {
        let output = try CLI.run(["ingest"] + files.map(\.path), library: library)
        #expect(output.status == 0, "ingest: \(output.stderr)")
    }

    func copyFolder(_ from: URL, _ to: URL) throws {
        #expect(try OutsideTool.run("cp", ["-a", from.path, to.path]).status == 0)
    }

    /// Every file `list --json` names for the library's documents, with whether it is there.
    func listedFiles(_ library: URL) throws -> [String] {
        try CLI.list(library).compactMap { $0["file"] as? String }
    }

    /// Makes a library look as an arkivator before relative paths left it: absolute paths, and
    /// the migration that rewrites them not yet applied.
    func makeOld(_ library: URL) throws {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        try database.execute("UPDATE document_files SET path = ? || '/' || path WHERE path NOT LIKE '/%'",
                             [library.standardizedFileURL.path])
        try database.execute("DELETE FROM schema_migrations WHERE version = 8")
    }

    @Test func aCopyNeverTouchesTheOriginalAndAMovedLibraryFindsItsFiles() throws {
        try withTemporaryDirectory { dir in
            let original = dir.appendingPathComponent("libA")
            try ingest([Fixtures.url("clean.png")], into: original)
            let id = try #require(try CLI.list(original).first?["id"] as? String)
            let before = try ArchiveState.read(library: original)
            #expect(before.files.count >= 3 && before.missing.isEmpty && before.orphans.isEmpty)

            // A copy made now, and one made of the library as an older arkivator left it.
            for (name, old) in [("libB", false), ("libD", true)] {
                if old { try makeOld(original) }
                let copy = dir.appendingPathComponent(name)
                try copyFolder(original, copy)
                let purge = try CLI.run(["delete", "--purge", id], library: copy)
                #expect(purge.status == 0, "\(name): \(purge.stderr)")
                let after = try ArchiveState.read(library: original)
                #expect(after.files == before.files && after.missing.isEmpty, "\(name): the original lost files")
                #expect(try ArchiveState.read(library: copy).files.isEmpty, "\(name): the copy's own files are purged")
            }

            // Moved (still as the older arkivator left it): every file found where it now is.
            let moved = dir.appendingPathComponent("flyttet")
            try FileManager.default.moveItem(at: original, to: moved)
            let files = try listedFiles(moved)
            #expect(files.count == 1)
            for path in files {
                #expect(path.hasPrefix(moved.standardizedFileURL.path + "/") && FileManager.default.fileExists(atPath: path), "\(path)")
            }
            let show = try CLI.run(["show", id, "--json"], library: moved)
            let document = try #require(try CLI.json(show) as? [String: Any])
            let shown = ((document["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
            #expect(shown.count >= 3 && shown.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(shown)")
            let reindex = try CLI.run(["reindex"], library: moved)
            #expect(reindex.status == 0 && !reindex.stderr.contains("Mangler"), "\(reindex.stdout)\(reindex.stderr)")
            #expect(!reindex.stdout.contains("Ukjent"), "\(reindex.stdout)")

            // A moved library whose files are gone is not a success.
            try FileManager.default.removeItem(at: moved.appendingPathComponent("Arkiv"))
            let broken = try CLI.run(["reindex"], library: moved)
            #expect(broken.status == 1 && broken.stderr.contains("Mangler i arkivet"), "\(broken.stderr)")
        }
    }

    @Test func aRestoreRoundTripAdoptsWhatCameAfterWithoutCopies() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let family = try CLI.run(["family", "add", "Kari Nordmann", "--fnr", FamilyCLITests.number("260187")],
                                     library: library)
            #expect(family.status == 0, "\(family.stderr)")
            let first = Fixtures.url("clean.png")
            let second = Fixtures.url("photo.jpg")
            try ingest([first], into: library)
            let backup = dir.appendingPathComponent("kopi.sqlite")
            #expect(try CLI.run(["backup", backup.path], library: library).status == 0)
            try ingest([second], into: library)
            // The first letter goes to the trash after the backup: its files move to `Papirkurv/`.
            let firstID = try #require(try CLI.list(library).first { ($0["file"] as? String)?.contains("Henvisning") == true }?["id"] as? String)
            #expect(try CLI.run(["delete", firstID], library: library).status == 0)
            #expect(try CLI.list(library).count == 1)

            // Not a backup, or made with another key: refused, nothing changed.
            let junk = dir.appendingPathComponent("tull.sqlite")
            try Data(repeating: 7, count: 4096).write(to: junk)
            let notBackup = try CLI.run(["restore", "--backup", junk.path, "--replace"], library: library)
            #expect(notBackup.status == 1 && notBackup.stderr.contains("ikke en SQLite-database"), "\(notBackup.stderr)")
            let otherKey = try CLI.run(["restore", "--backup", backup.path, "--replace"], library: library,
                                       environment: ["ARKIVATOR_KEY": Data(repeating: 1, count: 32).base64EncodedString()])
            #expect(otherKey.status == 1 && otherKey.stderr.contains("annen library.key"), "\(otherKey.stderr)")

            // Without the key: refused, explained, nothing changed, and no new key made.
            let key = library.appendingPathComponent("library.key")
            let savedKey = dir.appendingPathComponent("library.key.gjemt")
            try FileManager.default.moveItem(at: key, to: savedKey)
            let noKey = try CLI.run(["restore", "--backup", backup.path, "--replace"], library: library)
            #expect(noKey.status == 1)
            #expect(noKey.stderr.contains("library.key") && noKey.stderr.contains("krypterte fødselsnumre")
                    && noKey.stderr.contains("--without-key"), "\(noKey.stderr)")
            let opened = try CLI.run(["list"], library: library)
            #expect(opened.status == 1 && opened.stderr.contains("ingen ny nøkkel ble laget"), "\(opened.stderr)")
            #expect(!FileManager.default.fileExists(atPath: key.path), "a new key was made over sealed numbers")
            try FileManager.default.moveItem(at: savedKey, to: key)

            // A library with documents is replaced only when told to.
            let refused = try CLI.run(["restore", "--backup", backup.path], library: library)
            #expect(refused.status == 1 && refused.stderr.contains("--replace"), "\(refused.stderr)")
            let restore = try CLI.run(["restore", backup.path, "--replace"], library: library)
            #expect(restore.status == 0, "\(restore.stderr)")
            #expect(restore.stdout.contains("Ukjent for databasen") && restore.stdout.contains("reindex --adopt"),
                    "\(restore.stdout)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: library.path)
                .filter { $0.hasPrefix("arkivator.sqlite.før-gjenoppretting-") }
            #expect(aside.count == 1, "the replaced database is kept aside")
            #expect(try CLI.list(library).map { $0["id"] as? String } == [firstID], "the backup's one document")
            #expect(try ArchiveState.read(library: library).orphans.count >= 3)
            let check = try CLI.run(["reindex"], library: library)
            #expect(check.status == 1 && check.stdout.contains("Papirkurv") && check.stdout.contains("Ukjent for databasen"))

            // Adopted: the second letter from its files, the first linked to its files in the trash.
            let adopt = try CLI.run(["reindex", "--adopt"], library: library)
            #expect(adopt.status == 0 && adopt.stdout.contains("Tok inn 1 dokument fra arkivfilene; 1 kjente"),
                    "\(adopt.stdout)\(adopt.stderr)")
            let reindex = try CLI.run(["reindex"], library: library)
            #expect(reindex.status == 0 && !reindex.stdout.contains("Ukjent") && reindex.stderr.isEmpty,
                    "\(reindex.stdout)\(reindex.stderr)")
            let state = try ArchiveState.read(library: library)
            #expect(state.orphans.isEmpty, "\(state.orphans)")
            #expect(try CLI.list(library).count == 1 && CLI.list(library, ["--trash"]).map { $0["id"] as? String } == [firstID])

            // The originals again: both known, no ` (2)` copy anywhere.
            let again = try CLI.run(["ingest", first.path, second.path], library: library)
            #expect(again.stdout.contains("papirkurven") || again.stderr.contains("papirkurven"), "\(again.stdout)\(again.stderr)")
            let after = try ArchiveState.read(library: library)
            #expect(after.files == state.files && !after.files.contains { $0.contains(" (2)") }, "\(after.files)")
            #expect(try CLI.list(library).count == 1)
            let restored = try CLI.run(["restore", firstID], library: library)
            #expect(restored.status == 0 && !restored.stdout.contains(" (2)"), "\(restored.stdout)\(restored.stderr)")
            #expect(try CLI.list(library).count == 2)

            // Erasing the library takes the database set aside with it.
            #expect(try CLI.run(["erase", "--all", "--yes"], library: library).status == 0)
            #expect(!FileManager.default.fileExists(atPath: library.path), "\((try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? [])")
        }
    }

    @Test func aBackupRestoredElsewhereWithoutItsKeyOnlyWhenToldTo() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            #expect(try CLI.run(["family", "add", "Kari Nordmann", "--fnr", FamilyCLITests.number("260187")],
                                library: library).status == 0)
            let backup = dir.appendingPathComponent("kopi.sqlite")
            #expect(try CLI.run(["backup", backup.path], library: library).status == 0)

            // A new machine without the key: refused, with what the key is and what to do.
            let elsewhere = dir.appendingPathComponent("ny-maskin")
            let refused = try CLI.run(["restore", "--backup", backup.path], library: elsewhere)
            #expect(refused.status == 1 && refused.stderr.contains("1 familiemedlem")
                    && refused.stderr.contains("--without-key"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("arkivator.sqlite").path))

            // Told to: the household comes back, its number hidden for good, under a new key.
            let restored = try CLI.run(["restore", "--backup", backup.path, "--without-key"], library: elsewhere)
            #expect(restored.status == 0 && restored.stdout.contains("--without-key"), "\(restored.stdout)\(restored.stderr)")
            let family = try CLI.run(["family", "list"], library: elsewhere)
            #expect(family.status == 0 && family.stdout.contains("Kari Nordmann") && !family.stdout.contains("260187"),
                    "\(family.stdout)\(family.stderr)")
        }
    }

    @Test func aBackupToAMissingFolderSaysSo() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let target = dir.appendingPathComponent("finnes-ikke/kopi.sqlite")
            let output = try CLI.run(["backup", target.path], library: library)
            #expect(output.status == 1)
            #expect(output.stderr.contains("finnes-ikke") && output.stderr.contains("finnes ikke")
                    && output.stderr.contains("mkdir -p"), "\(output.stderr)")
            #expect(!output.stderr.contains("bibliotekmappen"), "\(output.stderr)")
        }
    }
}
