import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    static let pageSize = 50

    /// The library newest first with filters and pages, search, one document and its files.
    func addLibraryRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.get("/") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let filter = try Self.filter(query)
            let page = max(1, Int(query["side"] ?? "") ?? 1)
            let total = try library.count(filter)
            let documents = try library.list(filter, limit: Self.pageSize, offset: (page - 1) * Self.pageSize)
            let t = context.language
            var body = ""
            // Just deleted: say so, with the way back (the document is in the trash).
            if let deleted = query["slettet"], (4...64).contains(deleted.count), deleted.allSatisfy(\.isHexDigit),
               let gone = try? library.document(deleted), gone.trashedAt != nil, let session = context.session {
                body += """
                    <div class="notice" role="status">\(t.text("Slettet", "Deleted")) «\(HTML.escape(gone.title))».
                    <form method="post" action="/documents/\(HTML.escape(gone.shortID))/restore" class="inline">\(HTML.csrfField(session))
                    <button type="submit" autofocus>\(t.text("Angre", "Undo"))</button></form></div>
                    """
            }
            body += Self.filterForm(query, action: "/", context: context)
            body += total == 0
                ? "<p>\(t.text("Ingen dokumenter her ennå.", "No documents here yet."))</p>"
                : "<p class=\"meta\">\(t.text("\(total) dokumenter", "\(total) documents"))</p>" + Self.list(documents, context: context)
            body += Self.pager(query: query, page: page, total: total, path: "/", context: context)
            return HTML.page(t.text("Bibliotek", "Library"), body: body, context: context)
        }
        router.get("/search") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let t = context.language
            var body = Self.filterForm(query, action: "/search", context: context, withQuery: true)
            guard !text.isEmpty else {
                return HTML.page(t.text("Søk", "Search"), body: body, context: context)
            }
            do {
                let result = try library.search(text, filter: try Self.filter(query), limit: Self.pageSize)
                for note in result.notes { body += "<p class=\"meta\">\(HTML.escape(note.text(in: t)))</p>" }
                body += result.hits.isEmpty
                    ? "<p>\(t.text("Ingen treff.", "No hits."))</p>"
                    : "<p class=\"meta\">\(t.text("\(result.total) treff", "\(result.total) hits"))</p>" + Self.list(result.hits, context: context)
            } catch let failure as LibraryFailure {
                body += HTML.problem(failure.userMessage.text(in: t))
            }
            return HTML.page(t.text("Søk: \(text)", "Search: \(text)"), body: body, context: context)
        }
        router.get("/documents/{id}") { _, context -> Response in
            let document = try Self.document(library, context)
            return HTML.page(document.title, body: Self.documentBody(document, family: try Self.familyNames(library), context: context),
                             context: context)
        }
        router.get("/documents/{id}/files/{index}") { _, context -> Response in
            let document = try Self.document(library, context)
            guard let index = context.parameters.get("index", as: Int.self), document.files.indices.contains(index) else {
                throw HTTPError(.notFound)
            }
            return try Self.download(document.files[index])
        }
    }

    /// The document named by the `id` path parameter (4 to 64 hex digits), or 404.
    static func document(_ library: Library, _ context: WebContext) throws -> LibraryDocument {
        guard let id = context.parameters.get("id"), (4...64).contains(id.count), id.allSatisfy(\.isHexDigit) else {
            throw HTTPError(.notFound)
        }
        do {
            return try library.document(id)
        } catch let failure as LibraryFailure where failure.code == .notFound || failure.code == .ambiguous {
            throw HTTPError(.notFound)
        }
    }

    /// Filters from a query: person, type, from, to, institution. A malformed one answers 400.
    static func filter(_ query: WebForm) throws -> DocumentFilter {
        var filter = DocumentFilter()
        filter.person = query.value("person")
        filter.institution = query.value("institution")
        if let type = query.value("type") {
            guard let known = DocumentType(rawValue: type) else { throw HTTPError(.badRequest) }
            filter.type = known
        }
        if let from = query.value("from") {
            guard let date = CalendarDate(iso: from) else { throw HTTPError(.badRequest) }
            filter.from = date
        }
        if let to = query.value("to") {
            guard let date = CalendarDate(iso: to) else { throw HTTPError(.badRequest) }
            filter.to = date
        }
        return filter
    }

    static func filterForm(_ query: WebForm, action: String, context: WebContext, withQuery: Bool = false) -> String {
        let t = context.language
        func field(_ name: String, _ label: String, type: String = "text") -> String {
            "<label>\(label)<input name=\"\(name)\" type=\"\(type)\" value=\"\(HTML.escape(query[name] ?? ""))\"></label>"
        }
        let types = DocumentType.allCases.map { type in
            "<option value=\"\(type.rawValue)\"\(query["type"] == type.rawValue ? " selected" : "")>\(type.rawValue)</option>"
        }.joined()
        return """
            <form method="get" action="\(action)" class="filters">
            \(withQuery ? field("q", t.text("Søkeord", "Words"), type: "search") : "")
            \(field("person", t.text("Person", "Person")))
            <label>\(t.text("Type", "Type"))<select name="type"><option value="">\(t.text("Alle", "All"))</option>\(types)</select></label>
            \(field("from", t.text("Fra dato", "From"), type: "date"))
            \(field("to", t.text("Til dato", "To"), type: "date"))
            \(field("institution", t.text("Avsender", "Sender")))
            <button type="submit">\(withQuery ? t.text("Søk", "Search") : t.text("Vis", "Show"))</button>
            </form>
            """
    }

    static func list(_ documents: [DocumentSummary], context: WebContext) -> String {
        let t = context.language
        let items = documents.map { document -> String in
            let person = document.familyMember ?? document.person ?? t.text("Ukjent person", "Unknown person")
            let snippet = document.snippet.map { "<p>\(highlighted($0))</p>" } ?? ""
            let upload: String = switch document.uploadStatus {
            case "queued", "pending": " · " + t.text("venter på opplasting", "waiting to upload")
            case "uploading": " · " + t.text("lastes opp", "uploading")
            case "done": " · " + t.text("lastet opp", "uploaded")
            case "error": " · " + t.text("opplasting feilet", "upload failed")
            default: ""
            }
            return """
                <li><a href="/documents/\(HTML.escape(document.id))">\(HTML.escape(document.title))</a>
                <span class="badge">\(HTML.escape(document.docType))</span>
                <div class="meta">\(HTML.escape(document.documentDate)) · \(HTML.escape(person))\
                \(document.institution.map { " · " + HTML.escape($0) } ?? "")\(upload)</div>\(snippet)</li>
                """
        }
        return "<ol class=\"documents\">\(items.joined())</ol>"
    }

    /// A snippet with its hits in `<mark>`.
    static func highlighted(_ snippet: String) -> String {
        HTML.escape(snippet).replacingOccurrences(of: Library.markStart, with: "<mark>")
            .replacingOccurrences(of: Library.markEnd, with: "</mark>")
    }

    static func pager(query: WebForm, page: Int, total: Int, path: String, context: WebContext) -> String {
        let pages = max(1, (total + pageSize - 1) / pageSize)
        guard pages > 1 else { return "" }
        let t = context.language
        func link(_ number: Int, _ label: String) -> String {
            var items = URLComponents()
            items.queryItems = ["person", "type", "from", "to", "institution", "q"].compactMap { name in
                query[name].map { URLQueryItem(name: name, value: $0) }
            } + [URLQueryItem(name: "side", value: String(number))]
            return "<a href=\"\(path)?\(HTML.escape(items.percentEncodedQuery ?? ""))\">\(label)</a>"
        }
        return "<nav class=\"pager\" aria-label=\"\(t.text("Sider", "Pages"))\">"
            + (page > 1 ? link(page - 1, t.text("← Nyere", "← Newer")) : "")
            + "<span>\(t.text("Side \(page) av \(pages)", "Page \(page) of \(pages)"))</span>"
            + (page < pages ? link(page + 1, t.text("Eldre →", "Older →")) : "") + "</nav>"
    }

    static func documentBody(_ document: LibraryDocument, family: [String], context: WebContext) -> String {
        let t = context.language
        func row(_ label: String, _ value: String?) -> String {
            "<dt>\(label)</dt><dd>\(HTML.escape(value ?? "–"))</dd>"
        }
        let fields = "<dl class=\"fields\">" + [
            row(t.text("Dato", "Date"), document.documentDate),
            row(t.text("Type", "Type"), document.docType.rawValue),
            row(t.text("Person", "Person"), document.familyMember ?? document.person ?? t.text("Ukjent person", "Unknown person")),
            row(t.text("Avsender", "Sender"), document.institution),
            row(t.text("Fagområde", "Specialty"), document.specialty),
            row(t.text("Stikkord", "Keywords"), document.keywords.joined(separator: ", ")),
            row(t.text("Sider", "Pages"), String(document.pageCount)),
        ].joined() + "</dl>"
        let id = HTML.escape(document.shortID)
        // Each page links to itself at full size (to zoom on a phone).
        let images = document.files.enumerated().filter { $0.element.kind == .image }.map { index, file in
            "<p><a href=\"/documents/\(id)/files/\(index)\"><img src=\"/documents/\(id)/files/\(index)\" "
                + "alt=\"\(t.text("Side \(file.page)", "Page \(file.page)"))\" width=\"600\"></a></p>"
        }.joined()
        let downloads = document.files.enumerated().map { index, file in
            let label = file.kind == .image ? "JPEG \(t.text("side", "page")) \(file.page)" : file.kind.fileExtension.uppercased()
            return "<li><a href=\"/documents/\(id)/files/\(index)\">\(t.text("Last ned", "Download")) \(HTML.escape(label))</a></li>"
        }.joined()
        let csrf = context.session.map(HTML.csrfField) ?? ""
        var actions: String
        if document.trashedAt != nil {
            actions = """
                <p class="notice">\(t.text("Dokumentet ligger i papirkurven.", "The document is in the trash."))
                <form method="post" action="/documents/\(id)/restore" class="inline">\(csrf)
                <button type="submit">\(t.text("Gjenopprett", "Restore"))</button></form></p>
                """
        } else {
            actions = """
                <details><summary>\(t.text("Endre", "Edit"))</summary>
                \(editForm(document, action: "/documents/\(document.shortID)/edit", button: t.text("Lagre", "Save"), family: family, context: context))
                </details>
                <form method="post" action="/documents/\(id)/delete" class="inline">\(csrf)
                <button type="submit">\(t.text("Slett", "Delete"))</button></form>
                """
            if document.fodselsnummerCount > 0 {
                actions += """
                    <form method="post" action="/documents/\(id)/redact" class="inline">\(csrf)
                    <button type="submit">\(t.text("Skjul fødselsnummeret i teksten", "Hide the national ID number in the text"))</button></form>
                    <span class="meta">\(t.text("(sidebildene og PDF-en viser fortsatt papiret)", "(the page images and the PDF still show the paper)"))</span>
                    """
            }
        }
        return fields + actions
            + "<h2>\(t.text("Tekst", "Text"))</h2><p><button type=\"button\" id=\"copy\" data-target=\"text\" hidden>"
            + "\(t.text("Kopier tekst", "Copy text"))</button></p><pre class=\"text\" id=\"text\">\(markedText(document))</pre>"
            + "<h2>\(t.text("Filer", "Files"))</h2><ul>\(downloads)</ul>" + images
    }

    /// One archived file: images shown in the page, the .docx and PDF downloaded.
    static func download(_ file: ArchivedFile) throws -> Response {
        let url = file.url
        guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey]), values.isRegularFile == true,
              let data = FileManager.default.contents(atPath: url.path) else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        switch file.kind {
        case .image: headers[.contentType] = "image/jpeg"
        case .pdf: headers[.contentType] = "application/pdf"
        case .docx: headers[.contentType] = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        }
        let name = url.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "dokument"
        headers[.contentDisposition] = (file.kind == .image ? "inline" : "attachment") + "; filename*=UTF-8''\(name)"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
