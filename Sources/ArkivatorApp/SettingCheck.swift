import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorSync
import ArkivatorPipeline
import Foundation

/// The checks every setting passes before it is stored, shared by `arkivator config` and the
/// web app (see ``Household/change(_:to:for:)``). The command line's sentences may name the
/// command to run; the web's never do.
enum SettingCheck {
    /// A value other than the destination: what to store, and a note.
    static func value(_ text: String, for setting: Library.Setting, current: Settings,
                      audience: SettingAudience) throws(SettingRefused) -> (String, UserMessage?) {
        switch setting {
        case .destination:
            return (try destination(text, audience: audience).description, nil)
        case .notify:
            return (text, nil)
        case .llmEnabled, .llmAllowRemote, .llmMaskNames:
            let on = try switchValue(text, setting: setting)
            if setting == .llmEnabled, on { try canTurnOn(current.languageModel, audience: audience) }
            return (on ? "true" : "false", nil)
        case .llmTimeout:
            guard let seconds = Int(text), (5...3600).contains(seconds) else {
                throw SettingRefused(code: "badValue", message: UserMessage(
                    nb: "Tidsgrensen for språkmodellen er et antall sekunder mellom 5 og 3600.",
                    en: "The language model's time limit is a number of seconds between 5 and 3600."))
            }
            return (String(seconds), nil)
        case .llmModel:
            return (text, nil)
        case .webAddress:
            guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.query == nil, url.fragment == nil,
                  url.path.isEmpty || url.path == "/" else {
                throw SettingRefused(code: "badValue", message: UserMessage(
                    nb: "«\(text)» er ingen adresse for nettappen. Skriv den slik telefonene når den, for eksempel https://arkiv.hjemme.no.",
                    en: "“\(text)” is not an address for the web app. Write it as the phones reach it, for example https://arkiv.hjemme.no."))
            }
            let address = "\(url.scheme?.lowercased() ?? "https")://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
            let note = LocalAddress.isLocal(host: host) ? UserMessage(
                nb: "Denne adressen virker bare på denne maskinen. Legen og telefonene kan ikke åpne lenker med den.",
                en: "This address works on this machine only. The doctor and the phones cannot open links made with it.") : nil
            return (address, note)
        case .llmURL:
            guard let url = LLMSettings.parseURL(text) else {
                throw SettingRefused(code: "badValue", message: audience == .commandLine
                    ? UserMessage(nb: "«\(text)» er ingen adresse arkivator kan bruke. Skriv http://vert:port (uten brukernavn eller passord; nøkkelen går i ARKIVATOR_LLM_API_KEY).",
                                  en: "“\(text)” is not an address arkivator can use. Write http://host:port (no user name or password; the key goes in ARKIVATOR_LLM_API_KEY).")
                    : UserMessage(nb: "«\(text)» er ingen adresse arkivator kan bruke. Skriv http://vert:port, for eksempel http://127.0.0.1:8080, uten brukernavn eller passord.",
                                  en: "“\(text)” is not an address arkivator can use. Write http://host:port, such as http://127.0.0.1:8080, with no user name or password."))
            }
            var note: UserMessage?
            if !LocalAddress.isLocal(url: url) && !current.languageModel.allowRemote {
                note = audience == .commandLine
                    ? UserMessage(nb: "Serveren er på en annen maskin. Brevteksten sendes dit først når du tillater det: arkivator config set llm.allowRemote true",
                                  en: "The server is on another machine. Letter text is sent there only once you allow it: arkivator config set llm.allowRemote true")
                    : UserMessage(nb: "Serveren er på en annen maskin. Brevteksten sendes dit først når du tillater det.",
                                  en: "The server is on another machine. Letter text is sent there only once you allow it.")
            }
            return (url.absoluteString, note)
        }
    }

    /// Whether `setting` may be removed now.
    static func removal(of setting: Library.Setting, current: Settings, audience: SettingAudience) throws(SettingRefused) {
        guard setting == .llmURL, current.languageModel.enabled else { return }
        throw SettingRefused(code: "modelOn", message: audience == .commandLine
            ? UserMessage(nb: "Språkmodellen er slått på og trenger adressen. Slå den av først: arkivator config set llm.enabled false",
                          en: "The language model is on and needs its address. Turn it off first: arkivator config set llm.enabled false")
            : UserMessage(nb: "Språkmodellen er slått på og trenger adressen. Slå den av først.",
                          en: "The language model is on and needs its address. Turn it off first."))
    }

    /// `llm.enabled` may be turned on only with a server set up that may be used.
    static func canTurnOn(_ model: Settings.LanguageModel, audience: SettingAudience) throws(SettingRefused) {
        if model.url == nil {
            throw SettingRefused(code: "noModel", message: audience == .commandLine
                ? UserMessage(nb: "Ingen språkmodell er satt opp, så den kan ikke slås på. Sett adressen først: arkivator config set llm.url http://127.0.0.1:8080",
                              en: "No language model is set up, so it cannot be turned on. Set its address first: arkivator config set llm.url http://127.0.0.1:8080")
                : UserMessage(nb: "Ingen språkmodell er satt opp, så den kan ikke slås på. Skriv inn adressen til språkmodellen først (for eksempel http://127.0.0.1:8080).",
                              en: "No language model is set up, so it cannot be turned on. Enter the language model's address first (such as http://127.0.0.1:8080)."))
        }
        if model.needsPermission {
            let host = model.url?.host ?? ""
            throw SettingRefused(code: "remoteNotAllowed", message: audience == .commandLine
                ? UserMessage(nb: "Språkmodellen er på en annen maskin (\(host)), og brevteksten sendes ikke dit før du tillater det: arkivator config set llm.allowRemote true",
                              en: "The language model is on another machine (\(host)), and letter text is not sent there until you allow it: arkivator config set llm.allowRemote true")
                : UserMessage(nb: "Språkmodellen er på en annen maskin (\(host)), og brevteksten sendes ikke dit før du tillater det. Tillat det først.",
                              en: "The language model is on another machine (\(host)), and letter text is not sent there until you allow it. Allow it first."))
        }
    }

    static func switchValue(_ text: String, setting: Library.Setting) throws(SettingRefused) -> Bool {
        switch text.lowercased() {
        case "true", "ja", "yes", "on", "1": return true
        case "false", "nei", "no", "off", "0": return false
        default:
            throw SettingRefused(code: "badValue", message: UserMessage(nb: "\(setting.rawValue) er true eller false.",
                                                                       en: "\(setting.rawValue) is true or false."))
        }
    }

    /// A destination arkivator can read.
    static func destination(_ text: String, audience: SettingAudience) throws(SettingRefused) -> Destination {
        do throws(UploadFailure) {
            return try Destination.parse(text)
        } catch {
            throw SettingRefused(code: "badValue", message: error.userMessage)
        }
    }

    /// The destination answers now, as an upload would find it.
    static func reachable(_ destination: Destination, library: LibraryLocation, environment: [String: String],
                          audience: SettingAudience) async throws(SettingRefused) {
        do throws(UploadFailure) {
            try await destination.check(library: library, environment: environment)
        } catch {
            let name = destination.displayName
            let message: UserMessage
            switch error.reason {
            case .destinationMissing:
                message = UserMessage(nb: "Mappen \(name) finnes ikke. Koble til disken eller lag mappen, og lagre igjen.",
                                      en: "The folder \(name) does not exist. Connect the disk or make the folder, and save again.")
            case .unreachable:
                message = UserMessage(nb: "Får ikke kontakt med \(name)\(detail(error)). Sjekk adressen og at serveren er på, og lagre igjen.",
                                      en: "Cannot reach \(name)\(detail(error)). Check the address and that the server is on, and save again.")
            case .login where error.kind == .credentials:
                message = audience == .commandLine ? error.userMessage
                    : UserMessage(nb: "Innloggingen til \(name) kan ikke brukes: filen med brukernavn og passord er ikke i orden. Spør den som satte opp arkivator.",
                                  en: "The login for \(name) cannot be used: the file with the user name and password is not in order. Ask whoever set arkivator up.")
            case .login:
                message = UserMessage(nb: "\(name) avviste innloggingen\(detail(error)). Logg inn på nytt: sjekk brukernavnet og passordet arkivator bruker, og lagre igjen.",
                                  en: "\(name) refused the login\(detail(error)). Log in again: check the user name and password arkivator uses, and save again.")
            case .refused, .full:
                message = audience == .commandLine ? error.userMessage
                    : UserMessage(nb: "\(name) kan ikke brukes nå: \(error.userMessage.norwegian)",
                                  en: "\(name) cannot be used now: \(error.userMessage.english)")
            case .other:
                message = audience == .commandLine ? error.userMessage
                    : UserMessage(nb: "Arkivator kan ikke bruke \(name) nå. Sjekk adressen, eller spør den som satte opp arkivator.",
                                  en: "Arkivator cannot use \(name) now. Check the address, or ask whoever set arkivator up.")
            }
            throw SettingRefused(code: error.reason.rawValue, message: message)
        }
    }

    private static func detail(_ failure: UploadFailure) -> String {
        failure.detail.map { " (\($0))" } ?? ""
    }
}
