import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

extension WebServer {
    /// The household: members with their fødselsnummer masked (`DDMMYY •••••`), shown whole only
    /// after the password is typed again (throttled like sign-in, and only in that one answer);
    /// add, correct, and remove with a question first and an undo after.
    func addFamilyRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, throttle = self.throttle, undo = familyUndo, work = self.work
        pages.get("/family") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            var page = FamilyPage()
            if let name = query.value("fjernet") {
                var removed: [String: Any] = ["text": context.text("Fjernet «\(name)» fra husstanden. Brevene om personen ligger der de lå.",
                                                                   "Removed “\(name)” from the household. The letters about them stay where they are.")]
                if let undo = query.value("angre") { removed["undo"] = undo }
                page.removed = removed
            }
            if query.value("lagret") != nil { page.notice = context.text("Lagret.", "Saved.") }
            if let name = query.value("lagt-til") {
                page.notice = context.text("La til «\(name)».", "Added “\(name)”.")
            }
            if let name = query.value("tilbake") {
                page.notice = context.text("«\(name)» er tilbake i husstanden.", "“\(name)” is back in the household.")
            }
            return try await Self.familyPage(store, templates, page, context: context)
        }
        pages.post("/family/add") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let name = form.value("name") ?? "", born = form.value("born"), fnr = form.value("fnr")
            do {
                try await store.write { library in
                    _ = try library.family { try $0.add(name: name, birthDate: born, fodselsnummer: fnr) }
                }
            } catch {
                var page = FamilyPage()
                page.problem = WebError.from(error).message.text(in: context.language)
                page.add = ["name": name, "born": born ?? "", "fnr": fnr ?? ""]
                return try await Self.familyPage(store, templates, page, context: context, status: WebError.from(error).status)
            }
            return Self.redirect("/family?" + WebForm("").query(keeping: [], adding: [("lagt-til", name)]))
        }
        pages.post("/family/{member}/edit") { request, context -> Response in
            let member = try Self.memberID(context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            do {
                _ = try await store.write { library in
                    try library.family { try $0.update(id: member, birthDate: form.value("born"), fodselsnummer: form.value("fnr")) }
                }
            } catch {
                let failure = WebError.from(error)
                if failure.status == .notFound { throw failure }
                var page = FamilyPage()
                page.problem = failure.message.text(in: context.language)
                return try await Self.familyPage(store, templates, page, context: context, status: failure.status)
            }
            return Self.redirect("/family?lagret=1")
        }
        pages.post("/family/{member}/remove") { _, context -> Response in
            let member = try Self.memberID(context)
            let removed = try await store.write { library in try library.family { try $0.remove(nameOrID: String(member)) } }
            let token = undo.keep(removed)
            return Self.redirect("/family?" + WebForm("").query(keeping: [], adding: [("fjernet", removed.name), ("angre", token)]))
        }
        pages.post("/family/restore") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            guard let removed = undo.take(form["token"] ?? "") else {
                var page = FamilyPage()
                page.problem = context.text("Det er for sent å angre nå. Legg personen til på nytt under.",
                                            "It is too late to undo now. Add the person again below.")
                return try await Self.familyPage(store, templates, page, context: context, status: .gone)
            }
            let back = try await store.write { library in try library.family { try $0.restore(removed) } }
            return Self.redirect("/family?" + WebForm("").query(keeping: [], adding: [("tilbake", back.name)]))
        }
        pages.post("/family/{member}/reveal") { request, context -> Response in
            let member = try Self.memberID(context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? ""
            guard let hash = try await store.read({ try $0.accounts.webPasswordHash() }) else { throw HTTPError(.forbidden) }
            var page = FamilyPage()
            switch await throttle.attempt(client: context.client, { (try? await work.quick.run { Bcrypt.verify(password, hash: hash) }) ?? false }) {
            case .accepted:
                let number = try await store.read { library in
                    try library.family { store -> String? in
                        guard let summary = try store.list().first(where: { $0.id == member }) else { throw WebError.notFound }
                        return try store.profiles().first { $0.name == summary.name }?.fodselsnummer?.digits
                    }
                }
                page.revealed = number.map { (member, $0) }
                return try await Self.familyPage(store, templates, page, context: context)
            case .wrong:
                page.problem = context.text("Feil passord: nummeret vises ikke.", "Wrong password: the number is not shown.")
                return try await Self.familyPage(store, templates, page, context: context, status: .unauthorized)
            case .locked(let seconds):
                page.problem = Self.lockedText(seconds, context)
                return try await Self.familyPage(store, templates, page, context: context, status: .tooManyRequests)
            }
        }
    }

    static func memberID(_ context: WebContext) throws -> Int {
        guard let member = context.parameters.get("member", as: Int.self) else { throw WebError.notFound }
        return member
    }

    /// What the family page shows beside the members.
    struct FamilyPage {
        var problem: String?
        var notice: String?
        var removed: [String: Any]?
        var revealed: (id: Int, number: String)?
        var add: [String: String] = ["name": "", "born": "", "fnr": ""]
    }

    static func familyPage(_ store: AsyncLibrary, _ templates: Templates, _ page: FamilyPage, context: WebContext,
                           status: HTTPResponse.Status = .ok) async throws -> Response {
        let members = try await store.read { try $0.familyMembers() }
        let words = Words(templates, context)
        let rows: [[String: Any]] = members.map { member in
            var row: [String: Any] = [
                "id": member.id, "name": member.name, "born": member.birthDate ?? "–", "bornValue": member.birthDate ?? "",
                "removeQuestion": words.text("Fjerne «\(member.name)» fra husstanden? Brevene om personen blir liggende.",
                                             "Remove “\(member.name)” from the household? The letters about them stay."),
            ]
            if let masked = member.maskedFnr { row["masked"] = masked }
            if let revealed = page.revealed, revealed.id == member.id { row["revealed"] = revealed.number }
            return row
        }
        var model: [String: Any] = ["members": rows, "empty": rows.isEmpty, "add": page.add]
        if let problem = page.problem { model["problem"] = problem }
        if let notice = page.notice { model["notice"] = notice }
        if let removed = page.removed { model["removed"] = removed }
        return templates.page("family", title: words["family"], model: model, context: context, status: status, section: "family")
    }
}
