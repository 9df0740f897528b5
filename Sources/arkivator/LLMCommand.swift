import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import Foundation

/// The language-model settings as the commands use them: checks for `config set llm.*`, and the
/// assistant for `ingest` and `watch` (nil when the model is off).
enum LLMCommand {
    /// The value to store for an `llm.*` setting, and a note to print.
    static func checkSetting(_ setting: Library.Setting, _ value: String, library: Library) throws -> (String, UserMessage?) {
        if setting.isSwitch {
            switch value.lowercased() {
            case "true", "ja", "yes", "on", "1": return ("true", nil)
            case "false", "nei", "no", "off", "0": return ("false", nil)
            default:
                throw LibraryError(message: UserMessage(nb: "\(setting.rawValue) er true eller false.",
                                                        en: "\(setting.rawValue) is true or false."))
            }
        }
        if setting == .llmTimeout {
            guard let seconds = Int(value), (5...3600).contains(seconds) else {
                throw LibraryError(message: UserMessage(nb: "llm.timeout er et antall sekunder mellom 5 og 3600.",
                                                        en: "llm.timeout is a number of seconds between 5 and 3600."))
            }
            return (String(seconds), nil)
        }
        if setting == .llmModel {
            guard !value.isEmpty else {
                throw LibraryError(message: UserMessage(nb: "Modellnavnet kan ikke være tomt.", en: "The model name cannot be empty."))
            }
            return (value, nil)
        }
        guard let url = LLMSettings.parseURL(value) else {
            throw LibraryError(message: UserMessage(
                nb: "«\(value)» er ingen adresse arkivator kan bruke. Skriv http://vert:port (uten brukernavn eller passord; nøkkelen går i ARKIVATOR_LLM_API_KEY).",
                en: "“\(value)” is not an address arkivator can use. Write http://host:port (no user name or password; the key goes in ARKIVATOR_LLM_API_KEY)."))
        }
        let settings = LLMSettings(url: url, allowRemote: try library.isOn(.llmAllowRemote))
        var note: UserMessage?
        if !settings.isLoopback && !settings.allowRemote {
            note = UserMessage(nb: "Serveren er på en annen maskin. Brevteksten sendes dit først når du tillater det: arkivator config set llm.allowRemote true",
                               en: "The server is on another machine. Letter text is sent there only once you allow it: arkivator config set llm.allowRemote true")
        }
        return (url.absoluteString, note)
    }

    /// The assistant when `flag` (`--llm`/`--no-llm`) or the `llm.enabled` setting turns the model
    /// on, after printing once where the letter text goes. Throws (one line, exit 1) when it is
    /// turned on but cannot be used.
    static func assistant(flag: Bool?, libraryOptions: LibraryOptions, family: [String],
                          terminal: Terminal) throws -> LetterAssistant? {
        let location = libraryOptions.location
        let values = try LibraryCommand.run(libraryOptions) { library in
            (enabled: try library.isOn(.llmEnabled), url: try library.setting(.llmURL), model: try library.setting(.llmModel),
             allowRemote: try library.isOn(.llmAllowRemote), maskNames: try library.isOn(.llmMaskNames),
             timeout: try library.setting(.llmTimeout).flatMap(Double.init))
        }
        guard flag ?? values.enabled else { return nil }
        do {
            guard let text = values.url, let url = LLMSettings.parseURL(text) else { throw LLMFailure.notConfigured }
            let key = try LLMSettings.apiKey(libraryDirectory: location.directory, environment: ProcessInfo.processInfo.environment)
            let settings = LLMSettings(url: url, model: values.model ?? LLMSettings.defaultModel, apiKey: key,
                                       allowRemote: values.allowRemote, maskNames: values.maskNames,
                                       timeout: values.timeout ?? LLMSettings.defaultTimeout)
            let assistant = try LetterAssistant(settings: settings, family: family)
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
            return assistant
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }
}
