import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct UploadCLITests {
    @Test func configQueueAndUpload() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let library = sandbox.library.location.directory
        let copy = try sandbox.folder("Kopi")

        var output = try CLI.run(["config", "set", "destination", "ftp://server/x"], library: library)
        #expect(output.status != 0)
        #expect(output.stderr.contains("folder:/sti/til/mappe"), "\(output.stderr)")
        output = try CLI.run(["config", "set", "farge", "blå"], library: library)
        #expect(output.status != 0)
        #expect(output.stderr.contains("destination, notify"), "\(output.stderr)")

        // A destination that cannot be reached now is refused, with a sentence.
        output = try CLI.run(["config", "set", "destination", "folder:\(copy.path)/finnes-ikke"], library: library)
        #expect(output.status == 1)
        #expect(output.stderr.contains("finnes ikke. Koble til disken"), "\(output.stderr)")
        let port = try ChildServer.freePort()
        output = try CLI.run(["config", "set", "destination", "webdav:http://127.0.0.1:\(port)/dav/Arkiv"], library: library)
        #expect(output.status == 1)
        #expect(output.stderr.contains("Får ikke kontakt med 127.0.0.1:\(port)"), "\(output.stderr)")
        #expect(try sandbox.library.setting(.destination) == nil)

        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        output = try CLI.run(["config", "set", "destination", "webdav:\(server.url)/"], library: library)
        server.stop()
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("webdav.secret"), "says where the login goes: \(output.stdout)")
        output = try CLI.run(["config", "set", "destination", "folder:\(copy.path)"], library: library)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("destination = folder:\(copy.path)"))
        output = try CLI.run(["config", "get", "destination"], library: library)
        #expect(output.stdout == "folder:\(copy.path)\n")
        output = try CLI.run(["config", "get", "notify"], library: library)
        #expect(output.status == 1, "not set")

        // Two documents filed with that destination get their jobs.
        try sandbox.fileDocuments(2, destination: "folder:\(copy.path)")
        output = try CLI.run(["queue", "--json"], library: library)
        #expect(output.status == 0, "\(output.stderr)")
        let jobs = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(jobs.count == 2)
        #expect(jobs.allSatisfy { $0["state"] as? String == "queued" && $0["attempts"] as? Int == 0 })
        #expect(Set(jobs.compactMap { $0["destination"] as? String }) == ["folder:\(copy.path)"])
        output = try CLI.run(["queue"], library: library)
        #expect(output.stdout.contains("i kø"), "\(output.stdout)")

        output = try CLI.run(["upload"], library: library)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.components(separatedBy: "✓").count == 3, "\(output.stdout)")
        try sandbox.expectUploaded(to: copy)
        output = try CLI.run(["queue"], library: library)
        #expect(output.stdout.contains("Ingenting venter: 2 dokumenter er lastet opp."), "\(output.stdout)")
        output = try CLI.run(["upload"], library: library)
        #expect(output.status == 0)
        #expect(output.stdout.contains("Ingenting å laste opp."))

        output = try CLI.run(["queue", "retry", "77"], library: library)
        #expect(output.status == 1)
        #expect(output.stderr.contains("Fant ingen opplastingsjobb 77"), "\(output.stderr)")
        output = try CLI.run(["queue", "retry"], library: library)
        #expect(output.status != 0, "an id or --all")

        // A destination that cannot be reached: the upload says so and exits 1.
        let away = sandbox.directory.appendingPathComponent("Frakoblet")
        try sandbox.fileDocuments(1, destination: "folder:\(away.path)", person: "Ola Nordmann")
        output = try CLI.run(["upload"], library: library)
        #expect(output.status == 1)
        #expect(output.stdout.contains("Er disken koblet til?"), "\(output.stdout)")
        output = try CLI.run(["queue", "retry", "--all"], library: library)
        // The new destination took every letter in the archive, not only the new one.
        #expect(output.stdout.contains("3 jobber står i køen igjen."), "\(output.stdout)")

        output = try CLI.run(["config", "unset", "destination"], library: library)
        #expect(output.status == 0)
        #expect(try sandbox.library.setting(.destination) == nil)
    }
}
