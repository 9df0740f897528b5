import ArkivatorApp
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Where a share link's letters are read: `/delt/<secret>`.
    static let sharedPrefix = ShareStore.shareLinkPrefix

    /// The doctor's side of a share link: the chosen letters, read-only, without signing in (this
    /// group has no session: it is outside ``PageSession``). Each letter's date, type, sender,
    /// title and text with every fødselsnummer masked, and the share PDF; never the archive's own
    /// page images or PDF, which may show the number. Every opening is written down; an expired
    /// or revoked link answers 410 with a sentence saying so. Not indexed, no referrer (the
    /// address is the secret), nothing kept in a cache.
    func addSharedRoutes(shared: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, throttle = shareThrottle, household = self.household
        shared.get("{token}") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let found = try await store.read { library in try library.sharing.sharedLetters(token: token) }
            guard case .open(let link, let letters) = found else { return await Self.sharedGone(found, templates: templates, context: context, throttle: throttle) }
            let client = ShareClientHint.of(userAgent: request.headers[.userAgent])
            try await store.write { library in try library.sharing.recordShareOpening(link.id, what: .page, client: client) }
            let words = Words(templates, context)
            // The lab values of these letters alone.
            try await Self.readWaitingLabs(store: store, household: household)
            let labs = LabSummary(try await store.read { library in try library.documents.labReadings(rows: letters.map(\.number)) })
            let model = SharedView(link: link, letters: letters, pdf: "\(Self.sharedPrefix)/\(token)/pdf",
                                   pages: "\(Self.sharedPrefix)/\(token)/sider", labs: labs, words: words)
            return Self.withoutReferrer(templates.page("shared", title: words["sharedTitle"], model: model, context: context))
        }
        addSharedPDFRoute(shared: shared)
        addSharedPageImageRoute(shared: shared)
    }

    /// The share PDF: made once (``SharePackMaker``), then streamed from the library's folder.
    func addSharedPDFRoute(shared: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household, sharePacks = self.sharePacks
        let logger = options.logger, throttle = shareThrottle
        shared.get("{token}/pdf") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let found = try await store.read { library in try library.sharing.sharedLetters(token: token) }
            guard case .open(let link, let letters) = found else { return await Self.sharedGone(found, templates: templates, context: context, throttle: throttle) }
            guard !letters.isEmpty else { throw WebError.notFound }
            let made: (body: ResponseBody, size: Int)?
            do {
                made = try await FileStream.body(try await sharePacks.pdf(link: link.id, letters: letters, household: household))
            } catch {
                logger.error("share PDF for link \(link.id): \(String(describing: type(of: error))) \(WebError.from(error).code)")
                made = nil
            }
            guard let made else {
                let t = context.language
                return Self.withoutReferrer(templates.page("message", title: t.text("PDF-en kunne ikke lages", "The PDF could not be made"), model: [
                    "text": t.text("Brevene kan fortsatt leses på siden lenken åpner. Be den som delte dem, om en PDF på en annen måte.",
                                   "The letters can still be read on the page the link opens. Ask the person who shared them for a PDF another way."),
                    "link": ["href": "\(Self.sharedPrefix)/\(token)", "label": t.text("Til brevene", "To the letters")],
                ] as [String: Any], context: context, status: .internalServerError))
            }
            let client = ShareClientHint.of(userAgent: request.headers[.userAgent])
            try await store.write { library in try library.sharing.recordShareOpening(link.id, what: .pdf, client: client) }
            var headers = HTTPFields()
            headers[.contentType] = "application/pdf"
            headers[.contentDisposition] = "attachment; filename=\"delte-brev.pdf\""
            return Self.withoutReferrer(Response(status: .ok, headers: headers, body: made.body))
        }
    }

    /// The plain page of a link that does not open: unknown (404), expired or revoked (410). A
    /// client that keeps asking for links that never existed is answered 429 for a while
    /// (``GuessThrottle``).
    static func sharedGone(_ found: SharedLetters, templates: Templates, context: WebContext, throttle: GuessThrottle) async -> Response {
        let t = context.language
        if case .unknown = found {
            if let seconds = await throttle.refusal(client: context.client) {
                var answer = templates.page("message", title: t.text("For mange lenker som ikke virker", "Too many links that do not work"),
                                            model: ["text": t.text("Vent litt og prøv igjen, og sjekk at hele lenken er med.",
                                                                   "Wait a while and try again, and check that the whole link is there.")],
                                            context: context, status: .tooManyRequests)
                answer.headers[.retryAfter] = String(seconds)
                return Self.withoutReferrer(answer)
            }
            await throttle.miss(client: context.client)
        }
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
