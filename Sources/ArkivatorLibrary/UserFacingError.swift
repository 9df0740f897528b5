import ArkivatorCore

/// An error with a message for a person: what happened and what to do, in Bokmål and English.
///
/// Every error the library module throws conforms, so a command-line shell can print
/// `userMessage.text()` as one plain line for any of them.
public protocol UserFacingError: Error, CustomStringConvertible {
    var userMessage: UserMessage { get }
}

extension UserFacingError {
    public var description: String { userMessage.text() }
}

extension LibraryError: UserFacingError {
    public var userMessage: UserMessage { message }
}

extension InputError: UserFacingError {
    public var userMessage: UserMessage { message }
}

extension UserMessage {
    /// The message for any error: its own when it has one, else a plain fallback.
    public init(error: any Error) {
        if let error = error as? any UserFacingError {
            self = error.userMessage
        } else {
            self.init(nb: "Uventet feil: \(error)", en: "Unexpected error: \(error)")
        }
    }
}
