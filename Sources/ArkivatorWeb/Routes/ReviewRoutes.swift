import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Hummingbird

extension WebServer {
    /// "Til gjennomsyn": the letters with uncertain fields, no household member or no text, one
    /// at a time, the page beside the fields, saying why it waits (``ReviewReason``); "Lagre og
    /// neste", and "Hopp over", which leaves the letter waiting and shows it again after the others.
    /// A family account reviews the letters of its own members (``Access``); a letter about no
    /// one waits for the owner.
    func addReviewRoutes(changes: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates
        changes.get("/review") { request, context -> Response in
            let words = Words(templates, context)
            let skipped = ReviewQueue.skipped(WebForm(request.uri.query ?? "")["hoppet"])
            let access = context.seen
            let filter = access.narrowed(DocumentFilter(waitingForReview: true))
            let found = try await store.read { library -> (Int, LibraryDocument?, [String], [String], Thumbnail, [DocumentOriginal],
                                                           [StoredAppointment], Bool) in
                let waiting = try library.documents.count(filter)
                let next = try library.documents.list(filter, limit: skipped.count + 1)
                let (id, stillSkipped) = ReviewQueue.next(in: next.map(\.id), skipped: skipped)
                return (waiting, try id.map { try library.documents.document($0) },
                        Self.household(try library.familyMembers().map(\.name), for: access), stillSkipped,
                        try id.map { try library.documents.thumbnail($0) } ?? .none,
                        try id.map { try library.documents.originals(of: $0) } ?? [],
                        try id.map { try library.calendar.appointments(ofDocument: $0) } ?? [],
                        try id.map { try library.documents.correctedFields($0).contains(CalendarStore.correctedAppointments) } ?? false)
            }
            guard let document = found.1 else {
                return templates.page("review", title: words["review"], model: ["done": true], context: context, section: "review")
            }
            var model = ReviewView(document, waiting: found.0, skipped: found.3, household: found.2, words: words,
                                   originals: found.5, forOwner: access.isOwner)
            if case .file(_, let version) = found.4 {
                model.thumbnail = Self.thumbnailLink(id: document.shortID, version: version, none: false)
            } else if found.4 == .missing {
                model.thumbnail = Self.thumbnailLink(id: document.shortID, version: nil, none: false)
            }
            model.appointmentsView = AppointmentsView(id: document.shortID, stored: found.6, trashed: false, corrected: found.7,
                                                      back: "review", words: words)
            model.textEditor = TextEditorView(document, back: "review", open: true,
                                              notice: TextEditorView.notice(WebForm(request.uri.query ?? ""), words: words), words: words)
            return templates.page("review", title: words["review"], model: model, context: context, scripts: ["recrop.js"],
                                  section: "review")
        }
        changes.post("/review/{id}") { request, context -> Response in
            let id = try await Self.changeableID(context, store: store)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let (document, members) = try await store.read { (try $0.documents.document(id), try $0.familyMembers().map(\.name)) }
            let changes = try EditView.changes(form, to: document, members: members)
            try Self.mayMake(changes, access: context.seen)
            try await store.write { library in
                if !changes.isEmpty { _ = try library.documents.edit(document.shortID, changes, programVersion: ArkivatorVersion.current) }
                try library.documents.markReviewed(document.shortID)
            }
            return Self.redirect(ReviewQueue.link(ReviewQueue.skipped(form["hoppet"]).filter { $0 != document.shortID }))
        }
        changes.post("/review/{id}/skip") { request, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let shortID = try await store.read { try $0.documents.document(id).shortID }
            return Self.redirect(ReviewQueue.link(ReviewQueue.skipped(form["hoppet"]) + [shortID]))
        }
    }

    /// The letters skipped in this round of review, carried in the page's address (`hoppet`, short
    /// ids separated by commas): nothing is stored, and a skipped letter stays waiting.
    enum ReviewQueue {
        /// The most letters one round remembers skipping (the oldest skip is forgotten first).
        static let limit = 50

        static func skipped(_ text: String?) -> [String] {
            let ids = (text ?? "").split(separator: ",").map(String.init).filter(WebServer.isDocumentID)
            return Array(ids.suffix(limit))
        }

        /// The letter to show from `waiting` (queue order): the first not skipped; when every one
        /// is skipped, the round starts again from the first. Returns it and the skips still in force.
        static func next(in waiting: [String], skipped: [String]) -> (id: String?, skipped: [String]) {
            let set = Set(skipped)
            if let id = waiting.first(where: { !set.contains($0) }) {
                return (id, skipped.filter(waiting.contains))
            }
            return (waiting.first, [])
        }

        static func link(_ skipped: [String]) -> String {
            skipped.isEmpty ? "/review" : "/review?hoppet=" + skipped.joined(separator: ",")
        }
    }

    struct ReviewView {
        let done = false
        let id: String
        let title: String
        let waitingText: String
        let reasons: [Reason]
        let noText: Bool
        let edit: EditView
        let hasImages: Bool
        let images: [PageImageView]
        let hasText: Bool
        let textParts: [Piece]
        /// The first page, small, beside the title (it links to the page at full size).
        var thumbnail: String?
        /// "Rett teksten" (set by the route).
        var textEditor: TextEditorView?
        /// The letter's appointments, to correct like the other fields (set by the route).
        var appointmentsView: AppointmentsView?
        let photos: [PhotoView]
        let hasPhotos: Bool

        /// One reason in words, with the words to check when the OCR was unsure of some.
        struct Reason {
            let text: String
            let words: [String]
            let more: String?
        }

        init(_ document: LibraryDocument, waiting: Int, skipped: [String], household: [String], words: Words,
             originals: [DocumentOriginal] = [], forOwner: Bool = true) {
            id = document.shortID
            title = document.title
            let others = skipped.filter { $0 != document.shortID }.count
            waitingText = others == 0 ? words.text("\(waiting) venter", "\(waiting) waiting")
                : words.text("\(waiting) venter, \(others) hoppet over", "\(waiting) waiting, \(others) skipped")
            let reasons = document.reviewReasons
            // "No text" is the banner above the page, with what to do.
            self.reasons = reasons.filter { $0 != .noText }.map { reason in
                if case .lowConfidence(let list, let total) = reason {
                    let more = total > list.count ? words.text("og \(total - list.count) til", "and \(total - list.count) more") : nil
                    return Reason(text: reason.message.text(in: words.language), words: list, more: more)
                }
                return Reason(text: reason.message.text(in: words.language), words: [], more: nil)
            }
            noText = reasons.contains(.noText)
            let hidden = ReviewQueue.skipped((skipped.filter { $0 != document.shortID }).joined(separator: ","))
            edit = EditView(document, action: "/review/\(document.shortID)", button: words["saveAndNext"],
                            skip: "/review/\(document.shortID)/skip", skipped: hidden.joined(separator: ","),
                            household: household, nobody: forOwner, words: words)
            images = DocumentView.images(document, words: words)
            hasImages = !images.isEmpty
            textParts = Piece.lowConfidence(document.text, ranges: document.lowConfidence)
            hasText = !document.text.isEmpty
            photos = PhotoView.photos(document, originals: originals, words: words, back: "/review")
            hasPhotos = !photos.isEmpty
        }
    }
}
