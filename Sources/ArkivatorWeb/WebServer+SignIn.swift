import ArkivatorCore
import ArkivatorLibrary
import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

extension WebServer {
    /// The first-run page (set a password; the server listens on this machine only until one
    /// is set), sign-in and sign-out.
    func addSignInRoutes(to router: Router<WebContext>, throttle: LoginThrottle) {
        let library = self.library, options = self.options
        router.get("/setup") { _, context -> Response in
            guard try library.webPasswordHash() == nil else { return Response(status: .seeOther, headers: [.location: "/login"]) }
            return Self.passwordPage(setup: true, problem: nil, context: context)
        }
        router.post("/setup") { request, context -> Response in
            guard try library.webPasswordHash() == nil else { throw HTTPError(.forbidden) }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? "", again = form["again"] ?? ""
            if let problem = Self.passwordProblem(password, again: again, language: context.language) {
                return Self.passwordPage(setup: true, problem: problem, context: context, status: .badRequest)
            }
            try library.setWebPasswordHash(await Self.offThread { Bcrypt.hash(password, cost: options.passwordCost) })
            return try Self.signedIn(library: library, options: options)
        }
        router.get("/login") { _, context -> Response in
            if try library.webPasswordHash() == nil { return Response(status: .seeOther, headers: [.location: "/setup"]) }
            if context.session != nil { return Response(status: .seeOther, headers: [.location: "/"]) }
            return Self.passwordPage(setup: false, problem: nil, context: context)
        }
        router.post("/login") { request, context -> Response in
            guard let hash = try library.webPasswordHash() else { return Response(status: .seeOther, headers: [.location: "/setup"]) }
            if let seconds = await throttle.wait() {
                let t = context.language
                return Self.passwordPage(setup: false, problem: t.text(
                    "For mange feil passord. Vent \(seconds) sekunder og prøv igjen.",
                    "Too many wrong passwords. Wait \(seconds) seconds and try again."), context: context, status: .tooManyRequests)
            }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? ""
            guard await Self.offThread({ Bcrypt.verify(password, hash: hash) }) else {
                await throttle.failed()
                return Self.passwordPage(setup: false, problem: context.text(
                    "Feil passord. Prøv igjen.", "Wrong password. Try again."), context: context, status: .unauthorized)
            }
            await throttle.succeeded()
            return try Self.signedIn(library: library, options: options)
        }
        router.post("/logout") { request, context -> Response in
            if let session = context.session { try library.endWebSession(token: session.token) }
            return Response(status: .seeOther, headers: [.location: "/login",
                                                         .setCookie: SignIn.clearCookie(secure: options.secureCookies)])
        }
    }

    /// A new session, its cookie, and the way to the library.
    static func signedIn(library: Library, options: Options) throws -> Response {
        let session = try library.startWebSession()
        return Response(status: .seeOther, headers: [.location: "/",
                                                     .setCookie: SignIn.setCookie(session.token, secure: options.secureCookies)])
    }

    static func passwordProblem(_ password: String, again: String, language: UILanguage) -> String? {
        if password.count < 10 {
            return language.text("Passordet må ha minst 10 tegn.", "The password must have at least 10 characters.")
        }
        if password.utf8.count > 72 {
            return language.text("Passordet kan ha høyst 72 byte.", "The password can have at most 72 bytes.")
        }
        if password != again {
            return language.text("Passordene er ikke like. Skriv det samme to ganger.", "The passwords differ. Type the same one twice.")
        }
        return nil
    }

    static func passwordPage(setup: Bool, problem: String?, context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        let t = context.language
        let title = setup ? t.text("Velg et passord", "Choose a password") : t.text("Logg inn", "Sign in")
        let intro = setup
            ? t.text("Brevene i arkivet er helseopplysninger. Velg et passord (minst 10 tegn) som trengs for å åpne Arkivator i nettleseren.",
                     "The letters in the archive are health data. Choose a password (at least 10 characters) needed to open Arkivator in a browser.")
            : t.text("Skriv passordet for Arkivator.", "Type Arkivator's password.")
        let repeatField = setup ? """
            <p><label for="again">\(t.text("Samme passord en gang til", "The same password again"))</label><br>
            <input id="again" name="again" type="password" autocomplete="new-password" required minlength="10"></p>
            """ : ""
        let body = """
            \(problem.map(HTML.problem) ?? "")
            <p>\(HTML.escape(intro))</p>
            <form method="post" action="\(setup ? "/setup" : "/login")">
            <p><label for="password">\(t.text("Passord", "Password"))</label><br>
            <input id="password" name="password" type="password" autocomplete="\(setup ? "new-password" : "current-password")" required autofocus></p>
            \(repeatField)
            <p><button type="submit">\(HTML.escape(title))</button></p>
            </form>
            """
        return HTML.page(title, body: body, context: context, status: status)
    }

    /// Runs slow CPU work (bcrypt) on a global queue, off the server's event loops.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
