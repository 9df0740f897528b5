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
    }

    /// What the client does next with this failure (internal).
    enum RetryHint { case none, refusedSchema }

    var retryHint: RetryHint {
        if case .schemaRefused = kind { return .refusedSchema }
        return .none
    }

    private let kind: Kind
    public let userMessage: UserMessage

    private init(_ kind: Kind, nb: String, en: String) {
        self.kind = kind
        userMessage = UserMessage(nb: nb, en: en)
    }

    /// A short stable code for `--json` and tests: `invalidKey`, `rateLimited`, `server`,
    /// `unreachable`, `timedOut`, `malformed`, `refused`, `notConfigured`, `remoteNotAllowed`, `keyFile`.
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
        .init(.invalidKey,
              nb: "Språkmodellen på \(host) avviste API-nøkkelen (HTTP \(status)): ugyldig API-nøkkel. Sjekk ARKIVATOR_LLM_API_KEY eller filen llm.key i biblioteket.",
              en: "The language model at \(host) refused the API key (HTTP \(status)): invalid API key. Check ARKIVATOR_LLM_API_KEY or the file llm.key in the library.")
    }

    static func rateLimited(_ host: String) -> LLMFailure {
        .init(.rateLimited,
              nb: "Språkmodellen på \(host) sier at grensen for antall forespørsler er nådd (HTTP 429). Prøv igjen om litt.",
              en: "The language model at \(host) says the rate limit is reached (HTTP 429): try again shortly.")
    }

    static func server(_ host: String, status: Int) -> LLMFailure {
        .init(.server(status),
              nb: "Språkmodellen på \(host) har en feil (HTTP \(status)). Prøv igjen senere; dokumentene ble klassifisert med reglene.",
              en: "The language model at \(host) has an error (HTTP \(status)). Try again later; the documents were classified by the rules.")
    }

    static func refused(_ host: String, status: Int, detail: String) -> LLMFailure {
        .init(.refused(status),
              nb: "Språkmodellen på \(host) avviste forespørselen (HTTP \(status)\(detail.isEmpty ? "" : ": \(detail)")). Sjekk llm.url og llm.model med arkivator config get.",
              en: "The language model at \(host) refused the request (HTTP \(status)\(detail.isEmpty ? "" : ": \(detail)")). Check llm.url and llm.model with arkivator config get.")
    }

    static func schemaRefused(_ host: String, status: Int) -> LLMFailure {
        .init(.schemaRefused(status),
              nb: "Språkmodellen på \(host) godtar ikke JSON-skjema i forespørselen (HTTP \(status)).",
              en: "The language model at \(host) does not accept a JSON schema in the request (HTTP \(status)).")
    }

    static func unreachable(_ host: String, detail: String) -> LLMFailure {
        .init(.unreachable,
              nb: "Får ikke kontakt med språkmodellen på \(host) (\(detail)). Er serveren startet? Dokumentene ble klassifisert med reglene.",
              en: "Cannot reach the language model at \(host) (\(detail)). Is the server running? The documents were classified by the rules.")
    }

    static func timedOut(_ host: String, seconds: Int) -> LLMFailure {
        .init(.timedOut,
              nb: "Språkmodellen på \(host) svarte ikke innen \(seconds) sekunder. Dokumentet ble klassifisert med reglene.",
              en: "The language model at \(host) did not answer within \(seconds) seconds. The document was classified by the rules.")
    }

    static func malformed(_ host: String, detail: String) -> LLMFailure {
        .init(.malformed,
              nb: "Svaret fra språkmodellen på \(host) kunne ikke leses (\(detail)). Dokumentet ble klassifisert med reglene.",
              en: "The answer from the language model at \(host) could not be read (\(detail)). The document was classified by the rules.")
    }

    public static let notConfigured = LLMFailure(.notConfigured,
        nb: "Ingen språkmodell er satt opp. Sett adressen med: arkivator config set llm.url http://127.0.0.1:8080",
        en: "No language model is set up. Set its address with: arkivator config set llm.url http://127.0.0.1:8080")

    static func remoteNotAllowed(_ host: String) -> LLMFailure {
        .init(.remoteNotAllowed,
              nb: "llm.url peker til en annen maskin (\(host)), og da ville brevteksten blitt sendt dit. Tillat det med: arkivator config set llm.allowRemote true",
              en: "llm.url points to another machine (\(host)), which would send the letter text there. Allow it with: arkivator config set llm.allowRemote true")
    }

    static func keyFile(_ path: String, readable: Bool) -> LLMFailure {
        readable
            ? .init(.keyFile, nb: "\(path) kan leses av andre enn deg, så arkivator bruker den ikke. Gjør den privat med: chmod 600 \(path)",
                    en: "\(path) can be read by others than you, so arkivator does not use it. Make it private with: chmod 600 \(path)")
            : .init(.keyFile, nb: "Kunne ikke lese \(path).", en: "Could not read \(path).")
    }
}
