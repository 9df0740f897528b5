import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// The pages' gate: finds the browser's session from its cookie (ending one idle past the app
/// lock), sends a browser without one to the sign-in page (unless the page is one of the open
/// sign-in pages), and lets a request that changes something through only when it comes from
/// this site (`Origin`, else `Referer`) and, once signed in, carries the session's CSRF token
/// (form field `_csrf`, or the `X-CSRF-Token` header of a script; for the upload form, whose
/// body is streamed, its handler checks the field: see ``WebContext/formToken``).
struct PageSession: RouterMiddleware {
    typealias Context = WebContext
    static let cookie = "arkivator_okt"
    let store: AsyncLibrary
    let idle: TimeInterval
    /// False for the sign-in pages: they are open, and use the session only to skip themselves.
    let required: Bool

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        let changes = ![.get, .head].contains(request.method)
        if changes, !Self.sameOrigin(request) { throw HTTPError(.forbidden) }
        if let (session, access) = try await Self.session(request, store: store, idle: idle) {
            context.session = session
            context.access = access
        }
        context.deviceKind = DeviceKind.of(request)
        guard let session = context.session else {
            if required { return Response(status: .seeOther, headers: [.location: "/login"]) }
            return try await next(request, context)
        }
        var request = request
        if changes, required {
            var sent = request.headers[.csrfToken]
            if sent == nil, Self.streamsItsForm(request) {
                // The upload form without script: its body (photos) is read as it arrives, and
                // its handler checks `_csrf`, the form's first field, before it keeps anything.
                context.formToken = session.csrf
                return try await next(request, context)
            }
            if sent == nil {
                let body = try await request.body.collect(upTo: context.maxUploadSize)
                request.body = RequestBody(buffer: body)
                sent = WebForm(String(buffer: body))["_csrf"]
            }
            guard let sent, Self.constantTimeEqual(sent, session.csrf) else { throw HTTPError(.forbidden) }
        }
        return try await next(request, context)
    }

    /// The one form whose body is too large to read before it is handled: the upload page's,
    /// sent as `multipart/form-data` to `/upload`.
    static func streamsItsForm(_ request: Request) -> Bool {
        request.method == .post && request.uri.path == "/upload"
            && request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
    }

    /// The session the request's cookie names, if it is still alive, and what its account sees
    /// (nil when the account was removed meanwhile).
    static func session(_ request: Request, store: AsyncLibrary, idle: TimeInterval) async throws -> (WebSession, Access)? {
        guard let token = request.cookies[cookie]?.value, !token.isEmpty else { return nil }
        return try await store.read { library -> (WebSession, Access)? in
            guard let session = try library.accounts.webSession(token: token, idle: idle),
                  let access = try library.accounts.access(account: session.account) else { return nil }
            return (session, access)
        }
    }

    /// A changing request's `Origin` (or, without one, `Referer`) names this host; a request
    /// with neither (a script with a token, a test) is let through to the token checks.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let source = request.headers[.origin] ?? request.headers[.referer] else { return true }
        guard let host = request.head.authority, let url = URL(string: source),
              let sourceHost = url.host else { return false }
        let sourcePort = url.port.map { ":\($0)" } ?? ""
        return "\(sourceHost)\(sourcePort)".lowercased() == host.lowercased()
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The cookie that signs a browser in: only over this site, never to scripts; kept by the
    /// browser for `maxAge` seconds (a remembered device), else until it closes.
    static func setCookie(_ token: String, secure: Bool, maxAge: TimeInterval? = nil) -> String {
        "\(cookie)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
            + (maxAge.map { "; Max-Age=\(Int($0))" } ?? "")
    }

    static func clearCookie(secure: Bool) -> String {
        "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
