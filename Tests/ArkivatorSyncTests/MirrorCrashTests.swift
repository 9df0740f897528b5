import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The mirror survives crashes and a server that goes away: `arkivator sync` is killed with
/// SIGKILL 30 times at random moments while 20 letters are copied to a real WebDAV server and then
/// corrected, redacted, deleted and purged, and the server is stopped three times. Afterwards one
/// `sync` brings the destination exactly in line: no file lost, none twice (no `(2)` copies, no
/// leftovers), none stale, no job left failed, no fødselsnummer of a redacted letter left there.
@Suite(.serialized) struct MirrorCrashTests {
    @Test func killedThirtyTimesAndTheServerDownThreeTimesTheDestinationEndsExactlyRight() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let library = sandbox.library.location.directory
        let (ids, numbers) = try MirrorCLITests.fileTwentyLetters(sandbox)
        var output: CLI.Output

        let served = try sandbox.folder("served")
        let port = try Server.freePort()
        let log = sandbox.directory.appendingPathComponent("rclone.log")
        var server = try Self.webdav(served, port: port, log: log)
        defer { server.stop() }
        output = try CLI.run(["config", "set", "destination", "webdav:\(server.url)/"], library: library)
        #expect(output.status == 0, "\(output.stderr)")

        // How long the server is away each time: 3 s here; ARKIVATOR_TEST_OUTAGE=30 runs it as the issue measures it.
        let outage = ProcessInfo.processInfo.environment["ARKIVATOR_TEST_OUTAGE"].flatMap(Double.init) ?? 3
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        let logs = sandbox.directory.appendingPathComponent("logg")
        func killedRuns(_ count: Int) throws {
            for round in 0..<count {
                if round == count / 2 {
                    // The server goes away for a while, and comes back on the same address.
                    server.stop()
                    let away = try CLI.start(["sync"], library: library, logs: logs, name: "borte\(kills)")
                    usleep(UInt32(outage * 1_000_000))
                    away.kill()
                    server = try Self.webdav(served, port: port, log: log)
                }
                let run = try CLI.start(["sync"], library: library, logs: logs, name: "sync\(kills)")
                usleep(UInt32.random(in: 50_000...600_000, using: &generator))
                run.kill()
                kills += 1
            }
        }
        try killedRuns(10)
        try killedRuns(10)

        // Corrections, redactions, deletions and a purge, then more crashes.
        for (arguments, id) in [(["--person", "Eivind Bøe"], ids[2]), (["--date", "2024-03-26"], ids[3]),
                                (["--title", "Kontrolltime hos hudlegen"], ids[4])] {
            output = try CLI.run(["edit", id] + arguments, library: library)
            #expect(output.status == 0, "\(output.stderr)")
        }
        for id in ids[0..<2] {
            output = try CLI.run(["redact", id], library: library)
            #expect(output.status == 0, "\(output.stderr)")
        }
        for id in ids[10..<13] { _ = try CLI.run(["delete", id], library: library) }
        _ = try CLI.run(["delete", ids[13], "--purge"], library: library)
        try killedRuns(10)
        #expect(kills == 30)

        output = try CLI.run(["sync"], library: library)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        output = try CLI.run(["sync", "--check", "--json"], library: library)
        let after = try #require(try CLI.json(output) as? [String: Any])
        #expect(after["inLine"] as? Bool == true && after["missing"] as? Int == 0 && after["stale"] as? Int == 0
                && after["extra"] as? Int == 0 && after["unknown"] as? Int == 0, "\(after)")
        let there = try MirrorCLITests.files(in: served)
        #expect(there.count == after["files"] as? Int, "nothing lost, nothing twice: \(there)")
        #expect(!there.contains { $0.contains(" (2)") || $0.hasSuffix(".tmp") || $0.contains("/.") }, "\(there)")
        output = try CLI.run(["queue", "--all", "--json"], library: library)
        let jobs = try #require(try CLI.json(output) as? [[String: Any]])
        #expect(jobs.allSatisfy { $0["state"] as? String == "done" }, "\(jobs.map { $0["state"] ?? "" })")
        for path in there {
            let text = try MirrorCLITests.readable(served.appendingPathComponent(path))
            for number in numbers { #expect(!MirrorCLITests.holds(text, number), "\(path) holds \(number)") }
        }
    }

    static func webdav(_ folder: URL, port: Int, log: URL) throws -> Server {
        let rclone = try #require(Server.rclone, "rclone is not installed (apt-get install rclone)")
        let server = try Server.start(rclone, ["serve", "webdav", "--addr", "127.0.0.1:\(port)", folder.path], port: port, log: log)
        try server.waitUntilListening()
        return server
    }
}
