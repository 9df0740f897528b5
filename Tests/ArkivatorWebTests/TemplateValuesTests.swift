import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache
import Testing
@testable import ArkivatorWeb

/// The view models answer the templates by name (``MustacheParent``) instead of by reflection:
/// every stored value a model has must be answered under its name, or a page would show nothing
/// where a value belongs.
@Suite struct TemplateValuesTests {
    /// Every field of `value` that holds something is answered by `child(named:)` under its label.
    func answersEveryField<T: MustacheParent>(_ value: T) {
        for field in Mirror(reflecting: value).children {
            guard let label = field.label else { continue }
            let inner = Mirror(reflecting: field.value)
            let empty = inner.displayStyle == .optional && inner.children.isEmpty
            #expect(empty || value.child(named: label) != nil, "\(T.self).\(label) is not answered by name")
        }
        #expect(value.child(named: "t") == nil && value.child(named: "page") == nil, "\(T.self) hides the page's words")
    }

    @Test func everyViewModelAnswersEveryFieldByName() throws {
        let templates = try Templates.load()
        let words = Words(templates, language: .norwegian)
        var document = LibraryDocument(sha256: String(repeating: "ab", count: 32), sourceName: "brev.jpg",
                                       title: "2024-03-15 Innkalling", docType: .innkalling, person: "Kari",
                                       familyMember: "Kari", institution: "Vestvik sykehus", documentDate: "2024-03-15",
                                       needsReview: ["person"], text: "Innkalling til time.",
                                       lowConfidence: [LibraryDocument.TextRange(start: 0, length: 4)])
        document.fieldConfidence = ["person": 0.4]
        document.specialty = "Ortopedi"
        let fields: [String: Any] = [
            "id": "abababab", "title": "2024-03-15 Innkalling", "docType": "innkalling", "person": "Kari",
            "familyMember": "Kari", "institution": "Vestvik", "documentDate": "2024-03-15", "pageCount": 1,
            "snippet": "en \(SearchIndex.markStart)time\(SearchIndex.markEnd)", "uploadStatus": "queued",
        ]
        let summary = try JSONDecoder().decode(DocumentSummary.self, from: JSONSerialization.data(withJSONObject: fields))
        let row = DocumentRow(summary, words: words)
        answersEveryField(row)
        answersEveryField(Piece(text: "x", hit: true, low: false))
        answersEveryField(Option(value: "a", label: "A", selected: true))
        let query = WebForm("q=time&person=Kari&type=innkalling&from=2024-01-01&to=2024-12-31&institution=Vest")
        let filters = FilterView(query, action: "/search", withQuery: true, household: ["Kari"], words: words)
        answersEveryField(filters)
        let pager = try #require(PagerView.make(query: query, page: 2, total: 500, pageSize: 50, path: "/", words: words))
        answersEveryField(pager)
        var results = ResultsView()
        results.notes = ["n"]
        results.problem = "p"
        results.emptyText = "e"
        results.countText = "c"
        results.documents = [row]
        results.pager = pager
        answersEveryField(results)
        let banner = UploadState.Banner(reason: "r")
        answersEveryField(banner)
        answersEveryField(WebServer.LibraryView(deleted: ["id": "a"], uploadBanner: banner, filters: filters, results: results,
                                                   shareLink: "/del/ny"))
        answersEveryField(WebServer.SearchView(filters: filters, results: results, shareLink: "/del/ny?q=time"))
        let view = DocumentView(document, household: ["Kari"], words: words, notice: "n", problem: "p")
        answersEveryField(view)
        let mark = PageImageView.Mark(x: 1, y: 2, width: 3, height: 4, label: "12,5 – Usikkert tall")
        answersEveryField(mark)
        answersEveryField(PageImageView(href: "/documents/ab/files/0", alt: "Side 1", pageWidth: 100, pageHeight: 140,
                                        marks: [mark], marksCaption: "Usikkert tall: 12,5"))
        let edit = EditView(document, action: "/a", button: "b", skip: "/s", skipped: "abcdef1234", household: ["Kari"], words: words)
        answersEveryField(edit)
        answersEveryField(EditView.Mark(uncertain: true, confidence: "40 %"))
        answersEveryField(WebServer.ReviewView(document, waiting: 2, skipped: ["abcdef1234"], household: ["Kari"], words: words))
        answersEveryField(WebServer.ReviewView.Reason(text: "t", words: ["w"], more: "m"))
        answersEveryField(WebServer.PasswordView(setup: true, action: "/setup", problem: "p", code: "c", intro: "i",
                                                 autocomplete: "new-password", button: "b"))
        try shareViewsAnswerEveryField(document: document, summary: summary, words: words)
        answersEveryField(Templates.Chrome(title: "t", lang: "nb", signedIn: true, owner: true, mayChange: true, account: "Ola", csrf: "c", scripts: [["src": "/s"]],
                                           section: ["library": true]))
    }

    func shareViewsAnswerEveryField(document: LibraryDocument, summary: DocumentSummary, words: Words) throws {
        answersEveryField(ShareLetterRow(document, checked: true, words: words))
        answersEveryField(ShareFormView(picked: [document], listed: [summary], household: ["Kari"], person: "Kari", query: "time",
                                        problem: "p", words: words))
        let now = Date()
        let link = ShareLink(id: 1, createdAt: now, expiresAt: now.addingTimeInterval(60), revokedAt: nil,
                             letters: [ShareLink.Letter(id: "abababab", title: "t")],
                             openings: [ShareOpening(openedAt: now, what: .page, client: "mobile · Safari")])
        answersEveryField(ShareMadeView(link: link, address: "http://x/delt/y", words: words))
        var shares = SharesView(links: [link], pdfProblems: [1: UserMessage(nb: "p", en: "p")], words: words)
        shares.notice = "n"
        answersEveryField(shares)
        answersEveryField(try #require(shares.links.first))
        let shared = SharedView(link: link, letters: [document], pdf: "/delt/y/pdf", pages: "/delt/y/sider", words: words)
        answersEveryField(shared)
        answersEveryField(try #require(shared.letters.first))
    }
}
