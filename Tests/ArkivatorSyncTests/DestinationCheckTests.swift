import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorSync
import Foundation
import TestSupport
import Testing

/// Checking a destination before it is saved, against the real thing: folders, `rclone serve
/// webdav` on 127.0.0.1 with a login, a port nobody listens on, and rclone itself.
@Suite struct DestinationCheckTests {
    func reason(_ destination: Destination, _ sandbox: Sandbox, environment: [String: String] = [:]) async -> UploadFailure.Reason? {
        do throws(UploadFailure) {
            try await destination.check(library: sandbox.library.location, environment: environment, timeout: 5)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func aFolderMustBeThereAndTakeAFile() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        #expect(await reason(.folder(copy.path), sandbox) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.path).isEmpty, "the test file is removed again")
        #expect(await reason(.folder(copy.appendingPathComponent("mangler").path), sandbox) == .destinationMissing)
        let file = sandbox.directory.appendingPathComponent("fil")
        try Data("x".utf8).write(to: file)
        #expect(await reason(.folder(file.path), sandbox) == .destinationMissing, "a file is no folder")
    }

    @Test func aWebDAVFolderMustAnswerWithTheLogin() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        try FileManager.default.createDirectory(at: served.appendingPathComponent("Arkiv"), withIntermediateDirectories: true)
        let server = try Server.webdav(serving: served, user: "kari", password: "hemmelig",
                                       log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        let folder = Destination.webdav(try #require(URL(string: "\(server.url)/Arkiv")))
        let right = ["ARKIVATOR_WEBDAV_USER": "kari", "ARKIVATOR_WEBDAV_PASSWORD": "hemmelig"]
        #expect(await reason(folder, sandbox, environment: right) == nil)
        #expect(await reason(folder, sandbox, environment: ["ARKIVATOR_WEBDAV_USER": "kari", "ARKIVATOR_WEBDAV_PASSWORD": "feil"]) == .login)
        #expect(await reason(folder, sandbox) == .login, "no login at all")
        let missing = Destination.webdav(try #require(URL(string: "\(server.url)/Finnes/Ikke")))
        #expect(await reason(missing, sandbox, environment: right) == .refused)

        let port = try ChildServer.freePort()
        let down = Destination.webdav(try #require(URL(string: "http://127.0.0.1:\(port)/Arkiv")))
        #expect(await reason(down, sandbox) == .unreachable)
    }

    @Test func rcloneMustBeThereAndListTheRemote() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let target = try sandbox.folder("rclone-kopi")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        #expect(await reason(.rclone(":local:\(target.path)"), sandbox, environment: ["PATH": path]) == nil)
        #expect(await reason(.rclone(":local:\(target.path)/ny/mappe"), sandbox, environment: ["PATH": path]) == nil,
                "a folder rclone will make is fine")
        #expect(await reason(.rclone("finnesikke:Arkiv"), sandbox,
                             environment: ["PATH": path, "RCLONE_CONFIG": sandbox.directory.appendingPathComponent("tom.conf").path])
                == .other)
        #expect(await reason(.rclone(":local:\(target.path)"), sandbox, environment: ["PATH": "/finnes/ikke"]) == .other)
    }
}
