import ArkivatorCore
import Foundation
import Hummingbird
import Logging

/// One line per request at `info`: method, path without its query (a search's words stay out of
/// the log), status and milliseconds. Never a body, a cookie, a name or a number.
struct RequestLog: RouterMiddleware {
    typealias Context = WebContext
    let logger: Logger

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method) \(Self.loggedPath(request.uri.path)) \(response.status.code) \(String(format: "%.1f", ms)) ms")
        return response
    }

    /// The path as logged: a sign-in link's, share link's or calendar feed's secret cut off,
    /// control characters escaped, numbers masked.
    static func loggedPath(_ path: String) -> String {
        if path.hasPrefix("/login/link/") { return "/login/link/…" }
        if path.hasPrefix(WebServer.sharedPrefix + "/") { return WebServer.sharedPrefix + "/…" }
        if path.hasPrefix("/kalender/") { return "/kalender/…" }
        return ShownName.of(path)
    }
}

/// Who is asking: the language from `Accept-Language`, and the client the sign-in throttle counts.
struct ClientInfo: RouterMiddleware {
    typealias Context = WebContext
    let addresses: ClientAddress

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        context.language = UILanguage(acceptLanguage: request.headers[.acceptLanguage])
        context.client = addresses.client(peer: context.remoteAddress, forwardedFor: request.headers[.xForwardedFor])
        return try await next(request, context)
    }
}

