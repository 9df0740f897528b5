import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebServer {
    /// The owner's side of sharing letters with a doctor: «Del med legen» (choose letters, from a
    /// person's letters, a search or ids handed over by another page, and how long the link
    /// works), the link made (shown once), and «Delinger» (every link, its letters, expiry,
    /// status and openings; revoke after a question).
    func addShareRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, options = self.options
        let household = self.household, sharePacks = self.sharePacks, work = self.work
        pages.get("/del/ny") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            return try await Self.shareForm(query, chosen: Self.chosenIDs(query), store: store, templates: templates, context: context)
        }
        pages.post("/del/ny") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let ids = Self.chosenIDs(form)
            guard let days = Int(form.value("days") ?? ""), ShareStore.shareLinkDays.contains(days) else { throw WebError.badField("days") }
            guard !ids.isEmpty else {
                return try await Self.shareForm(form, chosen: [], store: store, templates: templates, context: context,
                                                problem: context.text("Velg minst ett brev å dele.", "Choose at least one letter to share."))
            }
            let made = try await store.write { library in try library.sharing.createShareLink(ids, days: days) }
            // The PDF is made now, in the background, so the doctor's download is ready at once.
            let token = made.token
            Task {
                guard case .open(let link, let letters)? = try? await store.read({ library in try library.sharing.sharedLetters(token: token) }),
                      !letters.isEmpty else { return }
                _ = try? await sharePacks.pdf(link: link.id, letters: letters, household: household)
            }
            let own = try await Self.linkAddress(request, options: options, store: store, language: context.language)
            let address = "\(own.scheme)://\(own.host)\(Self.sharedPrefix)/\(made.token)"
            let words = Words(templates, context)
            var model = ShareMadeView(link: made.link, address: address, words: words)
            model.warning = own.warning
            return templates.page("sharemade", title: words["shareMadeTitle"], model: model, context: context, section: "shares")
        }
        pages.get("/delinger") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let links = try await store.read { library in try library.sharing.shareLinks() }
            let words = Words(templates, context)
            var model = SharesView(links: links, pdfProblems: await sharePacks.problems(), words: words)
            if let revoked = query.value("trukket").flatMap(Int.init) {
                model.notice = words.text("Lenke \(revoked) er trukket tilbake. Den virker ikke lenger.",
                                          "Link \(revoked) is revoked. It no longer works.")
            }
            return templates.page("shares", title: words["sharesTitle"], model: model, context: context, section: "shares")
        }
        // The owner's own copies of a working link's letters: the same PDF the doctor gets (not
        // counted as an opening), and the letters as plain text for an AI assistant, with names
        // and numbers replaced (``Household/shareTextBundle(_:)``).
        pages.get("/delinger/{link}/pdf") { _, context -> Response in
            let (link, letters) = try await Self.ownersLink(context, store: store)
            guard let file = try await FileStream.body(try await sharePacks.pdf(link: link, letters: letters, household: household)) else {
                throw WebError.notFound
            }
            var headers = HTTPFields()
            headers[.contentType] = "application/pdf"
            headers[.contentDisposition] = "attachment; filename=\"delte-brev-\(link).pdf\""
            return Response(status: .ok, headers: headers, body: file.0)
        }
        pages.get("/delinger/{link}/tekst") { _, context -> Response in
            let (link, letters) = try await Self.ownersLink(context, store: store)
            let ids = letters.map(\.shortID)
            let text = try await work.quick.run { try household.shareTextBundle(ids) }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"brev-for-assistent-\(link).txt\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        pages.post("/delinger/{link}/revoke") { _, context -> Response in
            guard let id = context.parameters.get("link", as: Int.self),
                  try await store.write({ library in try library.sharing.revokeShareLink(id) }) else { throw WebError.notFound }
            return Self.redirect("/delinger?trukket=\(id)")
        }
    }

    /// A working link of the owner's (`{link}`) and its letters still in the library; 404 for a
    /// link that is unknown, revoked or expired, or whose letters are all gone.
    static func ownersLink(_ context: WebContext, store: AsyncLibrary) async throws -> (Int, [LibraryDocument]) {
        guard let id = context.parameters.get("link", as: Int.self) else { throw WebError.notFound }
        let letters = try await store.read { library -> [LibraryDocument]? in
            guard let link = try library.sharing.shareLink(id), link.status() == .active else { return nil }
            return link.letters.compactMap { letter in
                guard let document = try? library.documents.document(letter.id), document.trashedAt == nil else { return nil }
                return document
            }
        }
        guard let letters, !letters.isEmpty else { throw WebError.notFound }
        return (id, letters)
    }

    /// The letters a form or query names (`id`, repeated), each a checked document id, in order,
    /// each once.
    static func chosenIDs(_ form: WebForm) -> [String] {
        var ids: [String] = []
        for id in form.values("id").map({ $0.lowercased() }) where isDocumentID(id) && !ids.contains(id) { ids.append(id) }
        return Array(ids.prefix(200))
    }

    /// «Del med legen»: the letters chosen (ticked), then the letters of the person or search
    /// asked for (not ticked), how long the link works, and «Lag lenke».
    static func shareForm(_ query: WebForm, chosen: [String], store: AsyncLibrary, templates: Templates, context: WebContext,
                          problem: String? = nil) async throws -> Response {
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let person = query.value("person")
        var chosenFilter = DocumentFilter()
        if let person { if PersonFilter.isUnknown(person) { chosenFilter.withoutPerson = true } else { chosenFilter.person = person } }
        let filter = chosenFilter
        let found = try await store.read { library in
            let picked = chosen.compactMap { id -> LibraryDocument? in
                guard let document = try? library.documents.document(id), document.trashedAt == nil else { return nil }
                return document
            }
            let listed: [DocumentSummary] = if !text.isEmpty {
                (try? library.index.search(text, filter: filter, limit: 100).hits) ?? []
            } else if person != nil {
                try library.documents.page(filter, limit: 100).documents
            } else {
                chosen.isEmpty ? try library.documents.page(filter, limit: 30).documents : []
            }
            return (picked: picked, listed: listed, household: try library.familyMembers().map(\.name))
        }
        let words = Words(templates, context)
        let model = ShareFormView(picked: found.picked, listed: found.listed, household: found.household, person: person ?? "",
                                  query: text, problem: problem, words: words)
        return templates.page("shareform", title: words["shareFormTitle"], model: model, context: context,
                              status: problem == nil ? .ok : .badRequest, section: "shares")
    }
}
