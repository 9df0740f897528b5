import Foundation
import Testing
@testable import ArkivatorSync
#if canImport(Glibc)
import Glibc
#endif

/// Child programs (the notify command, rclone) never hold the upload loop up: a program that
/// leaves something running in the background returns when it exits, and a time-out ends the
/// program's whole process group.
@Suite struct ChildProcessTests {
    @Test func aBackgroundProcessDoesNotHoldTheCallerUp() throws {
        let start = Date()
        let result = try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo varslet"], environment: ["PATH": "/usr/bin:/bin"],
                                          timeout: 20)
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 5, "returned after \(seconds) s")
        #expect(result.status == 0 && !result.timedOut)
        #expect(result.output.contains("varslet"))
    }

    @Test func aTimeOutEndsTheWholeGroup() throws {
        try withTemporaryFile { pidFile in
            let start = Date()
            let result = try ChildProcess.run("/bin/sh", ["-c", "sleep 60 & echo $! > \(pidFile); wait"],
                                              environment: ["PATH": "/usr/bin:/bin"], timeout: 1)
            #expect(Date().timeIntervalSince(start) < 10)
            #expect(result.timedOut && result.status != 0)
            let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(endsSoon(pid), "the background sleep (pid \(pid)) outlived the time-out")
        }
    }

    @Test func aGroupMemberThatIgnoresSIGTERMIsKilledToo() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-pid-\(UUID().uuidString)").path
        defer { unlink(pidFile) }
        // The shell dies on SIGTERM at the time-out; the background sleep ignores it.
        let result = try ChildProcess.run("/bin/sh", ["-c", "(trap '' TERM; exec sleep 60) & echo $! > \(pidFile); wait"],
                                          environment: ["PATH": "/usr/bin:/bin"], timeout: 1)
        #expect(result.timedOut)
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(endsSoon(pid), "the sleep that ignores SIGTERM (pid \(pid)) outlived the time-out")
    }

    @Test func exitCodesAndAMissingProgram() throws {
        #expect(try ChildProcess.run("/bin/sh", ["-c", "exit 3"], environment: [:], timeout: 5).status == 3)
        #expect(throws: SpawnError.self) {
            try ChildProcess.run("/no/such/program", [], environment: [:], timeout: 5)
        }
    }

    /// True when `pid` is gone (or a zombie waiting for its new parent to reap it) within 5 s.
    private func endsSoon(_ pid: Int32) -> Bool {
        for _ in 0..<100 {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            if state == nil || state == "Z" { return true }
            usleep(50_000)
        }
        return false
    }

    private func withTemporaryFile(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-pid-\(UUID().uuidString)").path
        defer { unlink(path) }
        try body(path)
    }
}
