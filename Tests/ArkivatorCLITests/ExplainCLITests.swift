import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// `arkivator explain` against the fake chat-completions server: off until the model is turned
/// on (and then it says how), the explanation printed and kept, shown again without asking,
/// made again with --again. (Time-outs, refusals and junk: `LetterExplainerTests`.)
@Suite(.serialized) struct ExplainCLITests {
    static let number = "17097243859"
    static let answer = #"{"hva": "En innkalling for [FNR-1].", "gjøre": ["Møt opp 8. april 2025 kl. 09.30."], "frist": "2025-04-08"}"#

    @Test func explainsKeepsAndMakesAgain() throws {
        try withTemporaryDirectory { directory in
            let libraryURL = directory.appendingPathComponent("bibliotek")
            do {
                let library = try Library.open(LibraryLocation(directory: libraryURL), environment: [:])
                try library.documents.record([LibraryDocument(
                    sha256: String(repeating: "e5", count: 32), sourceName: "brev.jpg", title: "2025-03-14 Innkalling Kirurgisk poliklinikk",
                    docType: .innkalling, person: "Kari Nordmann", familyMember: "Kari Nordmann", documentDate: "2025-03-14",
                    text: "Innkalling til time\nPasient: Kari Nordmann, f.nr. \(Self.number)\nDu får time tirsdag 8. april 2025 kl. 09.30."),
                    LibraryDocument(sha256: String(repeating: "d4", count: 32), sourceName: "blank.jpg", title: "2025-03-14 Annet",
                                    docType: .annet, person: nil, familyMember: nil, documentDate: "2025-03-14", text: "")])
            }
            var output = try CLI.run(["explain", "e5e5e5"], library: libraryURL)
            #expect(output.status == 1)
            #expect(output.stderr.contains("Språkmodellen er slått av") && output.stderr.contains("arkivator config set llm.enabled true"),
                    "\(output.stderr)")

            let file = directory.appendingPathComponent("answer.json")
            try Self.answer.write(to: file, atomically: true, encoding: .utf8)
            let log = directory.appendingPathComponent("requests.jsonl")
            let model = try ChildServer.script("llm_test_server.py", ["--answer", file.path, "--log", log.path],
                                               log: directory.appendingPathComponent("llm.log"))
            defer { model.stop() }
            #expect(try CLI.run(["config", "set", "llm.url", model.url], library: libraryURL).status == 0)
            #expect(try CLI.run(["config", "set", "llm.enabled", "true"], library: libraryURL).status == 0)

            output = try CLI.run(["explain", "e5e5e5", "--json"], library: libraryURL)
            #expect(output.status == 0, "\(output.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            #expect(json["what"] as? String == "En innkalling for 170972 •••••.")
            #expect(json["steps"] as? [String] == ["Møt opp 8. april 2025 kl. 09.30."])
            #expect(json["deadline"] as? String == "2025-04-08")
            #expect(json["model"] as? String == "test-model")
            #expect(json["document"] as? String == "e5e5e5e5e5")
            #expect(json["fromOlderText"] as? Bool == false)
            #expect(!output.stdout.contains(Self.number))
            let sent = try String(contentsOf: log, encoding: .utf8)
            #expect(!sent.contains(Self.number) && sent.contains("[FNR-1]"))

            // A letter without text is not sent at all.
            output = try CLI.run(["explain", "d4d4d4"], library: libraryURL)
            #expect(output.status == 1 && output.stderr.contains("Brevet har ingen tekst å forklare"), "\(output.stderr)")

            // Kept: shown again without asking; --again asks.
            output = try CLI.run(["explain", "e5e5e5"], library: libraryURL)
            #expect(output.status == 0)
            #expect(output.stdout.hasPrefix("Laget av en språkmodell (test-model)") && output.stdout.contains("kan ta feil. Sjekk brevet."))
            #expect(output.stdout.contains("Dette må du gjøre:\n  – Møt opp") && output.stdout.contains("Frist: 2025-04-08"))
            #expect(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count == 1)
            #expect(try CLI.run(["explain", "e5e5e5", "--again"], library: libraryURL).status == 0)
            #expect(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count == 2)
        }
    }
}
