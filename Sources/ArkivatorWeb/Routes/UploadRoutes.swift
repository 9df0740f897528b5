import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebServer {
    /// The most bytes one uploaded page may have (as for files given to `ingest`).
    static let pageByteLimit = 64 << 20
    /// The most pages one upload may have.
    static let uploadPageLimit = 100

    /// Capture: an upload is made, its pages are sent one request each (so the phone shows
    /// progress), and `done` hands it to the inbox, which `serve` watches exactly as `watch`
    /// watches a folder: from then on it is journalled, so a crash loses nothing and files
    /// nothing twice. The status tells what was found once it is filed.
    func addUploadRoutes(pages: RouterGroup<WebContext>, api: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates
        let inbox = options.inbox.map { UploadInbox(inbox: $0) }
        pages.get("/upload") { _, context -> Response in
            let words = Words(templates, context)
            let model: [String: Any] = inbox == nil ? ["disabled": words["uploadsOff"]] : [:]
            return templates.page("upload", title: words["uploadLetters"], model: model, context: context, scripts: ["upload.js"],
                                  section: "upload")
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
            let bytes: ByteBuffer
            do {
                bytes = try await request.body.collect(upTo: Self.pageByteLimit)
            } catch is NIOTooManyBytesError {
                throw WebError(.contentTooLarge, code: "tooLarge", nb: "Bildet er for stort (over \(Self.pageByteLimit >> 20) MB). Ta bildet på nytt med lavere oppløsning.",
                               en: "The image is too large (over \(Self.pageByteLimit >> 20) MB). Take it again at a lower resolution.")
            }
            try await store.files { try inbox.putPage(id, number: number, bytes: Array(buffer: bytes)) }
            return try JSONAnswer.response(UploadStatus(id: id, status: "open"))
        }
        api.post("/uploads/{id}/done") { _, context -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            guard let id = context.parameters.get("id"), UploadInbox.isUploadID(id) else { throw WebError.notFound }
            guard try await store.files({ try inbox.finish(id) }) else {
                // The upload is there but not ready to hand over: a conflict with its state, not a bad request.
                throw WebError(.conflict, code: "noPages", nb: "Opplastingen har ingen sider ennå. Send minst én side først.",
                               en: "The upload has no pages yet. Send at least one page first.")
            }
            return try JSONAnswer.response(UploadStatus(id: id, status: "received"))
        }
        api.get("/uploads/{id}") { _, context -> Response in
            guard let inbox else { throw HTTPError(.serviceUnavailable) }
            guard let id = context.parameters.get("id"), UploadInbox.isUploadID(id) else { throw WebError.notFound }
            let words = Words(templates, context)
            let status = try await store.read { library -> UploadStatus? in
                if inbox.openFolder(id) != nil { return UploadStatus(id: id, status: "open") }
                guard let entry = try library.journal.entry(source: inbox.source(id)) else {
                    return inbox.place(id).map { UploadStatus(id: id, status: $0) }
                }
                var status = UploadStatus(id: id, status: entry.stage.rawValue)
                status.message = entry.failure.map {
                    ServerPaths.hidden(in: $0.userMessage.text(in: words.language),
                                       folders: [library.location.directory.path, library.defaultArchiveRoot.path])
                }
                if let row = entry.documentID, let shortID = try library.shortID(row: row) {
                    let document = try library.document(shortID)
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
            guard let status else { throw WebError.notFound }
            return try JSONAnswer.response(status)
        }
    }

    struct UploadStatus: Encodable {
        var id: String
        /// `open` (pages may still come), `received` (in the inbox), then the journal's stages:
        /// `recognised`, `classified`, `written`, `indexed`, `done`, `duplicate`, `failed`.
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
    }
}
