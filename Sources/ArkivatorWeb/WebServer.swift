import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import HummingbirdTLS
import NIOSSL

/// `arkivator serve`: the household's web app over one library. A thin shell, like the CLI:
/// every page reads and changes the library through the same calls the commands use.
public struct WebServer: Sendable {
    public struct Options: Sendable {
        /// Where to listen; loopback unless a password is set (see ``check()``).
        public var host: String
        public var port: Int
        /// Seconds a signed-in browser may be idle before it must sign in again (the app lock).
        public var idleLock: TimeInterval
        /// bcrypt's cost for new passwords (12: about a quarter second a try).
        public var passwordCost: UInt8
        /// Whether the site is reached over TLS (then cookies are `Secure`): set when ``tls`` is,
        /// or when a proxy in front gives TLS.
        public var secureCookies: Bool
        /// A certificate chain and its private key (PEM files) to serve HTTPS with; nil for HTTP.
        public var tls: (certificate: String, key: String)?
        /// The time, for slowing down password guessing: `Date()` in use; tests may give another.
        public var clock: @Sendable () -> Date = { Date() }
        /// The folder uploads are handed to (watched by `serve` like `watch` watches a folder);
        /// nil turns uploading off.
        public var inbox: URL?

        public init(host: String = "127.0.0.1", port: Int = 8080, idleLock: TimeInterval = 15 * 60,
                    passwordCost: UInt8 = 12, secureCookies: Bool = false, inbox: URL? = nil,
                    tls: (certificate: String, key: String)? = nil) {
            self.tls = tls
            self.host = host
            self.port = port
            self.idleLock = idleLock
            self.passwordCost = passwordCost
            self.secureCookies = secureCookies || tls != nil
            self.inbox = inbox
        }

        /// Whether the address is this machine only.
        public var isLoopback: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) }
    }

    public let library: Library
    public let options: Options

    public init(library: Library, options: Options = Options()) {
        self.library = library
        self.options = options
    }

    /// Refuses to listen beyond this machine before a password is set: health data must not be
    /// open to everyone on the network.
    public func check() throws {
        if !options.isLoopback, try library.webPasswordHash() == nil {
            throw WebFailure.passwordNeeded(host: options.host)
        }
    }

    /// The router with every page and API route.
    func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: SignIn(library: library, idle: options.idleLock))
        router.get("/static/app.css") { _, _ in StaticFiles.asset(StaticFiles.css, type: "text/css") }
        router.get("/static/app.js") { _, _ in StaticFiles.asset(StaticFiles.appScript, type: "text/javascript") }
        let throttle = LoginThrottle(clock: options.clock)
        addSignInRoutes(to: router, throttle: throttle)
        addLibraryRoutes(to: router)
        addAPIRoutes(to: router)
        addAPIChangeRoutes(to: router)
        addUploadRoutes(to: router)
        addChangeRoutes(to: router)
        addFamilyRoutes(to: router)
        addSettingsRoutes(to: router)
        return router
    }

    /// The application, ready to run (or to test in process); over HTTPS when ``Options/tls`` is set.
    public func application() throws -> some ApplicationProtocol {
        let configuration = ApplicationConfiguration(address: .hostname(options.host, port: options.port), serverName: nil)
        guard let tls = options.tls else { return Application(router: router(), configuration: configuration) }
        let tlsConfiguration: TLSConfiguration
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
            tlsConfiguration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        } catch {
            throw WebFailure(code: "tls", message: UserMessage(
                nb: "Sertifikatet eller nøkkelen kunne ikke leses (\(tls.certificate), \(tls.key)). Begge må være PEM-filer som hører sammen.",
                en: "The certificate or key could not be read (\(tls.certificate), \(tls.key)). Both must be PEM files that belong together."))
        }
        return Application(router: router(), server: try .tls(.http1(), tlsConfiguration: tlsConfiguration), configuration: configuration)
    }

    /// Serves until the process is told to stop (SIGINT, SIGTERM).
    public func run() async throws {
        try check()
        try library.endIdleWebSessions(idle: options.idleLock)
        // Uploads never finished (a page closed half-way) go after a day; nothing was received.
        if let (_, staging) = try? Self.uploadFolders(options) {
            let dayAgo = Date().addingTimeInterval(-86_400)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [] where Self.isUploadID(name) {
                let folder = staging.appendingPathComponent(name)
                let made = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date) ?? Date()
                if made < dayAgo { try? FileManager.default.removeItem(at: folder) }
            }
        }
        try await application().runService()
    }
}

extension WebServer {
    /// Sets the web app's password (signing every browser out), or says why it cannot be used.
    public func setPassword(_ password: String, again: String, language: UILanguage = .current) throws {
        if let problem = Self.passwordProblem(password, again: again, language: language) {
            throw WebFailure(code: "badPassword", message: UserMessage(nb: problem, en: problem))
        }
        let cost = options.passwordCost
        try library.setWebPasswordHash(Bcrypt.hash(password, cost: cost))
    }
}

/// Why the web app could not start or take a password, in plain words.
public struct WebFailure: UserFacingError, Sendable {
    public let errorCode: String
    public let userMessage: UserMessage

    init(code: String, message: UserMessage) {
        errorCode = code
        userMessage = message
    }

    static func passwordNeeded(host: String) -> WebFailure {
        WebFailure(code: "passwordNeeded", message: UserMessage(
            nb: "Arkivator lytter ikke på \(host) før et passord er satt, fordi brevene er helseopplysninger. "
                + "Sett et passord med «arkivator serve --set-password», eller lytt bare på denne maskinen (127.0.0.1).",
            en: "Arkivator does not listen on \(host) before a password is set, because the letters are health data. "
                + "Set one with `arkivator serve --set-password`, or listen on this machine only (127.0.0.1)."))
    }
}

/// Slows down password guessing: after five wrong passwords in a row, each try waits twice as
/// long as the one before (2 s, 4 s … at most 5 minutes); a right password resets it.
actor LoginThrottle {
    private var failures = 0
    private var blockedUntil = Date.distantPast
    private let clock: @Sendable () -> Date

    init(clock: @escaping @Sendable () -> Date) { self.clock = clock }

    /// Seconds to wait before another try is taken, or nil when one may be made now.
    func wait() -> Int? {
        let now = clock()
        return now < blockedUntil ? Int(blockedUntil.timeIntervalSince(now).rounded(.up)) : nil
    }

    func failed() {
        failures += 1
        if failures >= 5 {
            blockedUntil = clock().addingTimeInterval(min(300, pow(2, Double(failures - 4))))
        }
    }

    func succeeded() {
        failures = 0
        blockedUntil = .distantPast
    }
}
