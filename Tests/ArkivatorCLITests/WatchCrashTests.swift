import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `arkivator watch` killed with SIGKILL (a power cut, `kill -9`) and started again: every
/// document ends up filed and indexed exactly once, and no original is ever lost.
@Suite(.serialized) struct WatchCrashTests {
    /// Checks a finished library against the documents dropped: each filed once, with all its
    /// files, every original in processed/, nothing left waiting or failed, the database sound.
    func expectAllFiledOnce(_ watch: WatchHarness, documents: Int, originals: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let listed = try CLI.list(watch.library)
        #expect(listed.count == documents, "list: \(listed.count) documents", sourceLocation: sourceLocation)
        let counts = try watch.documentCounts()
        #expect(counts.documents == documents && counts.distinct == documents, "\(counts)", sourceLocation: sourceLocation)
        #expect(try watch.integrity() == "ok", sourceLocation: sourceLocation)
        let state = try ArchiveState.read(library: watch.library)
        #expect(state.intents == 0 && state.missing.isEmpty && state.orphans.isEmpty, "\(state)", sourceLocation: sourceLocation)
        #expect(try LibraryCrashTests.incompleteDocuments(watch.library) == 0, sourceLocation: sourceLocation)
        #expect(watch.files(under: watch.processed) == originals.sorted(), sourceLocation: sourceLocation)
        #expect(watch.waiting().isEmpty, "\(watch.waiting())", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: watch.failed.path), sourceLocation: sourceLocation)
        let journal = try watch.journal()
        #expect(journal.count == documents && journal.values.allSatisfy { $0.stage == "done" },
                "\(journal.values.map(\.stage))", sourceLocation: sourceLocation)
    }

    /// Killed while the second of three documents is being read, then started again: the
    /// journal's unfinished document is read again and every document is filed once.
    @Test func restartAfterKillResumes() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            try watch.drop(Fixtures.url("clean.png"), as: "a.png")
            try watch.drop(Fixtures.url("photo.jpg"), as: "b.jpg")
            try watch.drop(Fixtures.url("clean.png"), as: "c.png", extraBytes: 7)
            let first = try watch.start(name: "watch-1")
            let midway = eventually(timeout: 120) {
                try first.documentLines == 1 && watch.journal().values.contains { $0.stage == "received" }
            }
            #expect(midway, "\(first.stdout)\n\(first.stderr)")
            #expect(first.kill(), "watch ended before the kill")
            #expect(try watch.journal().values.contains { $0.stage == "received" })

            let second = try watch.start(name: "watch-2")
            defer { second.kill() }
            #expect(eventually(timeout: 180) {
                try watch.waiting().isEmpty && watch.journal().count == 3 && watch.journal().values.allSatisfy { $0.stage == "done" }
            }, "\(second.stdout)\n\(second.stderr)")
            #expect(second.stderr.contains("Tar opp igjen"), "\(second.stderr)")
            #expect(second.terminate() == 0)
            try expectAllFiledOnce(watch, documents: 3, originals: ["a.png", "b.jpg", "c.png"])
        }
    }

    /// The moment between filing and the journal's next step: the library holds the document but
    /// its row still says `received`. The next start finishes it (done, original put away) and
    /// neither files it again nor calls it a duplicate.
    @Test func receivedRowOfAFiledDocumentBecomesDone() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let file = try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            let ingest = try CLI.run(["ingest", "--json", file.path], library: watch.library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let id = try #require(try CLI.records(ingest).first?["id"] as? String)
            do {
                let database = try Database(url: watch.library.appendingPathComponent(Database.fileName))
                try database.execute("""
                    INSERT INTO journal (sha256, source, stage, attempts, received_at, updated_at)
                    VALUES (?, ?, 'received', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                    """, [id, file.path])
            }
            let process = try watch.start()
            defer { process.kill() }
            #expect(eventually(timeout: 30) { process.documentLines == 1 }, "\(process.stdout)\n\(process.stderr)")
            #expect(process.lines("✔").first?.contains("arkivert før omstarten") == true, "\(process.stdout)")
            #expect(try watch.journal()[id]?.stage == "done")
            #expect(watch.files(under: watch.processed) == ["brev.png"])
            #expect(process.terminate() == 0)
            #expect(try watch.documentCounts() == (1, 1))
        }
    }

    /// Documents are dropped while `watch` is killed with SIGKILL at random moments, at least ten
    /// times, and started again each time; a last run finishes. After every kill each original is
    /// still in the folder or in processed/; at the end all are filed exactly once.
    @Test func killedAtRandomMomentsFilesEverythingOnce() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            // Every filed document is uploaded too: to a folder destination.
            let uploads = dir.appendingPathComponent("opplastet")
            try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
            let configured = try CLI.run(["config", "set", "destination", "folder:\(uploads.path)"], library: watch.library)
            #expect(configured.status == 0, "\(configured.stderr)")
            let samples = Fixtures.root.appendingPathComponent("samples")
            // Six documents, seven pages: the three sample letters (one of two pages) and fixture
            // images with bytes after their end (distinct SHA-256s).
            let drops: [[(URL, String, Int)]] = [
                [(samples.appendingPathComponent("labsvar-ren.png"), "labsvar-ren.png", 0)],
                [(samples.appendingPathComponent("epikrise-skann_p1.jpg"), "epikrise-skann_p1.jpg", 0),
                 (samples.appendingPathComponent("epikrise-skann_p2.jpg"), "epikrise-skann_p2.jpg", 0)],
                [(Fixtures.url("clean.png"), "kopi-ren.png", 9)],
                [(samples.appendingPathComponent("innkalling-foto.jpg"), "innkalling-foto.jpg", 0)],
                [(Fixtures.url("photo2.jpg"), "kopi-foto.jpg", 11)],
                [(Fixtures.url("twopage.tif"), "kopi-to-sider.tif", 0)],
            ]
            var dropped: [String] = []
            var kills = 0
            var moments: [String] = []
            for cycle in 0..<12 {
                let process = try watch.start(name: "watch-\(cycle)")
                if cycle < drops.count {
                    usleep(UInt32.random(in: 0...400_000))
                    for (source, name, extra) in drops[cycle] {
                        try watch.drop(source, as: name, extraBytes: extra)
                        dropped.append(name)
                    }
                }
                let delay = Double.random(in: 0.3...3.0)
                usleep(UInt32(delay * 1_000_000))
                let lines = process.documentLines
                if process.kill() { kills += 1 }
                moments.append(String(format: "%.2f s (%d lines)", delay, lines))
                // No original is lost: each is still waiting or already in processed/.
                let present = Set(watch.waiting()).union(watch.files(under: watch.processed))
                for name in dropped {
                    #expect(present.contains(name), "cycle \(cycle): \(name) is gone")
                }
                #expect(!FileManager.default.fileExists(atPath: watch.failed.path), "cycle \(cycle): \(process.stdout)")
            }
            print("[WatchCrashTests] killed \(kills) times at: \(moments.joined(separator: ", "))")
            #expect(kills >= 10)

            let last = try watch.start(name: "watch-last")
            defer { last.kill() }
            #expect(eventually(timeout: 240) {
                try watch.waiting().isEmpty && watch.journal().count == drops.count
                    && watch.journal().values.allSatisfy { $0.stage == "done" }
                    && (try watch.uploadStates()) == ["done": drops.count]
            }, "\(last.stdout)\n\(last.stderr)")
            #expect(eventually(timeout: 10) { last.stderr.contains("Følger med") })
            #expect(last.terminate() == 0)
            try expectAllFiledOnce(watch, documents: drops.count, originals: dropped)
            // Uploaded exactly once: one file at the destination per archived file, the same layout.
            let archived = watch.files(under: watch.library.appendingPathComponent("Arkiv"))
            let uploaded = watch.files(under: uploads)
            #expect(uploaded == archived, "uploaded \(uploaded.count), archived \(archived.count)")
        }
    }
}
