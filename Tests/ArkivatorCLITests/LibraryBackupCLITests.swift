import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation
import TestSupport
import Testing

/// `arkivator backup FOLDER` and `arkivator restore FOLDER` as a household uses them: letters
/// filed, a share link's PDF made, the library backed up, its folder erased, and everything back
/// in a new one: every letter, photo as taken, thumbnail, share PDF and search hit; a page read
/// again from its photo; `reindex` naming the files that go missing afterwards.
@Suite(.serialized) struct LibraryBackupCLITests {
    /// Every plain file below `folder` (hidden ones left out), by its path inside it, with its bytes.
    func files(under folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return found }
        for case let relative as String in walker where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let url = folder.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                found[relative] = try Data(contentsOf: url)
            }
        }
        return found
    }

    /// The ids `search` finds for `words`.
    func hits(_ words: String, _ library: URL) throws -> [String] {
        let output = try CLI.run(["search", "--json", words], library: library)
        #expect(output.status == 0, "search \(words): \(output.stderr)")
        let results = try #require((try CLI.json(output) as? [String: Any])?["hits"] as? [[String: Any]])
        return results.compactMap { $0["id"] as? String }.sorted()
    }

    @Test func aBackupRestoresEveryLetterPhotoThumbnailAndSharePackIntoAnEmptyLibrary() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let ingest = try CLI.run(["ingest", "--json", Fixtures.url("clean.png").path, Fixtures.url("photo.jpg").path],
                                     library: library)
            #expect(ingest.status == 0, "ingest: \(ingest.stderr)")
            let ids = try CLI.records(ingest).compactMap { $0["libraryId"] as? String }
            #expect(ids.count == 2)
            let scanned = try #require(ids.first)

            // A share link, and its PDF as the web app makes it for the doctor.
            let link = try CLI.run(["share", "link", scanned], library: library)
            #expect(link.status == 0, "\(link.stderr)")
            let token = try #require(link.lines.last?.split(separator: "/").last.map(String.init))
            do {
                let household = try Household.open(LibraryLocation(directory: library), environment: CLI.environment())
                guard case .open(let shared, let letters) = try household.library.sharing.sharedLetters(token: token) else {
                    Issue.record("the link does not open")
                    return
                }
                _ = try household.sharePack(link: shared.id, letters: letters)
            }

            var before: [String: [String: Data]] = [:]
            for folder in ["Arkiv", "Originaler", "Miniatyrer", "Delinger"] {
                before[folder] = try files(under: library.appendingPathComponent(folder))
            }
            #expect(before["Originaler"]?.count == 2 && before["Miniatyrer"]?.count == 2, "\(before.mapValues(\.count))")
            #expect(before["Delinger"]?.keys.contains { $0.hasSuffix(".pdf") } == true, "\(before["Delinger"]?.keys.sorted() ?? [])")
            let searches = ["Granlia", "innkalling"]
            let found = try searches.map { try hits($0, library) }
            #expect(found.allSatisfy { !$0.isEmpty }, "\(found)")
            let listed = try CLI.list(library).compactMap { $0["id"] as? String }.sorted()

            // One step: the whole library into a new folder, never over one that is there.
            let backup = dir.appendingPathComponent("kopi-2025-03-14")
            let made = try CLI.run(["backup", backup.path], library: library)
            #expect(made.status == 0, "backup: \(made.stdout)\(made.stderr)")
            #expect(made.stdout.contains("Originaler/: 2") && made.stdout.contains("Miniatyrer/: 2")
                    && made.stdout.contains("Delinger/") && made.stdout.contains("Ikke med: library.key"), "\(made.stdout)")
            #expect(!FileManager.default.fileExists(atPath: backup.appendingPathComponent("library.key").path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".ufullstendig-") }.isEmpty)
            let again = try CLI.run(["backup", backup.path], library: library)
            #expect(again.status == 1 && again.stderr.contains("finnes allerede"), "\(again.stderr)")

            // A backup that did not finish (no list of its files) and a damaged one are refused.
            let unfinished = dir.appendingPathComponent("kopi.ufullstendig-1")
            let damaged = dir.appendingPathComponent("skadet")
            try FileManager.default.copyItem(at: backup, to: unfinished)
            try FileManager.default.removeItem(at: unfinished.appendingPathComponent(Library.backupManifestName))
            try FileManager.default.copyItem(at: backup, to: damaged)
            let photo = try #require(before["Originaler"]?.keys.sorted().first)
            try Data("ikke et bilde".utf8).write(to: damaged.appendingPathComponent("Originaler").appendingPathComponent(photo))

            // The library folder erased; library.key kept apart, as the backup says.
            let key = try Data(contentsOf: library.appendingPathComponent("library.key"))
            try FileManager.default.removeItem(at: library)
            let restored = dir.appendingPathComponent("nytt-bibliotek")
            try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: restored.appendingPathComponent("library.key").path, contents: key,
                                                   attributes: [.posixPermissions: 0o600]))
            let notWhole = try CLI.run(["restore", unfinished.path], library: restored)
            #expect(notWhole.status == 1 && notWhole.stderr.contains("ikke en hel sikkerhetskopi"), "\(notWhole.stderr)")
            let broken = try CLI.run(["restore", damaged.path], library: restored)
            #expect(broken.status == 1 && broken.stderr.contains("er endret, skadet eller borte"), "\(broken.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: restored.path).filter { !$0.hasPrefix(".") }
                    .allSatisfy { ["library.key", "filing.lock"].contains($0) }, "a refused restore changes nothing")

            let restore = try CLI.run(["restore", backup.path], library: restored)
            #expect(restore.status == 0, "restore: \(restore.stdout)\(restore.stderr)")
            #expect(restore.stdout.contains("Gjenopprettet hele biblioteket") && restore.stderr.isEmpty, "\(restore.stdout)\(restore.stderr)")
            for folder in ["Arkiv", "Originaler", "Miniatyrer", "Delinger"] {
                #expect(try files(under: restored.appendingPathComponent(folder)) == before[folder], "\(folder) differs")
            }
            #expect(try CLI.list(restored).compactMap { $0["id"] as? String }.sorted() == listed)
            #expect(try searches.map { try hits($0, restored) } == found)
            let reindex = try CLI.run(["reindex"], library: restored)
            #expect(reindex.status == 0 && reindex.stderr.isEmpty && !reindex.stdout.contains("Mangler")
                    && !reindex.stdout.contains("Ukjent"), "\(reindex.stdout)\(reindex.stderr)")
            let refused = try CLI.run(["restore", backup.path], library: restored)
            #expect(refused.status == 1 && refused.stderr.contains("tom bibliotekmappe"), "\(refused.stderr)")

            // A page read again from its photo as taken, in the restored library.
            let recrop = try CLI.run(["recrop", scanned, "--whole"], library: restored)
            #expect(recrop.status == 0, "recrop: \(recrop.stdout)\(recrop.stderr)")

            // One photo as taken and one thumbnail gone: reindex names both and makes the thumbnail again.
            let other = try #require(ids.last)
            let lostPhoto = try #require(try files(under: restored.appendingPathComponent("Originaler")).keys.first { $0.hasPrefix(other) })
            let thumbnails = try files(under: restored.appendingPathComponent("Miniatyrer"))
            let lostThumbnail = try #require(thumbnails.keys.first { $0.hasPrefix(other) })
            try FileManager.default.removeItem(at: restored.appendingPathComponent("Originaler").appendingPathComponent(lostPhoto))
            try FileManager.default.removeItem(at: restored.appendingPathComponent("Miniatyrer").appendingPathComponent(lostThumbnail))
            let check = try CLI.run(["reindex"], library: restored)
            #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("Mangler bildet slik det ble tatt (original)") && check.stderr.contains(lostPhoto),
                    "\(check.stderr)")
            #expect(check.stdout.contains("Miniatyrbildet manglet, laget på nytt") && check.stdout.contains(lostThumbnail),
                    "\(check.stdout)")
            #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("Miniatyrer").appendingPathComponent(lostThumbnail).path))
        }
    }
}
