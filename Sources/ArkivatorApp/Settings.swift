import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorSync
import ArkivatorPipeline
import Foundation

/// The library's settings, read and typed (see ``Household/settings()``).
public struct Settings: Sendable, Equatable {
    /// Where filed documents are uploaded; nil: uploading is off.
    public var destination: Destination?
    /// The stored `destination` when it is not one arkivator can read (set by an older version).
    public var unreadableDestination: String?
    /// The command run, with the message as its argument, when an upload gives up.
    public var notify: String?
    public var languageModel: LanguageModel

    /// The language model settings (`llm.*`); the API key is never among them.
    public struct LanguageModel: Sendable, Equatable {
        /// The server (`llm.url`); nil when none is set up.
        public var url: URL?
        /// The model name sent (`llm.model`); nil: the server's default.
        public var model: String?
        /// `llm.enabled`: ingest, watch and the web app's inbox ask the model after the rules.
        public var enabled: Bool
        /// `llm.allowRemote`: a server on another machine may be used (the letter text goes there).
        public var allowRemote: Bool
        /// `llm.maskNames`: the household's names are hidden from the model too.
        public var maskNames: Bool
        /// `llm.timeout`: seconds one request may take; nil: ``LLMSettings/defaultTimeout``.
        public var timeout: TimeInterval?

        /// Whether the server is on this machine (see ``LocalAddress``); false when none is set.
        public var isLocal: Bool { url.map(LocalAddress.isLocal(url:)) ?? false }

        /// Whether letter text would leave this machine and that is not allowed yet.
        public var needsPermission: Bool { url != nil && !isLocal && !allowRemote }
    }

    /// Reads every setting from the library.
    static func read(_ library: Library) throws -> Settings {
        let stored = try library.setting(.destination)
        let destination = stored.flatMap { try? Destination.parse($0) }
        return Settings(
            destination: destination, unreadableDestination: destination == nil ? stored : nil,
            notify: try library.setting(.notify),
            languageModel: LanguageModel(
                url: try library.setting(.llmURL).flatMap(LLMSettings.parseURL), model: try library.setting(.llmModel),
                enabled: try library.isOn(.llmEnabled), allowRemote: try library.isOn(.llmAllowRemote),
                maskNames: try library.isOn(.llmMaskNames), timeout: try library.setting(.llmTimeout).flatMap(Double.init)))
    }
}

/// Who a message about a setting is for: the command line may name a command to run; the web
/// app's user has none to run.
public enum SettingAudience: Sendable, Equatable {
    case commandLine
    case web
}

/// A setting that was stored (see ``Household/change(_:to:for:)``).
public struct SettingChange: Sendable, Equatable {
    public var setting: Library.Setting
    /// The value stored (a folder made absolute, a switch as `true`/`false`); nil: removed.
    public var stored: String?
    /// Something the person should know about it (where a WebDAV login goes, that letter text
    /// will go to another machine once allowed).
    public var note: UserMessage?
    /// Letters queued to be copied to a new destination (the whole archive); 0 otherwise.
    public var lettersToCopy: Int
}

/// A value refused for a setting (or a household file that cannot be read), with one sentence
/// saying why and what to do.
public struct SettingRefused: UserFacingError, Sendable, Equatable {
    /// `badValue`, `unreachable`, `destinationMissing`, `refused`, `full`, `login`, `noModel` …
    public let errorCode: String
    public let userMessage: UserMessage

    public init(code: String, message: UserMessage) {
        errorCode = code
        userMessage = message
    }
}
