import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// How many letters a timeline gathers into episodes at most (the newest: decades of letters for
    /// one person); older ones are in the library. Gathering them stays within 50 ms at this size.
    static let timelineLetters = 10_000
    /// Episodes shown at first, and how many more «Vis eldre» adds.
    static let timelineStep = 20

    /// Each household member's timeline: upcoming appointments, then the letters about them
    /// gathered into episodes (``EpisodeRule``), newest first, with a filter by area and a view
    /// for printing (`?utskrift=1`).
    func addTimelineRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, timelines = self.timelines
        pages.get("/family/{member}/timeline") { request, context -> Response in
            let id = try Self.memberID(context)
            let query = WebForm(request.uri.query ?? "")
            let today = CalendarDate.today() ?? .fallback
            let asked = TimelineView.Request(query, memberID: id, step: Self.timelineStep)
            // Gathered into episodes (or kept from before), and the shown letters read, on the library's threads.
            let access = context.seen
            let found = try await store.read { library -> TimelineView.Found? in
                guard let member = try library.familyMembers().first(where: { $0.id == id }), access.sees(member: member.name) else { return nil }
                let gathered = try timelines.gathered(member: member.name, limit: Self.timelineLetters, in: library)
                let plan = TimelineView.Plan(gathered, request: asked)
                return TimelineView.Found(member: member.name, plan: plan, summaries: try library.documents.summaries(rows: plan.shownRows),
                                          appointments: try library.documents.upcomingAppointments(member: member.name, from: today),
                                          capped: gathered.capped)
            }
            guard let found else { throw WebError.notFound }
            let words = Words(templates, context)
            let view = TimelineView(found, request: asked, words: words)
            return templates.page("timeline", title: words.text("Tidslinje: \(found.member)", "Timeline: \(found.member)"),
                                  model: view, context: context, scripts: asked.print ? ["timeline.js"] : [], section: "family")
        }
    }
}
