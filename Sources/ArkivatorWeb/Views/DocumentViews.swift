import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// One document's page: its fields, its pages and text, its files, and what can be done to it.
struct DocumentView {
    let id: String
    var notice: String?
    let problem: String?
    let fields: [[String: String]]
    let trashed: Bool
    let canRedact: Bool
    let edit: EditView
    let hasImages: Bool
    var images: [PageImageView]
    let hasText: Bool
    let textParts: [Piece]
    let files: [[String: String]]
    /// "Rett teksten", with the text's versions (set by the page's route).
    var textEditor: TextEditorView?
    /// «Forklar brevet» (set by the page's route).
    var explanation: ExplanationView?
    /// Each page's photo as taken (see ``PhotoView``).
    let photos: [PhotoView]
    let hasPhotos: Bool

    /// The «Time» section (see ``AppointmentsView``).
    let appointmentsView: AppointmentsView

    init(_ document: LibraryDocument, household: [String], words: Words, notice: String? = nil, problem: String? = nil,
         originals: [DocumentOriginal] = [], appointments stored: [StoredAppointment] = [], appointmentsCorrected: Bool = false,
         forOwner: Bool = true) {
        id = document.shortID
        self.notice = notice
        self.problem = problem
        let upload: String = CopyStatus(stored: document.uploadStatus).label.text(in: words.language)
        let rows: [(String, String)?] = [
            (words["letterDate"], words.date(document.documentDate)),
            (words["type"], words.type(document.docType.rawValue)),
            (words["person"], words.person(document.shownPerson)),
            (words["sender"], document.institution ?? "–"),
            (words["specialty"], document.specialty ?? "–"),
            (words["keywords"], document.keywords.isEmpty ? "–" : document.keywords.joined(separator: ", ")),
            (words["pageCount"], String(document.pageCount)),
            // The family's own storage is the owner's business: an account is not shown its copies.
            forOwner ? (words["uploadHeading"], upload) : nil,
        ]
        fields = rows.compactMap { $0 }.map { ["label": $0.0, "value": $0.1] }
        trashed = document.trashedAt != nil
        canRedact = document.fodselsnummerCount > 0
        edit = EditView(document, action: "/documents/\(document.shortID)/edit", button: words["save"], household: household,
                        nobody: forOwner, words: words)
        images = Self.images(document, words: words)
        hasImages = !images.isEmpty
        textParts = Piece.lowConfidence(document.text, ranges: document.lowConfidence)
        hasText = !document.text.isEmpty
        files = document.files.enumerated().map { index, file in
            let label = switch file.kind {
            case .image: words.text("Side \(file.page) (JPEG)", "Page \(file.page) (JPEG)")
            case .pdf: words["downloadPDF"]
            case .docx: words["downloadDocx"]
            }
            return ["href": "/documents/\(document.shortID)/files/\(index)", "label": label]
        }
        photos = PhotoView.photos(document, originals: originals, words: words)
        hasPhotos = !photos.isEmpty
        appointmentsView = AppointmentsView(id: document.shortID, stored: stored, trashed: document.trashedAt != nil,
                                            corrected: appointmentsCorrected, words: words)
    }

    /// The page images, each linking to itself at full size (to zoom on a phone), the numbers in
    /// doubt outlined (see ``PageImageView``).
    static func images(_ document: LibraryDocument, words: Words) -> [PageImageView] {
        PageImageView.images(document, words: words)
    }
}

/// The correction form (document page and review): each field with the rules' confidence, and
/// "usikker" where they were unsure.
struct EditView {
    let action: String
    let button: String
    let skip: String?
    /// The letters skipped so far in this round of review (carried on to the next page).
    let skipped: String
    let title: String
    let people: [Option]
    let types: [Option]
    let date: String
    let institution: String
    let specialty: String
    let keywords: String
    let marks: [String: Mark]

    struct Mark {
        let uncertain: Bool
        let confidence: String?
    }

    init(_ document: LibraryDocument, action: String, button: String, skip: String? = nil, skipped: String = "",
         household: [String], nobody: Bool = true, words: Words) {
        self.action = action
        self.button = button
        self.skip = skip
        self.skipped = skipped
        title = document.title
        let person = ShownPerson.name(familyMember: document.familyMember, person: document.person) ?? ""
        // «Ukjent person» is the owner's choice: an account's letter stays with someone it sees.
        let names = (nobody ? [""] : []) + household + (household.contains(person) || person.isEmpty ? [] : [person])
        people = names.map { Option(value: $0, label: $0.isEmpty ? ShownPerson.unknown.text(in: words.language) : $0, selected: $0 == person) }
        types = DocumentType.allCases.map { Option(value: $0.rawValue, label: words.type($0.rawValue), selected: $0 == document.docType) }
        date = document.documentDate
        institution = document.institution ?? ""
        specialty = document.specialty ?? ""
        keywords = document.keywords.joined(separator: ", ")
        let uncertain = Set(document.needsReview)
        var marks: [String: Mark] = [:]
        for key in ["title", "person", "docType", "documentDate", "institution", "specialty"] {
            let share = document.fieldConfidence?[key].map { "\(Int(($0 * 100).rounded())) %" }
            if uncertain.contains(key) || share != nil { marks[key] = Mark(uncertain: uncertain.contains(key), confidence: share) }
        }
        self.marks = marks
    }

    /// The changes a posted form makes (only the fields that differ). `members`: the household's
    /// names. A letter that names a member but is filed to no one (it came before the member was
    /// added) shows that name chosen; saving it so files it to the member.
    static func changes(_ form: WebForm, to document: LibraryDocument, members: [String]) throws -> DocumentChanges {
        var changes = DocumentChanges()
        func field(_ name: String) -> String? { form[name]?.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let title = field("title"), !title.isEmpty, title != document.title { changes.title = title }
        if let person = field("person") {
            let shown = ShownPerson.name(familyMember: document.familyMember, person: document.person) ?? ""
            if person != shown || (document.familyMember == nil && members.contains(person)) { changes.person = person }
        }
        if let type = field("type"), type != document.docType.rawValue {
            guard let known = DocumentType(name: type) else { throw WebError.badField("type") }
            changes.type = known
        }
        if let date = field("date"), !date.isEmpty, date != document.documentDate {
            guard let day = CalendarDate(typed: date) else {
                throw WebError(.badRequest, code: "badDate", nb: "Datoen må skrives som 05.03.2024 (eller 2024-03-05).",
                               en: "The date must be written as 2024-03-05 (or 05.03.2024).")
            }
            if day.iso != document.documentDate { changes.date = day }
        }
        if let institution = field("institution"), institution != (document.institution ?? "") { changes.institution = institution }
        if let specialty = field("specialty"), specialty != (document.specialty ?? "") { changes.specialty = specialty }
        if let keywords = field("keywords") {
            let list = keywords.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if list != document.keywords { changes.keywords = list }
        }
        return changes
    }
}
