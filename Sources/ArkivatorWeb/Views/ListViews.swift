import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// What the library, search and trash pages show: rows, the filter form and the pager, as plain
/// values for the templates (which escape them).
struct Words {
    let language: UILanguage
    let words: [String: String]

    init(_ templates: Templates, _ context: WebContext) {
        self.init(templates, language: context.language)
    }

    init(_ templates: Templates, language: UILanguage) {
        self.language = language
        words = templates.words(language)
    }

    subscript(_ key: String) -> String { words[key] ?? key }

    func text(_ norwegian: String, _ english: String) -> String { language.text(norwegian, english) }

    /// A document type's name for people ("Lab-svar"), from `type_<raw>` in the strings.
    func type(_ raw: String) -> String { words["type_" + raw] ?? raw }

    /// A date as this page's reader reads it: `01.12.2025` in Bokmål, `2025-12-01` in English.
    /// `iso` may be a whole timestamp (`2025-12-01T10:00:00Z`): its day is shown. Anything else
    /// is shown as it is.
    func date(_ iso: String) -> String {
        guard language == .norwegian, let day = CalendarDate(iso: String(iso.prefix(10))) else { return iso }
        // «2025-12-01 14:30» keeps its time; a timestamp's «T…» is left out.
        let rest = iso.dropFirst(10)
        return rest.hasPrefix(" ") ? day.norwegian + rest : day.norwegian
    }

    /// The person a document is shown as being about (``ShownPerson``), in this page's language.
    func person(_ shown: UserMessage) -> String { shown.text(in: language) }
}

struct DocumentRow {
    let id: String
    let title: String
    let typeLabel: String
    let date: String
    let person: String
    let institution: String?
    let upload: String?
    let hasSnippet: Bool
    let snippet: [Piece]
    /// The first page, small (see ``WebServer/thumbnailLink(id:version:none:)``).
    let thumbnail: String?
    /// Its box ticked («Velg alle på siden» without script).
    var checked = false

    init(_ document: DocumentSummary, words: Words) {
        id = document.id
        thumbnail = WebServer.thumbnailLink(id: document.id, version: document.thumbnailVersion,
                                            none: document.hasNoThumbnail == true)
        title = document.title
        typeLabel = words.type(document.docType)
        date = words.date(document.documentDate)
        person = words.person(document.shownPerson)
        institution = document.institution
        upload = {
            let status = CopyStatus(stored: document.uploadStatus)
            return status == .none ? nil : status.label.text(in: words.language)
        }()
        snippet = document.snippet.map(Piece.marked) ?? []
        hasSnippet = !snippet.isEmpty
    }
}

/// A piece of text, marked or not (a search hit, a word read with low confidence).
struct Piece {
    let text: String
    let hit: Bool
    let low: Bool

    /// A snippet split at the library's hit markers.
    static func marked(_ snippet: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(snippet)
        while let start = rest.range(of: SearchIndex.markStart) {
            if start.lowerBound > rest.startIndex { pieces.append(Piece(text: String(rest[..<start.lowerBound]), hit: false, low: false)) }
            rest = rest[start.upperBound...]
            let end = rest.range(of: SearchIndex.markEnd)
            pieces.append(Piece(text: String(rest[..<(end?.lowerBound ?? rest.endIndex)]), hit: true, low: false))
            rest = end.map { rest[$0.upperBound...] } ?? rest[rest.endIndex...]
        }
        if !rest.isEmpty { pieces.append(Piece(text: String(rest), hit: false, low: false)) }
        return pieces
    }

    /// A document's text with each low-confidence range marked.
    static func lowConfidence(_ text: String, ranges: [LibraryDocument.TextRange]) -> [Piece] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = [], position = 0
        func slice(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
        for range in ranges.sorted(by: { $0.start < $1.start }) where range.start >= position && range.start < scalars.count {
            let end = min(scalars.count, range.start + range.length)
            guard range.start < end else { continue }
            if range.start > position { pieces.append(Piece(text: slice(position..<range.start), hit: false, low: false)) }
            pieces.append(Piece(text: slice(range.start..<end), hit: false, low: true))
            position = end
        }
        if position < scalars.count { pieces.append(Piece(text: slice(position..<scalars.count), hit: false, low: false)) }
        return pieces
    }
}

struct Option {
    let value: String
    let label: String
    let selected: Bool
}

/// The filter form of the library and search pages, as it was sent.
struct FilterView {
    let action: String
    let withQuery: Bool
    let q: String
    let qEncoded: String
    let people: [Option]
    let types: [Option]
    let from: String
    let to: String
    let institution: String
    /// How many filters are set (nil: none), and whether the form starts unfolded on a phone.
    let activeCount: Int?
    let open: Bool

    /// The filter names, in the order links keep them.
    static let names = ["q", "person", "type", "from", "to", "institution"]

    init(_ query: WebForm, action: String, withQuery: Bool, household: [String], words: Words) {
        self.action = action
        self.withQuery = withQuery
        q = query["q"] ?? ""
        qEncoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let person = query.value("person") ?? ""
        var people = household.map { Option(value: $0, label: $0, selected: $0 == person) }
        people.append(Option(value: PersonFilter.unknown, label: ShownPerson.unknown.text(in: words.language), selected: PersonFilter.isUnknown(person)))
        if !person.isEmpty, !PersonFilter.isUnknown(person), !household.contains(person) {
            people.append(Option(value: person, label: person, selected: true))
        }
        self.people = people
        let type = query.value("type")
        types = DocumentType.allCases.map { Option(value: $0.rawValue, label: words.type($0.rawValue), selected: $0.rawValue == type) }
        from = query["from"] ?? ""
        to = query["to"] ?? ""
        institution = query["institution"] ?? ""
        let active = ["person", "type", "from", "to", "institution"].filter { query.value($0) != nil }.count
        activeCount = active > 0 ? active : nil
        open = active > 0
    }
}

/// The person filter: a name, or "ukjent" for the letters filed to no household member.
enum PersonFilter {
    static let unknown = "ukjent"

    static func isUnknown(_ text: String) -> Bool { ShownPerson.isUnknown(text) }
}

struct PagerView {
    let newer: String?
    let older: String?
    let label: String

    /// Links to the pages before and after `page` (nil when everything fits on one).
    static func make(query: WebForm, page: Int, total: Int, pageSize: Int, path: String, words: Words) -> PagerView? {
        let pages = max(1, (total + pageSize - 1) / pageSize)
        guard pages > 1 else { return nil }
        func link(_ number: Int) -> String {
            "\(path)?" + query.query(keeping: FilterView.names, adding: [("side", String(number))])
        }
        return PagerView(newer: page > 1 ? link(page - 1) : nil, older: page < pages ? link(page + 1) : nil,
                         label: words.text("Side \(page) av \(pages)", "Page \(page) of \(pages)"))
    }
}

/// The results part of the library and search pages.
struct ResultsView {
    var notes: [String] = []
    var problem: String?
    var emptyText: String?
    var countText: String?
    var hasDocuments = false
    var documents: [DocumentRow] = []
    var pager: PagerView?
    /// The owner's boxes to choose letters by, and what to do with them (``WebServer/ManyView``).
    var many: WebServer.ManyView?
}
