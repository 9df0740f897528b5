import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// `/api/v1`: the same list, search and document as the pages, as JSON (described in
    /// `openapi.yaml`). Signed in by the session cookie like the pages.
    func addAPIRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.get("/api/v1/documents") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let filter = try Self.filter(query)
            let limit = min(200, max(1, Int(query["limit"] ?? "") ?? Self.pageSize))
            let offset = max(0, Int(query["offset"] ?? "") ?? 0)
            return try Self.json(DocumentList(total: try library.count(filter),
                                              documents: try library.list(filter, limit: limit, offset: offset)))
        }
        router.get("/api/v1/search") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let text = query["q"] ?? ""
            do {
                let result = try library.search(text, filter: try Self.filter(query), limit: Self.pageSize)
                return try Self.json(SearchAnswer(query: text, total: result.total,
                                                  notes: result.notes.map { $0.text(in: context.language) },
                                                  hits: result.hits.map { hit in
                                                      var hit = hit
                                                      hit.snippet = hit.snippet.map {
                                                          $0.replacingOccurrences(of: Library.markStart, with: "[")
                                                              .replacingOccurrences(of: Library.markEnd, with: "]")
                                                      }
                                                      return hit
                                                  }))
            } catch let failure as LibraryFailure {
                return try Self.json(APIError(error: failure.code.rawValue, message: failure.userMessage.text(in: context.language)),
                                     status: .badRequest)
            }
        }
        router.get("/api/v1/documents/{id}") { _, context -> Response in
            try Self.json(try Self.document(library, context))
        }
    }

    struct DocumentList: Encodable {
        var total: Int
        var documents: [DocumentSummary]
    }

    struct SearchAnswer: Encodable {
        var query: String
        var total: Int
        var notes: [String]
        var hits: [DocumentSummary]
    }

    struct APIError: Encodable {
        var error: String
        var message: String
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
