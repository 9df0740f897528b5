import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    static let pageSize = 50

    /// The library, newest first, with filters and pages; and search.
    func addLibraryRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, uploads = household.uploads, undo = manyUndo
        pages.get("/") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let access = context.seen
            let filter = access.narrowed(try Self.filter(query))
            let page = Self.pageNumber(query)
            let deleted = access.isOwner ? query.value("slettet").flatMap { Self.isDocumentID($0) ? $0 : nil } : nil
            let found = try await store.read { library in
                let listed = try library.documents.page(filter, limit: Self.pageSize, offset: (page - 1) * Self.pageSize)
                return (total: listed.total, documents: listed.documents, household: try library.familyMembers().filter { access.sees(member: $0.name) },
                        deleted: deleted.flatMap { id in try? library.documents.document(id) }.flatMap { $0.trashedAt == nil ? nil : $0 })
            }
            // Never a live check of the destination here (up to 5 s): Settings does that. The copies are the owner's.
            let words = Words(templates, context)
            let banner = access.isOwner ? UploadState(try await uploads.state(checkingDestinations: false)).banner(words) : nil
            var results = Self.results(found.documents, total: found.total, page: page, query: query, path: "/", words: words)
            if found.total == 0 {
                results.emptyText = filter == DocumentFilter() ? words["libraryEmpty"] : words["noMatches"]
            }
            if access.isOwner {
                let saved = try await store.read { try $0.savedSearches() }
                results.many = Self.manyView(query, path: "/", household: found.household.map(\.name), saved: saved, undo: undo, words: words)
                if results.many?.allChecked == true { results.documents = results.documents.map { var row = $0; row.checked = true; return row } }
            }
            // Filtered to one household member: the way to their timeline.
            let member = filter.person.flatMap { person in
                found.household.first { $0.name.caseInsensitiveCompare(person) == .orderedSame }
            }
            let model = LibraryView(
                deleted: found.deleted.map { ["id": $0.shortID, "title": $0.title] },
                uploadBanner: banner,
                timeline: member.map { ["link": "/family/\($0.id)/timeline", "label": words.text("Tidslinje for \($0.name)", "Timeline of \($0.name)")] },
                filters: FilterView(query, action: "/", withQuery: false, household: found.household.map(\.name), words: words),
                results: results, shareLink: Self.shareStart(query))
            return templates.page("library", title: words["library"], model: model, context: context, section: "library")
        }
        pages.get("/search") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let access = context.seen
            let filter = access.narrowed(try Self.filter(query))
            let words = Words(templates, context)
            let household = try await store.read { library in try library.familyMembers().map(\.name).filter { access.sees(member: $0) } }
            var results = ResultsView()
            if !text.isEmpty {
                do {
                    let result = try await store.read { try $0.index.search(text, filter: filter, limit: Self.pageSize) }
                    results = Self.results(result.hits, total: result.total, page: 1, query: query, path: "/search", words: words,
                                           hits: true)
                    results.notes = result.notes.map { $0.text(in: context.language) }
                    if result.total == 0 { results.emptyText = words["noHits"] }
                    if access.isOwner {
                        let saved = try await store.read { try $0.savedSearches() }
                        results.many = Self.manyView(query, path: "/search", household: household, saved: saved, undo: undo, words: words)
                        if results.many?.allChecked == true { results.documents = results.documents.map { var row = $0; row.checked = true; return row } }
                    }
                } catch let failure as LibraryFailure {
                    results.problem = WebError.from(failure).message.text(in: context.language)
                }
            }
            let model = SearchView(filters: FilterView(query, action: "/search", withQuery: true, household: household, words: words),
                                   results: results, shareLink: Self.shareStart(query))
            let title = text.isEmpty ? words["search"] : words.text("Søk: \(text)", "Search: \(text)")
            return templates.page("search", title: title, model: model, context: context)
        }
    }

    struct LibraryView {
        let deleted: [String: String]?
        let uploadBanner: UploadState.Banner?
        /// Link and words to the timeline of the member the list is filtered to.
        var timeline: [String: String]? = nil
        let filters: FilterView
        let results: ResultsView
        /// «Del brev med legen», for the person or search shown.
        let shareLink: String
    }

    struct SearchView {
        let filters: FilterView
        let results: ResultsView
        let shareLink: String
    }

    /// «Del med legen» (``addShareRoutes(pages:)``) listing the person's letters or the search's.
    static func shareStart(_ query: WebForm) -> String {
        let kept = query.query(keeping: ["person", "q"])
        return "/del/ny" + (kept.isEmpty ? "" : "?" + kept)
    }

    static func results(_ documents: [DocumentSummary], total: Int, page: Int, query: WebForm, path: String, words: Words,
                        hits: Bool = false) -> ResultsView {
        var results = ResultsView()
        results.documents = documents.map { DocumentRow($0, words: words) }
        results.hasDocuments = !documents.isEmpty
        if total > 0 {
            let count = hits ? words.language.count(total, ("treff", "hit"), ("treff", "hits"))
                : words.language.count(total, ("dokument", "document"), ("dokumenter", "documents"))
            results.countText = count
            if documents.isEmpty {
                results.emptyText = words.text("Denne siden finnes ikke. Gå tilbake til side 1.", "This page does not exist. Go back to page 1.")
            }
        }
        if !hits { results.pager = PagerView.make(query: query, page: page, total: total, pageSize: pageSize, path: path, words: words) }
        return results
    }

    /// The page asked for (`side`, or `page`), from 1.
    static func pageNumber(_ query: WebForm) -> Int {
        min(1_000_000, max(1, Int(query.value("side") ?? query.value("page") ?? "") ?? 1))
    }

    /// Filters from a query: person (a name, or "ukjent"), type, from, to, institution. A
    /// malformed one answers 400 with the reason.
    static func filter(_ query: WebForm) throws -> DocumentFilter {
        var filter = DocumentFilter()
        if let person = query.value("person") {
            if PersonFilter.isUnknown(person) { filter.withoutPerson = true } else { filter.person = person }
        }
        filter.institution = query.value("institution")
        if let type = query.value("type") {
            guard let known = DocumentType(name: type) else {
                throw WebError(.badRequest, code: "badType", nb: "«\(type)» er ikke en dokumenttype.", en: "“\(type)” is not a document type.")
            }
            filter.type = known
        }
        for (name, keyPath) in [("from", \DocumentFilter.from), ("to", \DocumentFilter.to)] {
            if let text = query.value(name) {
                guard let date = CalendarDate(typed: text) else {
                    throw WebError(.badRequest, code: "badDate", nb: "Datoen «\(text)» må skrives som 05.03.2024 (eller 2024-03-05).",
                                   en: "The date “\(text)” must be written as 2024-03-05 (or 05.03.2024).")
                }
                filter[keyPath: keyPath] = date
            }
        }
        return filter
    }

    /// 4 to 64 hex digits: a document's id or a prefix of it.
    static func isDocumentID(_ id: String) -> Bool {
        (4...64).contains(id.count) && id.allSatisfy(\.isHexDigit)
    }
}
