import ArkivatorCore
import Foundation

/// Where the language model runs and how it is asked: an OpenAI-compatible chat-completions
/// endpoint (llama.cpp's server, Ollama, vLLM or a hosted API).
///
/// The API key never comes from the settings table: it is read from `ARKIVATOR_LLM_API_KEY`, or
/// from the first line of `<library>/llm.key`, a file only its owner may read (mode 0600).
public struct LLMSettings: Sendable, Equatable {
    /// The server's base URL, with or without `/v1` (`http://127.0.0.1:8080`, `https://api.example.com/v1`).
    public var url: URL
    /// The model name sent with each request (servers with one model ignore it).
    public var model: String
    public var apiKey: String?
    /// Whether a URL that is not on this machine may be used (the letter text is sent there).
    public var allowRemote: Bool
    /// Household names are replaced by placeholders before sending, too (fødselsnumre always are).
    public var maskNames: Bool
    /// Seconds one request may take, waiting in the server's queue included.
    public var timeout: TimeInterval
    /// Tries per document for 429 and 5xx answers, with 1, 2, 4 s between them.
    public var attempts: Int

    public static let defaultModel = "default"
    /// Generous: a small local model on two busy cores, with another request ahead in its queue.
    public static let defaultTimeout: TimeInterval = 300
    public static let keyFileName = "llm.key"
    public static let keyVariable = "ARKIVATOR_LLM_API_KEY"

    public init(url: URL, model: String = LLMSettings.defaultModel, apiKey: String? = nil, allowRemote: Bool = false,
                maskNames: Bool = false, timeout: TimeInterval = LLMSettings.defaultTimeout, attempts: Int = 3) {
        self.url = url
        self.model = model
        self.apiKey = apiKey
        self.allowRemote = allowRemote
        self.maskNames = maskNames
        self.timeout = timeout
        self.attempts = max(1, attempts)
    }

    /// Parses a user's `llm.url`: http or https with a host, nothing else.
    public static func parseURL(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil else { return nil }
        return url
    }

    /// The chat-completions address: `BASE/v1/chat/completions`, or `BASE/chat/completions` when
    /// the base already ends in a version (`…/v1`).
    public var endpoint: URL {
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let last = base.split(separator: "/").last.map(String.init) ?? ""
        let versioned = last.count >= 2 && last.first == "v" && last.dropFirst().allSatisfy(\.isNumber)
        return URL(string: base + (versioned ? "" : "/v1") + "/chat/completions") ?? url
    }

    /// The host as shown in messages (`127.0.0.1:8080`).
    public var hostDescription: String {
        (url.host ?? url.absoluteString) + (url.port.map { ":\($0)" } ?? "")
    }

    /// True when the server is on this machine (see ``LocalAddress``).
    public var isLoopback: Bool { LocalAddress.isLocal(url: url) }

    /// - Throws: ``LLMFailure`` when the URL is remote and remote use is not allowed.
    public func checkAllowed() throws(LLMFailure) {
        if !isLoopback && !allowRemote { throw LLMFailure.remoteNotAllowed(hostDescription) }
    }

    /// The API key: the environment variable, else `llm.key` in `libraryDirectory`; nil when neither.
    /// - Throws: ``LLMFailure`` for a key file others can read, or one that cannot be read.
    public static func apiKey(libraryDirectory: URL, environment: [String: String]) throws(LLMFailure) -> String? {
        if let key = environment[keyVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty { return key }
        let path = libraryDirectory.appendingPathComponent(keyFileName).path
        do {
            let key = try SecretFile.firstLine(path)?.trimmingCharacters(in: .whitespaces)
            return key?.isEmpty == false ? key : nil
        } catch .readableByOthers {
            throw LLMFailure.keyFile(path, readable: true)
        } catch {
            throw LLMFailure.keyFile(path, readable: false)
        }
    }
}
