import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `arkivator watch` on a real folder with the real binary: settling, ignored names, folders as
/// documents, duplicates, failures, SIGTERM and restarts.
@Suite(.serialized) struct WatchTests {
    /// A file written slowly (a chunk a second for five seconds, reopened for each chunk, so it
    /// is closed in between) is not read until it has been quiet for --settle seconds.
    @Test func slowWriterIsNotReadEarly() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let process = try watch.start(["--settle", "2"])
            defer { process.kill() }
            #expect(eventually(timeout: 10) { process.stderr.contains("Følger med") }, "\(process.stderr)")
            let bytes = try Data(contentsOf: Fixtures.url("photo.jpg"))
            let target = watch.inbox.appendingPathComponent("sakte.jpg")
            let chunks = 6
            let size = (bytes.count + chunks - 1) / chunks
            for index in 0..<chunks {
                let chunk = bytes[(index * size)..<min(bytes.count, (index + 1) * size)]
                if index == 0 {
                    try chunk.write(to: target)
                } else {
                    let handle = try FileHandle(forWritingTo: target)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: chunk)
                    try handle.close()
                }
                // Nothing may be picked up while the file grows.
                #expect(process.documentLines == 0, "read after chunk \(index + 1): \(process.stdout)")
                #expect(try watch.journal().isEmpty, "journalled after chunk \(index + 1)")
                if index < chunks - 1 { sleep(1) }
            }
            let finished = Date()
            #expect(eventually(timeout: 120) { process.documentLines == 1 }, "\(process.stdout)\n\(process.stderr)")
            #expect(Date().timeIntervalSince(finished) >= 2, "read before it had been quiet for --settle")
            #expect(process.lines("✔").count == 1, "\(process.stdout)")
            #expect(watch.files(under: watch.processed) == ["sakte.jpg"])
            #expect(try watch.journal().values.map(\.stage) == ["done"])
            #expect(process.terminate() == 0)
        }
    }

    /// Hidden files, unfinished downloads and temporary files stay where they are, unread.
    @Test func ignoredNamesAreLeftAlone() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let ignored = [".skjult.png", "brev.png.part", "brev.tmp", "brev.png~", "nedlasting.png.crdownload"]
            for name in ignored { try watch.drop(Fixtures.url("clean.png"), as: name, extraBytes: 5) }
            try watch.drop(Fixtures.url("clean.png"), as: "ren.png")
            let process = try watch.start(["--rescan", "1"])
            defer { process.kill() }
            #expect(eventually(timeout: 90) { process.documentLines >= 1 }, "\(process.stderr)")
            sleep(3)  // more than two rescans
            #expect(process.documentLines == 1, "\(process.stdout)")
            #expect(watch.waiting() == ignored.sorted(), "\(watch.waiting())")
            #expect(watch.files(under: watch.processed) == ["ren.png"])
            #expect(try watch.journal().count == 1)
            #expect(process.terminate() == 0)
            #expect(try CLI.list(watch.library).count == 1)
        }
    }

    /// A subfolder of images is one document of several pages, settled as a whole while its
    /// pages arrive one by one; it moves to processed/ as a folder.
    @Test func subfolderIsOneDocument() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let process = try watch.start(["--settle", "1"])
            defer { process.kill() }
            #expect(eventually(timeout: 10) { process.stderr.contains("Følger med") })
            try FileManager.default.createDirectory(at: watch.inbox.appendingPathComponent("Brev fra sykehuset"),
                                                    withIntermediateDirectories: true)
            for (index, name) in ["side 1.png", "side 2.png"].enumerated() {
                usleep(400_000)
                try watch.drop(Fixtures.url("clean.png"), as: "Brev fra sykehuset/\(name)", extraBytes: index * 5)
            }
            #expect(eventually(timeout: 120) { process.documentLines == 1 }, "\(process.stdout)\n\(process.stderr)")
            sleep(2)
            #expect(process.documentLines == 1, "\(process.stdout)")
            #expect(process.lines("✔").first?.contains("2 sider") == true, "\(process.stdout)")
            let listed = try CLI.list(watch.library)
            #expect(listed.count == 1)
            #expect(listed.first?["pageCount"] as? Int == 2, "\(listed)")
            #expect(watch.files(under: watch.processed) == ["Brev fra sykehuset/side 1.png", "Brev fra sykehuset/side 2.png"])
            #expect(watch.waiting().isEmpty)
            #expect(process.terminate() == 0)
        }
    }

    /// A document the library already has is reported (`=`), moved to processed/ beside the first
    /// (` (2)`, nothing overwritten) and not filed again; numbered pages in the folder are grouped.
    @Test func duplicateIsMovedAndNotFiledTwice() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            let process = try watch.start()
            defer { process.kill() }
            #expect(eventually(timeout: 90) { process.documentLines == 1 }, "\(process.stderr)")
            try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            #expect(eventually(timeout: 30) { process.documentLines == 2 }, "\(process.stdout)")
            #expect(process.lines("=").count == 1, "\(process.stdout)")
            #expect(process.lines("=").first?.contains("Allerede i biblioteket") == true)
            #expect(watch.files(under: watch.processed) == ["brev (2).png", "brev.png"])
            #expect(try watch.documentCounts() == (1, 1))
            #expect(try watch.journal().values.map(\.stage) == ["duplicate"])
            // The same file again, as numbered pages with another: a new document of two pages.
            try watch.drop(Fixtures.url("clean.png"), as: "svar_p2.png", extraBytes: 3)
            try watch.drop(Fixtures.url("clean.png"), as: "svar_p1.png")
            #expect(eventually(timeout: 120) { process.documentLines == 3 }, "\(process.stdout)")
            #expect(process.lines("✔").count == 2, "\(process.stdout)")
            #expect(process.lines("✔").last?.contains("2 sider") == true, "\(process.stdout)")
            #expect(try watch.documentCounts() == (2, 2))
            #expect(process.terminate() == 0)
        }
    }

    /// What cannot be read goes to failed/ with a note in Norwegian and English; it is not tried
    /// again until it is moved back into the folder.
    @Test func badFilesGoToFailedWithANote() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            for name in ["not-an-image.png", "truncated.jpg", "empty.jpg"] {
                try FileManager.default.copyItem(at: Fixtures.url("bad/\(name)"), to: watch.inbox.appendingPathComponent(name))
            }
            let process = try watch.start(["--rescan", "1"])
            defer { process.kill() }
            #expect(eventually(timeout: 30) { process.documentLines == 3 }, "\(process.stdout)\n\(process.stderr)")
            #expect(process.lines("✘").count == 3)
            #expect(watch.waiting().isEmpty, "\(watch.waiting())")
            #expect(watch.files(under: watch.failed) == [
                "empty.jpg", "empty.jpg.feil.txt", "not-an-image.png", "not-an-image.png.feil.txt",
                "truncated.jpg", "truncated.jpg.feil.txt",
            ])
            let note = try String(contentsOf: watch.failed.appendingPathComponent("truncated.jpg.feil.txt"), encoding: .utf8)
            #expect(note.contains("Hva skjedde: Bildet er avkortet"), "\(note)")
            #expect(note.contains("What happened: The image is cut off"), "\(note)")
            #expect(note.contains("Hva du kan gjøre:") && note.contains("What to do:"))
            #expect(note.contains("flytter du failed/truncated.jpg tilbake til \(watch.inbox.path)"), "\(note)")
            let journal = try watch.journal()
            #expect(journal.count == 3 && journal.values.allSatisfy { $0.stage == "failed" && !$0.retry })
            sleep(2)  // rescans do not try them again
            #expect(process.documentLines == 3)
            // Moved back by the user: tried again (and refused again, into a new name).
            try FileManager.default.moveItem(at: watch.failed.appendingPathComponent("truncated.jpg"),
                                             to: watch.inbox.appendingPathComponent("truncated.jpg"))
            #expect(eventually(timeout: 30) { process.documentLines == 4 }, "\(process.stdout)")
            #expect(FileManager.default.fileExists(atPath: watch.failed.appendingPathComponent("truncated.jpg").path))
            #expect(FileManager.default.fileExists(atPath: watch.failed.appendingPathComponent("truncated.jpg.feil.txt").path))
            #expect(try watch.journal().values.contains { $0.attempts == 1 && $0.stage == "failed" })
            #expect(process.terminate() == 0)
            #expect(try watch.documentCounts() == (0, 0))
        }
    }

    /// A failure of the machine (here the archive folder cannot be made: a file stands in its
    /// place) is journalled with a retry time and tried again; the original stays in the folder
    /// meanwhile, and is filed once the problem is gone.
    @Test func passingFailureIsRetried() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let blocker = dir.appendingPathComponent("arkiv")
            try Data("ikke en mappe".utf8).write(to: blocker)
            try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            let process = try watch.start(["--archive", blocker.path, "--retry-delays", "2,2"])
            defer { process.kill() }
            #expect(eventually(timeout: 60) { process.lines("✘").count == 1 }, "\(process.stdout)\n\(process.stderr)")
            #expect(process.lines("✘").first?.contains("Prøver igjen kl.") == true, "\(process.stdout)")
            let waiting = try watch.journal().values.first
            #expect(waiting?.stage == "failed" && waiting?.retry == true && waiting?.attempts == 1, "\(String(describing: waiting))")
            #expect(watch.waiting() == ["brev.png"])
            try FileManager.default.removeItem(at: blocker)
            #expect(eventually(timeout: 60) { process.lines("✔").count == 1 }, "\(process.stdout)\n\(process.stderr)")
            let done = try watch.journal().values.first
            #expect(done?.stage == "done" && done?.retry == false && done?.attempts == 1, "\(String(describing: done))")
            #expect(watch.files(under: watch.processed) == ["brev.png"])
            #expect(process.terminate() == 0)
            #expect(try watch.documentCounts() == (1, 1))
        }
    }

    /// When the tries are used up, the document has failed for good: failed/ and a note.
    @Test func passingFailureGivesUpAfterItsRetries() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let blocker = dir.appendingPathComponent("arkiv")
            try Data("ikke en mappe".utf8).write(to: blocker)
            try watch.drop(Fixtures.url("clean.png"), as: "brev.png")
            let process = try watch.start(["--archive", blocker.path, "--retry-delays", "0.5"])
            defer { process.kill() }
            #expect(eventually(timeout: 90) { process.lines("✘").count == 2 }, "\(process.stdout)\n\(process.stderr)")
            #expect(eventually(timeout: 5) { watch.files(under: watch.failed) == ["brev.png", "brev.png.feil.txt"] },
                    "\(watch.files(under: watch.failed))")
            let note = try String(contentsOf: watch.failed.appendingPathComponent("brev.png.feil.txt"), encoding: .utf8)
            #expect(note.contains("Arkivator prøvde flere ganger") && note.contains("forsøk: 2"), "\(note)")
            let entry = try watch.journal().values.first
            #expect(entry?.stage == "failed" && entry?.retry == false && entry?.attempts == 2)
            #expect(process.terminate() == 0)
        }
    }

    /// `--on-success keep` leaves the original (and does not read it again, not after a restart
    /// either); `--on-success delete` removes it once filed.
    @Test func onSuccessKeepAndDelete() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            try watch.drop(Fixtures.url("clean.png"), as: "slett.png", extraBytes: 4)
            let delete = try watch.start(["--on-success", "delete"], name: "delete")
            defer { delete.kill() }
            #expect(eventually(timeout: 60) { delete.lines("✔").count == 1 }, "\(delete.stdout)\n\(delete.stderr)")
            #expect(eventually(timeout: 5) { watch.waiting().isEmpty }, "\(watch.waiting())")
            #expect(!FileManager.default.fileExists(atPath: watch.processed.path))
            #expect(delete.terminate() == 0)

            try watch.drop(Fixtures.url("clean.png"), as: "behold.png")
            let keep = try watch.start(["--on-success", "keep", "--rescan", "1"], name: "keep")
            defer { keep.kill() }
            #expect(eventually(timeout: 60) { keep.documentLines == 1 }, "\(keep.stderr)")
            sleep(2)
            #expect(keep.documentLines == 1, "\(keep.stdout)")
            #expect(watch.waiting() == ["behold.png"])
            #expect(keep.terminate() == 0)
            let again = try watch.start(["--on-success", "keep"], name: "keep-again")
            defer { again.kill() }
            #expect(eventually(timeout: 10) { again.stderr.contains("Følger med") })
            sleep(2)
            #expect(again.documentLines == 0, "\(again.stdout)")
            #expect(again.terminate() == 0)
            #expect(watch.waiting() == ["behold.png"])
            #expect(try watch.documentCounts() == (2, 2))
            #expect(try watch.journal().values.allSatisfy { $0.stage == "done" })
        }
    }

    /// Idle after work, the engines are unloaded and (above the memory limit) the program starts
    /// itself afresh in its own place: same process id, peak memory back to a fresh start's, and
    /// it goes on watching.
    @Test func idleWatchUnloadsAndStartsAfresh() throws {
        func peakMB(_ pid: Int32) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) / 1024
        }
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            try watch.drop(Fixtures.url("clean.png"), as: "en.png")
            let process = try watch.start(["--unload-after", "1", "--restart-above-mb", "1"])
            defer { process.kill() }
            let pid = process.process.processIdentifier
            #expect(eventually(timeout: 60) { process.documentLines == 1 }, "\(process.stderr)")
            let working = peakMB(pid)
            #expect(eventually(timeout: 20) { peakMB(pid) < working - 20 }, "peak \(working) MB → \(peakMB(pid)) MB")
            #expect(process.isRunning && process.process.processIdentifier == pid)
            try watch.drop(Fixtures.url("clean.png"), as: "to.png", extraBytes: 6)
            #expect(eventually(timeout: 60) { process.documentLines == 2 }, "\(process.stdout)\n\(process.stderr)")
            #expect(process.lines("✔").count == 2)
            #expect(process.stderr.components(separatedBy: "Følger med").count == 2, "said once: \(process.stderr)")
            #expect(process.terminate() == 0)
            #expect(try watch.documentCounts() == (2, 2))
        }
    }

    /// SIGTERM while idle ends the watch at once with exit code 0.
    @Test func sigtermWhileIdleExitsPromptly() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let process = try watch.start(["--rescan", "30"])
            defer { process.kill() }
            #expect(eventually(timeout: 10) { process.stderr.contains("Følger med") })
            let start = Date()
            #expect(process.terminate(timeout: 5) == 0, "\(process.stderr)")
            #expect(process.process.terminationReason == .exit)
            #expect(Date().timeIntervalSince(start) < 2, "took \(Date().timeIntervalSince(start)) s")
            #expect(process.stderr.contains("Stoppet."))
        }
    }

    /// SIGTERM while a document is being read: it is finished (filed, moved, journalled) first,
    /// then the watch exits with 0.
    @Test func sigtermFinishesTheCurrentDocument() throws {
        try withTemporaryDirectory { dir in
            let watch = try WatchHarness(dir)
            let process = try watch.start()
            defer { process.kill() }
            try watch.drop(Fixtures.url("photo.jpg"))
            #expect(eventually(timeout: 30) { try !watch.journal().isEmpty }, "never started: \(process.stderr)")
            #expect(process.terminate(timeout: 120) == 0, "\(process.stderr)")
            #expect(process.process.terminationReason == .exit)
            #expect(process.lines("✔").count == 1, "\(process.stdout)\n\(process.stderr)")
            #expect(try watch.journal().values.map(\.stage) == ["done"])
            #expect(watch.files(under: watch.processed) == ["photo.jpg"])
        }
    }
}
