import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `ingest` and `watch` on folders that try to trap a folder walk, with the real binary: symlink
/// loops, a symlink out of the folder, a FIFO, a name that forges a line, an image without an
/// image ending.
@Suite(.serialized) struct FolderWalkCLITests {
    /// A folder with `a -> .` and `b -> .` beside `sub/c -> ..`, a link out of the folder and a
    /// FIFO: the walk ends (each folder once), says a sentence about the link and the FIFO, never
    /// opens the FIFO, reads a PNG named without any ending, and prints a name holding a newline
    /// and an ESC with both escaped, so it cannot forge a line of its own.
    @Test func ingestEndsOnLoopsAndShowsNamesEscaped() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("Skannet")
            let outside = dir.appendingPathComponent("annet")
            let sub = folder.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: outside.appendingPathComponent("utenfor.png"))
            let forged = "brev\n✔ falsk: 1 side\u{1B}[31m.png"
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: folder.appendingPathComponent(forged))
            var bytes = try Data(contentsOf: Fixtures.url("clean.png"))
            bytes.append(contentsOf: [1, 2, 3])
            try bytes.write(to: sub.appendingPathComponent("SCAN0001"))
            try Data("bare tekst".utf8).write(to: folder.appendingPathComponent("LESMEG"))
            for (link, target) in [("a", "."), ("b", "."), ("sub/c", ".."), ("ut", outside.path)] {
                try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(link).path,
                                                           withDestinationPath: target)
            }
            #expect(mkfifo(folder.appendingPathComponent("rør.png").path, 0o600) == 0)

            let process = try CLI.start(["ingest", folder.path], library: dir.appendingPathComponent("bibliotek"),
                                        logs: dir.appendingPathComponent("logg"), name: "ingest")
            // Generous, so that a loop fails the test instead of hanging it.
            let status = process.wait(timeout: 120)
            #expect(status == 0, "\(process.stdout)\n\(process.stderr)")
            let lines = process.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("✔") }.count == 2, "\(process.stdout)")
            #expect(!lines.contains { $0.hasPrefix("✔ falsk") }, "a file name forged a line: \(process.stdout)")
            #expect(!process.stdout.contains("\u{1B}") && !process.stderr.contains("\u{1B}"))
            #expect(process.stdout.contains(#"brev\n✔ falsk: 1 side\u{1B}[31m.png"#), "\(process.stdout)")
            #expect(process.stdout.contains("SCAN0001"), "\(process.stdout)")
            #expect(!process.stdout.contains("utenfor") && !process.stdout.contains("LESMEG"), "\(process.stdout)")
            #expect(process.stderr.contains("er en snarvei (symlenke) til \(outside.path)"), "\(process.stderr)")
            #expect(process.stderr.contains("rør.png» er ikke en vanlig fil"), "\(process.stderr)")

            // A title given with an escape sequence is stored without it (a space stands for each
            // control character), so no command can print it.
            let library = dir.appendingPathComponent("bibliotek")
            let listed = try CLI.run(["list", "--json"], library: library)
            let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            let id = try #require(rows.first?["id"] as? String, "\(listed.stdout)")
            #expect(try CLI.run(["edit", id, "--title", "2024-01-02 Brev\u{1B}[2J\u{1B}]0;eid\u{7}"], library: library).status == 0)
            for arguments in [["list"], ["show", id], ["search", "Brev"]] {
                let output = try CLI.run(arguments, library: library)
                #expect(!output.stdout.contains("\u{1B}") && !output.stdout.contains("\u{7}"), "\(arguments): \(output.stdout)")
                #expect(output.stdout.contains("Brev [2J ]0;eid"), "\(arguments): \(output.stdout)")
            }
        }
    }

    /// `watch` on a folder with two symlink loops files a dropped letter, puts the original in
    /// `processed/` exactly once (never following a link into its own `processed/`), and stops
    /// promptly on SIGTERM.
    @Test func watchFilesOnceBesideLoops() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            for link in ["a", "b"] {
                try FileManager.default.createSymbolicLink(atPath: watch.inbox.appendingPathComponent(link).path,
                                                           withDestinationPath: ".")
            }
            let process = try watch.start(["--rescan", "1"])
            defer { process.kill() }
            #expect(eventually(timeout: 10) { process.stderr.contains("Følger med") }, "\(process.stderr)")
            try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            #expect(eventually(timeout: 90) { process.documentLines == 1 }, "\(process.stdout)\n\(process.stderr)")
            sleep(3)  // more than two rescans: nothing is moved again
            #expect(process.lines("✔").count == 1, "\(process.stdout)")
            #expect(process.documentLines == 1, "\(process.stdout)")
            let processed = try FileManager.default.contentsOfDirectory(atPath: watch.processed.path)
            #expect(processed == ["brev.png"], "\(processed)")
            #expect(!FileManager.default.fileExists(atPath: watch.inbox.appendingPathComponent("brev.png").path))
            #expect(!process.stderr.contains("Invalid argument") && !process.stderr.contains("Ugyldig"), "\(process.stderr)")
            #expect(try watch.journal().values.map(\.stage) == ["done"])
            #expect(process.terminate(timeout: 10) == 0, "\(process.stderr)")
        }
    }

    /// A FIFO named directly is refused as what it is (not "no permission"), without waiting for
    /// a writer; a run of only documents the library has says so instead of "read 0 documents".
    @Test func messagesSayWhatHappened() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek"), logs = dir.appendingPathComponent("logg")
            let fifo = dir.appendingPathComponent("skanner.png")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let refused = try CLI.start(["ingest", fifo.path], library: library, logs: logs, name: "fifo")
            #expect(refused.wait(timeout: 60) == 1, "\(refused.stdout)\n\(refused.stderr)")
            #expect(refused.stdout.contains("✘ \(fifo.path): Dette er ikke en vanlig fil, men en navngitt rørledning, FIFO"),
                    "\(refused.stdout)")
            #expect(!refused.stdout.contains("lesetilgang"), "\(refused.stdout)")

            let letters = dir.appendingPathComponent("brev")
            try FileManager.default.createDirectory(at: letters, withIntermediateDirectories: true)
            for (index, name) in ["svar.pdf", "innkalling.pdf"].enumerated() {
                let lines = ["Oslo universitetssykehus", "Brev nummer \(index + 1) til pasienten", "Med vennlig hilsen"]
                try Data(PDFMaker.digital([lines, lines])).write(to: letters.appendingPathComponent(name))
            }
            let first = try CLI.run(["ingest", letters.path], library: library)
            #expect(first.status == 0 && first.stderr.contains("Leste 2 dokumenter (4 sider)"), "\(first.stderr)")
            let again = try CLI.run(["ingest", letters.path], library: library)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("Alle 2 dokumentene fantes fra før i biblioteket; ingenting nytt ble arkivert."),
                    "\(again.stderr)")
            #expect(!again.stderr.contains("Leste 0"), "\(again.stderr)")
        }
    }
}
