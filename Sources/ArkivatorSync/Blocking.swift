import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work (file copies, SQLite, child processes) on Dispatch threads, off Swift's
/// cooperative pool, so a slow disk or a waiting lock never holds up other tasks.
enum Blocking {
    private static let queue = DispatchQueue(label: "arkivator.sync.blocking", qos: .utility, attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// POSIX calls whose names clash with members (`close()` of a destination).
enum Posix {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// A child program's exit and what it printed.
struct ProcessOutput: Sendable {
    var status: Int32
    /// Standard output and standard error together.
    var output: String
    var timedOut: Bool
}

/// Runs child programs (rclone, the notify command), blocking the calling Dispatch thread.
enum ChildProcess {
    /// The program's path: `name` when it holds a slash, else the first match in `PATH`.
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` and waits (at most `timeout` seconds, then it is
    /// terminated); output beyond 1 MiB is dropped.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let box = ProcessBox(process)
        let timer = DispatchWorkItem { box.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        var data = Data()
        let handle = pipe.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            if data.count < 1 << 20 { data.append(chunk) }
        }
        process.waitUntilExit()
        timer.cancel()
        return ProcessOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                             timedOut: box.terminated)
    }
}

/// Lets the time-out timer stop the process from another thread.
private final class ProcessBox: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var wasTerminated = false

    init(_ process: Process) { self.process = process }

    /// SIGTERM, and SIGKILL five seconds later if it is still running (a child may have been
    /// started with SIGTERM blocked: Dispatch's threads block signals, and the mask is inherited).
    func terminate() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        wasTerminated = true
        process.terminate()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { [self] in
            if self.isRunning { kill(pid, SIGKILL) }
        }
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return process.isRunning
    }

    var terminated: Bool {
        lock.lock()
        defer { lock.unlock() }
        return wasTerminated
    }
}
