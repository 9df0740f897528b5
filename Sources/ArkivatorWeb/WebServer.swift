import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// `arkivator serve`: the household's web app over one library. A thin shell, like the CLI:
/// every page reads and changes the library through the same calls the commands use, always
/// through ``AsyncLibrary`` (never on the pool that serves requests), and every page is a
/// template that escapes what it shows.
///
/// Routes come in groups with their own gate: the open sign-in pages, the pages of a signed-in
/// browser (``PageSession``: session and CSRF), `/api/v1` (``APIAuth``: a device's token or a
/// session; JSON errors), and a share link's letters (`/delt/…`: the link's secret, no session). Errors become answers in one place (``ErrorResponses``).
public struct WebServer: Sendable {
    public struct Options: Sendable {
        /// Where to listen; loopback unless a password is set (see ``check()``).
        public var host: String
        public var port: Int
        /// Seconds a signed-in browser may be idle before it must sign in again (the app lock).
        public var idleLock: TimeInterval
        /// bcrypt's cost for new passwords. 11: about an eighth of a second a try on one core, so a
        /// sign-in stays under a second while the server is busy receiving pages; with the
        /// throttle (5 tries, then a lock) a guess costs far more than it can win. A password
        /// stored at another cost is hashed again at this one when it next signs in.
        public var passwordCost: UInt8
        /// Whether the site is reached over TLS (then cookies are `Secure`): set when ``tls`` is,
        /// or when a proxy in front gives TLS.
        public var secureCookies: Bool
        /// A certificate chain and its private key (PEM files) to serve HTTPS with; nil for HTTP.
        public var tls: (certificate: String, key: String)?
        /// The folder uploads are handed to (watched by `serve` like `watch` watches a folder);
        /// nil turns uploading off.
        public var inbox: URL?
        /// Proxies whose `X-Forwarded-For` names the client (for counting wrong passwords).
        public var trustedProxies: [String]
        /// Seconds a connection may send nothing before it is closed.
        public var connectionIdleTimeout: Int64
        /// The time, for the sign-in throttle: `Date()` in use; tests may give another.
        public var clock: @Sendable () -> Date = { Date() }
        /// How the throttle waits before answering a wrong password; tests may wait less.
        public var pause: @Sendable (Double) async -> Void = { try? await Task.sleep(for: .seconds($0)) }
        public var logger: Logger
        /// How long «Forklar brevet» waits for a quick model before the page says the explanation
        /// is being made (the model goes on in the background).
        public var explanationWait: Duration = .seconds(15)

        public init(host: String = "127.0.0.1", port: Int = 8080, idleLock: TimeInterval = 15 * 60,
                    passwordCost: UInt8 = 11, secureCookies: Bool = false, inbox: URL? = nil,
                    tls: (certificate: String, key: String)? = nil, trustedProxies: [String] = [],
                    connectionIdleTimeout: Int64 = 60, logger: Logger = Logger(label: "arkivator.serve")) {
            self.tls = tls
            self.host = host
            self.port = port
            self.idleLock = idleLock
            self.passwordCost = passwordCost
            self.secureCookies = secureCookies || tls != nil
            self.inbox = inbox
            self.trustedProxies = trustedProxies
            self.connectionIdleTimeout = connectionIdleTimeout
            self.logger = logger
        }

        /// Whether the address is this machine only.
        public var isLoopback: Bool { LocalAddress.isLocal(host: host) }
    }

    /// The assembly the commands share: settings that are checked when saved, the upload queue's
    /// state and its "Prøv igjen".
    let household: Household
    let store: AsyncLibrary
    public let options: Options
    let templates: Templates
    let throttle: SignInThrottle
    /// The one-time code the first password needs, while none is set (`serve` prints it).
    public let setupCode: String
    let routeTable = RouteTable()
    let familyUndo = FamilyUndo()
    /// Letters as they were before a change to many of them (``addManyRoutes(pages:)``).
    let manyUndo = ExpiringTable<ManyUndo>()
    /// Owners between their password and their app's code.
    let secondSteps = SecondSteps()
    /// Challenges handed out for passkeys.
    let passkeyChallenges = PasskeyChallenges()
    /// The blocking work of the routes, in lanes (``WebWork``).
    let work = WebWork()
    /// Each share link's PDF, made once (``SharePackMaker``).
    let sharePacks: SharePackMaker
    /// Counts calendar feed addresses that open nothing, client by client.
    let feedThrottle = GuessThrottle()
    /// Counts share link addresses that open nothing, client by client.
    let shareThrottle = GuessThrottle()
    let explanationJobs: ExplanationJobs
    /// The episodes of the timelines opened last, kept while the letters stay the same.
    let timelines = TimelineCache()

    public init(household: Household, options: Options = Options()) throws {
        self.household = household
        store = household.store
        self.options = options
        templates = try Templates.load()
        throttle = SignInThrottle(clock: options.clock, sleep: options.pause)
        setupCode = SetupCode.make().value
        explanationJobs = ExplanationJobs(wait: options.explanationWait)
        sharePacks = SharePackMaker(lane: work.pages)
    }


    /// Refuses to listen beyond this machine before a password is set: health data must not be
    /// open to everyone on the network.
    public func check() async throws {
        if !options.isLoopback, try await store.read({ try $0.accounts.webPasswordHash() }) == nil {
            throw WebFailure.passwordNeeded(host: options.host)
        }
    }

    /// The router with every page and API route.
    func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: RequestLog(logger: options.logger))
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorResponses(templates: templates, routes: routeTable, logger: options.logger))
        router.add(middleware: ClientInfo(addresses: ClientAddress(trustedProxies: options.trustedProxies)))
        let templates = self.templates
        router.get("/static/{name}") { _, context -> Response in
            guard let name = context.parameters.get("name"), let asset = templates.assets[name] else { throw WebError.notFound }
            var headers = HTTPFields()
            headers[.contentType] = asset.contentType
            headers[.cacheControl] = "public, max-age=3600"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.bytes))
        }
        // The installable app: its manifest, its service worker (at the root, so it serves the
        // whole app) and the icon a browser asks for by itself. None of them holds any data.
        for (path, name) in [("/manifest.webmanifest", "manifest.webmanifest"), ("/sw.js", "sw.js"), ("/favicon.ico", "icon-192.png")] {
            router.get(RouterPath(path)) { _, _ -> Response in
                guard let asset = templates.assets[name] else { throw WebError.notFound }
                return Response(status: .ok, headers: [.contentType: asset.contentType], body: .init(byteBuffer: asset.bytes))
            }
        }
        // «Del → Arkivator» from the phone's share sheet goes to the service worker, which puts the
        // files in the tray. Before the app has run once there is none: the capture page says so.
        router.post("/del-til-arkivator") { _, _ -> Response in Self.redirect("/upload?delt=0") }
        // The API's description (OpenAPI 3), for anyone who writes a client: it holds no data.
        router.get("/api/v1/openapi.json") { _, _ -> Response in
            guard let asset = templates.assets["openapi.json"] else { throw WebError.notFound }
            return Response(status: .ok, headers: [.contentType: asset.contentType], body: .init(byteBuffer: asset.bytes))
        }
        let open = router.group().add(middleware: PageSession(store: store, idle: options.idleLock, required: false))
        // Every signed-in account: the routes that narrow what they show to the account's members.
        // Every change made through them is logged (``AuditChanges``).
        let signedIn = router.group().add(middleware: PageSession(store: store, idle: options.idleLock, required: true))
            .add(middleware: AuditChanges(store: store))
        let apiSignedIn = router.group("/api/v1").add(middleware: APIAuth(store: store, idle: options.idleLock))
            .add(middleware: AuditChanges(store: store))
        // The owner's alone: every other route (``OwnerOnly``).
        let pages = signedIn.group().add(middleware: OwnerOnly())
        let api = apiSignedIn.group().add(middleware: OwnerOnly())
        // The owner's and a family account's: corrections and uploads (``MayChange``).
        let changes = signedIn.group().add(middleware: MayChange())
        let apiChanges = apiSignedIn.group().add(middleware: MayChange())
        // A share link's letters are read without signing in: this group has no session at all.
        let shared = router.group(RouterPath(Self.sharedPrefix))
        addSignInRoutes(open: open, pages: signedIn)
        addAccountRoutes(open: open, pages: pages)
        addPasskeyRoutes(open: open, signedIn: signedIn)
        addLibraryRoutes(pages: signedIn)
        addDocumentRoutes(anyone: signedIn, changes: changes, pages: pages)
        addAppointmentRoutes(pages: pages)
        addCalendarFeedRoutes(open: router, pages: pages)
        addExplanationRoutes(anyone: signedIn)
        addThumbnailRoutes(pages: signedIn)
        addRecropRoutes(anyone: signedIn, pages: pages)
        addReviewRoutes(changes: changes)
        addFamilyRoutes(pages: pages)
        addTimelineRoutes(pages: signedIn)
        addLabRoutes(anyone: signedIn, changes: changes)
        addSettingsRoutes(pages: pages)
        addUploadRoutes(pages: changes, api: apiChanges)
        addAPIRoutes(anyone: apiSignedIn, api: api)
        addShareRoutes(pages: pages)
        addManyRoutes(pages: pages)
        addSharedRoutes(shared: shared)
        routeTable.fill(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }

    /// The application, ready to run (or to test in process); over HTTPS when ``Options/tls`` is set.
    public func application() throws -> some ApplicationProtocol {
        let configuration = ApplicationConfiguration(address: .hostname(options.host, port: options.port), serverName: nil)
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(options.connectionIdleTimeout))
        guard let tls = options.tls else {
            return Application(router: router(), server: .http1(configuration: http1), configuration: configuration,
                               logger: options.logger)
        }
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
        return Application(router: router(), server: try .tls(.http1(configuration: http1), tlsConfiguration: tlsConfiguration),
                           configuration: configuration, logger: options.logger)
    }

    /// Serves until the process is told to stop (SIGINT, SIGTERM).
    public func run() async throws {
        try await check()
        let idle = options.idleLock, inbox = options.inbox
        try await store.write { try $0.accounts.endIdleWebSessions(idle: idle) }
        // The PDFs of share links that no longer work are not kept.
        try? await store.write { library in try library.sharing.removeStaleSharePacks() }
        if let inbox { try await store.files { UploadInbox(inbox: inbox).removeAbandoned() } }
        // The library's door is the household's: it stays open for the work that goes on after
        // the server (the uploads stopping), and the household closes it last (``Household/close()``).
        try await application().runService()
    }
}

extension WebServer {
    /// Sets the web app's password (signing every browser out), or says why it cannot be used.
    public func setPassword(_ password: String, again: String, language: UILanguage = .current) async throws {
        if let problem = Self.passwordProblem(password, again: again, language: language) {
            throw WebFailure(code: "badPassword", message: UserMessage(nb: problem, en: problem))
        }
        let cost = options.passwordCost
        let hash = try await work.quick.run { Bcrypt.hash(password, cost: cost) }
        try await store.write { try $0.accounts.setWebPasswordHash(hash) }
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
