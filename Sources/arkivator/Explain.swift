import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation

extension Arkivator {
    /// One letter explained in plain words by the household's language model, kept with the letter.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forklar et brev med enkle ord: hva det er, hva du må gjøre og innen når. (Explain a letter in plain words.)",
            discussion: """
                Språkmodellen som er satt opp (llm.url, llm.enabled) lager forklaringen; navn og
                fødselsnumre skjules før brevteksten sendes, som ved klassifisering. Forklaringen lagres
                med brevet og vises igjen uten å spørre modellen på nytt; --again lager en ny.
                Den er laget av en språkmodell og kan ta feil: sjekk brevet.
                (The configured language model makes it; names and numbers are hidden before sending.
                It is kept with the letter; --again makes a new one. It may be wrong: check the letter.)

                Eksempler / examples:
                  arkivator explain 3fa2b1
                  arkivator explain 3fa2b1 --again --json
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Flag(name: .long, help: "Lag en ny forklaring selv om en finnes. (Make a new one even if one is kept.)")
        var again = false

        @Flag(name: .long, help: "Skriv forklaringen som JSON. (Print the explanation as JSON.)")
        var json = false

        func run() throws {
            let household = try LibraryCommand.household(libraryOptions)
            let (id, again) = (id, again)
            let result: Result<StoredExplanation, any Error> = BlockingWait.run {
                do { return .success(try await household.explain(id, again: again, for: .commandLine)) } catch { return .failure(error) }
            }
            let stored = try LibraryCommand.reporting { try result.get() }
            let terminal = Terminal()
            if json { terminal.line(LibraryCommand.json(stored)); return }
            for line in Self.lines(stored) { terminal.line(line) }
        }

        /// The explanation as a person reads it, headed by who made it and that it may be wrong.
        static func lines(_ stored: StoredExplanation) -> [String] {
            let made = stored.explanation
            var lines = [UserMessage(
                nb: "Laget av en språkmodell (\(made.model)) \(stored.shownTime) – kan ta feil. Sjekk brevet.",
                en: "Made by a language model (\(made.model)) \(stored.shownTime) – it may be wrong. Check the letter.").text()]
            if stored.fromOlderText {
                lines.append(UserMessage(nb: "Merk: laget fra en eldre versjon av brevets tekst. Lag en ny med --again.",
                                         en: "Note: made from an older version of the letter's text. Make a new one with --again.").text())
            }
            lines += ["", made.what]
            if !made.steps.isEmpty {
                lines += ["", UserMessage(nb: "Dette må du gjøre:", en: "What you must do:").text()] + made.steps.map { "  – " + $0 }
            }
            if let deadline = made.deadline {
                lines += ["", UserMessage(nb: "Frist: \(deadline)", en: "Deadline: \(deadline)").text()]
            }
            return lines
        }
    }
}
