import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// What the API answers, field by field: its own shapes (described in `openapi.json` (served at `/api/v1/openapi.json`)),
/// never the library's types as they are, so no path on the server and no field the description
/// lacks goes out.
struct APIDocumentList: Encodable {
    var total: Int
    var documents: [APISummary]
}

struct APISearchAnswer: Encodable {
    var query: String
    var total: Int
    var notes: [String]
    var hits: [APISummary]
}

/// One line of a list or search, as the API gives it.
struct APISummary: Encodable {
    var id: String
    var title: String
    var docType: String
    var person: String?
    var familyMember: String?
    var institution: String?
    var documentDate: String
    var pageCount: Int
    var snippet: String?
    var score: Double?
    var partial: Bool?
    var trashedAt: String?
    var uploadStatus: String?

    init(_ summary: DocumentSummary) {
        id = summary.id
        title = summary.title
        docType = summary.docType
        person = summary.person
        familyMember = summary.familyMember
        institution = summary.institution
        documentDate = summary.documentDate
        pageCount = summary.pageCount
        score = summary.score
        partial = summary.partial
        trashedAt = summary.trashedAt
        uploadStatus = summary.uploadStatus.map { CopyStatus(stored: $0).rawValue }
    }
}

/// A whole document as the API gives it: its files by kind, page and address, never a path.
struct APIDocument: Encodable {
    struct File: Encodable {
        var kind: String
        var page: Int
        var name: String
        var href: String
    }

    var id: String
    var sha256: String
    var title: String
    var docType: String
    var person: String?
    var familyMember: String?
    var institution: String?
    var specialty: String?
    var documentDate: String
    var scanDate: String?
    var keywords: [String]
    var ocrConfidence: Double?
    var needsReview: [String]
    var pageCount: Int
    var text: String
    var fodselsnummerCount: Int
    var lowConfidence: [LibraryDocument.TextRange]
    var pages: [LibraryDocument.Page]
    var files: [File]
    var uploadStatus: String
    var addedAt: String
    var updatedAt: String
    var trashedAt: String?
    var fieldConfidence: [String: Double]?
    /// The appointments the letter calls to, moves or cancels.
    var appointments: [APIAppointment]
    /// The rows of the letter's lab tables.
    var labs: [APILab]

    init(_ document: LibraryDocument, appointments: [StoredAppointment], labs: [LabEntry] = []) {
        id = document.shortID
        sha256 = document.sha256
        title = document.title
        docType = document.docType.rawValue
        person = document.person
        familyMember = document.familyMember
        institution = document.institution
        specialty = document.specialty
        documentDate = document.documentDate
        scanDate = document.scanDate
        keywords = document.keywords
        ocrConfidence = document.ocrConfidence
        needsReview = document.needsReview
        pageCount = document.pageCount
        text = document.text
        fodselsnummerCount = document.fodselsnummerCount
        lowConfidence = document.lowConfidence
        pages = document.pages
        files = document.files.enumerated().map { index, file in
            File(kind: file.kind.rawValue, page: file.page, name: file.url.lastPathComponent,
                 href: "/documents/\(document.shortID)/files/\(index)")
        }
        uploadStatus = CopyStatus(stored: document.uploadStatus).rawValue
        addedAt = document.addedAt
        updatedAt = document.updatedAt
        trashedAt = document.trashedAt
        fieldConfidence = document.fieldConfidence
        self.appointments = appointments.map(APIAppointment.init)
        self.labs = labs.map(APILab.init)
    }

    /// A document with its appointments and lab values, as the API answers it (inside a store closure).
    static func withAppointments(_ id: String, in library: Library) throws -> APIDocument {
        let document = try library.documents.document(id)
        return APIDocument(document, appointments: try library.calendar.appointments(ofDocument: document.sha256),
                           labs: try library.documents.labs(of: document.sha256))
    }
}

/// A lab value as the API gives it: the value as printed («5,2», «< 5»), `doubtful` while a number
/// in its row may be misread and no one has confirmed it, `sampled` the day the sample was taken.
struct APILab: Encodable {
    var analysis: String
    var value: String
    var unit: String?
    var range: String?
    var flag: String?
    var doubtful: Bool
    var confirmed: Bool
    var sampled: String?
    var page: Int?

    init(_ entry: LabEntry) {
        analysis = entry.analysis
        value = entry.value
        unit = entry.unit
        range = entry.range
        flag = entry.flag
        doubtful = entry.inDoubt
        confirmed = entry.confirmed
        sampled = entry.sampled
        page = entry.page
    }
}

/// An appointment as the API gives it: absent values left out.
struct APIAppointment: Encodable {
    var uid: String
    var date: String
    var time: String?
    var place: String?
    var bring: String?
    var change: String?
    var cancelled: Bool
    /// The short id of the later letter that moved or cancelled it.
    var changedBy: String?

    init(_ stored: StoredAppointment) {
        uid = stored.uid
        date = stored.appointment.date
        time = stored.appointment.time
        place = stored.appointment.place
        bring = stored.appointment.bring
        change = stored.appointment.change
        cancelled = stored.appointment.cancelled
        changedBy = stored.changedBy
    }
}

struct APIMember: Encodable {
    var id: Int
    var name: String
    var birthDate: String?
    var maskedFnr: String?

    init(_ member: FamilyMemberSummary) {
        id = member.id
        name = member.name
        birthDate = member.birthDate
        maskedFnr = member.maskedFnr
    }
}

/// An upload job as the API gives it: where it goes by kind only, and why it failed without a
/// path on the server (a folder's path, the library's and the archive's are left out).
struct APIJob: Encodable {
    var id: Int
    var documentID: String
    var title: String
    var destinationKind: String
    var state: String
    var attempts: Int
    var lastError: String?
    var nextAttemptAt: String?
    var createdAt: String
    var updatedAt: String
    var trashed: Bool

    init(_ job: UploadJob, hiding folders: [String]) {
        id = job.id
        documentID = job.documentID
        title = job.title
        let kind = String(job.destination.prefix { $0 != ":" })
        destinationKind = kind
        state = job.state.rawValue
        attempts = job.attempts
        var hidden = folders
        if kind == "folder" { hidden.append(String(job.destination.dropFirst(kind.count + 1))) }
        lastError = job.lastError.map { ServerPaths.hidden(in: $0, folders: hidden) }
        nextAttemptAt = job.nextAttemptAt
        createdAt = job.createdAt
        updatedAt = job.updatedAt
        trashed = job.trashed
    }
}

/// Paths on the server, left out of what the API answers.
enum ServerPaths {
    /// An absolute path in a sentence (not part of a URL or a relative path).
    static let absolutePath = try? NSRegularExpression(pattern: #"(?<![\w:/.~])/[^\s«»“”"'()]+"#)

    /// `text` with the given folders (longest first) and any other absolute path left out: a
    /// file in the archive keeps its place below it (`Kari/Dokumenter/…`), anything else is `…`.
    static func hidden(in text: String, folders: [String] = []) -> String {
        var text = text
        for folder in folders.filter({ $0.count > 1 }).sorted(by: { $0.count > $1.count }) {
            let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            text = text.replacingOccurrences(of: trimmed + "/", with: "").replacingOccurrences(of: trimmed, with: "…")
        }
        guard text.contains("/"), let path = absolutePath else { return text }
        return path.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "…")
    }
}
