import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

extension WebServer {
    /// Accounts for the people who help the family: the owner invites (a link that works once,
    /// for 7 days), sees and removes them (signed out everywhere at once); the invited person
    /// chooses a password from the link. And the audit log («Logg»), the owner's to read.
    func addAccountRoutes(open: RouterGroup<WebContext>, pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, options = self.options, work = self.work, throttle = self.throttle
        open.get("/invitasjon/{token}") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            guard let account = try await store.read({ try $0.accounts.invitedAccount(token) }) else {
                // An invite that worked once but is past its days: the log says whose it was.
                let device = DeviceKind.of(request)
                try await store.write { library in
                    guard let expired = try library.accounts.expiredInvite(token) else { return }
                    try library.audit.record(.inviteExpired, by: expired.access, detail: expired.name, device: device)
                }
                return Self.inviteGone(templates, context: context)
            }
            return Self.invitePage(templates, token: token, account: account, problem: nil, context: context)
        }
        open.post("/invitasjon/{token}") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            // Secrets are guessed no more than passwords are.
            guard case .accepted = await throttle.attempt(client: context.client, {
                (try? await store.read({ try $0.accounts.invitedAccount(token) })) != nil
            }), let account = try await store.read({ try $0.accounts.invitedAccount(token) }) else {
                return Self.inviteGone(templates, context: context)
            }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? "", again = form["again"] ?? ""
            if let problem = Self.passwordProblem(password, again: again, language: context.language) {
                return Self.invitePage(templates, token: token, account: account, problem: problem, context: context, status: .badRequest)
            }
            let hash = try await work.quick.run { Bcrypt.hash(password, cost: options.passwordCost) }
            let device = DeviceKind.of(request)
            guard let session = try await store.write({ library -> WebSession? in
                guard let taken = try library.accounts.acceptInvite(token, passwordHash: hash, device: device) else { return nil }
                try library.audit.record(.accountJoined, by: taken.account.access, device: device)
                return taken.session
            }) else { return Self.inviteGone(templates, context: context) }
            return Self.signedIn(session, options: options)
        }
        pages.get("/kontoer") { request, context -> Response in
            try await Self.accountsPage(store, templates, notice: WebForm(request.uri.query ?? "").value("fjernet").map {
                context.text("Fjernet kontoen «\($0)». Den er logget ut overalt.", "Removed the account “\($0)”. It is signed out everywhere.")
            }, context: context)
        }
        pages.post("/kontoer/ny") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let name = form.value("name") ?? ""
            let role = Access.Role(rawValue: form.value("role") ?? "") ?? .reader
            let members = form.values("member")
            let access = context.seen, device = context.deviceKind
            do {
                let made = try await store.write { library in
                    let made = try library.accounts.invite(name: name, role: role, members: members)
                    try library.audit.record(.accountInvited, by: access, detail: "\(made.account.name) (\(role.rawValue))", device: device)
                    return made
                }
                let own = try await Self.linkAddress(request, options: options, store: store, language: context.language)
                return try await Self.accountsPage(store, templates, invite: [
                    "name": made.account.name, "warning": own.warning ?? "",
                    "link": "\(own.scheme)://\(own.host)/invitasjon/\(made.token)",
                    "text": context.text("Send denne lenken til \(made.account.name). Den virker én gang, i 7 dager, og vises bare nå.",
                                         "Send this link to \(made.account.name). It works once, for 7 days, and is shown only now."),
                ], context: context)
            } catch let failure as AccountFailure {
                return try await Self.accountsPage(store, templates, problem: failure.userMessage.text(in: context.language),
                                                   context: context, status: .badRequest)
            }
        }
        pages.post("/kontoer/{account}/fjern") { _, context -> Response in
            guard let id = context.parameters.get("account", as: Int.self) else { throw WebError.notFound }
            let access = context.seen, device = context.deviceKind
            let removed = try await store.write { library -> Account? in
                guard let account = try library.accounts.accounts().first(where: { $0.id == id }) else { return nil }
                try library.accounts.removeAccount(named: account.name)
                try library.audit.record(.accountRemoved, by: access, detail: account.name, device: device)
                return account
            }
            guard let removed else { throw WebError.notFound }
            return Self.redirect("/kontoer?" + WebForm("").query(keeping: [], adding: [("fjernet", removed.name)]))
        }
        pages.get("/settings/totp") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let notice = query.value("pa") != nil ? context.text("Koden fra appen er slått på. Neste gang du logger inn, spør Arkivator etter den etter passordet.",
                                                                "The app code is on. Next time you sign in, Arkivator asks for it after the password.")
                : query.value("av") != nil ? context.text("Koden fra appen er slått av. Passordet alene logger deg inn.",
                                                          "The app code is off. The password alone signs you in.") : nil
            return try await Self.totpPage(store, templates, secret: nil, notice: notice, problem: nil, context: context)
        }
        pages.post("/settings/totp/ny") { _, context -> Response in
            let secret = try await store.write { try $0.accounts.beginTOTP() }
            return try await Self.totpPage(store, templates, secret: secret, notice: nil, problem: nil, context: context)
        }
        pages.post("/settings/totp/bekreft") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let code = form["kode"] ?? ""
            guard try await store.write({ try $0.accounts.confirmTOTP(code) }) else {
                let secret = try await store.read { try $0.accounts.pendingTOTP() }
                return try await Self.totpPage(store, templates, secret: secret, notice: nil, problem: context.text(
                    "Koden stemmer ikke. Sjekk at appen har fått nøkkelen over, og skriv koden den viser nå.",
                    "The code does not match. Check that the app has the key above, and type the code it shows now."),
                    context: context, status: .badRequest)
            }
            return Self.redirect("/settings/totp?pa=1")
        }
        pages.post("/settings/totp/av") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? ""
            guard let hash = try await store.read({ try $0.accounts.webPasswordHash() }) else { throw HTTPError(.forbidden) }
            switch await throttle.attempt(client: context.client, { (try? await work.quick.run { Bcrypt.verify(password, hash: hash) }) ?? false }) {
            case .accepted:
                try await store.write { try $0.accounts.disableTOTP() }
                return Self.redirect("/settings/totp?av=1")
            case .wrong:
                return try await Self.totpPage(store, templates, secret: nil, notice: nil, problem: context.text(
                    "Feil passord: koden fra appen er fortsatt på.", "Wrong password: the app code is still on."), context: context,
                    status: .unauthorized)
            case .locked(let seconds):
                return try await Self.totpPage(store, templates, secret: nil, notice: nil, problem: Self.lockedText(seconds, context),
                                               context: context, status: .tooManyRequests)
            }
        }
        pages.get("/logg") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let account = query.value("konto"), member = query.value("person")
            let (entries, accounts, household) = try await store.read { library in
                (try library.audit.entries(account: account, member: member, limit: 500), try library.accounts.accounts().map(\.name),
                 try library.familyMembers().map(\.name))
            }
            let words = Words(templates, context)
            let rows: [[String: Any]] = entries.map { entry in
                var row: [String: Any] = [
                    "at": words.date(Self.auditTime(entry.at)), "account": entry.account == Access.owner.name ? words.text("eieren", "the owner") : entry.account,
                    "action": entry.action.label.text(in: context.language), "device": entry.device]
                // Only what there is: an empty value would be a link without words.
                if let document = entry.document, !document.isEmpty { row["document"] = document }
                if let member = entry.member, !member.isEmpty { row["member"] = member }
                if !entry.detail.isEmpty { row["detail"] = entry.detail }
                return row
            }
            func options(_ names: [String], _ chosen: String?) -> [[String: Any]] {
                names.map { ["name": $0, "selected": $0.caseInsensitiveCompare(chosen ?? "") == .orderedSame] }
            }
            let model: [String: Any] = [
                "entries": rows, "empty": rows.isEmpty,
                "accounts": options([Access.owner.name] + accounts, account), "members": options(household, member),
                "intro": words.text("Hvem som åpnet, endret og delte hva, og når. Loggen kan ikke endres, og hver linje beholdes i 2 år.",
                                    "Who opened, changed and shared what, and when. The log cannot be changed, and each line is kept for 2 years."),
            ]
            return templates.page("auditlog", title: words["auditLog"], model: model, context: context, section: "log")
        }
    }

    /// «2026-11-30 09:14» from a stored UTC time, in the server's time zone.
    static func auditTime(_ iso: String) -> String {
        guard let date = try? Date(iso, strategy: .iso8601) else { return iso }
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }

    static func accountsPage(_ store: AsyncLibrary, _ templates: Templates, invite: [String: String]? = nil, notice: String? = nil,
                             problem: String? = nil, context: WebContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (accounts, household) = try await store.read { library in (try library.accounts.accounts(), try library.familyMembers()) }
        let words = Words(templates, context)
        let rows: [[String: Any]] = accounts.map { account in
            ["id": account.id, "name": account.name, "role": account.role.label.text(in: context.language),
             "members": account.members.joined(separator: ", "),
             "state": account.joined ? words.text("har valgt passord", "has chosen a password")
                : words.text("invitert, ikke svart ennå", "invited, not answered yet"),
             "removeQuestion": words.text("Fjerne kontoen «\(account.name)»? Den logges ut overalt med en gang, og lenker og nøkler den har slutter å virke. Brevene blir der de er.",
                                          "Remove the account “\(account.name)”? It is signed out everywhere at once, and its links and tokens stop working. The letters stay where they are.")]
        }
        var model: [String: Any] = [
            "accounts": rows, "empty": rows.isEmpty, "household": household.map { ["name": $0.name, "id": $0.id] },
            "noHousehold": household.isEmpty,
            "intro": words.text("Gi dem som hjelper familien en egen innlogging. Hver konto ser bare brevene til de familiemedlemmene du velger, og alt den åpner står i loggen.",
                                "Give the people who help the family a sign-in of their own. Each account sees only the letters of the household members you choose, and everything it opens is in the log."),
        ]
        // Only what there is: a missing value must not show as a word.
        if let invite { model["invite"] = invite }
        if let notice { model["notice"] = notice }
        if let problem { model["problem"] = problem }
        return templates.page("accounts", title: words["accountsTitle"], model: model, context: context, status: status, section: "settings")
    }

    /// «Kode fra app»: on or off, and while being set up the key for the app (as text and as an
    /// `otpauth:` address) with the field for its first code.
    static func totpPage(_ store: AsyncLibrary, _ templates: Templates, secret: [UInt8]?, notice: String?, problem: String?,
                         context: WebContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let on = try await store.read { try $0.accounts.totpEnabled() }
        let words = Words(templates, context)
        var model: [String: Any] = ["on": on, "intro": words.text(
            "Med kode fra app spør Arkivator etter en kode på 6 sifre etter passordet når du, eieren, logger inn. Koden lages av en app for innloggingskoder på telefonen (for eksempel Google Authenticator, Microsoft Authenticator eller 1Password) og skifter hvert halve minutt.",
            "With the app code, Arkivator asks for a 6-digit code after the password when you, the owner, sign in. The code is made by a sign-in code app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password) and changes every half minute.")]
        if let secret {
            let key = TOTP.base32(secret)
            model["setup"] = ["key": stride(from: 0, to: key.count, by: 4).map { start -> String in
                let from = key.index(key.startIndex, offsetBy: start)
                return String(key[from..<(key.index(from, offsetBy: 4, limitedBy: key.endIndex) ?? key.endIndex)])
            }.joined(separator: " "), "uri": TOTP.uri(secret: secret, account: "eier")]
        }
        if let notice { model["notice"] = notice }
        if let problem { model["problem"] = problem }
        return templates.page("totp", title: words["totpTitle"], model: model, context: context, status: status, section: "settings")
    }

    static func invitePage(_ templates: Templates, token: String, account: Account, problem: String?, context: WebContext,
                           status: HTTPResponse.Status = .ok) -> Response {
        let t = context.language
        let model = PasswordView(
            setup: false, again: true, action: "/invitasjon/\(token)", problem: problem, code: "",
            intro: t.text("Velkommen, \(account.name). Du er invitert til å se brevene til \(account.members.joined(separator: ", ")). Velg et passord (minst 10 tegn). Når du logger inn senere, skriver du navnet «\(account.name)» og dette passordet.",
                          "Welcome, \(account.name). You are invited to see the letters of \(account.members.joined(separator: ", ")). Choose a password (at least 10 characters). When you sign in later, type the name “\(account.name)” and this password."),
            autocomplete: "new-password", button: t.text("Velg passord og logg inn", "Choose password and sign in"))
        return templates.page("password", title: t.text("Velkommen", "Welcome"), model: model, context: context, status: status)
    }

    static func inviteGone(_ templates: Templates, context: WebContext) -> Response {
        templates.page("message", title: context.text("Invitasjonen virker ikke", "The invite does not work"), model: [
            "text": context.text("Denne invitasjonen er brukt eller utløpt (den virker én gang, i 7 dager). Be den som inviterte deg om en ny.",
                                 "This invite has been used or has expired (it works once, for 7 days). Ask the person who invited you for a new one."),
            "link": ["href": "/login", "label": context.text("Til innloggingen", "To sign in")],
        ] as [String: Any], context: context, status: .gone)
    }
}
