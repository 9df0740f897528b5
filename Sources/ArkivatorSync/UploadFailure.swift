import ArkivatorCore
import ArkivatorLibrary

/// Why a file could not be uploaded, in plain words, and what the queue does about it.
public struct UploadFailure: UserFacingError, Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// The setting is not a destination arkivator knows (`config set destination` refuses it).
        case badDestination
        /// The server or disk could not be reached or answered with a passing error (connection
        /// refused, time-out, HTTP 5xx except 507, rclone's "temporary error"): tried again after
        /// 1, 2, 4, 8 and 16 seconds, then the job gives up.
        case transient
        /// The login was refused (HTTP 401/403, rclone's authentication errors): the job stays
        /// queued without using up a try, and is tried again after ``UploadPolicy/loginRetryDelay``
        /// or at once with `arkivator upload`.
        case authentication
        /// The credentials cannot be used (a secrets file others can read, a malformed one): like
        /// ``authentication``.
        case credentials
        /// The destination is full (HTTP 507, ENOSPC, rclone's quota errors): tried again like
        /// ``transient`` (space may be freed), then the job gives up.
        case full
        /// The destination refused the file for good (other HTTP 4xx, no permission, rclone's
        /// fatal errors): the job gives up at once.
        case refused
        /// The file is gone from the archive: the job gives up at once.
        case missingFile
        /// rclone is missing or did not understand its command: the job gives up at once.
        case tool
    }

    /// Why uploads wait, as the person sees it: what is wrong at the destination, whatever the
    /// queue does about it (see ``UploadWait``).
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The folder is not there (a disk that is not connected).
        case destinationMissing
        /// The server or disk cannot be reached: down, connection refused, time-out, a passing error.
        case unreachable
        /// The destination refused the files: no permission, another HTTP 4xx.
        case refused
        /// No room left (HTTP 507, a full disk, a quota).
        case full
        /// The login was refused or the credentials cannot be used (HTTP 401/403).
        case login
        /// Anything else: the failure's own message says what.
        case other
    }

    public let kind: Kind
    public let userMessage: UserMessage
    /// What is wrong, in the person's terms.
    public let reason: Reason
    /// What the destination or the system said (`HTTP 503`, `connection refused`, `No space left
    /// on device`), when it said something; also inside ``userMessage``.
    public let detail: String?
    public var errorCode: String { kind.rawValue }

    /// - Parameter reason: nil takes the reason that goes with `kind`.
    public init(_ kind: Kind, nb: String, en: String, reason: Reason? = nil, detail: String? = nil) {
        self.kind = kind
        self.userMessage = UserMessage(nb: nb, en: en)
        self.reason = reason ?? Self.reason(of: kind)
        self.detail = detail
    }

    /// The reason a failure of this kind gives, unless it says otherwise.
    static func reason(of kind: Kind) -> Reason {
        switch kind {
        case .transient: .unreachable
        case .authentication, .credentials: .login
        case .full: .full
        case .refused: .refused
        case .badDestination, .missingFile, .tool: .other
        }
    }

    /// Whether the job is tried again (counting the try) rather than given up.
    var isRetried: Bool { kind == .transient || kind == .full }

    /// Whether the job waits for the person (a login) without using up a try.
    var waitsForLogin: Bool { kind == .authentication || kind == .credentials }

    /// Whether the rest of the pass skips this destination (it would fail the same way for every file).
    var blocksDestination: Bool { isRetried || waitsForLogin }
}

// MARK: - Messages

extension UploadFailure {
    /// Any login in the text is shown as `***` (see ``withoutPassword(_:)``).
    static func badDestination(_ text: String) -> UploadFailure {
        let text = withoutPassword(text)
        return .init(.badDestination,
              nb: "«\(text)» er ikke et mål arkivator kjenner. Skriv folder:/sti/til/mappe, webdav:https://server/sti eller rclone:fjernlager:sti.",
              en: "“\(text)” is not a destination arkivator knows. Write folder:/path/to/folder, webdav:https://server/path or rclone:remote:path.")
    }

    /// The address is shown with its password replaced by `***`: a refusal never prints it back.
    static func credentialsInURL(_ text: String) -> UploadFailure {
        let shown = withoutPassword(text)
        return .init(.badDestination,
                     nb: "Ikke skriv brukernavn eller passord i adressen («\(shown)»): den lagres i klartekst. Bruk ARKIVATOR_WEBDAV_USER og ARKIVATOR_WEBDAV_PASSWORD, eller filen webdav.secret i biblioteket.",
                     en: "Do not put a user name or password in the address (“\(shown)”): it is stored in plain text. Use ARKIVATOR_WEBDAV_USER and ARKIVATOR_WEBDAV_PASSWORD, or the file webdav.secret in the library.")
    }

    /// `scheme://user:***@host/…`: the address with whatever stands between the user name's `:`
    /// and the last `@` of the authority made `***`; with no `:`, the whole user part (it may be
    /// a token).
    static func withoutPassword(_ address: String) -> String {
        guard let scheme = address.range(of: "://") else { return address }
        let rest = address[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return address }
        let userInfo = authority[..<at]
        let user = userInfo.prefix { $0 != ":" }
        let shownUser = userInfo.contains(":") ? user + ":***" : "***"
        return String(address[..<scheme.upperBound]) + shownUser + String(rest[at...])
    }

    static func folderMissing(_ path: String) -> UploadFailure {
        .init(.transient, nb: "Mappen \(path) finnes ikke nå. Er disken koblet til? Prøver igjen senere.",
              en: "The folder \(path) is not there now. Is the disk connected? Trying again later.", reason: .destinationMissing)
    }

    static func full(_ destination: String, detail: String) -> UploadFailure {
        .init(.full, nb: "Målet er fullt: det er ikke plass til flere filer i \(destination) (\(detail)). Frigjør plass; arkivator prøver igjen.",
              en: "The destination is full: there is no room for more files in \(destination) (\(detail)). Free some space; arkivator tries again.", detail: detail)
    }

    static func login(_ destination: String, detail: String) -> UploadFailure {
        .init(.authentication,
              nb: "\(destination) avviste innloggingen (\(detail)). Logg inn på nytt / sjekk brukernavn og passord, så prøver arkivator igjen (eller kjør arkivator upload).",
              en: "\(destination) refused the login (\(detail)). Log in again / check the user name and password; arkivator then tries again (or run arkivator upload).", detail: detail)
    }

    static func refused(_ destination: String, file: String, detail: String) -> UploadFailure {
        .init(.refused, nb: "\(destination) tok ikke imot \(file) (\(detail)).",
              en: "\(destination) did not accept \(file) (\(detail)).", detail: detail)
    }

    static func unreachable(_ destination: String, detail: String) -> UploadFailure {
        .init(.transient, nb: "Fikk ikke kontakt med \(destination) (\(detail)). Prøver igjen senere.",
              en: "Could not reach \(destination) (\(detail)). Trying again later.", detail: detail)
    }

    static func serverError(_ destination: String, detail: String) -> UploadFailure {
        .init(.transient, nb: "\(destination) svarte med en feil (\(detail)). Prøver igjen senere.",
              en: "\(destination) answered with an error (\(detail)). Trying again later.", detail: detail)
    }

    static func missingFile(_ path: String) -> UploadFailure {
        .init(.missingFile, nb: "Filen \(path) mangler i arkivet. Kjør arkivator reindex for å se hva som mangler.",
              en: "The file \(path) is missing from the archive. Run arkivator reindex to see what is missing.")
    }

    static func badRelativePath(_ path: String) -> UploadFailure {
        .init(.refused, nb: "Filnavnet «\(path)» kan ikke brukes på målet.", en: "The file name “\(path)” cannot be used at the destination.")
    }
}
