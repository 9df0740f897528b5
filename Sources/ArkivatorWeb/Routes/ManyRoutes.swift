import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// Many letters at once, chosen by their boxes in the library or a search (the owner's): file
    /// them to a household member, set their type, move them to the trash, or share them with the
    /// doctor (the share form, with them chosen). One request does them all, letter by letter
    /// (``DocumentStore/editMany(_:_:programVersion:)``); the page it goes back to says what was
    /// done and offers «Angre», which puts every letter back as it was (``ManyUndo``).
    func addManyRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, undo = manyUndo
        pages.post("/brev/valgte") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let back = Self.backAddress(form["tilbake"])
            let ids = Self.chosenIDs(form)
            guard !ids.isEmpty else { return Self.redirect(Self.adding("valgt=0", to: back)) }
            let action = form["handling"] ?? ""
            if action == "share" {
                return Self.redirect("/del/ny?" + ids.map { "id=\($0)" }.joined(separator: "&"))
            }
            let version = ArkivatorVersion.current
            let (outcome, done): (ManyChanged, UserMessage)
            switch action {
            case "person":
                let wanted = form.value("person") ?? ""
                guard let member = try await store.read({ library in
                    try library.familyMembers().first { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
                }) else { throw WebError.badField("person") }
                outcome = try await store.write { $0.documents.editMany(ids, DocumentChanges(person: member.name), programVersion: version) }
                done = UserMessage(nb: "La \(outcome.before.count) brev til \(member.name).", en: "Filed \(outcome.before.count) letters to \(member.name).")
            case "type":
                guard let type = DocumentType(name: form.value("type") ?? "") else { throw WebError.badField("type") }
                outcome = try await store.write { $0.documents.editMany(ids, DocumentChanges(type: type), programVersion: version) }
                done = UserMessage(nb: "Satte typen på \(outcome.before.count) brev.", en: "Set the type of \(outcome.before.count) letters.")
            case "trash":
                outcome = try await store.write { $0.documents.trashMany(ids) }
                done = UserMessage(nb: "Flyttet \(outcome.before.count) brev til papirkurven.",
                                   en: "Moved \(outcome.before.count) letters to the trash.")
            default:
                throw WebError.badField("handling")
            }
            let access = context.seen, device = context.deviceKind
            let logged: AuditAction = action == "trash" ? .deleted : .letterChanged
            try await store.write { library in
                for document in outcome.before {
                    try library.audit.record(logged, by: access, document: document.shortID, member: document.familyMember,
                                             detail: "flere på en gang", device: device)
                }
            }
            var said = done
            if let first = outcome.failed.first {
                said = UserMessage(nb: done.norwegian + " \(outcome.failed.count) kunne ikke endres: " + first.reason.norwegian,
                                   en: done.english + " \(outcome.failed.count) could not be changed: " + first.reason.english)
            }
            let token = undo.keep(ManyUndo(done: said, before: outcome.before))
            return Self.redirect(Self.adding("gjort=\(token)", to: back))
        }
        // Saved searches: the list or search shown, kept under a name on the library page.
        pages.post("/sok/lagre") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let back = Self.backAddress(form["tilbake"])
            guard back != "/" else { return Self.redirect("/") }
            let name = form.value("navn") ?? ""
            try await store.write { library in _ = try library.saveSearch(name: name, address: back) }
            return Self.redirect(Self.adding("lagret-sok=1", to: back))
        }
        pages.post("/sok/{search}/slett") { request, context -> Response in
            guard let id = context.parameters.get("search", as: Int.self) else { throw WebError.notFound }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            guard try await store.write({ try $0.removeSavedSearch(id) }) else { throw WebError.notFound }
            return Self.redirect(Self.backAddress(form["tilbake"]))
        }
        pages.post("/brev/valgte/angre") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let back = Self.backAddress(form["tilbake"])
            guard let kept = undo.take(form["token"] ?? "") else { return Self.redirect(Self.adding("angret=0", to: back)) }
            let version = ArkivatorVersion.current
            let undone = try await store.write { $0.documents.undoMany(kept.before, programVersion: version) }
            return Self.redirect(Self.adding("angret=\(undone)", to: back))
        }
    }

    /// Where a change to many letters goes back to: a path of this app (the library or a search,
    /// with its query), never another site; without the notices of an earlier change.
    static func backAddress(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return "/" }
        let parts = text.split(separator: "?", maxSplits: 1)
        let path = String(parts[0])
        guard ["/", "/search"].contains(path) else { return "/" }
        let kept = parts.count > 1 ? WebForm(String(parts[1])).query(keeping: ["q", "person", "type", "from", "to", "institution", "side"]) : ""
        return kept.isEmpty ? path : path + "?" + kept
    }

    static func adding(_ parameter: String, to address: String) -> String {
        address + (address.contains("?") ? "&" : "?") + parameter
    }

    /// The box above a list the owner chooses letters in, and what the last change to many said.
    static func manyView(_ query: WebForm, path: String, household: [String], saved: [SavedSearch], undo: ExpiringTable<ManyUndo>,
                         words: Words) -> ManyView {
        let kept = query.query(keeping: ["q", "person", "type", "from", "to", "institution", "side"])
        let back = kept.isEmpty ? path : path + "?" + kept
        var view = ManyView(back: back, people: household.map { Option(value: $0, label: $0, selected: false) },
                            types: DocumentType.allCases.map { Option(value: $0.rawValue, label: words.type($0.rawValue), selected: false) },
                            allChecked: query.value("alle") == "1", selectAll: adding("alle=1", to: back))
        view.saved = saved.map { ["id": String($0.id), "name": $0.name, "address": $0.address,
                                  "remove": words.text("Slett det lagrede søket «\($0.name)»", "Delete the saved search “\($0.name)”")] }
        // A search or a filter can be kept; the whole library is the library.
        let filters = query.query(keeping: ["q", "person", "type", "from", "to", "institution"])
        if !filters.isEmpty {
            view.canSave = true
            view.suggestedName = [query.value("q"), query.value("person"), query.value("type").map(words.type), query.value("institution"),
                                  query.value("from").map { words.text("fra \($0)", "from \($0)") }, query.value("to").map { words.text("til \($0)", "to \($0)") }]
                .compactMap { $0 }.joined(separator: ", ")
        }
        if query.value("lagret-sok") == "1" {
            view.notice = words.text("Søket er lagret. Du finner det øverst i biblioteket.", "The search is saved. You find it at the top of the library page.")
        }
        if let token = query.value("gjort"), let done = undo.peek(token) {
            view.notice = done.done.text(in: words.language)
            view.undoToken = token
        } else if let count = query.value("angret").flatMap(Int.init) {
            view.notice = count == 0 ? words.text("Det var ingenting å angre (det går bare en kort stund etter endringen).",
                                                  "There was nothing to undo (it works only for a short while after the change).")
                : words.text("Angret: \(count) brev er som før.", "Undone: \(count) letters are as before.")
        } else if query.value("valgt") == "0" {
            view.notice = words.text("Du valgte ingen brev. Huk av brevene først, så velg hva som skal gjøres.",
                                     "You chose no letters. Tick the letters first, then choose what to do.")
        }
        return view
    }

    struct ManyView {
        let back: String
        let people: [Option]
        let types: [Option]
        /// «Velg alle på siden» without script: the page again with every box ticked.
        let allChecked: Bool
        let selectAll: String
        var notice: String?
        var undoToken: String?
        /// The saved searches (id, name, address, the delete button's words).
        var saved: [[String: String]] = []
        var canSave = false
        var suggestedName = ""
    }
}
