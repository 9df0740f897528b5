import ArkivatorLibrary
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `arkivator` executable for the library tests: `$ARKIVATOR_BINARY` when set, else the one
/// built beside this test binary (so a build under any scratch path tests its own program), else
/// the one ``CLI`` finds.
enum LibraryCLI {
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["ARKIVATOR_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("arkivator")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return CLI.executable
    }()

    /// Norwegian messages, no colour, no key or library from the caller's environment.
    static func environment(_ extra: [String: String?] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "nb_NO.UTF-8"
        env["NO_COLOR"] = "1"
        env["ARKIVATOR_KEY"] = nil
        env["ARKIVATOR_LIBRARY"] = nil
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs `arkivator ARGUMENTS --library LIBRARY` to the end.
    static func run(_ arguments: [String], library: URL?, environment extra: [String: String?] = [:]) throws -> CLI.Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + (library.map { ["--library", $0.path] } ?? [])
        process.environment = environment(extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error on another thread so neither pipe can fill up and block the child.
        let errorData = ErrorCollector(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorData.wait()
        process.waitUntilExit()
        return CLI.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Starts `arkivator` in the background, its output going to files in `logs`.
    static func start(_ arguments: [String], library: URL, logs: URL, name: String) throws -> Background {
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let stdout = logs.appendingPathComponent("\(name).out"), stderr = logs.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--library", library.path]
        process.environment = environment()
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Background(process: process, stdoutURL: stdout, stderrURL: stderr)
    }

    /// A JSON document printed on standard output.
    static func json(_ output: CLI.Output) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    /// `list --json` (or with more arguments) as objects.
    static func list(_ library: URL, _ arguments: [String] = []) throws -> [[String: Any]] {
        let output = try run(["list", "--json", "--limit", "1000"] + arguments, library: library)
        #expect(output.status == 0, "list: \(output.stderr)")
        return try #require(try json(output) as? [[String: Any]])
    }

    /// The stderr of a child, read on its own thread.
    final class ErrorCollector: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)
        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }
        func wait() -> Data {
            done.wait()
            return data
        }
    }

    /// A running `arkivator` whose output goes to files.
    struct Background {
        let process: Process
        let stdoutURL: URL
        let stderrURL: URL

        var isRunning: Bool { process.isRunning }
        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
        /// Lines that report one document each (`✔`, `=`, `○`, `✘`).
        var documentLines: Int {
            stdout.split(separator: "\n").filter { ["✔", "=", "○", "✘"].contains($0.first.map(String.init) ?? "") }.count
        }

        /// SIGKILL, as a power cut or `kill -9` would; waits until it is gone. False if it had already ended.
        @discardableResult
        func kill() -> Bool {
            let wasRunning = process.isRunning
            if wasRunning { sendSignal(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return wasRunning && process.terminationReason == .uncaughtSignal
        }

        func wait(timeout: TimeInterval = 120) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                kill()
                return nil
            }
            return process.terminationStatus
        }
    }
}

/// `kill(2)` (inside `Background`, `kill` is its own method).
func sendSignal(_ pid: Int32, _ signal: Int32) {
    _ = kill(pid, signal)
}

/// Test documents that are not in the fixtures' own set of SHA-256s.
enum LibraryInputs {
    /// Six documents (seven pages) in a new folder `dir/inn`: four fixtures and two copies with a
    /// few bytes appended after the image's end marker (decoders ignore them; the SHA-256 differs).
    static func sixDocuments(in dir: URL) throws -> URL {
        let folder = dir.appendingPathComponent("inn")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["clean.png", "photo.jpg", "skew.jpg", "twopage.tif"] {
            try FileManager.default.copyItem(at: Fixtures.url(name), to: folder.appendingPathComponent(name))
        }
        for (name, copy) in [("clean.png", "clean-kopi.png"), ("photo.jpg", "photo-kopi.jpg")] {
            var bytes = try Data(contentsOf: Fixtures.url(name))
            bytes.append(contentsOf: (0..<7).map { _ in UInt8.random(in: 0...255) })
            try bytes.write(to: folder.appendingPathComponent(copy))
        }
        return folder
    }
}

/// What the library database and the archive folder hold, read directly.
struct ArchiveState {
    /// Paths in `document_files`.
    var recorded: Set<String>
    var documents: Int
    var intents: Int
    /// Plain files under `<library>/Arkiv`, temporaries left out.
    var files: Set<String>
    /// `.arkivator-….tmp` files under `<library>/Arkiv`.
    var temporaries: [String]
    /// Any other hidden file under `<library>/Arkiv`.
    var otherHidden: [String]

    var missing: Set<String> { recorded.subtracting(files) }
    var orphans: Set<String> { files.subtracting(recorded) }

    static func read(library: URL) throws -> ArchiveState {
        let database = try Database(url: library.appendingPathComponent(Database.fileName))
        let recorded = Set(try database.rows("SELECT path FROM document_files").compactMap { $0[0].string }
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let documents = try database.firstRow("SELECT count(*) FROM documents")?[0].int ?? -1
        let intents = try database.firstRow("SELECT count(*) FROM filing_intents")?[0].int ?? -1
        var files: Set<String> = [], temporaries: [String] = [], hidden: [String] = []
        let archive = library.appendingPathComponent("Arkiv").standardizedFileURL
        if let walker = FileManager.default.enumerator(atPath: archive.path) {
            for case let relative as String in walker {
                let path = archive.appendingPathComponent(relative).path
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                let name = URL(fileURLWithPath: relative).lastPathComponent
                if name.hasPrefix(".arkivator-") && name.hasSuffix(".tmp") {
                    temporaries.append(relative)
                } else if name.hasPrefix(".") {
                    hidden.append(relative)
                    files.insert(path)
                } else {
                    files.insert(path)
                }
            }
        }
        return ArchiveState(recorded: recorded, documents: documents, intents: intents, files: files,
                            temporaries: temporaries.sorted(), otherHidden: hidden.sorted())
    }
}

/// Runs an outside program (python3, pdftotext) and returns its standard output.
enum OutsideTool {
    static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Every piece of text python-docx (via `scripts/read_docx.py`) finds in a .docx, joined.
    static func docxText(_ url: URL) throws -> String {
        let result = try run("python3", [Fixtures.root.appendingPathComponent("scripts/read_docx.py").path, url.path])
        #expect(result.status == 0, "read_docx.py failed on \(url.lastPathComponent)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let paragraphs = (object["paragraphs"] as? [String]) ?? []
        let custom = ((object["custom"] as? [String: Any]) ?? [:]).values.map { "\($0)" }
        return (paragraphs + custom + [object["header"] as? String ?? "", object["footer"] as? String ?? ""])
            .joined(separator: "\n")
    }
}
