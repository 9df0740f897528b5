import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
@testable import ArkivatorApp
import ArkivatorPipeline
import ArkivatorSync
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// The one assembly `ingest`, `watch` and `serve` share, over a real library in a temporary folder.
@Suite struct HouseholdTests {
    func withHousehold(_ body: (Household, URL) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-household-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let household = try Household.open(LibraryLocation(directory: dir.appendingPathComponent("bibliotek")), environment: [:])
        try await body(household, dir)
    }

    func refusal(_ body: () async throws -> Void) async -> SettingRefused? {
        do {
            try await body()
            return nil
        } catch let refused as SettingRefused {
            return refused
        } catch {
            Issue.record("expected a refusal, got \(error)")
            return nil
        }
    }

    @Test func theHouseholdComesFromTheLibraryReadAfreshOrFromAFile() async throws {
        try await withHousehold { household, dir in
            #expect(try household.family().isEmpty)
            try household.library.family { try $0.add(name: "Kari Nordmann", birthDate: "1987-01-26") }
            #expect(try household.family().map(\.name) == ["Kari Nordmann"])
            #expect(household.inbox.path.hasSuffix("/bibliotek/Innboks"))

            let file = dir.appendingPathComponent("familie.json")
            try Data(#"{"members": [{"name": "Ola Nordmann", "personnummer": "17097243859"}]}"#.utf8).write(to: file)
            let fromFile = Household(library: household.library, members: .file(file), environment: [:])
            #expect(try fromFile.family().map(\.name) == ["Ola Nordmann"])
            #expect(try fromFile.family().first?.birthDate == "1972-09-17")
            try Data("ikke json".utf8).write(to: file)
            #expect(throws: SettingRefused.self) { try fromFile.family() }
        }
    }

    @Test func aDestinationThatCannotBeReachedIsRefusedWithASentence() async throws {
        try await withHousehold { household, dir in
            let missing = dir.appendingPathComponent("Frakoblet")
            let refused = await refusal { _ = try await household.change(.destination, to: "folder:\(missing.path)", for: .web) }
            #expect(refused?.errorCode == "destinationMissing")
            #expect(refused?.userMessage.norwegian.contains("finnes ikke") == true, "\(refused?.userMessage.norwegian ?? "")")
            #expect(try household.settings().destination == nil, "nothing stored")

            let port = try ChildServer.freePort()
            let down = await refusal { _ = try await household.change(.destination, to: "webdav:http://127.0.0.1:\(port)/Arkiv", for: .web) }
            #expect(down?.errorCode == "unreachable")
            #expect(down?.userMessage.english.contains("Cannot reach 127.0.0.1:\(port)") == true, "\(down?.userMessage.english ?? "")")
            let bad = await refusal { _ = try await household.change(.destination, to: "ftp://server/x", for: .web) }
            #expect(bad?.errorCode == "badValue")

            let copy = dir.appendingPathComponent("Kopi")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            let change = try await household.change(.destination, to: " folder:\(copy.path)/ ", for: .web)
            #expect(change.stored == "folder:\(copy.path)")
            #expect(try household.settings().destination == .folder(copy.path))
            #expect(try await household.currentSettings().destination == .folder(copy.path))
            let removed = try await household.change(.destination, to: "", for: .web)
            #expect(removed.stored == nil)
            #expect(try household.settings().destination == nil)
        }
    }

    @Test func theLanguageModelCannotBeSwitchedOnWithNoneSetUp() async throws {
        try await withHousehold { household, _ in
            let web = await refusal { _ = try await household.change(.llmEnabled, to: "true", for: .web) }
            #expect(web?.errorCode == "noModel")
            #expect(web?.userMessage.norwegian.contains("Ingen språkmodell er satt opp") == true)
            #expect(web?.userMessage.norwegian.contains("arkivator") == false, "the web is told no command")
            let cli = await refusal { _ = try await household.change(.llmEnabled, to: "ja", for: .commandLine) }
            #expect(cli?.userMessage.norwegian.contains("arkivator config set llm.url") == true)
            #expect(try household.settings().languageModel.enabled == false)
            #expect(try household.languageModel() == nil, "off: rules only")
            #expect(throws: LLMFailure.self) { try household.languageModel(flag: true) }

            // A remote server needs permission before the model may be switched on.
            let note = try await household.change(.llmURL, to: "https://llm.example.com/v1", for: .web).note
            #expect(note?.norwegian.contains("først når du tillater det") == true)
            #expect(note?.norwegian.contains("arkivator") == false)
            #expect(await refusal { _ = try await household.change(.llmEnabled, to: "true", for: .web) }?.errorCode == "remoteNotAllowed")
            _ = try await household.change(.llmAllowRemote, to: "ja", for: .web)
            #expect(try await household.change(.llmEnabled, to: "on", for: .web).stored == "true")
            let settings = try #require(try household.languageModel())
            #expect(settings.url.absoluteString == "https://llm.example.com/v1" && settings.allowRemote)
            #expect(!(try household.settings().languageModel.isLocal))

            // While it is on, its address stays.
            #expect(await refusal { _ = try await household.change(.llmURL, to: nil, for: .web) }?.errorCode == "modelOn")
            #expect(await refusal { _ = try await household.change(.llmTimeout, to: "2", for: .web) }?.errorCode == "badValue")
            #expect(await refusal { _ = try await household.change(.llmMaskNames, to: "kanskje", for: .web) }?.errorCode == "badValue")
            #expect(try await household.change(.llmTimeout, to: "900", for: .web).stored == "900")
            #expect(try household.languageModel()?.timeout == 900)
        }
    }

    @Test func pipelinesAreMadeWithTheHouseholdAndTheChoice() async throws {
        try await withHousehold { household, dir in
            try household.library.family { try $0.add(name: "Kari Nordmann") }
            let reading = try household.makePipeline(.init(jobs: 1, filing: false))
            #expect(reading.options.archive == nil)
            #expect(reading.options.classifier != nil && reading.options.assistant == nil)
            let root = dir.appendingPathComponent("Arkiv")
            let filing = try household.makePipeline(.init(jobs: 1, archiveRoot: root, redact: true,
                                                          languageModel: LLMSettings(url: try #require(URL(string: "http://127.0.0.1:9")))))
            #expect(filing.options.archive?.root == root && filing.options.archive?.redact == true)
            #expect(filing.options.archive?.library === household.library)
            #expect(filing.options.assistant != nil)
            #expect(try household.makePipeline(.init(jobs: 1)).options.archive?.root == household.library.defaultArchiveRoot)
        }
    }

    /// A member added while the watcher holds its pipeline (the web app's family page) is known
    /// to the next letter: the pipeline is made again, and only then.
    @Test func theWatchersPipelineIsMadeAgainWhenTheHouseholdChanges() async throws {
        try await withHousehold { household, dir in
            let made = NIOLockedValueBox(0)
            let watcher = try Watcher(library: household.library, options: .init(folder: dir.appendingPathComponent("Innboks")),
                                      makePipeline: {
                made.withLockedValue { $0 += 1 }
                return try household.makePipeline(.init(jobs: 1, filing: false))
            }, report: { _ in })
            _ = try watcher.loadPipeline()
            _ = try watcher.loadPipeline()
            #expect(made.withLockedValue { $0 } == 1)
            try household.library.family { try $0.add(name: "Siri Lund") }
            _ = try watcher.loadPipeline()
            #expect(made.withLockedValue { $0 } == 2)
            _ = try watcher.loadPipeline()
            #expect(made.withLockedValue { $0 } == 2)
        }
    }
}
