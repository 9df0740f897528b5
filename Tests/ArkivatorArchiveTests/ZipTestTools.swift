import Foundation
import TestSupport

/// Runs outside programs (python3, soffice, pdftotext) for the zip and docx tests.
enum ExternalTool {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The repository root, found from this file's path.
    static let root = Fixtures.root

    /// The full path of `name` on `PATH`, or nil.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `name` (looked up on `PATH`) with `arguments`; stdout and stderr go through files, so a
    /// chatty program never blocks on a full pipe. Killed after `timeout` seconds.
    static func run(_ name: String, _ arguments: [String], timeout: Double = 120,
                    environment: [String: String]? = nil) throws -> Result {
        guard let executable = which(name) else {
            throw Failure(description: "\(name) is not on PATH")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil) else {
            throw Failure(description: "cannot create output files in \(folder.path)")
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let start = Date()
        try process.run()
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                process.terminate()
                process.waitUntilExit()
                throw Failure(description: "\(name) \(arguments.joined(separator: " ")) took longer than \(Int(timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr, seconds: seconds)
    }

    /// Runs a Python snippet (`python3 -c`) and parses what it prints as JSON.
    static func python(_ code: String, _ arguments: [String]) throws -> Any {
        try requirePython()
        let result = try run("python3", ["-c", code] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "python3 failed (\(result.status)): \(result.stderr)")
        }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// Fails with a clear message when python3 is missing: the tests need it (`make test` installs it).
    static func requirePython(docx: Bool = false) throws {
        guard which("python3") != nil else {
            throw Failure(description: "python3 is missing: run `make test` (it installs python3 and python-docx)")
        }
        if docx {
            let check = try run("python3", ["-c", "import docx"])
            guard check.status == 0 else {
                throw Failure(description: "python-docx is missing: run `make test` or `pip install python-docx` (\(check.stderr))")
            }
        }
    }
}
