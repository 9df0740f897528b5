import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorSync
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The kind of ``UploadFailure`` that `body` throws (nil: none; other errors are recorded as issues).
func failureKind(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> UploadFailure.Kind? {
    do {
        try body()
        return nil
    } catch let failure as UploadFailure {
        return failure.kind
    } catch {
        Issue.record("expected an UploadFailure, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite struct UploadDestinationTests {
    @Test func destinationsAreParsed() throws {
        #expect(try Destination.parse("folder:/media/kopi/Arkiv/") == .folder("/media/kopi/Arkiv"))
        #expect(try Destination.parse("folder:kopi", currentDirectory: "/home/kari") == .folder("/home/kari/kopi"))
        #expect(try Destination.parse("folder:~/Kopi", home: "/home/kari") == .folder("/home/kari/Kopi"))
        #expect(try Destination.parse("  webdav:https://sky.example.no/remote.php/dav/files/kari/Arkiv ").description
                == "webdav:https://sky.example.no/remote.php/dav/files/kari/Arkiv")
        #expect(try Destination.parse("rclone:minsky:Arkiv/Familie") == .rclone("minsky:Arkiv/Familie"))
        #expect(try Destination.parse("rclone::webdav,url='http://127.0.0.1:8080':Arkiv") == .rclone(":webdav,url='http://127.0.0.1:8080':Arkiv"))
        #expect(try Destination.parse("rclone::local:/mnt/kopi") == .rclone(":local:/mnt/kopi"))
        #expect(try Destination.parse("webdav:http://127.0.0.1:8080/").displayName == "127.0.0.1:8080")

        for bad in ["", "folder:", "folder:/", "/media/kopi", "ftp://server/x", "webdav:", "webdav:ftp://server/x",
                    "webdav:https:///nohost", "webdav:https://server/x?y=1", "rclone:", "rclone:nocolon", "rclone:-x:y",
                    "skydrive:x"] {
            #expect(failureKind { _ = try Destination.parse(bad) } == .badDestination, "\(bad)")
        }
        do {
            _ = try Destination.parse("ftp://server/x")
        } catch {
            #expect(error.userMessage.norwegian.contains("folder:/sti/til/mappe"))
            #expect(error.userMessage.english.contains("webdav:https://server/path"))
        }
        do {
            _ = try Destination.parse("webdav:https://kari:hemmelig@sky.example.no/dav")
            Issue.record("a password in the URL must be refused")
        } catch {
            #expect(error.kind == .badDestination)
            #expect(error.userMessage.norwegian.contains("ARKIVATOR_WEBDAV_USER"))
        }
    }

    @Test func webdavLoginComesFromTheEnvironmentOrAPrivateFile() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let location = sandbox.library.location
        #expect(try WebDAVCredentials.load(library: location, environment: [:]) == nil)
        #expect(try WebDAVCredentials.load(library: location, environment: ["ARKIVATOR_WEBDAV_USER": "kari", "ARKIVATOR_WEBDAV_PASSWORD": "pw"])
                == WebDAVCredentials(user: "kari", password: "pw"))

        let secret = WebDAVCredentials.secretsFile(library: location)
        try "kari:hemme:lig\n".write(to: secret, atomically: true, encoding: .utf8)
        chmod(secret.path, 0o644)
        do {
            _ = try WebDAVCredentials.load(library: location, environment: [:])
            Issue.record("a secrets file others can read must be refused")
        } catch {
            #expect(error.kind == .credentials)
            #expect(error.userMessage.norwegian.contains("chmod 600 \(secret.path)"))
            #expect(error.userMessage.english.contains("can be read by others"))
        }
        chmod(secret.path, 0o600)
        #expect(try WebDAVCredentials.load(library: location, environment: [:]) == WebDAVCredentials(user: "kari", password: "hemme:lig"))
        // The environment wins over the file.
        #expect(try WebDAVCredentials.load(library: location, environment: ["ARKIVATOR_WEBDAV_USER": "ola"])?.user == "ola")

        try "bare-et-ord\n".write(to: secret, atomically: true, encoding: .utf8)
        chmod(secret.path, 0o600)
        #expect(failureKind { _ = try WebDAVCredentials.load(library: location, environment: [:]) } == .credentials)
    }

    @Test func rcloneExitsAndMessagesAreClassified() {
        func kind(_ status: Int32, _ output: String) -> UploadFailure.Kind {
            RcloneDestination.failure(status: status, output: output, target: "sky:Arkiv", file: "Kari/x.docx").kind
        }
        // A port that holds "401" is not a refused login.
        #expect(kind(5, "ERROR : Attempt 1/1 failed: dial tcp 127.0.0.1:40123: connect: connection refused") == .transient)
        #expect(kind(2, "ERROR : x.docx: Failed to copy: 401 Unauthorized") == .authentication)
        #expect(kind(7, "ERROR : x.docx: Failed to copy: googleapi: Error 403: The user's Drive storage quota has been exceeded") == .full)
        #expect(kind(2, "ERROR : Failed to copy: 507 Insufficient Storage") == .full)
        #expect(kind(1, "Failed to create file system for destination \"nosuch:\": didn't find section in config file") == .tool)
        #expect(kind(1, "Error: unknown flag: --bogus") == .tool)
        #expect(kind(5, "ERROR : temporary error") == .transient)
        #expect(kind(2, "ERROR : something odd") == .transient)
        #expect(kind(6, "ERROR : no retry") == .refused)
        #expect(RcloneDestination(target: "sky:").remotePath("Kari/x.docx") == "sky:Kari/x.docx")
        #expect(RcloneDestination(target: "sky:Arkiv").remotePath("Kari/x.docx") == "sky:Arkiv/Kari/x.docx")
        #expect(RcloneDestination.lastError("2026/11/22 10:02:28 ERROR : Attempt 1/1 failed with 1 errors and: boom\n")
                == "Attempt 1/1 failed with 1 errors and: boom")
    }

    @Test func folderDestinationCopiesAtomicallyAndSkipsTheSameBytes() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let source = sandbox.directory.appendingPathComponent("kilde.docx")
        try Sandbox.randomBytes(70_000).write(to: source)
        let root = try sandbox.folder("Kopi")
        let destination = FolderDestination(root: root)
        let file = UploadFile(path: source.path, relativePath: "Kari Nordmann/Dokumenter/brev æøå.docx")
        let target = root.appendingPathComponent(file.relativePath)

        #expect(try await destination.upload(file) == .uploaded)
        #expect(FileManager.default.contents(atPath: target.path) == FileManager.default.contents(atPath: source.path))
        #expect(try await destination.upload(file) == .unchanged)

        // Same size, other bytes: copied again.
        var changed = try Data(contentsOf: target)
        changed[100] ^= 0xFF
        try changed.write(to: target)
        #expect(try await destination.upload(file) == .uploaded)
        #expect(FileManager.default.contents(atPath: target.path) == FileManager.default.contents(atPath: source.path))

        // A copy cut off by a crash left its temporary file: the next pass's copy into that folder removes it.
        let leftover = target.deletingLastPathComponent().appendingPathComponent(".arkivator-\(UUID().uuidString).tmp")
        try Data("halvt kopiert".utf8).write(to: leftover)
        changed[100] ^= 0xFF
        changed[101] ^= 0xFF
        try changed.write(to: target)
        #expect(try await FolderDestination(root: root).upload(file) == .uploaded)

        // No temporary files are left, folders are private.
        let names = try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)
        #expect(names == ["brev æøå.docx"])
        let mode = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("Kari Nordmann").path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        // A root that is not there (a disk not connected) is not made; a missing source gives up; `..` is refused.
        let away = FolderDestination(root: sandbox.directory.appendingPathComponent("Frakoblet"))
        await #expect(throws: UploadFailure.self) { try await away.upload(file) }
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("Frakoblet").path))
        do {
            _ = try await away.upload(file)
        } catch let failure as UploadFailure {
            #expect(failure.kind == .transient)
        }
        do {
            _ = try await destination.upload(UploadFile(path: source.path + ".borte", relativePath: "Kari/x.docx"))
            Issue.record("a missing file must fail")
        } catch let failure as UploadFailure {
            #expect(failure.kind == .missingFile)
        }
        do {
            _ = try await destination.upload(UploadFile(path: source.path, relativePath: "../utenfor.docx"))
            Issue.record("a path out of the folder must be refused")
        } catch let failure as UploadFailure {
            #expect(failure.kind == .refused)
        }
    }
}
