import ArkivatorCore
import ArkivatorLibrary
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

extension WebServer {
    /// The first-run page (the first password needs the one-time code `serve` prints in its
    /// terminal), sign-in (throttled per client), the owner's one-time sign-in link, sign-out.
    func addSignInRoutes(open: RouterGroup<WebContext>, pages: RouterGroup<WebContext>) {
        let store = self.store, options = self.options, throttle = self.throttle, templates = self.templates, work = self.work
        let secondSteps = self.secondSteps
        let setupCode = SetupCode(value: self.setupCode)
        open.get("/setup") { _, context -> Response in
            guard try await store.read({ try $0.accounts.webPasswordHash() }) == nil else { return Self.redirect("/login") }
            return Self.passwordPage(templates, setup: true, problem: nil, context: context)
        }
        open.post("/setup") { request, context -> Response in
            guard try await store.read({ try $0.accounts.webPasswordHash() }) == nil else { throw HTTPError(.forbidden) }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let code = form["code"] ?? ""
            // Wrong codes count like wrong passwords: the code cannot be guessed either.
            switch await throttle.attempt(client: context.client, { setupCode.matches(code) }) {
            case .accepted: break
            case .wrong:
                return Self.passwordPage(templates, setup: true, problem: context.text(
                    "Engangskoden stemmer ikke. Se i terminalen der Arkivator ble startet, og skriv koden som står der.",
                    "The one-time code does not match. Look in the terminal where Arkivator was started and type the code shown there."),
                    context: context, status: .forbidden)
            case .locked(let seconds):
                return Self.passwordPage(templates, setup: true, problem: Self.lockedText(seconds, context), context: context,
                                         status: .tooManyRequests)
            }
            let password = form["password"] ?? "", again = form["again"] ?? ""
            if let problem = Self.passwordProblem(password, again: again, language: context.language) {
                return Self.passwordPage(templates, setup: true, problem: problem, code: code, context: context, status: .badRequest)
            }
            let hash = try await work.quick.run { Bcrypt.hash(password, cost: options.passwordCost) }
            let session = try await store.write { library -> WebSession? in
                // Set only if still unset: two first runs at once cannot both choose.
                guard try library.accounts.webPasswordHash() == nil else { return nil }
                try library.accounts.setWebPasswordHash(hash)
                return try library.accounts.startWebSession(device: context.deviceKind)
            }
            guard let session else { throw HTTPError(.forbidden) }
            return Self.signedIn(session, options: options)
        }
        open.get("/login") { _, context -> Response in
            if try await store.read({ try $0.accounts.webPasswordHash() }) == nil { return Self.redirect("/setup") }
            if context.session != nil { return Self.redirect("/") }
            let locked = await throttle.lockedSeconds(client: context.client)
            return Self.passwordPage(templates, setup: false, problem: locked.map { Self.lockedText($0, context) }, context: context)
        }
        open.post("/login") { request, context -> Response in
            guard let ownerHash = try await store.read({ try $0.accounts.webPasswordHash() }) else { return Self.redirect("/setup") }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? ""
            let name = String((form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(60))
            // The owner leaves the name empty (or writes «eier»); an account is found by its name.
            let isOwner = name.isEmpty || ["eier", "owner"].contains(name.lowercased())
            let account = isOwner ? nil : try await store.read { try $0.accounts.account(named: name) }
            // An unknown name is tried against a hash that matches nothing: it takes as long, and counts as a wrong try.
            let hash = isOwner ? ownerHash : account?.passwordHash ?? Self.noAccountHash
            let outcome = await throttle.attempt(client: context.client) {
                (try? await work.quick.run { Bcrypt.verify(password, hash: hash) }) ?? false
            }
            let access = isOwner ? Access.owner : account.map(\.account.access)
            let device = DeviceKind.of(request)
            switch outcome {
            case .accepted:
                guard let access else { throw HTTPError(.unauthorized) }
                let remember = form["husk"] == "1"
                if isOwner, try await store.read({ try $0.accounts.totpEnabled() }) {
                    // The second step: the code from the app.
                    return Self.codePage(templates, step: secondSteps.start(remember: remember), problem: nil, context: context)
                }
                let session = try await store.write { library -> WebSession in
                    let session = try library.accounts.startWebSession(account: access.account, device: device, remember: remember)
                    try library.audit.record(.signedIn, by: access, device: device)
                    return session
                }
                if isOwner { Self.rehashIfCostChanged(password, hash: hash, cost: options.passwordCost, work: work, store: store) }
                return Self.signedIn(session, options: options)
            case .wrong:
                try? await store.write { library in
                    try library.audit.record(.signInFailed, by: access ?? Access(account: nil, name: name, role: .reader, members: []),
                                             detail: access == nil ? "ukjent navn" : "", device: device)
                }
                return Self.passwordPage(templates, setup: false, problem: context.text(
                    isOwner ? "Feil passord. Prøv igjen." : "Feil navn eller passord. Prøv igjen.",
                    isOwner ? "Wrong password. Try again." : "Wrong name or password. Try again."),
                    name: name, context: context, status: .unauthorized)
            case .locked(let seconds):
                return Self.passwordPage(templates, setup: false, problem: Self.lockedText(seconds, context), name: name, context: context,
                                         status: .tooManyRequests)
            }
        }
        open.post("/login/kode") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let token = form["trinn"] ?? "", code = form["kode"] ?? ""
            let device = DeviceKind.of(request)
            guard let step = secondSteps.attempt(token) else {
                return Self.passwordPage(templates, setup: false, problem: context.text(
                    "Det gikk for lang tid, eller koden var feil for mange ganger. Skriv passordet på nytt.",
                    "Too much time passed, or the code was wrong too many times. Type the password again."),
                    context: context, status: .unauthorized)
            }
            switch await throttle.attempt(client: context.client, { (try? await store.write { try $0.accounts.checkTOTP(code) }) ?? false }) {
            case .accepted:
                secondSteps.finish(token)
                let session = try await store.write { library -> WebSession in
                    let session = try library.accounts.startWebSession(device: device, remember: step.remember)
                    try library.audit.record(.signedIn, by: .owner, detail: "med kode fra app", device: device)
                    return session
                }
                return Self.signedIn(session, options: options)
            case .wrong:
                try? await store.write { try $0.audit.record(.signInFailed, by: .owner, detail: "feil kode fra app", device: device) }
                return Self.codePage(templates, step: token, problem: context.text(
                    "Koden stemmer ikke. Skriv koden appen viser nå (den skifter hvert halve minutt).",
                    "The code does not match. Type the code the app shows now (it changes every half minute)."),
                    context: context, status: .unauthorized)
            case .locked(let seconds):
                return Self.codePage(templates, step: token, problem: Self.lockedText(seconds, context), context: context,
                                     status: .tooManyRequests)
            }
        }
        open.get("/login/link/{token}") { _, context -> Response in
            let token = context.parameters.get("token") ?? ""
            guard try await store.write({ try $0.accounts.redeemSignInLink(token) }) else {
                return templates.page("message", title: context.text("Lenken virker ikke", "The link does not work"), model: [
                    "text": context.text("Denne innloggingslenken er brukt eller utløpt. Lag en ny på maskinen Arkivator kjører på, eller logg inn med passordet.",
                                         "This sign-in link has been used or has expired. Make a new one on the machine Arkivator runs on, or sign in with the password."),
                    "link": ["href": "/login", "label": context.text("Til innloggingen", "To sign in")],
                ] as [String: Any], context: context, status: .gone)
            }
            let device = context.deviceKind
            let session = try await store.write { library -> WebSession in
                let session = try library.accounts.startWebSession(device: device)
                try library.audit.record(.signedIn, by: .owner, detail: "engangslenke", device: device)
                return session
            }
            return Self.signedIn(session, options: options)
        }
        pages.get("/enheter") { request, context -> Response in
            guard let session = context.session else { throw HTTPError(.unauthorized) }
            let account = context.seen.account
            let devices = try await store.read { try $0.accounts.devices(account: account, current: session.token) }
            let words = Words(templates, context)
            let rows: [[String: Any]] = devices.map { device in
                var row: [String: Any] = [
                    "id": device.id, "kind": device.device.isEmpty ? words.text("ukjent enhet", "unknown device") : device.device,
                    "since": words.date(Self.auditTime(device.since.formatted(.iso8601))), "seen": words.date(Self.auditTime(device.lastSeen.formatted(.iso8601)))]
                if device.current { row["current"] = true }
                return row
            }
            let keys = try await store.read { try $0.accounts.passkeys(account: account) }
            let passkeys: [[String: Any]] = keys.map { key in
                var row: [String: Any] = ["id": key.id, "kind": key.device.isEmpty ? words.text("ukjent enhet", "unknown device") : key.device,
                                          "since": words.date(Self.auditTime(key.createdAt))]
                if let used = key.lastUsed { row["used"] = words.date(Self.auditTime(used)) }
                return row
            }
            var model: [String: Any] = ["devices": rows, "passkeys": passkeys, "hasPasskeys": !passkeys.isEmpty,
                                        "intro": words.text("Nettleserne som er logget inn med kontoen din. Logg ut en du ikke kjenner igjen, eller en du har mistet.",
                                                            "The browsers signed in with your account. Sign out one you do not recognise, or one you have lost.")]
            let query = WebForm(request.uri.query ?? "")
            if query.value("utlogget") != nil {
                model["notice"] = words.text("Enheten er logget ut.", "The device is signed out.")
            } else if let made = query.value("passnokkel") {
                model["notice"] = made == "1" ? words.text("Passnøkkelen er lagt til. Neste gang kan du logge inn med den.",
                                                           "The passkey is added. Next time you can sign in with it.")
                    : words.text("Passnøkkelen er fjernet.", "The passkey is removed.")
            }
            return templates.page("devices", title: words["devicesTitle"], model: model, context: context, scripts: ["passkey.js"],
                                  section: "devices")
        }
        pages.post("/enheter/{device}/logg-ut") { _, context -> Response in
            guard let id = context.parameters.get("device", as: Int.self) else { throw WebError.notFound }
            let account = context.seen.account
            guard try await store.write({ try $0.accounts.endDevice(id, account: account) }) else { throw WebError.notFound }
            return Self.redirect("/enheter?utlogget=1")
        }
        pages.post("/logout") { _, context -> Response in
            if let session = context.session {
                let access = context.seen, device = context.deviceKind
                try await store.write { library in
                    try library.accounts.endWebSession(token: session.token)
                    try library.audit.record(.signedOut, by: access, device: device)
                }
            }
            return Response(status: .seeOther, headers: [.location: "/login", .setCookie: PageSession.clearCookie(secure: options.secureCookies)])
        }
    }

    /// A bcrypt hash no password matches (of 32 random bytes, at cost 11): what a name that is no
    /// account is checked against, so it takes the time a real one does.
    static let noAccountHash = "$2b$11$" + String(repeating: "A", count: 53)

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// After a sign-in with the right password: when its stored hash has another bcrypt cost than
    /// ``Options/passwordCost``, hashes it again at that cost, in the background (the person is
    /// signed in already), unless the password was changed meanwhile.
    static func rehashIfCostChanged(_ password: String, hash: String, cost: UInt8, work: WebWork, store: AsyncLibrary) {
        guard bcryptCost(of: hash) != cost else { return }
        Task {
            guard let new = try? await work.quick.run({ Bcrypt.hash(password, cost: cost) }) else { return }
            // In place of the old hash only, and signing no one out: the person has just signed in.
            _ = try? await store.write { library in try library.accounts.rehashWebPassword(new, replacing: hash) }
        }
    }

    /// The cost written in a bcrypt hash (`$2b$11$…`); nil when it is not one.
    static func bcryptCost(of hash: String) -> UInt8? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[1].hasPrefix("2"), parts[2].count == 2 else { return nil }
        return UInt8(parts[2])
    }

    /// The way into the library with a new session's cookie.
    static func signedIn(_ session: WebSession, options: Options) -> Response {
        let maxAge = session.rememberedUntil.map { $0.timeIntervalSince(session.lastSeen) }
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: PageSession.setCookie(session.token, secure: options.secureCookies,
                                                                                                     maxAge: maxAge)])
    }

    /// The page that asks the owner for the code from the app, after the right password.
    static func codePage(_ templates: Templates, step: String, problem: String?, context: WebContext,
                         status: HTTPResponse.Status = .ok) -> Response {
        var model: [String: Any] = ["step": step, "intro": context.text(
            "Skriv koden på 6 sifre som appen for innloggingskoder viser for Arkivator nå.",
            "Type the 6-digit code the sign-in code app shows for Arkivator now.")]
        if let problem { model["problem"] = problem }
        return templates.page("code", title: context.text("Kode fra appen", "Code from the app"), model: model, context: context, status: status)
    }

    static func lockedText(_ seconds: Int, _ context: WebContext) -> String {
        context.text("For mange feil forsøk fra denne maskinen. Vent \(seconds) sekunder og prøv igjen.",
                     "Too many wrong tries from this machine. Wait \(seconds) seconds and try again.")
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

    static func passwordPage(_ templates: Templates, setup: Bool, problem: String?, code: String = "", name: String = "",
                             context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        let t = context.language
        let title = setup ? t.text("Velg et passord", "Choose a password") : t.text("Logg inn", "Sign in")
        let model = PasswordView(
            setup: setup, askName: !setup, again: setup, typedName: name, action: setup ? "/setup" : "/login", problem: problem, code: code,
            intro: setup ? t.text("Brevene i arkivet er helseopplysninger. Velg et passord (minst 10 tegn) som trengs for å åpne Arkivator i nettleseren.",
                                  "The letters in the archive are health data. Choose a password (at least 10 characters) needed to open Arkivator in a browser.")
                : t.text("Logg inn med passordet, eller med en passnøkkel hvis du har laget en under «Enheter».",
                         "Sign in with the password, or with a passkey if you have made one under “Devices”."),
            autocomplete: setup ? "new-password" : "current-password", button: title)
        return templates.page("password", title: title, model: model, context: context, status: status,
                              scripts: setup ? [] : ["passkey.js"])
    }

    struct PasswordView {
        /// The first password: the one-time code is asked for.
        let setup: Bool
        /// Sign-in: the account's name (empty for the owner).
        var askName = false
        /// A new password: typed twice.
        var again = false
        /// The name typed before (a wrong password), shown again.
        var typedName = ""
        let action: String
        let problem: String?
        let code: String
        let intro: String
        let autocomplete: String
        let button: String
    }
}
