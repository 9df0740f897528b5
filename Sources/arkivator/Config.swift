import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation

extension Arkivator {
    /// `arkivator config set|get|unset`: the library's settings.
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Innstillinger: opplasting, varsling og språkmodell. (Settings: uploads, notification and the language model.)",
            discussion: """
                Nøkler / keys:
                  destination   hvor arkivet kopieres, som et speil (where the archive is mirrored):
                                folder:/sti/til/mappe
                                webdav:https://server/remote.php/dav/files/kari/Arkiv
                                rclone:fjernlager:Arkiv   (et fjernlager fra rclone config)
                                Målet sjekkes før det lagres: det må finnes og svare nå.
                                (The destination is checked before it is stored: it must exist and answer now.)
                  notify        en kommando som får meldingen som argument når en opplasting gir opp
                                (a command given the message as its argument when an upload gives up)
                  llm.url       en OpenAI-kompatibel språkmodell-server (llama.cpp, Ollama, vLLM, …)
                                (an OpenAI-compatible language model server), f.eks. http://127.0.0.1:8080
                  llm.model     modellnavnet som sendes med (the model name sent), f.eks. qwen2.5
                  llm.enabled   true: ingest, watch og serve spør modellen etter reglene uten --llm;
                                krever llm.url (ingest, watch and serve ask the model after the
                                rules without --llm; needs llm.url)
                  llm.allowRemote  true: tillat en server på en annen maskin; brevteksten sendes dit
                                (allow a server on another machine; the letter text is sent there)
                  llm.maskNames true: skjul også husstandens navn for modellen (fødselsnumre skjules alltid)
                                (hide the household's names from the model too; ID numbers always are)
                  llm.timeout   sekunder én forespørsel kan ta (standard 300) (seconds one request may take)
                API-nøkkelen lagres aldri her: bruk ARKIVATOR_LLM_API_KEY eller filen llm.key i biblioteket
                (chmod 600). (The API key is never stored here: use ARKIVATOR_LLM_API_KEY or the file llm.key.)

                Eksempler / examples:
                  arkivator config set destination folder:/media/kari/Kopi/Arkiv
                  arkivator config set notify "notify-send Arkivator"
                  arkivator config get
                  arkivator config unset destination
                  arkivator config set llm.url http://127.0.0.1:8080
                  arkivator config set llm.enabled true
                """,
            subcommands: [SetValue.self, GetValue.self, UnsetValue.self])
    }
}

extension Arkivator.Config {
    struct SetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Sett en innstilling. (Set a setting.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("destination, notify, llm.url, llm.model, llm.enabled, llm.allowRemote, llm.maskNames eller llm.timeout.", valueName: "KEY"))
        var key: String

        @Argument(help: ArgumentHelp("Verdien. (The value.)", valueName: "VALUE"))
        var value: String

        func validate() throws { _ = try ConfigCommand.setting(key) }

        func run() throws {
            let terminal = Terminal()
            let change = try ConfigCommand.change(try ConfigCommand.setting(key), to: value, libraryOptions: libraryOptions)
            if let stored = change.stored {
                terminal.line("\(change.setting.rawValue) = \(stored)")
            } else {
                terminal.line(UserMessage(nb: "Fjernet \(change.setting.rawValue).", en: "Removed \(change.setting.rawValue).").text())
            }
            if let note = change.note { terminal.line(note.text()) }
            if change.lettersToCopy > 0 {
                let count = change.lettersToCopy
                terminal.line(UserMessage(
                    nb: "Hele arkivet skal kopieres dit: \(count) brev venter. Kopier nå med fremdrift: arkivator sync (ellers gjør watch og serve det av seg selv).",
                    en: "The whole archive is to be copied there: \(count) letters wait. Copy now with progress: arkivator sync (otherwise watch and serve do it by themselves).").text())
            }
        }
    }

    struct GetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Vis én eller alle innstillinger. (Show one or all settings.)",
            discussion: "Avslutter med 1 når nøkkelen ikke er satt. (Exits with 1 when the key is not set.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("En nøkkel (se config --help); uten: alle. (A key; without: all.)", valueName: "KEY"))
        var key: String?

        func validate() throws {
            if let key { _ = try ConfigCommand.setting(key) }
        }

        func run() throws {
            let terminal = Terminal()
            if let key {
                let setting = try ConfigCommand.setting(key)
                guard let value = try LibraryCommand.run(libraryOptions, { try $0.setting(setting) }) else { throw ExitCode(1) }
                terminal.line(value)
                return
            }
            let values = try LibraryCommand.run(libraryOptions) { library in
                try Library.Setting.allCases.compactMap { setting in try library.setting(setting).map { (setting, $0) } }
            }
            guard !values.isEmpty else {
                terminal.line(UserMessage(nb: "Ingen innstillinger er satt. Se arkivator config --help.",
                                          en: "No settings are set. See arkivator config --help.").text())
                return
            }
            for (setting, value) in values { terminal.line("\(setting.rawValue) = \(value)") }
        }
    }

    struct UnsetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Fjern en innstilling. (Remove a setting.)",
            discussion: """
                Uten destination kopieres ingenting; det som alt er kopiert, blir liggende der. \
                (Without a destination nothing is copied; what was copied stays there.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("En nøkkel (se config --help). (A key.)", valueName: "KEY"))
        var key: String

        func validate() throws { _ = try ConfigCommand.setting(key) }

        func run() throws {
            let change = try ConfigCommand.change(try ConfigCommand.setting(key), to: nil, libraryOptions: libraryOptions)
            Terminal().line(UserMessage(nb: "Fjernet \(change.setting.rawValue).", en: "Removed \(change.setting.rawValue).").text())
        }
    }
}

enum ConfigCommand {
    /// Checks and stores a setting through the household (see ``Household/change(_:to:for:)``);
    /// a refusal is one plain line and exit code 1.
    static func change(_ setting: Library.Setting, to value: String?, libraryOptions: LibraryOptions) throws -> SettingChange {
        let household = try LibraryCommand.household(libraryOptions)
        let result: Result<SettingChange, any Error> = BlockingWait.run {
            do {
                return .success(try await household.change(setting, to: value, for: .commandLine))
            } catch {
                return .failure(error)
            }
        }
        do {
            return try result.get()
        } catch {
            Terminal().error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    static func setting(_ key: String) throws -> Library.Setting {
        guard let setting = Library.Setting(key: key) else {
            let keys = Library.Setting.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(UserMessage(nb: "«\(key)» er ikke en innstilling. Velg en av: \(keys).",
                                              en: "“\(key)” is not a setting. Choose one of: \(keys).").text())
        }
        return setting
    }
}
