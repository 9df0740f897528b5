/// An error with a message for a person: what happened and what to do, in Bokmål and English.
///
/// The errors of the library, the upload queue and the LLM client conform, so a shell can print
/// `userMessage.text()` as one plain line for any of them.
public protocol UserFacingError: Error, CustomStringConvertible {
    var userMessage: UserMessage { get }
}

extension UserFacingError {
    public var description: String { userMessage.text() }
}
