import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// A document's thumbnail (its first page, small) for lists, behind sign-in like every page.
    /// Asked for with its version (`?v=`, which changes with the picture) it may be kept by the
    /// browser for good; without it, the browser asks again each time (`ETag`). One not made yet
    /// is made on the library's threads for file work, never on the pool that serves requests.
    func addThumbnailRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store
        pages.get("/documents/{id}/thumbnail") { request, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let asked = WebForm(request.uri.query ?? "").value("v")
            var thumbnail = try await store.read { library -> Thumbnail in
                let known = try library.documents.thumbnail(id)
                if case .file(let url, _) = known, !FileManager.default.fileExists(atPath: url.path) { return .missing }
                return known
            }
            if thumbnail == .missing {
                thumbnail = try await store.files { try ThumbnailMaker.thumbnail(id, in: store.library) }
            }
            guard case .file(let url, let version) = thumbnail else { throw WebError.notFound }
            var headers = HTTPFields()
            headers[.eTag] = "\"\(version)\""
            headers[.cacheControl] = asked == version ? "private, max-age=31536000, immutable" : "private, no-cache"
            if request.headers[.ifNoneMatch] == "\"\(version)\"" {
                return Response(status: .notModified, headers: headers)
            }
            guard let (body, _) = try await FileStream.body(url) else { throw WebError.notFound }
            headers[.contentType] = "image/jpeg"
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    /// The address of a document's thumbnail for a list: with its version when it is made, without
    /// (made when first asked for) when not yet; nil when the document has no page to show.
    static func thumbnailLink(id: String, version: String?, none: Bool) -> String? {
        if none { return nil }
        return "/documents/\(id)/thumbnail" + (version.map { "?v=\($0)" } ?? "")
    }
}
