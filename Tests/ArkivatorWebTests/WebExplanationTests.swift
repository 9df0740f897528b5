import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// «Forklar brevet» on a live server, against the fake chat-completions server: off until the
/// model is turned on (and then the page points to Settings), the POST that makes it and goes
/// back to the letter, the explanation marked as a model's, made again, marked when the text is
/// corrected later, and junk from the model shown as a plain message, never as its text.
@Suite(.serialized) struct WebExplanationTests {
    static let answer = """
        {"hva": "Dette er en epikrise fra Vestvik sykehus om [FNR-1].", "gjøre": ["Les brevet <nøye>.", "Ring fastlegen."], "frist": ""}
        """

    /// The fake model answering `content`, logging each request.
    static func fakeModel(_ content: String, in directory: URL) throws -> ChildServer {
        let file = directory.appendingPathComponent("answer-\(UUID().uuidString).json")
        try content.write(to: file, atomically: true, encoding: .utf8)
        return try ChildServer.script("llm_test_server.py", ["--answer", file.path, "--log", directory.appendingPathComponent("requests.jsonl").path],
                                      log: directory.appendingPathComponent("llm.log"))
    }

    static func requests(in directory: URL) -> Int {
        ((try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? "")
            .split(separator: "\n").count
    }

    @Test func theLetterIsExplainedKeptMadeAgainAndMarkedWhenTheTextChanges() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let model = try Self.fakeModel(Self.answer, in: dir)
            defer { model.stop() }
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.live) { client in
                let browser = try await Browser.signIn(client)
                let letter = "/documents/b2b2b2b2b2"
                // Off: one quiet line below the letter and the way to Settings; no box above it, no button, no command.
                var page = try await client.execute(uri: letter, method: .get, headers: browser.headers).text
                #expect(page.contains("En språkmodell kan forklare brevet med enkle ord når den er slått på."))
                #expect(page.contains("<a href=\"/settings#llm\">Du kan slå den på under Innstillinger</a>"))
                #expect(!page.contains("class=\"explain\""), "no box above the letter")
                #expect(!page.contains("\(letter)/explain") && !page.contains("arkivator config"))

                try fixture.library.setSetting(.llmURL, model.url)
                try fixture.library.setSetting(.llmEnabled, "true")
                page = try await client.execute(uri: letter, method: .get, headers: browser.headers).text
                #expect(page.contains("<form method=\"post\" action=\"\(letter)/explain\""))
                #expect(page.contains(">Forklar brevet</button>"))
                #expect(page.contains("Brevteksten sendes til språkmodellen på denne maskinen; fødselsnumre skjules først."))

                let made = try await client.execute(uri: "\(letter)/explain", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(made.status == .seeOther && made.headers[.location] == "\(letter)#forklaring")
                page = try await client.execute(uri: letter, method: .get, headers: browser.headers).text
                #expect(page.contains("<strong>Laget av en språkmodell (test-model) – kan ta feil. Sjekk brevet.</strong>"), "\(page)")
                #expect(page.contains("Dette er en epikrise fra Vestvik sykehus om 170972 •••••."))
                #expect(page.contains("<li>Les brevet &lt;nøye&gt;.</li><li>Ring fastlegen.</li>"), "escaped")
                #expect(!page.contains(WebFixture.number))
                #expect(page.contains(">Lag ny forklaring</button>") && page.contains("name=\"again\" value=\"1\""))
                #expect(!page.contains("eldre versjon av brevets tekst"))
                #expect(Self.requests(in: dir) == 1)

                // Asked again without «again» (a second tab): the one kept stands, the model is not asked.
                _ = try await client.execute(uri: "\(letter)/explain", method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(Self.requests(in: dir) == 1)
                _ = try await client.execute(uri: "\(letter)/explain", method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)&again=1"))
                #expect(Self.requests(in: dir) == 2)

                // The text corrected later: the explanation says it was made from older text.
                let text = try fixture.library.documents.document("b2b2b2b2b2").text + "\nKontroll om tre måneder."
                let saved = try await client.execute(uri: "\(letter)/text", method: .post, headers: browser.form,
                                                     body: WebTextCorrectionTests.form([("_csrf", browser.csrf), ("pages", "1"), ("side1", text)]))
                #expect(saved.status == .seeOther)
                page = try await client.execute(uri: letter, method: .get, headers: browser.headers).text
                #expect(page.contains("Forklaringen ble laget fra en eldre versjon av brevets tekst."))

                // Turned off again: the explanation kept is still shown, and why no new one can be made.
                try fixture.library.setSetting(.llmEnabled, "false")
                page = try await client.execute(uri: letter, method: .get, headers: browser.headers).text
                #expect(page.contains("Dette er en epikrise fra Vestvik sykehus"))
                #expect(page.contains("Språkmodellen er slått av, så en ny forklaring kan ikke lages nå."))
                #expect(!page.contains("\(letter)/explain"))
            }
        }
    }

    @Test func junkFromTheModelIsAPlainMessage() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let model = try Self.fakeModel("Som språkmodell kan jeg ikke tolke helseopplysninger.", in: dir)
            defer { model.stop() }
            try fixture.library.setSetting(.llmURL, model.url)
            try fixture.library.setSetting(.llmEnabled, "true")
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.live) { client in
                let browser = try await Browser.signIn(client)
                let made = try await client.execute(uri: "/documents/a1a1a1a1a1/explain", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(made.status == .seeOther)
                let page = try await client.execute(uri: "/documents/a1a1a1a1a1", method: .get, headers: browser.headers).text
                #expect(page.contains("<p class=\"problem\" role=\"alert\">Svaret fra språkmodellen kunne ikke brukes som forklaring. Prøv igjen, eller les brevet selv.</p>"))
                #expect(!page.contains("helseopplysninger") && !page.contains("Laget av en språkmodell"))
                #expect(page.contains(">Forklar brevet</button>"), "it can be tried again")
                // A wrong token is refused before anything is asked.
                let forged = try await client.execute(uri: "/documents/a1a1a1a1a1/explain", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=feil"))
                #expect(forged.status == .forbidden)
                #expect(Self.requests(in: dir) == 1)
            }
        }
    }

    /// A slow model: the POST goes back to the letter after a short wait, the page says the
    /// explanation is being made (and how to see it), and shows it once the model has answered.
    @Test func aSlowModelIsShownAsBeingMade() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            var options = WebServer.Options(passwordCost: 4)
            options.pause = { _ in }
            options.explanationWait = .milliseconds(300)
            let server = try WebServer(household: Household(library: fixture.library), options: options)
            let file = dir.appendingPathComponent("answer.json")
            try Self.answer.write(to: file, atomically: true, encoding: .utf8)
            let model = try ChildServer.script("llm_test_server.py", ["--answer", file.path, "--delay", "2"],
                                               log: dir.appendingPathComponent("llm.log"))
            defer { model.stop() }
            try fixture.library.setSetting(.llmURL, model.url)
            try fixture.library.setSetting(.llmEnabled, "true")
            try await server.setPassword(WebFixture.password, again: WebFixture.password)
            try await server.application().test(.live) { client in
                let browser = try await Browser.signIn(client)
                let made = try await client.execute(uri: "/documents/b2b2b2b2b2/explain", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(made.status == .seeOther)
                var page = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers).text
                #expect(page.contains("id=\"forklaring\" aria-labelledby=\"explain-heading\" data-running=\"1\""))
                #expect(page.contains("Forklaringen lages nå. Det kan ta et par minutter. <a href=\"/documents/b2b2b2b2b2#forklaring\">Oppdater siden</a>"))
                #expect(!page.contains(">Forklar brevet</button>"), "no second request while one is being made")
                for _ in 0..<50 where page.contains("data-running=\"1\"") {
                    try await Task.sleep(for: .milliseconds(200))
                    page = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers).text
                }
                #expect(page.contains("Laget av en språkmodell (test-model)"))
            }
        }
    }

    /// The section's view models answer every value by name, as the others do.
    @Test func theViewAnswersEveryFieldByName() throws {
        let words = Words(try Templates.load(), language: .norwegian)
        let stored = StoredExplanation(documentID: "abababab", explanation: LetterExplanation(
            what: "Et brev.", steps: ["Ring."], deadline: "2025-04-08", model: "m"), createdAt: "2025-03-14T10:00:00Z", fromOlderText: true)
        let view = ExplanationView(letter: "abababab", facts: .init(stored: stored, enabled: true, url: "http://127.0.0.1:8080", maskNames: true),
                                   state: .failed(UserMessage(nb: "Feil.", en: "Failed."), at: Date()), trashed: false, words: words)
        TemplateValuesTests().answersEveryField(view)
        TemplateValuesTests().answersEveryField(try #require(view.made))
    }
}
