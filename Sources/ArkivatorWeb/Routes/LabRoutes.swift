import ArkivatorApp
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// A household member's lab values over time («Prøvesvar», ``LabsView``), for every account
    /// that sees the member; and «Stemmer» on a value in doubt, for those who may correct letters.
    func addLabRoutes(anyone: RouterGroup<WebContext>, changes: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household
        anyone.get("/family/{member}/provesvar") { request, context -> Response in
            let id = try Self.memberID(context)
            let access = context.seen
            // One analysis in full (`?analyse=ALAT`), else the overview.
            let focus = WebForm(request.uri.query ?? "").value("analyse").flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
            try await Self.readWaitingLabs(store: store, household: household)
            let found = try await store.read { library -> (String, [LabReading])? in
                guard let member = try library.familyMembers().first(where: { $0.id == id }), access.sees(member: member.name) else { return nil }
                var filter = DocumentFilter()
                filter.members = [member.name]
                return (member.name, try library.documents.labReadings(filter, analysis: focus))
            }
            guard let (member, readings) = found else { throw WebError.notFound }
            let words = Words(templates, context)
            let view = LabsView(member: member, memberID: id, readings: readings, access: access, focus: focus, words: words)
            let title = words.text("Prøvesvar: \(member)", "Lab results: \(member)") + (focus.map { " – " + (readings.first?.entry.analysis ?? $0) } ?? "")
            return templates.page("labs", title: title, model: view, context: context, section: "family")
        }
        // A value in doubt compared with the page and found right.
        changes.post("/provesvar/{value}/stemmer") { _, context -> Response in
            guard let valueID = context.parameters.get("value", as: Int.self) else { throw WebError.notFound }
            let access = context.seen
            let reading = try await store.read { try $0.documents.labReading(valueID) }
            guard let reading, access.sees(member: reading.member) else { throw WebError.notFound }
            guard access.mayChange else { throw WebError.readOnly }
            _ = try await store.write { try $0.documents.confirmLab(valueID) }
            let document = try? await store.read { try $0.documents.document(reading.letter) }
            try await Self.audit(.labConfirmed, document: document,
                                 detail: "\(reading.entry.analysis) \(reading.entry.value)\(reading.entry.unit.map { " " + $0 } ?? "")",
                                 context: context, store: store)
            let memberID = try await store.read { library in
                try library.familyMembers().first { $0.name == reading.member }?.id
            }
            let back = memberID.map { "/family/\($0)/provesvar" } ?? "/documents/\(reading.letter)"
            return Self.redirect(back + (memberID == nil ? "" : "?stemmer=1"))
        }
    }

    /// Reads the lab values of letters filed without them (before values were kept, or imported),
    /// once, on the library's threads: a quick look when there are none.
    static func readWaitingLabs(store: AsyncLibrary, household: Household) async throws {
        if try await store.read({ try !$0.documents.lettersWithLabsToRead(limit: 1).isEmpty }) {
            _ = try await store.write { _ in try household.fillLabs() }
        }
    }
}
