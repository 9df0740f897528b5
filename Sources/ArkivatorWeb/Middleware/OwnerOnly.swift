import ArkivatorLibrary
import Hummingbird

/// The gate of the pages and API routes that are the owner's alone: the household, settings,
/// accounts, the log, review, the trash, sharing, uploads and every change not yet opened to
/// the accounts. An account the owner made is answered 403 with what to do; the routes an
/// account may use are in the group before this gate, and narrow what they show themselves
/// (``Access``). A route added to the app is the owner's until it is made to narrow.
struct OwnerOnly: RouterMiddleware {
    typealias Context = WebContext

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        guard context.access?.isOwner == true else { throw WebError.ownerOnly }
        return try await next(request, context)
    }
}

/// The kind of device a request comes from, as the audit log names it: never its address.
enum DeviceKind {
    static let script = "skript"

    static func of(_ request: Request) -> String {
        let agent = (request.headers[.userAgent] ?? "").lowercased()
        if agent.contains("ipad") || agent.contains("tablet") { return "nettbrett" }
        if agent.contains("mobile") || agent.contains("iphone") || agent.contains("android") { return "telefon" }
        if agent.contains("mozilla") { return "datamaskin" }
        return agent.isEmpty ? "ukjent" : "program"
    }
}
