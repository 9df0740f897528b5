import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// Review ("Til gjennomsyn"), corrections, delete with undo, and the trash. Every change goes
    /// through the same library calls as `arkivator edit`, `delete` and `restore`, so the files
    /// follow exactly as they do there.
    func addChangeRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.get("/review") { _, context -> Response in
            let waiting = try library.count(DocumentFilter(waitingForReview: true))
            let t = context.language
            guard let next = try library.list(DocumentFilter(waitingForReview: true), limit: 1).first else {
                return HTML.page(t.text("Til gjennomsyn", "To review"),
                                 body: "<p>\(t.text("Ingenting venter. Alle brev er sett over.", "Nothing is waiting. Every letter has been looked over."))</p>",
                                 context: context)
            }
            let document = try library.document(next.id)
            let body = "<p class=\"meta\">\(t.text("\(waiting) venter", "\(waiting) waiting"))</p><div class=\"review\"><div>"
                + Self.editForm(document, action: "/review/\(document.shortID)", button: t.text("Lagre og neste", "Save and next"),
                                family: try Self.familyNames(library), context: context)
                + "</div><div>" + Self.pagesAndText(document, context: context) + "</div></div>"
            return HTML.page(t.text("Til gjennomsyn", "To review"), body: body, context: context)
        }
        router.post("/review/{id}") { request, context -> Response in
            let document = try Self.document(library, context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            try Self.apply(form, to: document, library: library)
            try library.markReviewed(document.shortID)
            return Response(status: .seeOther, headers: [.location: "/review"])
        }
        router.post("/documents/{id}/edit") { request, context -> Response in
            let document = try Self.document(library, context)
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            try Self.apply(form, to: document, library: library)
            return Response(status: .seeOther, headers: [.location: "/documents/\(document.shortID)"])
        }
        router.post("/documents/{id}/redact") { _, context -> Response in
            let document = try Self.document(library, context)
            _ = try library.redact(document.shortID, programVersion: ArkivatorVersion.current)
            return Response(status: .seeOther, headers: [.location: "/documents/\(document.shortID)"])
        }
        router.post("/documents/{id}/delete") { _, context -> Response in
            let document = try Self.document(library, context)
            _ = try library.delete(document.shortID)
            return Response(status: .seeOther, headers: [.location: "/?slettet=\(document.shortID)"])
        }
        router.post("/documents/{id}/restore") { _, context -> Response in
            let document = try Self.document(library, context)
            guard document.trashedAt != nil else { return Response(status: .seeOther, headers: [.location: "/documents/\(document.shortID)"]) }
            _ = try library.restore(document.shortID)
            return Response(status: .seeOther, headers: [.location: "/documents/\(document.shortID)"])
        }
        router.get("/trash") { _, context -> Response in
            let t = context.language
            let trashed = try library.list(DocumentFilter(trashed: true), limit: 200)
            guard let session = context.session else { throw HTTPError(.unauthorized) }
            let items = trashed.map { document in
                """
                <li>\(HTML.escape(document.title)) <span class="meta">\(t.text("slettet", "deleted")) \(HTML.escape(String((document.trashedAt ?? "").prefix(10))))</span>
                <form method="post" action="/documents/\(HTML.escape(document.id))/restore" class="inline">\(HTML.csrfField(session))
                <button type="submit">\(t.text("Gjenopprett", "Restore"))</button></form></li>
                """
            }.joined()
            let body = trashed.isEmpty ? "<p>\(t.text("Papirkurven er tom.", "The trash is empty."))</p>"
                : "<p class=\"meta\">\(t.text("Dokumenter i papirkurven slettes for godt etter \(Library.trashDays) dager.", "Documents in the trash are removed for good after \(Library.trashDays) days."))</p><ol class=\"documents\">\(items)</ol>"
            return HTML.page(t.text("Papirkurv", "Trash"), body: body, context: context)
        }
    }

    /// The household's names, for the person field.
    static func familyNames(_ library: Library) throws -> [String] {
        try library.family { try $0.profiles().map(\.name) }
    }

    /// Turns a posted form into the changes it makes (only the fields that differ) and makes them.
    static func apply(_ form: WebForm, to document: LibraryDocument, library: Library) throws {
        var changes = DocumentChanges()
        func field(_ name: String) -> String? { form[name]?.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let title = field("title"), !title.isEmpty, title != document.title { changes.title = title }
        if let person = field("person"), person != (document.familyMember ?? document.person ?? "") { changes.person = person }
        if let type = field("type"), type != document.docType.rawValue {
            guard let known = DocumentType(rawValue: type) else { throw HTTPError(.badRequest) }
            changes.type = known
        }
        if let date = field("date"), date != document.documentDate {
            guard let day = CalendarDate(iso: date) else { throw HTTPError(.badRequest) }
            changes.date = day
        }
        if let institution = field("institution"), institution != (document.institution ?? "") { changes.institution = institution }
        if let specialty = field("specialty"), specialty != (document.specialty ?? "") { changes.specialty = specialty }
        if let keywords = field("keywords") {
            let list = keywords.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if list != document.keywords { changes.keywords = list }
        }
        guard !changes.isEmpty else { return }
        do {
            try library.edit(document.shortID, changes, programVersion: ArkivatorVersion.current)
        } catch let failure as LibraryFailure where failure.code == .badTitle || failure.code == .nothingToChange {
            throw HTTPError(.badRequest)
        }
    }

    static func editForm(_ document: LibraryDocument, action: String, button: String, family: [String],
                         context: WebContext) -> String {
        let t = context.language
        let uncertain = Set(document.needsReview)
        // The rules' confidence beside each field they found; "usikker" where it is under the review threshold.
        func label(_ key: String, _ text: String) -> String {
            let share = document.fieldConfidence?[key].map { " <span class=\"meta\">\(Int(($0 * 100).rounded())) %</span>" } ?? ""
            return uncertain.contains(key) ? "\(text) <span class=\"badge\">\(t.text("usikker", "uncertain"))</span>\(share)" : text + share
        }
        let person = document.familyMember ?? document.person ?? ""
        let people = ([""] + family + (family.contains(person) || person.isEmpty ? [] : [person])).map { name in
            "<option value=\"\(HTML.escape(name))\"\(name == person ? " selected" : "")>\(HTML.escape(name.isEmpty ? t.text("Ukjent person", "Unknown person") : name))</option>"
        }.joined()
        let types = DocumentType.allCases.map { type in
            "<option value=\"\(type.rawValue)\"\(type == document.docType ? " selected" : "")>\(type.rawValue)</option>"
        }.joined()
        return """
            <form method="post" action="\(HTML.escape(action))" class="edit">\(context.session.map(HTML.csrfField) ?? "")
            <p><label for="title">\(label("title", t.text("Tittel", "Title")))</label><br>
            <input id="title" name="title" value="\(HTML.escape(document.title))" size="60"></p>
            <p><label for="person">\(label("person", t.text("Person", "Person")))</label><br>
            <select id="person" name="person">\(people)</select></p>
            <p><label for="type">\(label("docType", t.text("Type", "Type")))</label><br><select id="type" name="type">\(types)</select></p>
            <p><label for="date">\(label("documentDate", t.text("Dato", "Date")))</label><br>
            <input id="date" name="date" type="date" value="\(HTML.escape(document.documentDate))"></p>
            <p><label for="institution">\(label("institution", t.text("Avsender", "Sender")))</label><br>
            <input id="institution" name="institution" value="\(HTML.escape(document.institution ?? ""))" size="40"></p>
            <p><label for="specialty">\(label("specialty", t.text("Fagområde", "Specialty")))</label><br>
            <input id="specialty" name="specialty" value="\(HTML.escape(document.specialty ?? ""))" size="40"></p>
            <p><label for="keywords">\(t.text("Stikkord (skilt med komma)", "Keywords (separated by commas)"))</label><br>
            <input id="keywords" name="keywords" value="\(HTML.escape(document.keywords.joined(separator: ", ")))" size="60"></p>
            <p><button type="submit">\(HTML.escape(button))</button></p>
            </form>
            """
    }

    /// The page images and the text with its low-confidence words marked.
    static func pagesAndText(_ document: LibraryDocument, context: WebContext) -> String {
        let t = context.language
        let id = HTML.escape(document.shortID)
        let images = document.files.enumerated().filter { $0.element.kind == .image }.map { index, file in
            "<a href=\"/documents/\(id)/files/\(index)\"><img src=\"/documents/\(id)/files/\(index)\" alt=\"\(t.text("Side \(file.page)", "Page \(file.page)"))\" width=\"600\"></a>"
        }.joined()
        return "<div class=\"pages\">\(images)</div><h2>\(t.text("Tekst", "Text"))</h2>"
            + "<pre class=\"text\" id=\"text\">\(markedText(document))</pre>"
    }

    /// The text, escaped, with each low-confidence range in `<mark class="low">`.
    static func markedText(_ document: LibraryDocument) -> String {
        let scalars = Array(document.text.unicodeScalars)
        var out = "", position = 0
        for range in document.lowConfidence.sorted(by: { $0.start < $1.start }) where range.start >= position {
            let end = min(scalars.count, range.start + range.length)
            guard range.start < end else { continue }
            out += HTML.escape(String(String.UnicodeScalarView(scalars[position..<range.start])))
            out += "<mark class=\"low\">" + HTML.escape(String(String.UnicodeScalarView(scalars[range.start..<end]))) + "</mark>"
            position = end
        }
        return out + HTML.escape(String(String.UnicodeScalarView(scalars[min(position, scalars.count)...])))
    }
}
