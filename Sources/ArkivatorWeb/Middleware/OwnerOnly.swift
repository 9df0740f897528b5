import ArkivatorLibrary
import Hummingbird

/// The gate of the pages and API routes that are the owner's alone: the household, settings,
/// accounts, the log, the trash, sharing, deleting and every change not yet opened to the
/// accounts. An account the owner made is answered 403 with what to do; the routes an
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

/// The gate of the routes that change letters or add them (correcting fields in review or on a
/// letter's page, uploading): the owner's and a family account's, each narrowing to the letters it
/// sees. A reader is answered 403: its account reads the letters, it does not change them.
struct MayChange: RouterMiddleware {
    typealias Context = WebContext

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        guard context.access?.mayChange == true else { throw WebError.readOnly }
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
