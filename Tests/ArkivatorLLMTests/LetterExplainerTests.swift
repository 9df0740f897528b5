import ArkivatorClassify
import ArkivatorCore
@testable import ArkivatorLLM
import Foundation
import TestSupport
import Testing

/// «Forklar brevet» against the fake chat-completions server (`scripts/test/llm_test_server.py`):
/// a good answer comes back with names put back and numbers masked; time-outs, refusals, junk
/// and oversize answers are plain failures, never the model's text.
@Suite(.serialized) struct LetterExplainerTests {
    /// The letter, with a fødselsnummer (valid control digits) and a name the household knows.
    static let letter = AnswerMergeTests.letter.replacingOccurrences(
        of: "Pasient: Kari Nordmann", with: "Pasient: Kari Nordmann, f.nr. 17097243859")
    static let good = """
        {"hva": "Dette er en innkalling fra Fjellby sykehus for [NAVN-1] ([FNR-1]).",
         "gjøre": ["Møt opp på Kirurgisk poliklinikk 8. april 2025 kl. 09.30.", "Ta med medisinliste."],
         "frist": "2025-04-08"}
        """

    /// A fake model answering `content` (or as `arguments` say), logging each request.
    struct FakeModel {
        let directory: URL
        let server: ChildServer

        init(content: String = LetterExplainerTests.good, _ arguments: [String] = []) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-explain-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let answer = directory.appendingPathComponent("answer.json")
            try content.write(to: answer, atomically: true, encoding: .utf8)
            server = try ChildServer.script("llm_test_server.py",
                                            ["--log", directory.appendingPathComponent("requests.jsonl").path, "--answer", answer.path] + arguments,
                                            log: directory.appendingPathComponent("server.log"))
        }

        var sent: String { (try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? "" }

        func explainer(timeout: TimeInterval = 30, maskNames: Bool = true) throws -> LetterExplainer {
            try LetterExplainer(settings: LLMSettings(url: try #require(URL(string: server.url)), model: "test", maskNames: maskNames,
                                                      timeout: timeout, attempts: 1),
                                family: ["Kari Nordmann"])
        }

        func finish() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func aGoodAnswerComesBackWithNamesAndNoNumber() async throws {
        let model = try FakeModel()
        defer { model.finish() }
        let explanation = try await model.explainer().explain(Self.letter)
        #expect(explanation.model == "test-model")
        #expect(explanation.what == "Dette er en innkalling fra Fjellby sykehus for Kari Nordmann (170972 •••••).")
        #expect(explanation.steps == ["Møt opp på Kirurgisk poliklinikk 8. april 2025 kl. 09.30.", "Ta med medisinliste."])
        #expect(explanation.deadline == "2025-04-08")
        // What left the machine: placeholders, the schema asked for, and neither the number nor the name.
        let sent = model.sent
        #expect(sent.contains("[FNR-1]") && sent.contains("[NAVN-1]"))
        #expect(sent.contains(ExplanationPrompt.schemaName))
        for hidden in ["17097243859", "43859", "Kari Nordmann", "Nordmann"] {
            #expect(!sent.contains(hidden), "\(hidden) was sent")
        }
    }

    /// Dates are held to the letter: a deadline or a step with a day it does not print is dropped
    /// (the rest stands), and a `hva` with one is no answer.
    @Test func inventedDatesAreDropped() async throws {
        let model = try FakeModel(content: """
            {"hva": "En innkalling.", "gjøre": ["Møt opp 3. juni klokka 09.45.", "Ta med medisinliste.", "Kom 08.04.2025."],
             "frist": "2025-04-30"}
            """)
        defer { model.finish() }
        let explanation = try await model.explainer().explain(Self.letter)
        #expect(explanation.what == "En innkalling.")
        #expect(explanation.steps == ["Ta med medisinliste.", "Kom 08.04.2025."])
        #expect(explanation.deadline == nil)
        let wrong = try FakeModel(content: #"{"hva": "Du har time 3. juni 2025.", "gjøre": [], "frist": ""}"#)
        defer { wrong.finish() }
        let failure = await #expect(throws: LLMFailure.self) { try await wrong.explainer().explain(Self.letter) }
        #expect(failure?.errorCode == "malformed")
    }

    /// llama.cpp names the model by its file's path: the page shows the file's name.
    @Test func theModelIsNamedAsPeopleReadIt() {
        #expect(LetterExplainer.modelName("/root/.cache/arkivator/llm/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", asked: "default")
                == "qwen2.5-coder-1.5b-instruct-q4_k_m")
        #expect(LetterExplainer.modelName("gpt-4o-mini", asked: "default") == "gpt-4o-mini")
        #expect(LetterExplainer.modelName(nil, asked: "qwen2.5") == "qwen2.5")
        #expect(LetterExplainer.modelName(" ", asked: "qwen2.5") == "qwen2.5")
    }

    @Test func aTimeOutIsAPlainMessage() async throws {
        // The model answers long after the time-out: even a test run that keeps the event loops
        // busy for seconds cannot let the answer in first.
        let model = try FakeModel(["--delay", "30"])
        defer { model.finish() }
        let failure = await #expect(throws: LLMFailure.self) { try await model.explainer(timeout: 1).explain(Self.letter) }
        #expect(failure?.errorCode == "timedOut")
        let web = failure?.explanationMessage(commands: false).text(in: .norwegian) ?? ""
        #expect(web.contains("svarte ikke i tide") && !web.contains("arkivator"), "\(web)")
    }

    @Test func aRefusalIsAPlainMessage() async throws {
        let model = try FakeModel(["--refusal"])
        defer { model.finish() }
        let failure = await #expect(throws: LLMFailure.self) { try await model.explainer().explain(Self.letter) }
        #expect(failure?.errorCode == "declined")
        #expect(failure?.explanationMessage(commands: false).text(in: .norwegian).contains("ville ikke forklare") == true)
    }

    /// Junk of every kind fails the checks, and the message never carries the model's text.
    @Test(arguments: [
        ("Beklager, jeg kan ikke hjelpe med det.", "malformed"),
        (#"{"hva": 5, "gjøre": [], "frist": ""}"#, "malformed"),
        (#"{"hva": "  ", "gjøre": [], "frist": ""}"#, "malformed"),
        (#"{"hva": "Et brev.", "gjøre": "ring", "frist": ""}"#, "malformed"),
        (#"{"hva": "Et brev.", "gjøre": [], "frist": 20250408}"#, "malformed"),
    ])
    func junkIsRefused(content: String, code: String) throws {
        let failure = #expect(throws: LLMFailure.self) { try ExplanationAnswer(content: content, host: "127.0.0.1:1") }
        #expect(failure?.errorCode == code)
        let message = failure?.explanationMessage(commands: false).text(in: .norwegian) ?? ""
        #expect(!message.isEmpty && !message.contains("Beklager") && !message.contains("bla bla"), "\(message)")
    }

    /// An answer far beyond the short one asked for: a rambling `hva`, too many steps, a flood.
    @Test func oversizeAnswersAreRefused() throws {
        let rambling = #"{"hva": "\#(String(repeating: "bla ", count: 200))", "gjøre": [], "frist": ""}"#
        let steps = #"{"hva": "Et brev.", "gjøre": [\#(Array(repeating: "\"Ring.\"", count: 12).joined(separator: ","))], "frist": ""}"#
        for content in [rambling, steps, String(repeating: "x", count: 5000)] {
            let failure = #expect(throws: LLMFailure.self) { try ExplanationAnswer(content: content, host: "127.0.0.1:1") }
            #expect(failure?.errorCode == "tooLong")
            #expect(failure?.explanationMessage(commands: false).text(in: .norwegian).contains("mye lengre enn en kort forklaring") == true)
        }
    }

    /// Over the wire: a body that is not JSON, and a reply that is prose.
    @Test(arguments: [["--malformed"], []])
    func junkFromTheServerIsAPlainMessage(arguments: [String]) async throws {
        let model = try FakeModel(content: "Jeg er en språkmodell og kan ikke gi medisinske råd.", arguments)
        defer { model.finish() }
        let failure = await #expect(throws: LLMFailure.self) { try await model.explainer().explain(Self.letter) }
        #expect(failure?.errorCode == "malformed")
        let message = failure?.explanationMessage(commands: false).text(in: .norwegian) ?? ""
        #expect(message.contains("kunne ikke brukes") && !message.contains("medisinske råd"), "\(message)")
    }

    /// A fenced answer, and one without ø in its key, are read; empty steps are dropped.
    @Test func fencesAndSpellingsAreRead() throws {
        let answer = try ExplanationAnswer(content: """
            ```json
            {"hva": "Et vedtak\\nfra NAV.", "gjore": ["Les vedtaket.", " "], "frist": null}
            ```
            """, host: "h")
        #expect(answer.what == "Et vedtak fra NAV.")
        #expect(answer.steps == ["Les vedtaket."])
        #expect(answer.deadline == nil)
    }

    /// A text the server cut off at the schema's length ends at its last whole sentence; a short
    /// step without a full stop stays as it is.
    @Test func aCutOffTextEndsAtItsLastSentence() throws {
        let cut = "Du har fått time. " + String(repeating: "Du må endre timen ", count: 30).prefix(ExplanationPrompt.maxWhatLength - 18)
        let answer = try ExplanationAnswer(content: #"{"hva": "\#(cut)", "gjøre": ["Ring oss"], "frist": ""}"#, host: "h")
        #expect(answer.what == "Du har fått time.")
        #expect(answer.steps == ["Ring oss"])
    }

    @Test func messagesForTheWebNameNoCommand() {
        for failure in [LLMFailure.notConfigured] {
            let web = failure.explanationMessage(commands: false)
            #expect(!web.text(in: .norwegian).contains("arkivator") && web.text(in: .norwegian).contains("Innstillinger"))
            #expect(!web.text(in: .english).contains("arkivator"))
            #expect(failure.explanationMessage(commands: true).text(in: .norwegian).contains("arkivator config set"))
        }
    }
}
