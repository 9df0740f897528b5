import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

extension WebServer {
    /// The most bytes one uploaded page may have (as for files given to `ingest`).
    static let pageByteLimit = 64 << 20
    /// The most pages one upload may have.
    static let uploadPageLimit = 100

    /// Capture: an upload is made, its pages are sent one request each (so the phone shows
    /// progress), and `done` hands it to the inbox as one letter or a letter per page, in the
    /// order asked (``UploadPlan``, checked against the pages that arrived). `serve` watches the
    /// inbox exactly as `watch` watches a folder: from then on it is journalled, so a crash loses
    /// nothing and files nothing twice. The status tells what was found once it is filed. A
    /// family account uploads too; of a letter filed to someone it does not see, it is told that
    /// it was filed, not what or where.
    /// Without script the page's form sends every page in one request to `POST /upload`.
    func addUploadRoutes(pages: RouterGroup<WebContext>, api: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates
        let inbox = options.inbox.map { UploadInbox(inbox: $0) }
        pages.get("/upload") { request, context -> Response in
            let words = Words(templates, context)
            guard let inbox else {
                return templates.page("upload", title: words["uploadLetters"], model: ["disabled": words["uploadsOff"]], context: context,
                                      section: "upload")
            }
            // After the form was sent without script: what became of each letter it made.
            let sent = (WebForm(request.uri.query ?? "")["mottatt"] ?? "").split(separator: ",").prefix(Self.uploadPageLimit)
                .map(String.init).filter(UploadInbox.isUploadID)
            var model: [String: Any] = ["stages": Self.stageWords(words)]
            switch WebForm(request.uri.query ?? "").value("delt").flatMap(Int.init) {
            case 0?: model["shared"] = words.text("Delingen kom ikke fram. Åpne Arkivator her én gang, så virker «Del → Arkivator» fra telefonen.",
                                                 "The share did not arrive. Open Arkivator here once, and «Share → Arkivator» works from the phone.")
            case let count?: model["shared"] = words.text(count == 1 ? "1 fil kom fra delingen og ligger i brettet. Trykk Send når du er klar."
                                                                     : "\(count) filer kom fra delingen og ligger i brettet. Trykk Send når du er klar.",
                                                         count == 1 ? "1 file came from the share and is in the tray. Press Send when you are ready."
                                                                     : "\(count) files came from the share and are in the tray. Press Send when you are ready.")
            case nil: break
            }
            if !sent.isEmpty {
                let access = context.seen
                let statuses = try await store.read { library in
                    try sent.compactMap { try Self.uploadStatus($0, inbox: inbox, library: library, words: words, access: access) }
                }
                model["hasReceived"] = !statuses.isEmpty
                model["received"] = statuses.map { Self.receivedRow($0, words: words) }
                model["refresh"] = "/upload?mottatt=" + sent.joined(separator: ",")
            }
            return templates.page("upload", title: words["uploadLetters"], model: model, context: context, scripts: ["keep.js", "tray.js", "upload.js"],
                                  section: "upload")
        }
        // The form without script: every page in one request, read as it arrives (see ``MultipartForm``).
        pages.post("/upload") { request, context -> Response in
            guard let inbox else { throw WebError(.serviceUnavailable, code: "uploadsOff", nb: "Opplasting er slått av på denne serveren.",
                                                  en: "Uploading is turned off on this server.") }
            guard let boundary = request.headers[.contentType].flatMap(MultipartForm.boundary(of:)) else { throw WebError.badRequest }
            let id = try await store.files { () throws -> String in
                inbox.removeAbandoned()
                return try inbox.create()
            }
            do {
                let letters = try await Self.receiveForm(request.body, boundary: boundary, into: id, inbox: inbox, store: store,
                                                         token: context.formToken)
                return Response(status: .seeOther, headers: [.location: "/upload?mottatt=" + letters.joined(separator: ",")])
            } catch {
                try? await store.files { inbox.discard(id) }
                throw error
            }
        }
        api.post("/uploads") { _, _ -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            let id = try await store.files { () throws -> String in
                inbox.removeAbandoned()
                return try inbox.create()
            }
            return try JSONAnswer.response(UploadStatus(id: id, status: "open"), status: .created)
        }
        api.put("/uploads/{id}/pages/{number}") { request, context -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            guard let id = context.parameters.get("id"), UploadInbox.isUploadID(id),
                  let number = context.parameters.get("number", as: Int.self), (1...Self.uploadPageLimit).contains(number) else {
                throw WebError.notFound
            }
            // Written to disk as it arrives (at most a megabyte in memory), then checked and stored.
            let part = try await store.files { try inbox.pageInProgress(id, number: number) }
            do {
                try await Self.receivePage(request.body, into: part, store: store)
            } catch {
                try? await store.files { _ = unlink(part.path) }
                throw error
            }
            try await store.files { try inbox.placePage(id, number: number, from: part) }
            return try JSONAnswer.response(UploadStatus(id: id, status: "open"))
        }
        api.post("/uploads/{id}/done") { request, context -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            guard let id = context.parameters.get("id"), UploadInbox.isUploadID(id) else { throw WebError.notFound }
            // No body: one letter, the pages in their numbers' order (as before plans were sent).
            var request = request
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            request.body = RequestBody(buffer: body)
            let plan = body.readableBytes == 0 ? UploadPlan() : try await Self.body(UploadPlan.self, from: request, context: context,
                                     fields: ["grouping", "order"],
                                     nb: "Svaret må være et JSON-objekt med «grouping» (one eller each) og eventuelt «order» (sidenumrene i rekkefølge).",
                                     en: "The body must be a JSON object with “grouping” (one or each) and optionally “order” (the page numbers in order).")
            let letters = try await store.files { try inbox.finish(id, plan: plan) }
            guard let letters else {
                // The upload is there but not ready to hand over: a conflict with its state, not a bad request.
                throw WebError(.conflict, code: "noPages", nb: "Opplastingen har ingen sider ennå. Send minst én side først.",
                               en: "The upload has no pages yet. Send at least one page first.")
            }
            var status = UploadStatus(id: id, status: "received")
            status.letters = letters
            return try JSONAnswer.response(status)
        }
        api.get("/uploads/{id}") { _, context -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            guard let id = context.parameters.get("id"), UploadInbox.isUploadID(id) else { throw WebError.notFound }
            let words = Words(templates, context), access = context.seen
            let status = try await store.read { library in
                try Self.uploadStatus(id, inbox: inbox, library: library, words: words, access: access)
            }
            guard let status else { throw WebError.notFound }
            return try JSONAnswer.response(status)
        }
    }

    /// What became of upload `id`: still open, in the inbox, or the journal's stage and, once
    /// filed, what was found (only that it was filed, for an account that does not see the
    /// letter's member); nil when there is no such upload.
    static func uploadStatus(_ id: String, inbox: UploadInbox, library: Library, words: Words, access: Access) throws -> UploadStatus? {
        if inbox.openFolder(id) != nil { return UploadStatus(id: id, status: "open") }
        guard let entry = try library.journal.entry(source: inbox.source(id)) else {
            return inbox.place(id).map { UploadStatus(id: id, status: $0) }
        }
        // A failure the watcher tries again (a full disk, a library that was busy) is not failed:
        // it waits, with what it waits for.
        var status = UploadStatus(id: id, status: entry.isWaitingForRetry ? "waiting" : entry.stage.rawValue)
        status.message = entry.failure.map {
            ServerPaths.hidden(in: $0.userMessage.text(in: words.language),
                               folders: [library.location.directory.path, library.defaultArchiveRoot.path])
        }
        if let row = entry.documentID, let shortID = try library.documents.shortID(row: row) {
            let document = try library.documents.document(shortID)
            guard access.sees(member: document.familyMember) else {
                status.message = words.text(
                    "Brevet er arkivert. Det gjelder ingen av dem du ser brev for, så eieren av arkivet tar seg av det.",
                    "The letter is filed. It is not about anyone whose letters you see, so the archive's owner takes care of it.")
                return status
            }
            status.document = shortID
            status.title = document.title
            status.person = words.person(document.shownPerson)
            status.type = document.docType.rawValue
            status.typeLabel = words.type(document.docType.rawValue)
            status.date = document.documentDate
            status.needsReview = !document.needsReview.isEmpty || document.familyMember == nil || document.text.isEmpty
        }
        return status
    }

    /// Writes a page's body to `part` as it arrives, a megabyte at a time on the library's file
    /// threads; refuses (413) a page over ``pageByteLimit``.
    static func receivePage(_ body: RequestBody, into part: URL, store: AsyncLibrary) async throws {
        let descriptor = try await store.files { try UploadInbox.openPart(part) }
        defer { close(descriptor) }
        var pending = ByteBuffer(), total = 0
        func write() async throws {
            let bytes = Array(buffer: pending), path = part.path
            pending.clear()
            try await store.files { try UploadInbox.appendPart(bytes, to: descriptor, path: path) }
        }
        for try await chunk in body {
            total += chunk.readableBytes
            guard total <= pageByteLimit else {
                throw WebError(.contentTooLarge, code: "tooLarge", nb: "Bildet er for stort (over \(Self.pageByteLimit >> 20) MB). Ta bildet på nytt med lavere oppløsning.",
                               en: "The image is too large (over \(Self.pageByteLimit >> 20) MB). Take it again at a lower resolution.")
            }
            pending.writeImmutableBuffer(chunk)
            if pending.readableBytes >= 1 << 20 { try await write() }
        }
        if pending.readableBytes > 0 { try await write() }
    }

    /// Reads the upload form's body into upload `id` (each chosen file a page, in the order the
    /// form sends them), checks its `_csrf` field first when `token` says it is still to be
    /// checked, and hands it over as its `grouping` field asks; returns the letters' ids.
    static func receiveForm(_ body: RequestBody, boundary: String, into id: String, inbox: UploadInbox, store: AsyncLibrary,
                            token: String?) async throws -> [String] {
        var checked = token == nil
        var grouping: String?
        var count = 0
        let form = MultipartForm(boundary: boundary, fileLimit: pageByteLimit, partLimit: 2 * uploadPageLimit + 8)
        try await form.read(body) { part in
            if part.name == "_csrf", part.filename == nil, let token {
                guard PageSession.constantTimeEqual(String(decoding: part.bytes, as: UTF8.self), token) else { throw HTTPError(.forbidden) }
                checked = true
            }
            // Nothing is kept before the form has shown it comes from this session.
            guard checked else { throw HTTPError(.forbidden) }
            switch part.name {
            case "grouping" where part.filename == nil:
                grouping = String(decoding: part.bytes, as: UTF8.self)
            case "pages" where part.filename != nil && !part.bytes.isEmpty:
                count += 1
                guard count <= uploadPageLimit else {
                    throw WebError(.contentTooLarge, code: "tooManyPages", nb: "Send høyst \(uploadPageLimit) sider om gangen.",
                                   en: "Send at most \(uploadPageLimit) pages at a time.")
                }
                let number = count, bytes = part.bytes
                try await store.files { try inbox.putPage(id, number: number, bytes: bytes) }
            default:
                break
            }
        }
        guard checked else { throw HTTPError(.forbidden) }
        let plan = try UploadPlan(formValue: grouping)
        guard let letters = try await store.files({ try inbox.finish(id, plan: plan) }) else {
            throw WebError(.badRequest, code: "noPages", nb: "Du valgte ingen bilder eller PDF. Velg minst én side og send igjen.",
                           en: "You chose no images or PDF. Choose at least one page and send again.")
        }
        return letters
    }

    /// What each stage of an upload is called (`captureStage_…`), as JSON for the page's script:
    /// the words the page without script uses too.
    static func stageWords(_ words: Words) -> String {
        let stages = ["open", "received", "cleaned", "recognised", "classified", "written", "indexed", "done", "duplicate", "waiting",
                      "failed"]
        let named = Dictionary(uniqueKeysWithValues: stages.map { ($0, words["captureStage_" + $0]) })
        let json = (try? JSONSerialization.data(withJSONObject: named, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: json, as: UTF8.self)
    }

    /// One letter sent by the form, as the upload page lists it.
    static func receivedRow(_ status: UploadStatus, words: Words) -> [String: Any] {
        var row: [String: Any] = ["stage": words["captureStage_" + status.status], "failed": status.status == "failed"]
        if let document = status.document {
            row["document"] = document
            row["title"] = status.title ?? document
            row["meta"] = [status.person, status.typeLabel, status.date.map(words.date)].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: " · ")
            row["needsReview"] = status.needsReview == true
        }
        if let message = status.message { row["message"] = message }
        return row
    }

    struct UploadStatus: Encodable {
        var id: String
        /// `open` (pages may still come), `received` (in the inbox), then the journal's stages:
        /// `recognised`, `classified`, `written`, `indexed`, `done`, `duplicate`, `failed` (for good),
        /// and `waiting` for a failure that is tried again (its message says why).
        var status: String
        /// The filed document's id and what was found, once there is one.
        var document: String?
        var title: String?
        var person: String?
        var type: String?
        var typeLabel: String?
        var date: String?
        var needsReview: Bool?
        var message: String?
        /// The letters an upload was handed over as (its own id first), in the answer to `done`.
        var letters: [String]?
    }
}
