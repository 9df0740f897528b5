import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// Headers on every answer: a strict Content-Security-Policy (own scripts and styles only, no
/// frames), no sniffing, no referrer to other sites (same-origin: a form keeps its Origin), and `no-store` on everything but the stylesheet, so no
/// letter stays in a browser's or proxy's cache.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = WebContext

    static let policy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = WebErrors.page(error.status, context: context)
        } catch {
            // Anything else (a full disk, a damaged database) is told in plain words, never as
            // the error's own text, and logged without the request's address or body.
            context.logger.error("arkivator serve: \(String(describing: type(of: error))): \(UserMessage(error: error).english)")
            response = WebErrors.page(.internalServerError, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        if !request.uri.path.hasPrefix("/static/") { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

/// Who is asking: finds the session from the cookie (ending one idle past the app lock), and
/// lets a request through only when it may be: the sign-in pages and the stylesheet are open;
/// everything else needs a session (pages go to the sign-in page, the API answers 401). A
/// request that changes something must come from this site (`Origin`) and, once signed in,
/// carry the session's CSRF token (form field `_csrf` or header `X-CSRF-Token`).
struct SignIn: RouterMiddleware {
    typealias Context = WebContext

    static let cookie = "arkivator_okt"
    let library: Library
    let idle: TimeInterval

    static let openPaths: Set<String> = ["/login", "/setup", "/static/app.css", "/static/app.js", "/static/upload.js"]

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        context.language = UILanguage(acceptLanguage: request.headers[.acceptLanguage])
        let path = request.uri.path
        let changes = ![.get, .head].contains(request.method)
        if changes, !Self.sameOrigin(request) {
            throw HTTPError(.forbidden)
        }
        // The stylesheet and scripts are the same for everyone: no session is looked up for them.
        if path.hasPrefix("/static/") { return try await next(request, context) }
        if let token = request.cookies[Self.cookie]?.value {
            context.session = try library.webSession(token: token, idle: idle)
        }
        // A script or phone shortcut: its device token, for the API only (no cookie, so no CSRF).
        if context.session == nil, path.hasPrefix("/api/"), let authorization = request.headers[.authorization] {
            guard authorization.hasPrefix("Bearer "), try library.isAPIToken(String(authorization.dropFirst(7))) else {
                throw HTTPError(.unauthorized)
            }
            context.device = true
        }
        guard context.session != nil || context.device || Self.openPaths.contains(path) else {
            if path.hasPrefix("/api/") { throw HTTPError(.unauthorized) }
            return Response(status: .seeOther, headers: [.location: "/login"])
        }
        var request = request
        if changes, let session = context.session, !Self.openPaths.contains(path) {
            // A script sends the token as a header (and its body may be a large page image); a
            // form sends it as a field of its small body.
            var sent = request.headers[.csrfToken]
            if sent == nil {
                let body = try await request.body.collect(upTo: context.maxUploadSize)
                request.body = RequestBody(buffer: body)
                sent = WebForm(String(buffer: body))["_csrf"]
            }
            guard let sent, Self.constantTimeEqual(sent, session.csrf) else { throw HTTPError(.forbidden) }
        }
        return try await next(request, context)
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

    /// The cookie that signs a browser in: only over this site, never to scripts.
    static func setCookie(_ token: String, secure: Bool) -> String {
        "\(cookie)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    static func clearCookie(secure: Bool) -> String {
        "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}

extension HTTPField.Name {
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

/// An `application/x-www-form-urlencoded` body or query, by field name (the first of each).
struct WebForm {
    private var fields: [String: String] = [:]

    init(_ encoded: String) {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = parts.first else { continue }
            let decode = { (s: Substring) in s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            let name = decode(rawName)
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// The field trimmed, nil when absent or blank.
    func value(_ name: String) -> String? {
        fields[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Pages for errors, in plain words.
enum WebErrors {
    static func page(_ status: HTTPResponse.Status, context: WebContext) -> Response {
        let t = context.language
        let (title, text): (String, String) = switch status.code {
        case 400: (t.text("Ugyldig forespørsel", "Bad request"),
                   t.text("Noe i adressen eller skjemaet kunne ikke brukes. Gå tilbake og prøv igjen.",
                          "Something in the address or form could not be used. Go back and try again."))
        case 401: (t.text("Ikke innlogget", "Not signed in"),
                   t.text("Logg inn først.", "Sign in first."))
        case 403: (t.text("Ikke tillatt", "Not allowed"),
                   t.text("Forespørselen kom ikke fra denne siden eller skjemaet var for gammelt. Last siden på nytt og prøv igjen.",
                          "The request did not come from this site or the form was too old. Reload the page and try again."))
        case 404: (t.text("Fant ikke siden", "Page not found"),
                   t.text("Det finnes ikke noe dokument eller side med denne adressen.", "There is no document or page at this address."))
        case 413: (t.text("For stort", "Too large"),
                   t.text("Det som ble sendt, er for stort.", "What was sent is too large."))
        case 429: (t.text("For mange forsøk", "Too many attempts"),
                   t.text("For mange feil passord. Vent litt og prøv igjen.", "Too many wrong passwords. Wait a while and try again."))
        default: (t.text("Noe gikk galt", "Something went wrong"),
                  t.text("Arkivator kunne ikke svare på dette. Prøv igjen.", "Arkivator could not answer this. Try again."))
        }
        var context = context
        if status == .unauthorized || status == .forbidden { context.session = nil }
        return HTML.page(title, body: "<p>\(HTML.escape(text))</p><p><a href=\"/\">\(t.text("Til biblioteket", "To the library"))</a></p>",
                         context: context, status: status)
    }
}
