import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// A document's photos as taken: the original downloaded as it came, each page's photo shown
    /// for moving its corners, and the page read again with the corners and turn chosen.
    /// `anyone`: the photos as taken, for every account that sees the letter; `pages`: reading a
    /// page again, the owner's.
    func addRecropRoutes(anyone: RouterGroup<WebContext>, pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household, jobs = explanationJobs, work = self.work
        anyone.get("/documents/{id}/originals/{number}") { _, context -> Response in
            let id = try await Self.seenID(context, store: store)
            guard let number = context.parameters.get("number", as: Int.self) else { throw WebError.notFound }
            let originals = try await store.read { try $0.documents.originals(of: id) }
            guard let original = originals.first(where: { $0.number == number }) else { throw WebError.notFound }
            try await Self.audit(.originalOpened, document: id, context: context, store: store)
            return try await Self.download(original)
        }
        anyone.get("/documents/{id}/pages/{page}/photo") { _, context -> Response in
            let id = try await Self.seenID(context, store: store)
            guard let page = context.parameters.get("page", as: Int.self) else { throw WebError.notFound }
            // Decoding a phone photo is long work: on a thread of its own.
            let preview: (jpeg: [UInt8], width: Int, height: Int)
            do {
                preview = try await work.quick.run { try household.photoPreview(id, page: page) }
            } catch is RecropFailure {
                throw WebError.notFound
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            headers[.cacheControl] = "private, no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: preview.jpeg)))
        }
        pages.post("/documents/{id}/pages/{page}/recrop") { request, context -> Response in
            let id = try Self.documentID(context)
            guard let page = context.parameters.get("page", as: Int.self) else { throw WebError.notFound }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let shortID = try await store.read { try $0.documents.document(id).shortID }
            do {
                guard let change = PhotoView.recrop(form) else {
                    throw RecropFailure.badCorners(nil)
                }
                // Cleanup and OCR of one page: seconds of C work, on a thread of its own.
                _ = try await work.pages.run { try household.recrop(shortID, page: page, change) }
            } catch let failure as RecropFailure {
                return try await Self.documentPage(shortID, store: store, templates: templates, jobs: jobs, context: context,
                                                   problem: failure.userMessage.text(in: context.language))
            }
            if form.value("back") == "/review" { return Self.redirect("/review") }
            return Self.redirect("/documents/\(shortID)?lagret=1")
        }
    }

    /// A document's file as it was received, streamed from disk with its own content type.
    static func download(_ original: DocumentOriginal) async throws -> Response {
        guard let (body, _) = try await FileStream.body(original.url) else {
            throw WebError(.notFound, code: "fileMissing", nb: "Bildet slik det ble tatt mangler i bibliotekmappen.",
                           en: "The photo as taken is missing from the library folder.")
        }
        var headers = HTTPFields()
        headers[.contentType] = original.contentType
        let name = original.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "original"
        headers[.contentDisposition] = "attachment; filename*=UTF-8''\(name)"
        return Response(status: .ok, headers: headers, body: body)
    }
}
