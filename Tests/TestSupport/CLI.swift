import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the real `arkivator` executable, as a user would: the one command-line runner of every
/// test target (to the end with ``run(_:library:environment:)``, in the background with
/// ``start(_:library:logs:name:environment:)``).
public enum CLI {
    /// `$ARKIVATOR_BINARY` when set, else the one built beside this test binary (so a build under
    /// any scratch path tests its own program), else `.build/debug`, else `.build/release`.
    public static let executable: URL = {
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
        let debug = Fixtures.root.appendingPathComponent(".build/debug/arkivator")
        if FileManager.default.isExecutableFile(atPath: debug.path) { return debug }
        return Fixtures.root.appendingPathComponent(".build/release/arkivator")
    }()

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public struct NotJSON: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "not the JSON expected: \(text.prefix(200))" }
    }

    /// Norwegian messages, no colour, no key or library from the caller's environment; `extra`
    /// adds to it or (with nil) removes from it.
    public static func environment(_ extra: [String: String?] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "nb_NO.UTF-8"
        env["LC_ALL"] = nil
        env["LC_MESSAGES"] = nil
        env["NO_COLOR"] = "1"
        env["ARKIVATOR_KEY"] = nil
        env["ARKIVATOR_LIBRARY"] = nil
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs `arkivator ARGUMENTS [--library LIBRARY]` to the end, with no standard input.
    public static func run(_ arguments: [String], library: URL? = nil, environment extra: [String: String?] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + (library.map { ["--library", $0.path] } ?? [])
        process.environment = environment(extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error on its own thread, so neither pipe can fill up and block the child.
        let stderr = Collector(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: errors, as: UTF8.self))
    }

    /// Starts `arkivator ARGUMENTS --library LIBRARY` in the background, its output going to
    /// `LOGS/NAME.out` and `LOGS/NAME.err`.
    public static func start(_ arguments: [String], library: URL, logs: URL, name: String,
                             environment extra: [String: String?] = [:]) throws -> Background {
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let stdout = logs.appendingPathComponent("\(name).out"), stderr = logs.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--library", library.path]
        process.environment = environment(extra)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Background(process: process, stdoutURL: stdout, stderrURL: stderr)
    }

    /// Each line of standard output as a JSON object (`ingest --json`).
    public static func records(_ output: Output) throws -> [[String: Any]] {
        try output.lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotJSON(text: line)
            }
            return object
        }
    }

    /// The one JSON document printed on standard output (`list --json`, `show --json`).
    public static func json(_ output: Output) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    /// A running `arkivator` whose output goes to files.
    public struct Background {
        public let process: Process
        public let stdoutURL: URL
        public let stderrURL: URL

        public var isRunning: Bool { process.isRunning }
        public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
        /// Lines that report one document each (`✔`, `=`, `○`, `✘`).
        public var documentLines: Int {
            stdout.split(separator: "\n").filter { ["✔", "=", "○", "✘"].contains($0.first.map(String.init) ?? "") }.count
        }

        /// SIGKILL, as a power cut or `kill -9` would; waits until it is gone. False if it had already ended.
        @discardableResult
        public func kill() -> Bool {
            let wasRunning = process.isRunning
            if wasRunning { sendSignal(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return wasRunning && process.terminationReason == .uncaughtSignal
        }

        /// Its exit status, waiting at most `timeout` seconds (then it is killed and nil returned).
        public func wait(timeout: TimeInterval = 120) -> Int32? {
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

/// POSIX `kill(2)` (inside a type with a `kill()` of its own).
public func sendSignal(_ pid: Int32, _ signal: Int32) {
    _ = kill(pid, signal)
}

/// The bytes of a file handle, read to its end on a thread of their own.
private final class Collector: @unchecked Sendable {
    // Test support only: `data` is written once by the reader thread before `done` is signalled,
    // and read only after waiting for it.
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
