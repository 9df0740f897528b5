import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `arkivator config` and `arkivator serve` over the one assembly: settings checked before they
/// are stored, and the upload worker running beside the web app.
@Suite(.serialized) struct ConfigCLITests {
    @Test func theLanguageModelIsNotSwitchedOnWithNoneSetUp() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            var output = try CLI.run(["config", "set", "llm.enabled", "true"], library: library)
            #expect(output.status == 1)
            #expect(output.stderr.contains("Ingen språkmodell er satt opp"), "\(output.stderr)")
            #expect(output.stderr.contains("arkivator config set llm.url"), "says what to run: \(output.stderr)")
            #expect(try CLI.run(["config", "get", "llm.enabled"], library: library).status == 1, "not stored")

            #expect(try CLI.run(["config", "set", "llm.url", "http://127.0.0.1:8080"], library: library).status == 0)
            output = try CLI.run(["config", "set", "llm.enabled", "ja"], library: library)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("llm.enabled = true"))
            output = try CLI.run(["config", "unset", "llm.url"], library: library)
            #expect(output.status == 1)
            #expect(output.stderr.contains("arkivator config set llm.enabled false"), "\(output.stderr)")
            #expect(try CLI.run(["config", "set", "llm.enabled", "false"], library: library).status == 0)
            output = try CLI.run(["config", "unset", "llm.url"], library: library)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("Fjernet llm.url"))
        }
    }

    @Test func serveUploadsWhatIsFiledAndStopsCleanly() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let copy = dir.appendingPathComponent("Kopi")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            var output = try CLI.run(["config", "set", "destination", "folder:\(copy.path)"], library: library)
            #expect(output.status == 0, "\(output.stderr)")
            // Filed by `ingest`, which only queues the upload.
            output = try CLI.run(["ingest", Fixtures.url("clean.png").path], library: library)
            #expect(output.status == 0, "\(output.stderr)")
            output = try CLI.run(["queue", "--json"], library: library)
            #expect(output.stdout.contains("\"queued\""), "\(output.stdout)")

            let port = try ChildServer.freePort()
            let serve = try CLI.start(["serve", "--listen", "127.0.0.1:\(port)"], library: library,
                                      logs: dir.appendingPathComponent("logg"), name: "serve")
            let uploaded = eventually(timeout: 60) {
                let files = FileManager.default.enumerator(atPath: copy.path)?.allObjects as? [String] ?? []
                return files.contains { $0.hasSuffix(".docx") } && files.contains { $0.hasSuffix(".pdf") }
            }
            #expect(uploaded, "serve uploaded nothing: \(serve.stderr)")
            // The copy lands before the worker records it and writes its line: wait for the line too.
            let logged = eventually(timeout: 30) {
                let log = serve.stdout + serve.stderr
                return log.contains("upload: document") && log.contains("done")
            }
            #expect(logged, "logs what it uploaded, by id: \(serve.stdout + serve.stderr)")
            #expect(serve.terminate(timeout: 60) == 0, "\(serve.stderr)")
            output = try CLI.run(["queue", "--json", "--all"], library: library)
            #expect(output.stdout.contains("\"done\""), "\(output.stdout)")
        }
    }
}
