import ArkivatorCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// Turns every error into an answer, in one place: a JSON `{error, message}` under `/api/`, a
/// page in plain words elsewhere. A path the app knows, asked with a method it does not take, is
/// answered 405 with `Allow`. An unexpected error (a full disk, a damaged database) is logged by
/// its type, without the request, and told in plain words, never as its own text.
struct ErrorResponses: RouterMiddleware {
    typealias Context = WebContext
    let templates: Templates
    let routes: RouteTable
    let logger: Logger

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var failure = WebError.from(error)
            var headers = HTTPFields()
            if failure.status == .notFound, let allowed = routes.methods(for: request.uri.path), !allowed.contains(request.method) {
                failure = WebError.generic(.methodNotAllowed)
                headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            }
            if failure.status == .internalServerError, !(error is WebError) {
                logger.error("\(request.method) \(RequestLog.loggedPath(request.uri.path)): \(String(describing: type(of: error))) \(failure.code)")
            }
            if failure.status == .unauthorized, request.uri.path.hasPrefix("/api/") {
                headers[.wwwAuthenticate] = "Bearer"
            }
            var response = request.uri.path.hasPrefix("/api/") ? try Self.json(failure, context: context)
                : Self.page(failure, templates: templates, context: context)
            for field in headers { response.headers[field.name] = field.value }
            return response
        }
    }

    /// The API's error: its code and message, the message without any path on the server (a
    /// library's message may name a file, as the command line's do).
    static func json(_ failure: WebError, context: WebContext) throws -> Response {
        try JSONAnswer.response(APIError(error: failure.code, message: ServerPaths.hidden(in: failure.message.text(in: context.language))),
                                status: failure.status)
    }

    static func page(_ failure: WebError, templates: Templates, context: WebContext) -> Response {
        var context = context
        if failure.status == .unauthorized || failure.status == .forbidden { context.session = nil }
        let t = context.language
        let title = switch failure.status.code {
        case 401: t.text("Ikke innlogget", "Not signed in")
        case 403: t.text("Ikke tillatt", "Not allowed")
        case 404: t.text("Fant ikke siden", "Page not found")
        case 429: t.text("For mange forsøk", "Too many attempts")
        case 400..<500: t.text("Kunne ikke brukes", "Could not be used")
        default: t.text("Noe gikk galt", "Something went wrong")
        }
        // An account turned away from the owner's pages is signed in: back to its own letters.
        let link = failure.code == WebError.ownerOnly.code ? ["href": "/", "label": t.text("Til brevene dine", "To your letters")]
            : context.session == nil ? ["href": "/login", "label": t.text("Til innloggingen", "To sign in")]
            : ["href": "/", "label": t.text("Til biblioteket", "To the library")]
        return templates.page("message", title: title, model: ["text": failure.message.text(in: t), "link": link] as [String: Any],
                              context: context, status: failure.status)
    }
}

/// The API's error body.
struct APIError: Encodable {
    var error: String
    var message: String
}

/// The app's routes by path pattern, filled once the router is built: which methods a path takes.
final class RouteTable: Sendable {
    private let patterns = NIOLockedValueBox<[(segments: [Substring], methods: Set<HTTPRequest.Method>)]>([])

    func fill(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var table: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes { table[route.path, default: []].insert(route.method) }
        patterns.withLockedValue { $0 = table.map { (segments: $0.key.split(separator: "/"), methods: $0.value) } }
    }

    /// The methods of the route whose pattern matches `path`, or nil when none does.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let parts = path.split(separator: "/")
        let found = patterns.withLockedValue { patterns in
            patterns.filter { pattern in
                pattern.segments.count == parts.count
                    && zip(pattern.segments, parts).allSatisfy { $0.hasPrefix("{") || $0.hasPrefix(":") || $0 == $1 }
            }
        }
        guard !found.isEmpty else { return nil }
        return found.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
    }
}
