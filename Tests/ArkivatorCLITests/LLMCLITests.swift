import Foundation
import TestSupport
import Testing

/// `arkivator ingest --llm` as a user runs it: through a recording proxy in front of the real local
/// model, with the server down, and with a remote server not yet allowed.
@Suite(.serialized) struct LLMCLITests {
    /// A temporary library folder, removed at the end.
    struct Place {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-llm-cli-\(UUID().uuidString)")
        var library: String { directory.appendingPathComponent("bibliotek").path }
        func remove() { try? FileManager.default.removeItem(at: directory) }

        func run(_ arguments: [String]) throws -> CLI.Output {
            try CLI.run(arguments + ["--library", library])
        }
    }

    @Test func theModelSeesNoFodselsnummerAndItsAnswerIsMerged() throws {
        let place = Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(at: place.directory, withIntermediateDirectories: true)
        let log = place.directory.appendingPathComponent("requests.jsonl")
        let proxy = try ChildServer.script("llm_test_server.py", ["--target", try LocalModel.url(), "--log", log.path],
                                           log: place.directory.appendingPathComponent("proxy.log"))
        defer { proxy.stop() }
        #expect(try place.run(["config", "set", "llm.url", proxy.url]).status == 0)
        // The other suites keep both cores busy: give the model time.
        #expect(try place.run(["config", "set", "llm.timeout", "900"]).status == 0)
        // clean.png prints the patient's fødselsnummer 17097243859.
        let output = try place.run(["ingest", "--json", "--llm", "--no-archive", "--jobs", "1", Fixtures.url("clean.png").path])
        #expect(output.status == 0, "\(output.stderr)")
        let record = try #require(try CLI.records(output).first)
        let llm = try #require(record["llm"] as? [String: Any], "\(output.stderr)")
        #expect(llm["used"] as? Bool == true, "\(llm)")
        #expect(llm["latencyMs"] as? Int != nil)
        #expect(llm["rejectedFields"] is [String])
        #expect(record["docType"] as? String == "henvisning")
        #expect(record["documentDate"] as? String == "2025-02-04")
        #expect(output.stderr.components(separatedBy: "Språkmodellen på denne maskinen").count == 2, "\(output.stderr)")
        let sent = try String(contentsOf: log, encoding: .utf8)
        #expect(sent.contains("Granlia legesenter") || sent.contains("legesenter"))
        for form in ["17097243859", "170972 43859", "43859"] {
            #expect(!sent.contains(form), "\(form) was sent")
        }
        #expect(sent.contains("[FNR-1]"))
    }

    @Test func aServerThatIsDownLeavesTheRulesResultAndSaysSo() throws {
        let place = Place()
        defer { place.remove() }
        let port = try ChildServer.freePort()
        #expect(try place.run(["config", "set", "llm.url", "http://127.0.0.1:\(port)"]).status == 0)
        let output = try place.run(["ingest", "--json", "--llm", "--no-archive", Fixtures.url("clean.png").path])
        #expect(output.status == 0, "\(output.stderr)")
        let record = try #require(try CLI.records(output).first)
        #expect(record["docType"] as? String == "henvisning")
        #expect((record["llm"] as? [String: Any])?["used"] as? Bool == false)
        #expect(output.stderr.contains("Får ikke kontakt med språkmodellen"), "\(output.stderr)")
        #expect(output.stderr.contains("resten har reglenes resultat"), "\(output.stderr)")
    }

    @Test func aRemoteServerNeedsPermissionAndTheModelIsOffUntilSetUp() throws {
        let place = Place()
        defer { place.remove() }
        var output = try place.run(["ingest", "--llm", "--no-archive", Fixtures.url("clean.png").path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("Ingen språkmodell er satt opp"), "\(output.stderr)")

        output = try place.run(["config", "set", "llm.url", "https://llm.example.com/v1"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("llm.allowRemote true"), "\(output.stdout)")
        output = try place.run(["ingest", "--llm", "--no-archive", Fixtures.url("clean.png").path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("llm.allowRemote"), "\(output.stderr)")

        // Without --llm and without llm.enabled the model is not asked at all.
        output = try place.run(["ingest", "--json", "--no-archive", Fixtures.url("clean.png").path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try CLI.records(output).first?["llm"] == nil)

        output = try place.run(["config", "set", "llm.allowremote", "ja"])
        #expect(output.stdout.contains("llm.allowRemote = true"), "\(output.stdout)")
        output = try place.run(["config", "set", "llm.enabled", "kanskje"])
        #expect(output.status != 0)
        output = try place.run(["config", "set", "llm.timeout", "2"])
        #expect(output.status != 0)
        output = try place.run(["config", "get"])
        #expect(output.stdout.contains("llm.url = https://llm.example.com/v1"))
        #expect(!output.stdout.contains("key"))
    }
}
