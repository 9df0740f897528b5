import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// `search` and `backup` while `ingest` is filing documents into the same library: every search
/// answers, every backup is a consistent, checked copy.
@Suite(.serialized) struct LibraryConcurrencyTests {
    @Test func searchAndBackupWhileIngestRuns() throws {
        try withTemporaryDirectory { dir in
            let inputs = try LibraryInputs.sixDocuments(in: dir)
            let library = dir.appendingPathComponent("bibliotek")
            let backups = dir.appendingPathComponent("kopier")
            try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
            let ingest = try CLI.start(["ingest", inputs.path], library: library,
                                              logs: dir.appendingPathComponent("logg"), name: "ingest")
            var searches: [(status: Int32, hits: Int?, stderr: String)] = []
            var copies: [(url: URL, status: Int32, stdout: String, stderr: String, duringIngest: Bool)] = []
            var round = 0
            // Until ingest ends, and one round after.
            while true {
                let running = ingest.isRunning
                round += 1
                for word in ["telefon", "henvisning"] {
                    let output = try CLI.run(["search", word, "--json"], library: library)
                    let hits = ((try? CLI.json(output)) as? [String: Any])?["total"] as? Int
                    searches.append((output.status, hits, output.stderr))
                }
                let plain = try CLI.run(["search", "telefon"], library: library)
                searches.append((plain.status, plain.stdout.contains("Ingen treff") ? 0 : (plain.stdout.contains("treff for") ? 1 : nil),
                                 plain.stderr))
                let copy = backups.appendingPathComponent("kopi-\(round).sqlite")
                let backup = try CLI.run(["backup", copy.path], library: library)
                copies.append((copy, backup.status, backup.stdout, backup.stderr, running))
                if !running || round > 200 { break }
            }
            #expect(ingest.process.terminationStatus == 0, "ingest: \(ingest.stderr)")
            #expect(copies.filter(\.duringIngest).count >= 1, "no backup ran while ingest ran")

            for (index, search) in searches.enumerated() {
                #expect(search.status == 0, "search \(index): exit \(search.status): \(search.stderr)")
                #expect(search.hits != nil, "search \(index): no answer")
                #expect(search.stderr.isEmpty, "search \(index): \(search.stderr)")
            }
            // Hits for a word of every letter only grow while documents come in; the last search sees all six.
            let totals = searches.enumerated().filter { $0.offset % 3 == 0 }.compactMap(\.element.hits)
            #expect(totals == totals.sorted(), "\(totals)")
            #expect(totals.last == 6, "\(totals)")

            var counts: [Int] = []
            for copy in copies {
                #expect(copy.status == 0, "\(copy.url.lastPathComponent): \(copy.stderr)")
                guard copy.status == 0 else { continue }
                #expect(copy.stdout.contains("og sjekket"), "\(copy.stdout)")
                #expect(!FileManager.default.fileExists(atPath: copy.url.path + "-wal"), "a backup is one file")
                let attributes = try FileManager.default.attributesOfItem(atPath: copy.url.path)
                #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0, "the copy is private")
                let database = try Database(url: copy.url)
                #expect(try database.firstRow("PRAGMA integrity_check")?[0].string == "ok", "\(copy.url.lastPathComponent)")
                #expect(try database.firstRow("PRAGMA foreign_key_check") == nil)
                let documents = try #require(try database.firstRow("SELECT count(*) FROM documents")?[0].int)
                let files = try #require(try database.firstRow("SELECT count(*) FROM document_files")?[0].int)
                let pages = try #require(try database.firstRow("SELECT coalesce(sum(page_count), 0) FROM documents")?[0].int)
                #expect(files == 2 * documents + pages, "\(copy.url.lastPathComponent): a document without all its files")
                // The index agrees with the table it indexes.
                _ = try database.rows("INSERT INTO documents_fts(documents_fts) VALUES ('integrity-check')")
                #expect(copy.stdout.contains("med \(documents) dokument"), "\(copy.stdout)")
                counts.append(documents)
            }
            #expect(counts == counts.sorted(), "\(counts)")
            #expect(counts.last == 6, "\(counts)")
            print("[LibraryConcurrencyTests] \(round) rounds, \(searches.count) searches, \(copies.count) backups, documents per backup: \(counts)")
        }
    }
}
