import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ingest` killed with SIGKILL at different moments: opening the library again (any command)
/// leaves every file the database names on disk and every archive file named by a document, and
/// a plain second `ingest` files the rest.
@Suite(.serialized) struct LibraryCrashTests {
    enum Moment: CustomStringConvertible, Sendable {
        /// This long after the start.
        case seconds(Double)
        /// As soon as `n` documents are reported and a temporary file shows up in the archive
        /// (a document is being written at that instant).
        case writing(afterDocuments: Int)
        /// As soon as `n` documents are reported and the database shows a filing step with reserved
        /// names (the document's files are being published; its row is not yet committed), and
        /// then `delay` microseconds more.
        case reserved(afterDocuments: Int, delay: UInt32)
        /// As soon as the n-th document line is printed.
        case documentLine(Int)

        var description: String {
            switch self {
            case .seconds(let s): "after \(s) s"
            case .writing(let n): "while writing, after \(n) documents"
            case .reserved(let n, let delay): "names reserved (+\(delay) µs), after \(n) documents"
            case .documentLine(let n): "at document line \(n)"
            }
        }
    }

    /// The six input documents (seven pages): what a finished library holds.
    static let documents = 6
    static let files = 6 + 6 + 7  // .docx, .pdf, one JPEG per page

    /// Waits for `moment` (at most 30 s), then kills `ingest`. Returns whether it was still running.
    func kill(_ ingest: CLI.Background, at moment: Moment, archive: URL) -> Bool {
        let start = Date()
        let deadline = start.addingTimeInterval(30)
        var watcher: Database?
        let databaseURL = archive.deletingLastPathComponent().appendingPathComponent(Database.fileName)
        while ingest.isRunning && Date() < deadline {
            switch moment {
            case .seconds(let seconds):
                if Date().timeIntervalSince(start) >= seconds { return ingest.kill() }
                usleep(10_000)
            case .documentLine(let n):
                if ingest.documentLines >= n { return ingest.kill() }
                usleep(2_000)
            case .writing(let n):
                if ingest.documentLines >= n, Self.hasTemporary(archive) { return ingest.kill() }
                usleep(1_000)
            case .reserved(let n, let delay):
                guard ingest.documentLines >= n, FileManager.default.fileExists(atPath: databaseURL.path) else {
                    usleep(2_000)
                    continue
                }
                if watcher == nil { watcher = try? Database(url: databaseURL) }
                let reserved = try? watcher?.firstRow("SELECT count(*) FROM filing_intents WHERE paths != '[]'")?[0].int
                if let reserved, reserved > 0 {
                    if delay > 0 { usleep(delay) }
                    return ingest.kill()
                }
                usleep(200)
            }
        }
        return ingest.kill()
    }

    static func hasTemporary(_ archive: URL) -> Bool {
        guard let walker = FileManager.default.enumerator(atPath: archive.path) else { return false }
        for case let path as String in walker where path.hasSuffix(".tmp") && path.contains(".arkivator-") { return true }
        return false
    }

    /// Documents recorded without all their files (one .docx, one .pdf, one image per page).
    static func incompleteDocuments(_ library: URL) throws -> Int {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        return try database.firstRow("""
            SELECT count(*) FROM documents d WHERE
                (SELECT count(*) FROM document_files f WHERE f.document_id = d.id AND f.kind = 'image') != d.page_count
                OR (SELECT count(*) FROM document_files f WHERE f.document_id = d.id AND f.kind = 'docx') != 1
                OR (SELECT count(*) FROM document_files f WHERE f.document_id = d.id AND f.kind = 'pdf') != 1
            """)?[0].int ?? -1
    }

    /// What each kill left (printed to the test log).
    static let leftovers = LeftoverLog()

    @Test(arguments: [Moment.seconds(0.6), .writing(afterDocuments: 0), .reserved(afterDocuments: 1, delay: 0),
                      .reserved(afterDocuments: 3, delay: 1_500)])
    func killedIngestRecoversAndResumes(_ moment: Moment) throws {
        try withTemporaryDirectory { dir in
            let inputs = try LibraryInputs.sixDocuments(in: dir)
            let library = dir.appendingPathComponent("bibliotek")
            let archive = library.appendingPathComponent("Arkiv")
            let ingest = try CLI.start(["ingest", inputs.path], library: library,
                                              logs: dir.appendingPathComponent("logg"), name: "ingest-1")
            let killed = kill(ingest, at: moment, archive: archive)
            let reported = ingest.documentLines
            #expect(killed, "\(moment): ingest ended before the kill (\(ingest.stderr))")

            // What the crash left, before anything opens the library: unfinished filing steps.
            let left = try ArchiveState.read(library: library)
            Self.leftovers.note("\(moment): killed with \(reported) documents reported, \(left.documents) recorded, "
                                + "\(left.intents) filing step(s) open, \(left.orphans.count) unrecorded file(s)")

            // Opening the library (any command) finishes or takes back what the crash left.
            let listed = try CLI.list(library)
            var state = try ArchiveState.read(library: library)
            #expect(state.intents == 0, "\(moment): unfinished filing steps remain")
            #expect(state.missing.isEmpty, "\(moment): recorded but not on disk: \(state.missing.sorted())")
            #expect(state.orphans.isEmpty, "\(moment): on disk but not recorded: \(state.orphans.sorted())")
            #expect(state.documents == listed.count)
            #expect(state.documents >= reported, "\(moment): a document reported as filed is gone")
            #expect(try Self.incompleteDocuments(library) == 0, "\(moment)")
            Self.leftovers.add("\(moment), after recovery", state.temporaries)
            let recordedBefore = state.documents

            // A plain second run files the rest; the recorded ones count as already there.
            let again = try CLI.run(["ingest", inputs.path], library: library)
            #expect(again.status == 0, "\(moment): \(again.stderr)")
            #expect(again.lines.filter { $0.hasPrefix("=") }.count == recordedBefore, "\(moment): \(again.stdout)")
            #expect(again.lines.filter { $0.hasPrefix("✔") }.count == Self.documents - recordedBefore, "\(moment): \(again.stdout)")
            let ids = try CLI.list(library).compactMap { $0["id"] as? String }
            #expect(ids.count == Self.documents && Set(ids).count == Self.documents, "\(moment): \(ids)")
            state = try ArchiveState.read(library: library)
            #expect(state.intents == 0 && state.missing.isEmpty && state.orphans.isEmpty, "\(moment): \(state)")
            #expect(state.recorded.count == Self.files && state.files.count == Self.files, "\(moment): \(state.files.count) files")
            #expect(try Self.incompleteDocuments(library) == 0, "\(moment)")
            Self.leftovers.add("\(moment), after the second run", state.temporaries)
            // Every recorded file is a real, non-empty file.
            for path in state.recorded {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(path)")
            }
        }
    }

    /// The two copies with bytes after the image's end marker are read like the originals.
    @Test func copiesWithTrailingBytesAreReadAsTheirOwnDocuments() throws {
        try withTemporaryDirectory { dir in
            let inputs = try LibraryInputs.sixDocuments(in: dir)
            let output = try CLI.run(["ingest", "--no-archive", "--json",
                                             inputs.appendingPathComponent("clean.png").path,
                                             inputs.appendingPathComponent("clean-kopi.png").path,
                                             inputs.appendingPathComponent("photo-kopi.jpg").path],
                                            library: dir.appendingPathComponent("bibliotek"))
            #expect(output.status == 0, "\(output.stderr)")
            let records = try CLI.records(output)
            #expect(records.count == 3)
            #expect(records.allSatisfy { $0["error"] is NSNull && ($0["noText"] as? Bool) == false })
            let texts = records.compactMap { $0["text"] as? String }
            #expect(texts.count == 3 && texts[0] == texts[1], "the copy reads as the original")
            #expect(Set(records.compactMap { $0["id"] as? String }).count == 3, "each copy is its own document")
        }
    }

    /// Temporary files (`.arkivator-….tmp`) left in the archive after a crash and a recovery.
    /// (A crash while writing leaves the searchable PDF, written by `ArchiveStage.write` to
    /// `layout.temporaryURL(person:for: .pdf)` before any name is reserved, and the staged
    /// .docx/JPEG temporaries of `ArchiveLayout.write`, which are not reserved either; recovery
    /// only removes reserved final names, and nothing sweeps `AtomicFile.isTemporaryName` files.)
    @Test
    func recoveryRemovesLeftoverTemporaries() throws {
        try withTemporaryDirectory { dir in
            let inputs = try LibraryInputs.sixDocuments(in: dir)
            let library = dir.appendingPathComponent("bibliotek")
            let ingest = try CLI.start(["ingest", inputs.path], library: library,
                                              logs: dir.appendingPathComponent("logg"), name: "ingest")
            #expect(kill(ingest, at: .writing(afterDocuments: 0), archive: library.appendingPathComponent("Arkiv")))
            _ = try CLI.list(library)
            let state = try ArchiveState.read(library: library)
            #expect(state.temporaries.isEmpty, "left behind: \(state.temporaries)")
        }
    }
}

/// What the crash tests saw, printed to the test log.
final class LeftoverLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ label: String, _ temporaries: [String]) {
        lock.lock()
        defer { lock.unlock() }
        let line = "\(label): \(temporaries.count) temporary file(s)\(temporaries.isEmpty ? "" : ": " + temporaries.joined(separator: ", "))"
        entries.append(line)
        print("[LibraryCrashTests] " + line)
    }

    func note(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        entries.append(line)
        print("[LibraryCrashTests] " + line)
    }
}
