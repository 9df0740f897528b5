import HTTPTypes
import Hummingbird

/// Headers on every answer: a strict Content-Security-Policy (own scripts and styles only, no
/// frames), no sniffing, no referrer to other sites (same-origin: a form keeps its Origin), not
/// indexed, and `no-store` on everything but the stylesheet and scripts, so no letter stays in a
/// browser's or proxy's cache. The one exception is an answer that sets its own: a thumbnail, at
/// an address that changes with the picture, kept by the signed-in browser alone (`private`).
struct SecurityHeaders: RouterMiddleware {
    typealias Context = WebContext

    static let policy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        // Every answer at a share link's or a calendar feed's address (its error pages too) sends
        // no referrer: the address is the secret.
        let secretAddress = [WebServer.sharedPrefix + "/", "/kalender/"].contains { request.uri.path.hasPrefix($0) }
        if secretAddress || response.headers[.referrerPolicy] == "no-referrer" {
            response.headers[.referrerPolicy] = "no-referrer"
        } else {
            response.headers[.referrerPolicy] = "same-origin"
        }
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.xRobotsTag] = "noindex, nofollow"
        if !request.uri.path.hasPrefix("/static/"), response.headers[.cacheControl]?.hasPrefix("private") != true {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

extension HTTPField.Name {
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xRobotsTag = HTTPField.Name("X-Robots-Tag")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
