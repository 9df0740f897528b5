/// The web app's accounts: the password, the browsers signed in (sessions), one-time sign-in
/// links and the API's device tokens. A small store over the library's connections.
public struct AccountStore: Sendable {
    let library: Library
}

extension Library {
    /// The web app's password, sessions, sign-in links and API tokens.
    public var accounts: AccountStore { AccountStore(library: self) }
}
