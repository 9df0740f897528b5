import ArkivatorClassify
import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A temporary folder with a library in it (`bibliotek/`), removed by ``remove()``.
struct Sandbox {
    let directory: URL
    let library: Library

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        library = try Library.open(LibraryLocation(directory: directory.appendingPathComponent("bibliotek")), environment: [:])
    }

    /// A new empty folder in the sandbox.
    func folder(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Sets the destination, then files `count` documents (a `.docx`, a page image and a PDF each,
    /// with random bytes) through ``Library/file(_:write:)``, so each gets its upload job.
    @discardableResult
    func fileDocuments(_ count: Int, destination: String, person: String = "Kari Nordmann") throws -> [LibraryDocument] {
        try library.setSetting(.destination, destination)
        return try (1...count).map { number in
            let title = "2024-03-\(String(format: "%02d", number)) Innkalling Ortopedisk poliklinikk æøå \(UUID().uuidString.prefix(4))"
            let document = LibraryDocument(
                sha256: Self.randomHex(64), sourceName: "brev\(number).jpg", title: title, docType: .innkalling,
                person: person, familyMember: person, institution: "St. Olavs hospital",
                documentDate: "2024-03-\(String(format: "%02d", number))", text: "Innkalling til time ved Ortopedisk poliklinikk.")
            let folder = library.defaultArchiveRoot.appendingPathComponent(person)
            let files = [
                (ArchivedFile.Kind.docx, 0, folder.appendingPathComponent("Dokumenter/\(title).docx"), 3_000 + number * 17),
                (.image, 1, folder.appendingPathComponent("Bilder/\(title).jpeg"), 40_000 + number),
                (.pdf, 0, folder.appendingPathComponent("Bilder/\(title).pdf"), 45_000 + number * 3),
            ]
            return try library.documents.file(document) { reservation in
                try reservation.reserve(files.map(\.2))
                for (_, _, url, size) in files {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Self.randomBytes(size).write(to: url)
                }
                return files.map { ArchivedFile(kind: $0.0, page: $0.1, path: $0.2.path) }
            }
        }
    }

    static func randomHex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement() ?? "0" })
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The files of every job's document, with their place below the archive root.
    func uploadFiles() throws -> [UploadFile] {
        try library.uploads.uploadJobs().flatMap { try library.uploads.uploadFiles(of: $0) }
    }

    /// Expects every file of every document under `root` with the same bytes.
    func expectUploaded(to root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = try uploadFiles()
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for file in files {
            let copy = root.appendingPathComponent(file.relativePath)
            #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: file.path),
                    "\(file.relativePath) at \(root.path)", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Servers

typealias Server = ChildServer

extension ChildServer {
    /// `rclone serve webdav --addr 127.0.0.1:PORT DIR` (with a login when `user` is given), up.
    static func webdav(serving directory: URL, user: String? = nil, password: String? = nil, log: URL) throws -> Server {
        let port = try freePort()
        var arguments = ["serve", "webdav", "--addr", "127.0.0.1:\(port)", directory.path]
        if let user, let password { arguments += ["--user", user, "--pass", password] }
        let server = try start(try #require(rclone, "rclone is not installed (apt-get install rclone)"), arguments, port: port, log: log)
        try server.waitUntilListening()
        return server
    }

    /// `scripts/test/webdav_faults.py` on a new port in front of `target`.
    static func faults(before target: Server, _ arguments: [String], log: URL, waitUntilUp: Bool = true) throws -> Server {
        let port = try freePort()
        let script = Fixtures.root.appendingPathComponent("scripts/test/webdav_faults.py").path
        let server = try start("/usr/bin/env", ["python3", script, "--port", "\(port)", "--target", target.url] + arguments,
                               port: port, log: log)
        if waitUntilUp { try server.waitUntilListening() }
        return server
    }

    static var rclone: String? {
        ["/usr/bin/rclone", "/usr/local/bin/rclone"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A notify command for tests: a script that writes its argument to `output` (appending a line).
func notifyScript(in sandbox: Sandbox, output: URL) throws -> String {
    let script = sandbox.directory.appendingPathComponent("notify.sh")
    try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(output.path)'\n".write(to: script, atomically: true, encoding: .utf8)
    chmod(script.path, 0o755)
    return script.path
}

/// The lines the notify script wrote.
func notifications(_ output: URL) -> [String] {
    (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
}
