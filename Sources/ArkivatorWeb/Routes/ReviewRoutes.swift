import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// "Til gjennomsyn": the letters with uncertain fields, no household member or no text, one
    /// at a time, the page beside the fields, saying why it waits; "Lagre og neste".
    func addReviewRoutes(pages: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates
        pages.get("/review") { _, context -> Response in
            let words = Words(templates, context)
            let found = try await store.read { library -> (Int, LibraryDocument?, [String], [DocumentOriginal]) in
                let waiting = try library.count(DocumentFilter(waitingForReview: true))
                let next = try library.list(DocumentFilter(waitingForReview: true), limit: 1).first
                return (waiting, try next.map { try library.document($0.id) }, try library.familyMembers().map(\.name),
                        try next.map { try library.originals(of: $0.id) } ?? [])
            }
            guard let document = found.1 else {
                return templates.page("review", title: words["review"], model: ["done": true], context: context, section: "review")
            }
            let model = ReviewView(document, waiting: found.0, household: found.2, words: words, originals: found.3)
            return templates.page("review", title: words["review"], model: model, context: context, scripts: ["recrop.js"],
                                  section: "review")
        }
        pages.post("/review/{id}") { request, context -> Response in
            let id = try Self.documentID(context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let document = try await store.read { try $0.document(id) }
            let changes = try EditView.changes(form, to: document)
            try await store.write { library in
                if !changes.isEmpty { _ = try library.edit(document.shortID, changes, programVersion: ArkivatorVersion.current) }
                try library.markReviewed(document.shortID)
            }
            return Self.redirect("/review")
        }
    }

    struct ReviewView {
        let done = false
        let id: String
        let title: String
        let waitingText: String
        let reasons: [String]
        let edit: EditView
        let hasImages: Bool
        let images: [[String: String]]
        let hasText: Bool
        let textParts: [Piece]
        let photos: [PhotoView]
        let hasPhotos: Bool

        init(_ document: LibraryDocument, waiting: Int, household: [String], words: Words, originals: [DocumentOriginal] = []) {
            id = document.shortID
            title = document.title
            waitingText = words.text("\(waiting) venter", "\(waiting) waiting")
            reasons = Self.reasons(document, words: words)
            edit = EditView(document, action: "/review/\(document.shortID)", button: words["saveAndNext"], household: household, words: words)
            images = DocumentView.images(document, words: words)
            hasImages = !images.isEmpty
            textParts = Piece.lowConfidence(document.text, ranges: document.lowConfidence)
            hasText = !document.text.isEmpty
            photos = PhotoView.photos(document, originals: originals, words: words, back: "/review")
            hasPhotos = !photos.isEmpty
        }

        /// Why the letter waits, in words.
        static func reasons(_ document: LibraryDocument, words: Words) -> [String] {
            var reasons: [String] = []
            if document.text.isEmpty {
                reasons.append(words["reasonNoText"])
            }
            if document.familyMember == nil {
                reasons.append(words["reasonNoMember"])
            }
            let names = ["title": words["title"], "person": words["person"], "docType": words["type"],
                         "documentDate": words["letterDate"], "institution": words["sender"], "specialty": words["specialty"]]
            let uncertain = document.needsReview.compactMap { names[$0] }
            if !uncertain.isEmpty {
                reasons.append(words.text("Usikkert: ", "Uncertain: ") + uncertain.joined(separator: ", ") + ".")
            }
            if !document.lowConfidence.isEmpty {
                reasons.append(words["reasonLowWords"])
            }
            return reasons
        }
    }
}
