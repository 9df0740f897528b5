import Foundation

/// Runs the real `arkivator` executable, as a user would: the one command-line runner of every
/// test target.
public enum CLI {
    /// The executable beside the test bundle (whatever scratch path built it), else
    /// `.build/debug`, else `.build/release`.
    public static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
            .appendingPathComponent("arkivator")
        let candidates = [besideTests, Fixtures.root.appendingPathComponent(".build/debug/arkivator"),
                          Fixtures.root.appendingPathComponent(".build/release/arkivator")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public struct NotJSON: Error, CustomStringConvertible {
        public let line: String
        public var description: String { "not a JSON object: \(line)" }
    }

    /// Runs `arkivator ARGUMENTS` in Norwegian (`LANG=nb_NO.UTF-8`) with no standard input;
    /// `environment` adds to or (with nil) removes from the test's own.
    public static func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "nb_NO.UTF-8"
        env["LC_ALL"] = nil
        env["LC_MESSAGES"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error on its own thread, so a full pipe on either side never stalls the other.
        let stderrData = LockedData()
        let stderrDone = DispatchSemaphore(value: 0)
        Thread {
            stderrData.set(err.fileHandleForReading.readDataToEndOfFile())
            stderrDone.signal()
        }.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        stderrDone.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderrData.get(), as: UTF8.self))
    }

    /// `arkivator ARGUMENTS --library LIBRARY`.
    public static func run(_ arguments: [String], library: URL, environment: [String: String?] = [:]) throws -> Output {
        try run(arguments + ["--library", library.path], environment: environment)
    }

    /// Each line of standard output as a JSON object (`ingest --json`).
    public static func records(_ output: Output) throws -> [[String: Any]] {
        try output.lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotJSON(line: line)
            }
            return object
        }
    }
}

/// Bytes handed from a reader thread.
private final class LockedData: @unchecked Sendable {
    // Test support only; the lock guards `data`.
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }

    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
