import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A watched folder and a library in a temporary folder, and `arkivator watch` run on them.
struct WatchHarness {
    let dir: URL
    /// The watched folder.
    let inbox: URL
    let library: URL
    let logs: URL

    init(_ dir: URL) throws {
        self.dir = dir
        inbox = dir.appendingPathComponent("Skannet")
        library = dir.appendingPathComponent("bibliotek")
        logs = dir.appendingPathComponent("logg")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    }

    var processed: URL { inbox.appendingPathComponent("processed") }
    var failed: URL { inbox.appendingPathComponent("failed") }

    /// Starts `arkivator watch INBOX` (quick settle and rescan unless `arguments` say otherwise).
    func start(_ arguments: [String] = [], name: String = "watch") throws -> CLI.Background {
        var all = ["watch", inbox.path]
        if !arguments.contains("--settle") { all += ["--settle", "0.5"] }
        if !arguments.contains("--rescan") { all += ["--rescan", "2"] }
        return try CLI.start(all + arguments, library: library, logs: logs, name: name)
    }

    /// Copies a fixture (or any file) into the watched folder (or a subfolder of it), optionally
    /// with a few random bytes after the image's end (a new SHA-256, the same picture).
    @discardableResult
    func drop(_ source: URL, as name: String? = nil, extraBytes: Int = 0) throws -> URL {
        let target = inbox.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: source)
        if extraBytes > 0 { bytes.append(contentsOf: (0..<extraBytes).map { _ in UInt8.random(in: 0...255) }) }
        // Written beside the folder and moved in, as a scanner or `mv` would: one event, whole file.
        let staging = dir.appendingPathComponent(".staging-\(UUID().uuidString)")
        try bytes.write(to: staging)
        try FileManager.default.moveItem(at: staging, to: target)
        return target
    }

    /// Files below the watched folder outside `processed/` and `failed/` (relative paths).
    func waiting() -> [String] {
        files(under: inbox).filter { !$0.hasPrefix("processed/") && !$0.hasPrefix("failed/") }
    }

    /// Every plain file below `folder`, relative to it, sorted.
    func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var result: [String] = []
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                result.append(path)
            }
        }
        return result.sorted()
    }

    /// The journal: SHA-256 → stage (and whether a retry is set).
    func journal() throws -> [String: (stage: String, retry: Bool, attempts: Int)] {
        let url = library.appendingPathComponent(Database.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let database = try Database(url: url)
        var result: [String: (String, Bool, Int)] = [:]
        for row in try database.rows("SELECT sha256, stage, next_attempt_at, attempts FROM journal") {
            result[row[0].string ?? ""] = (row[1].string ?? "", !row[2].isNull, row[3].int ?? 0)
        }
        return result
    }

    /// How many upload jobs are in each state.
    func uploadStates() throws -> [String: Int] {
        let url = library.appendingPathComponent(Database.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let database = try Database(url: url)
        var result: [String: Int] = [:]
        for row in try database.rows("SELECT state, count(*) FROM upload_jobs GROUP BY state") {
            result[row[0].string ?? ""] = row[1].int ?? 0
        }
        return result
    }

    /// Documents in the library and distinct SHA-256s among them.
    func documentCounts() throws -> (documents: Int, distinct: Int) {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        let row = try database.firstRow("SELECT count(*), count(DISTINCT sha256) FROM documents")
        return (row?[0].int ?? -1, row?[1].int ?? -1)
    }

    /// `PRAGMA integrity_check` on the library database.
    func integrity() throws -> String {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        return try database.rows("PRAGMA integrity_check").compactMap { $0[0].string }.joined(separator: "; ")
    }
}

/// Waits until `condition` holds (checked every 50 ms; an error counts as not yet); false after
/// `timeout` seconds.
@discardableResult
func eventually(timeout: TimeInterval, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? condition()) == true { return true }
        usleep(50_000)
    }
    return (try? condition()) == true
}

extension CLI.Background {
    /// Document lines that start with `mark` (`✔`, `=`, `✘`).
    func lines(_ mark: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(mark) }
    }

    /// SIGTERM, then the exit status (nil if it did not end within `timeout`; it is killed then).
    func terminate(timeout: TimeInterval = 60) -> Int32? {
        sendSignal(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            print("[WatchTests] still running \(Int(timeout)) s after SIGTERM; its messages:\n\(stderr)")
        }
        return wait(timeout: 1)
    }
}
