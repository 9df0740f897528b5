import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension WebServer {
    /// Each household member's appointments as a calendar feed a phone subscribes to.
    ///
    /// `GET /kalender/<secret>.ics` is open (no session: a phone's calendar has none) and sits
    /// outside the page group; it answers `text/calendar` (``AppointmentCalendar``), or 404 in
    /// plain words once the address is replaced or revoked. Addresses that open nothing are
    /// counted per client, and a client with too many is answered 429 for them (``GuessThrottle``);
    /// a working address is served all the same. The secret never reaches the log (``RequestLog``).
    /// `/calendar` (signed in) makes an address (shown once: only its hash is kept), replaces it,
    /// and revokes it, each after a question.
    func addCalendarFeedRoutes(open router: Router<WebContext>, pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, throttle = feedThrottle, options = self.options
        router.get("/kalender/{file}") { _, context -> Response in
            let file = context.parameters.get("file") ?? ""
            let secret = file.hasSuffix(".ics") ? String(file.dropLast(4)) : ""
            // A working address is always served (a proxy or a calendar service may fetch many
            // households' feeds from one address); only one that opens nothing is refused.
            guard let (feed, appointments) = try await store.read({ try $0.calendar.calendarFeed(secret: secret) }) else {
                if let seconds = await throttle.refusal(client: context.client) {
                    var answer = Self.feedText(.tooManyRequests, context.text(
                        "For mange kalenderadresser som ikke virker. Vent litt og prøv igjen.",
                        "Too many calendar addresses that do not work. Wait a while and try again."))
                    answer.headers[.retryAfter] = String(seconds)
                    return answer
                }
                await throttle.miss(client: context.client)
                return Self.feedText(.notFound, context.text(
                    "Denne kalenderadressen virker ikke. Den er slått av eller byttet ut. Lag en ny i Arkivator under Kalender.",
                    "This calendar address does not work. It was turned off or replaced. Make a new one in Arkivator under Calendar."))
            }
            if CalendarStore.calendarFeedFetchIsDue(feed) { try await store.write { try $0.calendar.noteCalendarFeedFetched(feed) } }
            var headers = HTTPFields()
            headers[.contentType] = "text/calendar; charset=utf-8"
            headers[.contentDisposition] = "inline; filename=\"arkivator-kalender.ics\""
            return Response(status: .ok, headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: AppointmentCalendar.ics(appointments, name: "Timer: \(feed.member)"))))
        }
        pages.get("/calendar") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            var page = CalendarPage()
            // The member by id, never a name from the address: a link cannot put words on the page.
            page.turnedOff = query.value("slatt-av").flatMap { Int($0) }
            return try await Self.calendarPage(store, templates, page, context: context)
        }
        pages.post("/calendar/{member}/new") { request, context -> Response in
            let member = try Self.memberID(context)
            let secret = try await store.write { try $0.calendar.createCalendarFeed(member: member) }
            var page = CalendarPage()
            let own = try await Self.linkAddress(request, options: options, store: store, language: context.language)
            page.made = (member, Self.feedAddresses(secret, own: (own.scheme, own.host)))
            page.warning = own.warning
            return try await Self.calendarPage(store, templates, page, context: context)
        }
        pages.post("/calendar/{member}/revoke") { _, context -> Response in
            let member = try Self.memberID(context)
            try await store.write { library in
                guard try library.familyMembers().contains(where: { $0.id == member }),
                      try library.calendar.revokeCalendarFeed(member: member) else { throw WebError.notFound }
            }
            return Self.redirect("/calendar?slatt-av=\(member)")
        }
    }

    /// A feed's answer in plain text (a calendar shows no page).
    static func feedText(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// The feed's address as a phone reaches this web app: `webcal://` (iPhone opens its
    /// calendar with it) and `https://` (or `http://` without TLS), on the host the browser used.
    static func feedAddresses(_ secret: String, own: (scheme: String, host: String)) -> (webcal: String, web: String) {
        let path = CalendarStore.calendarFeedPath(secret)
        return ("webcal://" + own.host + path, own.scheme + "://" + own.host + path)
    }

    /// What the calendar page shows beside the members.
    struct CalendarPage {
        /// The member whose address was just turned off.
        var turnedOff: Int?
        /// The member whose address was just made, and the address (shown this once).
        var made: (member: Int, addresses: (webcal: String, web: String))?
        /// The address works on this machine only.
        var warning: String?
    }

    static func calendarPage(_ store: AsyncLibrary, _ templates: Templates, _ page: CalendarPage, context: WebContext) async throws -> Response {
        let (members, feeds) = try await store.read { library in (try library.familyMembers(), try library.calendar.calendarFeeds()) }
        let words = Words(templates, context)
        let rows: [[String: Any]] = members.map { member in
            var row: [String: Any] = ["id": member.id, "name": member.name]
            if let feed = feeds.first(where: { $0.memberID == member.id }) {
                let made = words.date(String(feed.createdAt.prefix(10)))
                row["state"] = feed.lastFetched.map { words.text("Laget \(made), sist hentet \(words.date(String($0.prefix(10)))).",
                                                                 "Made \(made), last fetched \($0.prefix(10)).") }
                    ?? words.text("Laget \(made), ikke hentet av noen kalender ennå.", "Made \(made), not fetched by any calendar yet.")
                row["hasFeed"] = true
                row["replaceQuestion"] = words.text(
                    "Lage en ny adresse for «\(member.name)»? Den gamle slutter å virke, og telefoner som abonnerer på den, må legge til den nye.",
                    "Make a new address for “\(member.name)”? The old one stops working, and phones subscribed to it must add the new one.")
                row["revokeQuestion"] = words.text(
                    "Slå av kalenderadressen til «\(member.name)»? Telefoner som abonnerer på den, får ingen nye timer.",
                    "Turn off the calendar address for “\(member.name)”? Phones subscribed to it get no new appointments.")
            } else {
                row["state"] = words["calendarNoFeed"]
            }
            return row
        }
        var model: [String: Any] = ["members": rows, "empty": rows.isEmpty]
        if let made = page.made, let member = members.first(where: { $0.id == made.member }) {
            model["made"] = ["webcal": made.addresses.webcal, "web": made.addresses.web, "warning": page.warning ?? "",
                             "shownOnce": words.text("Kalenderadressen til «\(member.name)» vises bare nå. Åpne den på telefonen eller kopier den før du går videre.",
                                                     "The calendar address for “\(member.name)” is shown only now. Open it on the phone or copy it before you move on.")]
        }
        if let id = page.turnedOff, let member = members.first(where: { $0.id == id }) {
            model["notice"] = words.text(
                "Kalenderadressen til «\(member.name)» er slått av. Kalendere som abonnerte på den, får ingen nye timer.",
                "The calendar address for “\(member.name)” is turned off. Calendars subscribed to it get no new appointments.")
        }
        return templates.page("calendar", title: words["calendarTitle"], model: model, context: context, section: "family")
    }
}
