import ArkivatorClassify
import ArkivatorCore
import ArkivatorLLM
import Foundation
import TestSupport
import Testing

/// The client against a tiny real HTTP server (`scripts/test/llm_test_server.py`): each failure gives
/// its plain message, and the document keeps the rules' result.
@Suite(.serialized) struct ChatClientTests {
    static let answer = """
        {"docType":"innkalling","documentDate":"2025-03-14","institution":"Fjellby sykehus","specialty":"",
         "person":"Kari Nordmann","keywords":[],"title":"Innkalling Fjellby sykehus"}
        """

    struct Setup {
        let directory: URL
        let server: ChildServer
        var log: URL { directory.appendingPathComponent("requests.jsonl") }

        init(_ arguments: [String]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-llm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let answer = directory.appendingPathComponent("answer.json")
            try ChatClientTests.answer.write(to: answer, atomically: true, encoding: .utf8)
            server = try ChildServer.script("llm_test_server.py",
                                            ["--log", directory.appendingPathComponent("requests.jsonl").path, "--answer", answer.path] + arguments,
                                            log: directory.appendingPathComponent("server.log"))
        }

        func requests() -> [[String: Any]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        func finish() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        func assistant(key: String? = nil, timeout: TimeInterval = 30) throws -> LetterAssistant {
            try LetterAssistant(settings: LLMSettings(url: try #require(URL(string: server.url)), model: "test", apiKey: key, timeout: timeout),
                                family: ["Kari Nordmann"])
        }
    }

    func refine(_ assistant: LetterAssistant) async -> (Classification, Classification, LLMReport) {
        let rules = Classifier().classify(AnswerMergeTests.letter, scanDate: CalendarDate(year: 2025, month: 5, day: 1)!)
        let (merged, report) = await assistant.refine(rules, text: AnswerMergeTests.letter, today: AnswerMergeTests.today)
        return (rules, merged, report)
    }

    @Test func aValidAnswerIsMergedAndTheKeyIsSentAsBearer() async throws {
        let setup = try Setup([])
        defer { setup.finish() }
        let (_, merged, report) = await refine(try setup.assistant(key: "sk-hemmelig-123"))
        #expect(report.used)
        #expect(report.model == "test-model")
        #expect(report.rejectedFields.isEmpty)
        #expect(merged.docType == .innkalling)
        let request = try #require(setup.requests().first)
        #expect(request["path"] as? String == "/v1/chat/completions")
        #expect(request["authorization"] as? String == "Bearer sk-hemmelig-123")
        let body = try #require(try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect((body["response_format"] as? [String: Any])?["type"] as? String == "json_schema")
        #expect(body["model"] as? String == "test")
    }

    @Test(arguments: [
        (401, "invalidKey", "ugyldig API-nøkkel"),
        (429, "rateLimited", "Prøv igjen om litt"),
        (500, "server", "har en feil (HTTP 500)"),
    ])
    func failuresSayWhatHappened(status: Int, code: String, message: String) async throws {
        let setup = try Setup(["--status", "\(status)"])
        defer { setup.finish() }
        let (rules, merged, report) = await refine(try setup.assistant())
        #expect(!report.used)
        #expect(report.errorCode == code)
        #expect(report.error?.contains(message) == true, "\(report.error ?? "")")
        #expect(merged == rules)
        // 429 and 5xx are tried three times (after 1 and 2 s); a refused key once.
        #expect(setup.requests().count == (status == 401 ? 1 : 3))
    }

    @Test func englishMessagesToo() {
        let failure = LLMFailure.notConfigured
        #expect(failure.userMessage.text(in: .english).contains("No language model is set up"))
    }

    @Test func aMalformedAnswerKeepsTheRules() async throws {
        let setup = try Setup(["--malformed"])
        defer { setup.finish() }
        let (rules, merged, report) = await refine(try setup.assistant())
        #expect(report.errorCode == "malformed")
        #expect(report.error?.contains("kunne ikke leses") == true)
        #expect(merged == rules)
    }

    @Test func aServerWithoutSchemaSupportIsAskedForJSONObject() async throws {
        let setup = try Setup(["--no-schema"])
        defer { setup.finish() }
        let (_, _, report) = await refine(try setup.assistant())
        #expect(report.used)
        let formats = setup.requests().compactMap { request -> String? in
            let body = try? JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any]
            return (body?["response_format"] as? [String: Any])?["type"] as? String
        }
        #expect(formats == ["json_schema", "json_object"])
    }

    /// A 400 that says nothing about the format is a refusal: asked once, not again without the schema.
    @Test func aBadRequestThatIsNotAboutTheFormatIsRefusedAtOnce() async throws {
        let setup = try Setup(["--status", "400"])
        defer { setup.finish() }
        let (rules, merged, report) = await refine(try setup.assistant())
        #expect(!report.used)
        #expect(report.errorCode == "refused")
        #expect(report.error?.contains("avviste forespørselen (HTTP 400") == true, "\(report.error ?? "")")
        #expect(merged == rules)
        #expect(setup.requests().count == 1)
    }

    @Test func aServerThatIsDownStopsTheRunWithOneClearNote() async throws {
        let port = try ChildServer.freePort()
        let assistant = try LetterAssistant(settings: LLMSettings(url: try #require(URL(string: "http://127.0.0.1:\(port)"))))
        let (rules, merged, report) = await refine(assistant)
        #expect(merged == rules)
        #expect(report.errorCode == "unreachable")
        #expect(report.error?.contains("Får ikke kontakt med språkmodellen") == true, "\(report.error ?? "")")
        #expect(assistant.stoppingFailure != nil)
        // The next document does not wait for a connection again.
        let start = Date()
        let (_, _, second) = await refine(assistant)
        #expect(second.errorCode == "unreachable")
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func aRemoteServerNeedsPermission() throws {
        let remote = LLMSettings(url: try #require(URL(string: "https://llm.example.com/v1")))
        #expect(throws: LLMFailure.self) { try LetterAssistant(settings: remote) }
        var allowed = remote
        allowed.allowRemote = true
        _ = try LetterAssistant(settings: allowed)
        #expect(remote.endpoint.absoluteString == "https://llm.example.com/v1/chat/completions")
        #expect(LLMSettings(url: try #require(URL(string: "http://localhost:8080"))).isLoopback)
        #expect(LLMSettings(url: try #require(URL(string: "http://127.0.0.1:8080/"))).endpoint.absoluteString
                == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(LLMSettings.parseURL("http://user:pw@127.0.0.1:8080") == nil)
        #expect(LLMSettings.parseURL("ftp://127.0.0.1") == nil)
    }

    @Test func theKeyFileMustBePrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(LLMSettings.keyFileName)
        try "sk-test\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o644)
        #expect(throws: LLMFailure.self) { try LLMSettings.apiKey(libraryDirectory: directory, environment: [:]) }
        chmod(file.path, 0o600)
        #expect(try LLMSettings.apiKey(libraryDirectory: directory, environment: [:]) == "sk-test")
        #expect(try LLMSettings.apiKey(libraryDirectory: directory, environment: [LLMSettings.keyVariable: "fra-miljø"]) == "fra-miljø")
    }
}
