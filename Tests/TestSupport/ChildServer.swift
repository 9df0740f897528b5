import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child program a test started (rclone serve, a fault proxy, a fake LLM server); stopped by ``stop()``.
public final class ChildServer: @unchecked Sendable {
    public let process: Process
    public let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    public static func start(_ executable: String, _ arguments: [String], port: Int, log: URL) throws -> ChildServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return ChildServer(process: process, port: port)
    }

    public func waitUntilListening(timeout: TimeInterval = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw ServerFailure(message: "nothing listens on \(port)")
    }

    /// Stops the program: SIGTERM, then SIGKILL if it is still there after a second.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<20 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public struct ServerFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Ports this test process has handed out: the kernel may offer a port again as soon as the
    /// probe below closes it, and two servers started at once on one port would answer each
    /// other's tests.
    private static let handedOut = NSLock()
    nonisolated(unsafe) private static var handed: Set<Int> = []

    /// A port nothing listens on now (the kernel's choice), never one handed out before in this process.
    public static func freePort() throws -> Int {
        for _ in 0..<50 {
            let port = try probedPort()
            handedOut.lock()
            let fresh = handed.insert(port).inserted
            handedOut.unlock()
            if fresh { return port }
        }
        throw ServerFailure(message: "no fresh port")
    }

    private static func probedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerFailure(message: "socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw ServerFailure(message: "bind") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}


extension ChildServer {
    /// `python3 scripts/test/NAME --port PORT ARGUMENTS…` (a test helper server) on a free port, once it listens.
    public static func script(_ name: String, _ arguments: [String], log: URL) throws -> ChildServer {
        let port = try freePort()
        let script = Fixtures.root.appendingPathComponent("scripts/test/\(name)").path
        let server = try start("/usr/bin/env", ["python3", script, "--port", "\(port)"] + arguments, port: port, log: log)
        try server.waitUntilListening()
        return server
    }
}

/// The local language model the LLM tests use: `ARKIVATOR_LLM_URL` when set (`make test` starts
/// the server first), else `scripts/dev/llm.py up`, which starts it (and on a first run downloads it).
public enum LocalModel {
    public static func url() throws -> String {
        if let url = ProcessInfo.processInfo.environment["ARKIVATOR_LLM_URL"], !url.isEmpty { return url }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Fixtures.root.appendingPathComponent("scripts/dev/llm.py").path, "up"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let url = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, url.hasPrefix("http") else {
            throw ChildServer.ServerFailure(message: "scripts/dev/llm.py up failed (\(process.terminationStatus)); run make llm-up")
        }
        return url
    }
}
