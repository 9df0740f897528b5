import ArkivatorLibrary
import Hummingbird

/// Writes the audit log's line for each change made through the app, once it has been made (an
/// answer below 400): corrections, redactions, deletions, restores, share links and calendar
/// feeds made or closed, a fødselsnummer shown, a device token made. One table of routes, so a
/// change is logged the same way from the pages and from the API. Openings and sign-ins are
/// logged where they happen (they need what was opened, and who signed in).
struct AuditChanges: RouterMiddleware {
    typealias Context = WebContext
    let store: AsyncLibrary

    /// Route (as registered) → what its success does.
    static let actions: [String: AuditAction] = [
        "/documents/{id}/text": .textCorrected, "/documents/{id}/text/ocr": .textCorrected,
        "/documents/{id}/edit": .letterChanged, "/review/{id}": .letterChanged,
        "/documents/{id}/appointments": .letterChanged, "/documents/{id}/appointments/remove": .letterChanged,
        "/documents/{id}/pages/{page}/recrop": .letterChanged, "/api/v1/documents/{id}": .letterChanged,
        "/documents/{id}/redact": .redacted,
        "/documents/{id}/delete": .deleted, "/api/v1/documents/{id}/trash": .deleted,
        "/documents/{id}/restore": .restored, "/api/v1/documents/{id}/restore": .restored,
        "/del/ny": .shareLinkMade, "/delinger/{link}/revoke": .shareLinkRevoked,
        "/calendar/{member}/new": .feedMade, "/calendar/{member}/revoke": .feedRevoked,
        "/family/{member}/reveal": .numberRevealed, "/settings/tokens": .tokenMade,
        "/settings/tokens/{token}/revoke": .deviceSignedOut, "/enheter/{device}/logg-ut": .deviceSignedOut,
        "/settings/totp/bekreft": .totpOn, "/passkey/{key}/fjern": .passkeyRemoved, "/settings/totp/av": .totpOff,
    ]

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard ![.get, .head].contains(request.method), response.status.code < 400,
              let path = context.endpointPath, let action = Self.actions[Self.normalized(path)] else { return response }
        let access = context.seen, device = context.deviceKind
        let id = context.parameters.get("id")
        let detail = context.parameters.get("link").map { "lenke \($0)" }
            ?? context.parameters.get("member").map { "familiemedlem \($0)" } ?? ""
        try? await store.write { library in
            let document = id.flatMap { try? library.documents.document($0) }
            try library.audit.record(action, by: access, document: document?.shortID, member: document?.familyMember, detail: detail,
                                     device: device)
        }
        return response
    }

    /// The registered path without a leading or trailing difference (`/del/ny/` and `del/ny`).
    static func normalized(_ path: String) -> String {
        var path = path.hasPrefix("/") ? path : "/" + path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
