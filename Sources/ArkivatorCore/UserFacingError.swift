/// An error with a message for a person: what happened and what to do, in Bokmål and English,
/// and a short code that stays the same in every language (for scripts, the journal and tests).
///
/// Every module's errors conform where they are defined, so a shell prints `userMessage.text()`
/// as one plain line for any of them and nothing outside the error types turns errors into text.
public protocol UserFacingError: Error, CustomStringConvertible {
    var userMessage: UserMessage { get }
    /// A stable machine-readable code (`truncated`, `diskFull`, `duplicate` …).
    var errorCode: String { get }
}

extension UserFacingError {
    public var description: String { userMessage.text() }
}

extension UserMessage {
    /// The message for any error: its own when it has one, else a plain fallback that names it.
    public init(error: any Error) {
        if let error = error as? any UserFacingError {
            self = error.userMessage
        } else {
            self.init(nb: "Uventet feil: \(error)", en: "Unexpected error: \(error)")
        }
    }
}

/// Why a document was not filed: the stage that failed, a stable code and the message in both
/// languages. It travels unchanged from the stage to `ingest --json`, the watch journal, the
/// `NAME.feil.txt` note and the web app, so no shell ever has to turn an error into text.
public struct DocumentFailure: UserFacingError, Sendable, Equatable, Codable {
    /// Where in the pipeline it failed.
    public enum Stage: String, Sendable, Codable, CaseIterable {
        /// Reading the files (missing, empty, not an image, too large, damaged).
        case intake
        /// Cleanup and OCR.
        case recognition
        /// Writing the archive files.
        case write
        /// Recording the document in the library.
        case library
    }

    public let stage: Stage
    /// The failing error's own code (`truncated`, `diskFull`, `outsideArchive` …).
    public let errorCode: String
    public let userMessage: UserMessage

    public init(stage: Stage, code: String, message: UserMessage) {
        self.stage = stage
        self.errorCode = code
        self.userMessage = message
    }

    /// The failure for any error thrown in `stage`: its own code and message when it has them.
    public init(_ error: any Error, in stage: Stage) {
        if let failure = error as? DocumentFailure {
            self = failure
        } else if let error = error as? any UserFacingError {
            self.init(stage: stage, code: error.errorCode, message: error.userMessage)
        } else {
            let message: UserMessage = switch stage {
            case .intake: UserMessage(nb: "Filen kunne ikke leses: \(error).", en: "The file could not be read: \(error).")
            case .recognition: UserMessage(nb: "Siden kunne ikke leses (OCR): \(error). Kjør arkivator doctor.",
                                           en: "The page could not be read (OCR): \(error). Run arkivator doctor.")
            case .write: UserMessage(nb: "Kunne ikke arkivere dokumentet: \(error).", en: "Could not file the document: \(error).")
            case .library: UserMessage(nb: "Biblioteket kunne ikke oppdateres: \(error).",
                                       en: "The library could not be updated: \(error).")
            }
            self.init(stage: stage, code: stage.rawValue, message: message)
        }
    }

    /// True when the cause lies with the machine (disk, permissions, a busy library), not the
    /// document: the same files may well be filed on a later try.
    public var isPassing: Bool {
        switch stage {
        case .write, .library: true
        case .intake: errorCode == "unreadable"
        case .recognition: false
        }
    }

    private enum CodingKeys: String, CodingKey {
        case stage, code, nb, en
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(stage: try c.decode(Stage.self, forKey: .stage), code: try c.decode(String.self, forKey: .code),
                  message: UserMessage(nb: try c.decode(String.self, forKey: .nb), en: try c.decode(String.self, forKey: .en)))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(stage, forKey: .stage)
        try c.encode(errorCode, forKey: .code)
        try c.encode(userMessage.norwegian, forKey: .nb)
        try c.encode(userMessage.english, forKey: .en)
    }
}
