import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Where a share link's letters are read: `/delt/<secret>`.
    static let sharedPrefix = "/delt"

    /// The doctor's side of a share link: the chosen letters, read-only, without signing in (this
    /// group has no session: it is outside ``PageSession``). Each letter's date, type, sender,
    /// title and text with every fødselsnummer masked, and the share PDF; never the archive's own
    /// page images or PDF, which may show the number. Every opening is written down; an expired
    /// or revoked link answers 410 with a sentence saying so. Not indexed, no referrer (the
    /// address is the secret), nothing kept in a cache.
    func addSharedRoutes(shared: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates
        shared.get("{token}") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let found = try await store.read { library in try library.sharedLetters(token: token) }
            guard case .open(let link, let letters) = found else { return Self.sharedGone(found, templates: templates, context: context) }
            let client = ShareClientHint.of(userAgent: request.headers[.userAgent])
            try await store.write { library in try library.recordShareOpening(link.id, what: .page, client: client) }
            let words = Words(templates, context)
            let model = SharedView(link: link, letters: letters, pdf: "\(Self.sharedPrefix)/\(token)/pdf", words: words)
            return Self.withoutReferrer(templates.page("shared", title: words["sharedTitle"], model: model, context: context))
        }
    }

    /// The plain page of a link that does not open: unknown (404), expired or revoked (410).
    static func sharedGone(_ found: SharedLetters, templates: Templates, context: WebContext) -> Response {
        let t = context.language
        let (status, title, text): (HTTPResponse.Status, String, String) = switch found {
        case .revoked:
            (.gone, t.text("Denne delingen er trukket tilbake", "This share has been revoked"),
             t.text("Den som delte brevene, har trukket lenken tilbake. Be om en ny lenke om du fortsatt trenger dem.",
                    "The person who shared the letters has revoked the link. Ask for a new link if you still need them."))
        case .expired:
            (.gone, t.text("Denne delingen er utløpt", "This share has expired"),
             t.text("Lenken virket bare en tid. Be den som delte brevene, om en ny lenke.",
                    "The link worked only for a while. Ask the person who shared the letters for a new link."))
        default:
            (.notFound, t.text("Fant ikke denne delingen", "This share was not found"),
             t.text("Sjekk at hele lenken er med, eller be den som delte brevene, om en ny.",
                    "Check that the whole link is there, or ask the person who shared the letters for a new one."))
        }
        return Self.withoutReferrer(templates.page("message", title: title, model: ["text": text], context: context, status: status))
    }

    /// A shared page's headers: no referrer (its address is its secret); `no-store` and
    /// `noindex` come with every answer (``SecurityHeaders``).
    static func withoutReferrer(_ response: Response) -> Response {
        var response = response
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }
}
