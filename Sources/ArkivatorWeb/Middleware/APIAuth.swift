import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// The API's gate (`/api/v1`): a device's token (`Authorization: Bearer ark_…`, the scheme in any
/// case), or a signed-in browser's cookie, whose changes must come from this site and carry the
/// session's CSRF token in `X-CSRF-Token` (never read from the body: an uploaded page is large).
/// Anything else is answered 401 in JSON.
struct APIAuth: RouterMiddleware {
    typealias Context = WebContext
    let store: AsyncLibrary
    let idle: TimeInterval

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        if let authorization = request.headers[.authorization] {
            guard let token = Self.bearer(authorization), let access = try await store.read({ try $0.accounts.apiTokenAccess(token) }) else {
                throw WebError(.unauthorized, code: "unauthorized", nb: "Nøkkelen er ukjent eller trukket tilbake. Lag en ny i Innstillinger.",
                               en: "The token is unknown or revoked. Make a new one in Settings.")
            }
            context.access = access
            context.deviceKind = DeviceKind.script
            return try await next(request, context)
        }
        guard let (session, access) = try await PageSession.session(request, store: store, idle: idle) else {
            throw WebError(.unauthorized, code: "unauthorized", nb: "Logg inn, eller send en enhetsnøkkel som «Authorization: Bearer …».",
                           en: "Sign in, or send a device token as “Authorization: Bearer …”.")
        }
        context.session = session
        context.access = access
        context.deviceKind = DeviceKind.of(request)
        if ![.get, .head].contains(request.method) {
            guard PageSession.sameOrigin(request), let sent = request.headers[.csrfToken],
                  PageSession.constantTimeEqual(sent, session.csrf) else { throw HTTPError(.forbidden) }
        }
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer TOKEN` header, the scheme in any case.
    static func bearer(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty || token.count > 200 ? nil : token
    }
}
