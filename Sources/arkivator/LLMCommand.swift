import ArgumentParser
import ArkivatorCore
import ArkivatorLLM
import ArkivatorApp
import Foundation

/// The language model as the commands use it: the household's settings, and once, on standard
/// error, where the letter text goes.
enum LLMCommand {
    /// The model's settings when `flag` (`--llm`/`--no-llm`) or `llm.enabled` turns it on, after
    /// saying where the letter text goes; nil when it is off. Throws (one line, exit 1) when it is
    /// turned on but cannot be used.
    static func languageModel(_ household: Household, flag: Bool?, terminal: Terminal) throws -> LLMSettings? {
        do {
            guard let settings = try household.languageModel(flag: flag) else { return nil }
            announce(settings, terminal: terminal)
            return settings
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    /// Says where the letter text goes and what is hidden from it.
    static func announce(_ settings: LLMSettings, terminal: Terminal) {
        let hidden = settings.maskNames
            ? UserMessage(nb: "fødselsnumre og husstandens navn", en: "national ID numbers and the household's names")
            : UserMessage(nb: "fødselsnumre", en: "national ID numbers")
        if settings.isLoopback {
            terminal.error(UserMessage(
                nb: "Språkmodellen på denne maskinen (\(settings.hostDescription)) leser hvert brev etter reglene; \(hidden.norwegian) skjules før sending.",
                en: "The language model on this machine (\(settings.hostDescription)) reads each letter after the rules; \(hidden.english) are hidden before sending."))
        } else {
            terminal.error(UserMessage(
                nb: "Merk: brevteksten sendes til \(settings.hostDescription) (llm.url) for klassifisering; \(hidden.norwegian) skjules før sending.",
                en: "Note: the letter text is sent to \(settings.hostDescription) (llm.url) for classification; \(hidden.english) are hidden before sending."))
        }
    }
}
