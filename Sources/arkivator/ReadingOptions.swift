import ArgumentParser
import ArkivatorCore
import ArkivatorApp
import Foundation

/// How `ingest` and `watch` read and file letters: pages at once, the archive folder, hidden
/// fødselsnumre and the language model. Declared and checked here once.
struct ReadingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Sider som leses samtidig (standard: antall kjerner). (Pages read at once.)", valueName: "N"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: ArgumentHelp(
        "Arkivmappen: én mappe per person med Dokumenter/ (.docx) og Bilder/ (JPEG, søkbar PDF). Standard: BIBLIOTEK/Arkiv. (The archive folder.)",
        valueName: "DIR"))
    var archive: String?

    @Flag(name: .long, help: "Bytt ut fødselsnumre med DDMMÅÅ ••••• i teksten, .docx og PDF-teksten, med svart boks over dem på sidebildene. (Hide national ID numbers in text, .docx and PDF text, boxed on the page images.)")
    var redact = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Spør språkmodellen (llm.url) etter reglene; standard: innstillingen llm.enabled. Se arkivator config --help. (Ask the language model after the rules.)"))
    var llm: Bool?

    func validate() throws {
        guard (1...64).contains(jobs) else {
            throw ValidationError(UserMessage(nb: "--jobs må være mellom 1 og 64.", en: "--jobs must be between 1 and 64.").text())
        }
    }

    /// The household's pipeline as these options choose it (the language model checked and
    /// reported on `terminal`).
    func choice(_ household: Household, terminal: Terminal, pageImageDirectory: URL? = nil,
                filing: Bool = true) throws -> Household.PipelineChoice {
        Household.PipelineChoice(
            jobs: jobs, pageImageDirectory: pageImageDirectory, filing: filing, archiveRoot: archive.map { URL(fileURLWithPath: $0) },
            redact: redact, languageModel: try LLMCommand.languageModel(household, flag: llm, terminal: terminal))
    }
}
