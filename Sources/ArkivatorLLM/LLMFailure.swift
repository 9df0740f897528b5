import ArkivatorCore

/// Why the language model gave no usable answer, in plain words. The document keeps the rules'
/// result whatever happens here; the message says what to do about the model.
public struct LLMFailure: UserFacingError, Sendable, Equatable {
    private enum Kind: Equatable {
        case invalidKey
        case rateLimited
        case server(Int)
        case unreachable
        case timedOut
        case malformed
        case refused(Int)
        case notConfigured
        case remoteNotAllowed
        case keyFile
        case schemaRefused(Int)
        case declined
        case tooLong
    }

    /// What the client does next with this failure (internal).
    enum RetryHint { case none, refusedSchema }

    var retryHint: RetryHint {
        if case .schemaRefused = kind { return .refusedSchema }
        return .none
    }

    private let kind: Kind
    /// The server named in the message, if one is.
    private let host: String?
    public let userMessage: UserMessage

    private init(_ kind: Kind, host: String? = nil, nb: String, en: String) {
        self.kind = kind
        self.host = host
        userMessage = UserMessage(nb: nb, en: en)
    }

    /// A short stable code for `--json` and tests: `invalidKey`, `rateLimited`, `server`,
    /// `unreachable`, `timedOut`, `malformed`, `refused`, `notConfigured`, `remoteNotAllowed`, `keyFile`,
    /// `declined` (the model would not answer), `tooLong` (an answer beyond what was asked for).
    public var errorCode: String {
        switch kind {
        case .invalidKey: "invalidKey"
        case .rateLimited: "rateLimited"
        case .server: "server"
        case .unreachable: "unreachable"
        case .timedOut: "timedOut"
        case .malformed: "malformed"
        case .refused: "refused"
        case .notConfigured: "notConfigured"
        case .remoteNotAllowed: "remoteNotAllowed"
        case .keyFile: "keyFile"
        case .schemaRefused: "refused"
        case .declined: "declined"
        case .tooLong: "tooLong"
        }
    }

    /// Whether the same request may succeed if sent again shortly (429 and 5xx).
    var isRetried: Bool {
        switch kind {
        case .rateLimited, .server: true
        default: false
        }
    }

    /// Whether every later document would fail the same way, so the run stops asking.
    public var stopsRun: Bool {
        switch kind {
        case .invalidKey, .unreachable, .notConfigured, .remoteNotAllowed, .keyFile, .refused: true
        default: false
        }
    }

    static func invalidKey(_ host: String, status: Int) -> LLMFailure {
        .init(.invalidKey, host: host,
              nb: "Språkmodellen på \(host) avviste API-nøkkelen (HTTP \(status)): ugyldig API-nøkkel. Sjekk ARKIVATOR_LLM_API_KEY eller filen llm.key i biblioteket.",
              en: "The language model at \(host) refused the API key (HTTP \(status)): invalid API key. Check ARKIVATOR_LLM_API_KEY or the file llm.key in the library.")
    }

    static func rateLimited(_ host: String) -> LLMFailure {
        .init(.rateLimited, host: host,
              nb: "Språkmodellen på \(host) sier at grensen for antall forespørsler er nådd (HTTP 429). Prøv igjen om litt.",
              en: "The language model at \(host) says the rate limit is reached (HTTP 429): try again shortly.")
    }

    static func server(_ host: String, status: Int) -> LLMFailure {
        .init(.server(status), host: host,
              nb: "Språkmodellen på \(host) har en feil (HTTP \(status)). Prøv igjen senere; dokumentene ble klassifisert med reglene.",
              en: "The language model at \(host) has an error (HTTP \(status)). Try again later; the documents were classified by the rules.")
    }

    static func refused(_ host: String, status: Int, detail: String) -> LLMFailure {
        .init(.refused(status), host: host,
              nb: "Språkmodellen på \(host) avviste forespørselen (HTTP \(status)\(detail.isEmpty ? "" : ": \(detail)")). Sjekk llm.url og llm.model med arkivator config get.",
              en: "The language model at \(host) refused the request (HTTP \(status)\(detail.isEmpty ? "" : ": \(detail)")). Check llm.url and llm.model with arkivator config get.")
    }

    static func schemaRefused(_ host: String, status: Int) -> LLMFailure {
        .init(.schemaRefused(status), host: host,
              nb: "Språkmodellen på \(host) godtar ikke JSON-skjema i forespørselen (HTTP \(status)).",
              en: "The language model at \(host) does not accept a JSON schema in the request (HTTP \(status)).")
    }

    /// The model answered with a refusal instead of the JSON asked for (the API's `refusal`).
    static func declined(_ host: String) -> LLMFailure {
        .init(.declined, host: host,
              nb: "Språkmodellen på \(host) ville ikke svare på dette brevet. Dokumentet ble klassifisert med reglene.",
              en: "The language model at \(host) declined to answer for this letter. The document was classified by the rules.")
    }

    /// An answer far longer than the short one asked for (a model that rambles, or junk).
    static func tooLong(_ host: String) -> LLMFailure {
        .init(.tooLong, host: host,
              nb: "Svaret fra språkmodellen på \(host) var mye lengre enn det som ble spurt om, og ble ikke brukt.",
              en: "The answer from the language model at \(host) was far longer than asked for and was not used.")
    }

    static func unreachable(_ host: String, detail: String) -> LLMFailure {
        .init(.unreachable, host: host,
              nb: "Får ikke kontakt med språkmodellen på \(host) (\(detail)). Er serveren startet? Dokumentene ble klassifisert med reglene.",
              en: "Cannot reach the language model at \(host) (\(detail)). Is the server running? The documents were classified by the rules.")
    }

    static func timedOut(_ host: String, seconds: Int) -> LLMFailure {
        .init(.timedOut, host: host,
              nb: "Språkmodellen på \(host) svarte ikke innen \(seconds) sekunder. Dokumentet ble klassifisert med reglene.",
              en: "The language model at \(host) did not answer within \(seconds) seconds. The document was classified by the rules.")
    }

    static func malformed(_ host: String, detail: String) -> LLMFailure {
        .init(.malformed, host: host,
              nb: "Svaret fra språkmodellen på \(host) kunne ikke leses (\(detail)). Dokumentet ble klassifisert med reglene.",
              en: "The answer from the language model at \(host) could not be read (\(detail)). The document was classified by the rules.")
    }

    public static let notConfigured = LLMFailure(.notConfigured,
        nb: "Ingen språkmodell er satt opp. Sett adressen med: arkivator config set llm.url http://127.0.0.1:8080",
        en: "No language model is set up. Set its address with: arkivator config set llm.url http://127.0.0.1:8080")

    static func remoteNotAllowed(_ host: String) -> LLMFailure {
        .init(.remoteNotAllowed, host: host,
              nb: "llm.url peker til en annen maskin (\(host)), og da ville brevteksten blitt sendt dit. Tillat det med: arkivator config set llm.allowRemote true",
              en: "llm.url points to another machine (\(host)), which would send the letter text there. Allow it with: arkivator config set llm.allowRemote true")
    }

    static func keyFile(_ path: String, readable: Bool) -> LLMFailure {
        readable
            ? .init(.keyFile, nb: "\(path) kan leses av andre enn deg, så arkivator bruker den ikke. Gjør den privat med: chmod 600 \(path)",
                    en: "\(path) can be read by others than you, so arkivator does not use it. Make it private with: chmod 600 \(path)")
            : .init(.keyFile, nb: "Kunne ikke lese \(path).", en: "Could not read \(path).")
    }

    /// What happened, said for a letter that was to be explained (nothing was saved; the letter
    /// is as it was), and what to do. With `commands` false (the web app) it names the settings
    /// page or the person who set Arkivator up, never a command.
    public func explanationMessage(commands: Bool) -> UserMessage {
        let host = hostInMessage
        switch kind {
        case .invalidKey:
            return commands ? userMessage
                : UserMessage(nb: "Språkmodellen avviste API-nøkkelen. Den som satte opp Arkivator, må sjekke nøkkelen.",
                              en: "The language model refused the API key. Whoever set up Arkivator must check the key.")
        case .rateLimited:
            return userMessage
        case .server(let status):
            return UserMessage(nb: "Språkmodellen\(host.nb) har en feil (HTTP \(status)). Prøv igjen senere.",
                               en: "The language model\(host.en) has an error (HTTP \(status)). Try again later.")
        case .unreachable:
            return UserMessage(nb: "Får ikke kontakt med språkmodellen\(host.nb). Er den startet? Prøv igjen senere.",
                               en: "Cannot reach the language model\(host.en). Is it running? Try again later.")
        case .timedOut:
            return UserMessage(nb: "Språkmodellen\(host.nb) svarte ikke i tide. Prøv igjen senere, når den har mindre å gjøre.",
                               en: "The language model\(host.en) did not answer in time. Try again later, when it is less busy.")
        case .malformed, .schemaRefused:
            return UserMessage(nb: "Svaret fra språkmodellen kunne ikke brukes som forklaring. Prøv igjen, eller les brevet selv.",
                               en: "The language model's answer could not be used as an explanation. Try again, or read the letter yourself.")
        case .declined:
            return UserMessage(nb: "Språkmodellen ville ikke forklare dette brevet. Les brevet selv, eller prøv igjen.",
                               en: "The language model declined to explain this letter. Read the letter yourself, or try again.")
        case .tooLong:
            return UserMessage(nb: "Språkmodellen svarte mye lengre enn en kort forklaring, så svaret ble ikke brukt. Prøv igjen.",
                               en: "The language model answered far longer than a short explanation, so the answer was not used. Try again.")
        case .refused:
            return commands ? userMessage
                : UserMessage(nb: "Språkmodellen avviste forespørselen. Sjekk adressen til språkmodellen under Innstillinger.",
                              en: "The language model refused the request. Check the language model's address under Settings.")
        case .notConfigured:
            return commands ? userMessage
                : UserMessage(nb: "Ingen språkmodell er satt opp. Skriv inn adressen til språkmodellen under Innstillinger.",
                              en: "No language model is set up. Enter the language model's address under Settings.")
        case .remoteNotAllowed:
            return commands ? userMessage
                : UserMessage(nb: "Språkmodellen er på en annen maskin, og brevteksten sendes ikke dit før du tillater det under Innstillinger.",
                              en: "The language model is on another machine, and letter text is not sent there until you allow it under Settings.")
        case .keyFile:
            return commands ? userMessage
                : UserMessage(nb: "Nøkkelfilen til språkmodellen kan ikke brukes. Den som satte opp Arkivator, må rette den.",
                              en: "The language model's key file cannot be used. Whoever set up Arkivator must fix it.")
        }
    }

    /// " på HOST" / " at HOST" when the failure names a server.
    private var hostInMessage: (nb: String, en: String) {
        guard let host else { return ("", "") }
        return (" på \(host)", " at \(host)")
    }
}
