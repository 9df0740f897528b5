import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import ArkivatorApp
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// One document: its page, its files, corrections (the text too, with its versions), delete
    /// (with undo), restore, hiding the fødselsnummer; and the trash. Every change is the same library call as `arkivator edit`,
    /// `delete`, `restore` and `redact`, so the files follow exactly as they do there.
    /// `anyone`: the routes every signed-in account may use (they narrow to its letters);
    /// `changes`: the owner's and a family account's (its own letters); `pages`: the owner's.
    func addDocumentRoutes(anyone: RouterGroup<WebContext>, changes changers: RouterGroup<WebContext>, pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household, jobs = explanationJobs, work = self.work
        anyone.get("/documents/{id}") { request, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let response = try await Self.documentPage(id, store: store, templates: templates, jobs: jobs, context: context,
                                                       query: WebForm(request.uri.query ?? ""))
            try await Self.audit(.letterOpened, document: id, context: context, store: store)
            return response
        }
        // A family account corrects the text of its own letters, like the owner.
        anyone.post("/documents/{id}/text") { request, context -> Response in
            let id = try await Self.changeableID(context, store: store)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            guard let text = TextEditorView.text(from: form) else { throw WebError.badField("side1") }
            // The .docx and the PDF are written again: on the library's own threads.
            let correction = try await store.write { _ in try household.correctText(id, to: text) }
            let outcome = TextEditorView.outcome(correction)
            return Self.redirect(form["back"] == "review" ? "/review?tekst=\(outcome)#tekst"
                                 : "/documents/\(correction.document.shortID)?tekst=\(outcome)#tekst")
        }
        anyone.post("/documents/{id}/text/ocr") { _, context -> Response in
            let id = try await Self.changeableID(context, store: store)
            let correction = try await store.write { _ in try household.restoreOCRText(id) }
            return Self.redirect("/documents/\(correction.document.shortID)?tekst=\(TextEditorView.outcome(correction, restored: true))#tekst")
        }
        anyone.get("/documents/{id}/files/{index}") { _, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let document = try await store.read { try $0.documents.document(id) }
            guard let index = context.parameters.get("index", as: Int.self), document.files.indices.contains(index) else {
                throw WebError.notFound
            }
            let file = document.files[index]
            let action: AuditAction = switch file.kind {
            case .image: .pageOpened
            case .pdf: .pdfOpened
            case .docx: .docxOpened
            }
            try await Self.audit(action, document: document, context: context, store: store)
            return try await Self.download(file)
        }
        changers.post("/documents/{id}/edit") { request, context -> Response in
            let id = try await Self.changeableID(context, store: store)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let (document, members) = try await store.read { (try $0.documents.document(id), try $0.familyMembers().map(\.name)) }
            let changes = try EditView.changes(form, to: document, members: members)
            try Self.mayMake(changes, access: context.seen)
            guard !changes.isEmpty else { return Self.redirect("/documents/\(document.shortID)?lagret=0") }
            do {
                _ = try await store.write { try $0.documents.edit(document.shortID, changes, programVersion: ArkivatorVersion.current) }
            } catch let failure as LibraryFailure where failure.code == .badTitle {
                return try await Self.documentPage(document.shortID, store: store, templates: templates, jobs: jobs, context: context,
                                                   problem: failure.userMessage.text(in: context.language))
            } catch let failure as FieldTooLong {
                // The form again, with what to shorten.
                var page = try await Self.documentPage(document.shortID, store: store, templates: templates, jobs: jobs, context: context,
                                                       problem: failure.userMessage.text(in: context.language))
                page.status = .badRequest
                return page
            }
            return Self.redirect("/documents/\(document.shortID)?lagret=1")
        }
        pages.post("/documents/{id}/redact") { _, context -> Response in
            let id = try Self.documentID(context)
            let shortID = try await store.read { try $0.documents.document(id).shortID }
            // The page images are read again and boxed: long work, on a thread of its own.
            _ = try await work.pages.run { try household.redact(shortID, programVersion: ArkivatorVersion.current) }
            // The family's copy is replaced before the page says it is done (or says it is not yet).
            let number = try await store.read { try $0.documents.document(shortID).number }
            guard await CopyAfterChange.bringInLine(documentNumber: number, worker: household.uploads.worker) != nil else {
                return Self.redirect("/documents/\(shortID)?lagret=1")
            }
            let copied = try await store.read { try $0.uploads.copyStatus(ofDocument: number) } == .copied
            return Self.redirect("/documents/\(shortID)?lagret=1&kopi=\(copied ? "erstattet" : "venter")")
        }
        pages.post("/documents/{id}/delete") { _, context -> Response in
            let id = try Self.documentID(context)
            let document = try await store.write { try $0.documents.delete(id) }
            return Self.redirect("/?slettet=\(document.shortID)")
        }
        pages.post("/documents/{id}/restore") { _, context -> Response in
            let id = try Self.documentID(context)
            let shortID = try await store.write { library in
                let document = try library.documents.document(id)
                if document.trashedAt != nil { _ = try library.documents.restore(document.shortID) }
                return document.shortID
            }
            return Self.redirect("/documents/\(shortID)")
        }
        pages.get("/trash") { _, context -> Response in
            let trashed = try await store.read { try $0.documents.list(DocumentFilter(trashed: true), limit: 200) }
            let words = Words(templates, context)
            let rows = trashed.map { document in
                ["id": document.id, "title": document.title,
                 "deletedText": words.text("slettet \(words.date(String((document.trashedAt ?? "").prefix(10))))",
                                           "deleted \(String((document.trashedAt ?? "").prefix(10)))")]
            }
            let model: [String: Any] = [
                "empty": rows.isEmpty, "documents": rows,
                "removedAfter": words.text("Dokumenter i papirkurven slettes for godt etter \(Library.trashDays) dager.",
                                           "Documents in the trash are removed for good after \(Library.trashDays) days."),
            ]
            return templates.page("trash", title: words["trash"], model: model, context: context, section: "trash")
        }
    }

    /// The `id` path parameter when it can be a document's id (4 to 64 hex digits), else 404.
    static func documentID(_ context: WebContext) throws -> String {
        guard let id = context.parameters.get("id"), isDocumentID(id) else { throw WebError.notFound }
        return id
    }

    /// The `id` path parameter when it names a letter the request's account sees (its full id
    /// for an account, as given for the owner), else 404: a letter it does not see is answered as
    /// one that does not exist.
    static func seenID(_ context: WebContext, store: AsyncLibrary) async throws -> String {
        let id = try documentID(context)
        let access = context.seen
        if access.isOwner { return id }
        do {
            return try await store.read { try $0.documents.seen(id, by: access) }
        } catch is LibraryFailure {
            throw WebError.notFound
        }
    }

    /// ``seenID(_:store:)`` for a change: a reader is told the letter is for reading only.
    static func changeableID(_ context: WebContext, store: AsyncLibrary) async throws -> String {
        let id = try await seenID(context, store: store)
        guard context.seen.mayChange else { throw WebError.readOnly }
        return id
    }

    /// Refuses a change an account may not make: filing its letter to someone whose letters it does not
    /// see (the letter would leave its sight), or to no one. The owner files to anyone.
    static func mayMake(_ changes: DocumentChanges, access: Access) throws {
        guard !access.isOwner, let person = changes.person else { return }
        guard access.sees(member: person) else {
            throw WebError(.forbidden, code: "notYourMember",
                           nb: "Du kan bare legge brevet til \(access.members.joined(separator: " eller ")). Be eieren av arkivet om å flytte det til en annen.",
                           en: "You can only file the letter to \(access.members.joined(separator: " or ")). Ask the archive's owner to move it to someone else.")
        }
    }

    /// The household members a request's account may file letters to: every member for the
    /// owner, the account's own for the others.
    static func household(_ members: [String], for access: Access) -> [String] {
        members.filter { access.sees(member: $0) }
    }

    /// Writes a line of the audit log for the request's account and device; `document` by id
    /// (read for its member) or as read already.
    static func audit(_ action: AuditAction, document id: String, context: WebContext, store: AsyncLibrary) async throws {
        let document = try? await store.read { try $0.documents.document(id) }
        try await audit(action, document: document, context: context, store: store)
    }

    static func audit(_ action: AuditAction, document: LibraryDocument?, detail: String = "", context: WebContext,
                      store: AsyncLibrary) async throws {
        let access = context.seen, device = context.deviceKind
        try await store.write { library in
            try library.audit.record(action, by: access, document: document?.shortID, member: document?.familyMember, detail: detail,
                                     device: device)
        }
    }

    /// One archived file, streamed from disk: images shown in the page, the .docx and PDF downloaded.
    static func download(_ file: ArchivedFile) async throws -> Response {
        guard let (body, _) = try await FileStream.body(file.url) else {
            throw WebError(.notFound, code: "fileMissing", nb: "Filen mangler i arkivmappen. Den kan være flyttet eller slettet utenfor Arkivator.",
                           en: "The file is missing from the archive folder. It may have been moved or deleted outside Arkivator.")
        }
        var headers = HTTPFields()
        switch file.kind {
        case .image: headers[.contentType] = "image/jpeg"
        case .pdf: headers[.contentType] = "application/pdf"
        case .docx: headers[.contentType] = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        }
        let name = file.url.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "dokument"
        headers[.contentDisposition] = (file.kind == .image ? "inline" : "attachment") + "; filename*=UTF-8''\(name)"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The document page: the letter, its files, its photos as taken and, while it is not in the
    /// trash, "Rett teksten" with its versions; with `problem` (and 400) when a change asked for
    /// could not be made. The one place the page is put together, for every route that shows it.
    static func documentPage(_ id: String, store: AsyncLibrary, templates: Templates, jobs: ExplanationJobs, context: WebContext,
                             query: WebForm = WebForm(""), problem: String? = nil) async throws -> Response {
        let access = context.seen
        let (document, household, versions, originals, appointments, corrected) = try await store.read { library in
            (try library.documents.document(id), Self.household(try library.familyMembers().map(\.name), for: access),
             try library.documents.textVersions(id),
             try library.documents.originals(of: id), try library.calendar.appointments(ofDocument: id), try library.documents.correctedFields(id))
        }
        let facts = try await store.read { library in
            ExplanationView.Facts(stored: try library.explanations.explanation(of: id), enabled: try library.isOn(.llmEnabled),
                                  url: try library.setting(.llmURL), maskNames: try library.isOn(.llmMaskNames))
        }
        let words = Words(templates, context)
        let copy = query.value("kopi").map { $0 == "erstattet" ? " " + words["copyReplaced"] : " " + words["copyNotReplaced"] } ?? ""
        let notice = query.value("lagret").map { ($0 == "1" ? words["changesSaved"] : words["nothingChanged"]) + copy }
            ?? AppointmentsView.notice(query, words: words)
        var view = DocumentView(document, household: household, words: words, notice: notice, problem: problem, originals: originals,
                                appointments: appointments, appointmentsCorrected: corrected.contains(CalendarStore.correctedAppointments),
                                forOwner: access.isOwner)
        // An account is not told about a language model the owner has not turned on.
        if access.isOwner || facts.enabled || facts.stored != nil {
            view.explanation = ExplanationView(letter: document.shortID, facts: facts, state: jobs.state(document.shortID),
                                               trashed: document.trashedAt != nil, words: words)
        }
        // A lab value chosen on «Prøvesvar»: outlined on its page.
        if let value = query.value("verdi").flatMap(Int.init),
           let chosen = try await store.read({ try $0.documents.labReading(value) }), chosen.letter == document.shortID {
            view.images = PageImageView.images(document, chosen: chosen, words: words)
            if !chosen.entry.hasBox {
                view.notice = words.text("Siden viser ikke hvor \(chosen.entry.analysis) står: brevet ble arkivert før det ble lagret. Verdien er \(chosen.entry.value)\(chosen.entry.unit.map { " " + $0 } ?? "").",
                                         "The page does not show where \(chosen.entry.analysis) stands: the letter was filed before that was kept. The value is \(chosen.entry.value)\(chosen.entry.unit.map { " " + $0 } ?? "").")
            }
        }
        if document.trashedAt == nil {
            view.textEditor = TextEditorView(document, notice: TextEditorView.notice(query, words: words), versions: versions, words: words)
        }
        return templates.page("document", title: document.title, model: view, context: context,
                              status: problem == nil ? .ok : .badRequest, scripts: ["recrop.js", "explain.js"])
    }
}
