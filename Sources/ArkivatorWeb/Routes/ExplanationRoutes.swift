import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation
import Hummingbird

extension WebServer {
    /// «Forklar brevet» and «Lag ny forklaring»: the household's language model explains the
    /// letter (see ``Household/explain(_:again:for:)``) in the background (``ExplanationJobs``);
    /// the answer waits a little for a quick model, then goes back to the letter's page, which
    /// shows the explanation, that it is being made, or why it could not be made. Works without
    /// script; with it, the page fetches the section again until the explanation is there.
    /// Every account may ask about a letter it sees: an explanation reads, it changes nothing.
    func addExplanationRoutes(anyone: RouterGroup<WebContext>) {
        let store = self.store, household = self.household, jobs = explanationJobs
        anyone.post("/documents/{id}/explain") { request, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let (letter, trashed) = try await store.read { library in
                let document = try library.documents.document(id)
                return (document.shortID, document.trashedAt != nil)
            }
            if !trashed {
                let again = form["again"] == "1"
                jobs.start(letter) { _ = try await household.explain(letter, again: again, for: .web) }
                await jobs.wait(for: letter)
            }
            return Self.redirect("/documents/\(letter)#forklaring")
        }
    }
}
