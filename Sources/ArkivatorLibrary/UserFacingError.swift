import ArkivatorCore

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
