import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// `/api/v1`: the same list, search, document, corrections, trash, household and upload queue
    /// as the pages, as JSON (described in `docs/openapi.json`). Answers never hold a path on the
    /// server: a file is named by its kind, page and download address.
    func addAPIRoutes(api: RouterGroup<WebContext>) {
        let store = self.store
        api.get("/documents") { request, _ -> Response in
            let query = WebForm(request.uri.query ?? "")
            let filter = try Self.filter(query)
            let limit = try Self.integer(query, "limit", in: 1...200) ?? Self.pageSize
            let offset = try Self.integer(query, "offset", in: 0...Int(Int32.max)) ?? 0
            let (total, documents) = try await store.read { library in
                (try library.count(filter), try library.list(filter, limit: limit, offset: offset))
            }
            return try JSONAnswer.response(APIDocumentList(total: total, documents: documents.map(APISummary.init)))
        }
        api.get("/search") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let text = query["q"] ?? ""
            let filter = try Self.filter(query)
            let result = try await store.read { try $0.search(text, filter: filter, limit: Self.pageSize) }
            return try JSONAnswer.response(APISearchAnswer(
                query: text, total: result.total, notes: result.notes.map { $0.text(in: context.language) },
                hits: result.hits.map { hit in
                    var summary = APISummary(hit)
                    summary.snippet = hit.snippet.map {
                        $0.replacingOccurrences(of: Library.markStart, with: "[").replacingOccurrences(of: Library.markEnd, with: "]")
                    }
                    return summary
                }))
        }
        api.get("/documents/{id}") { _, context -> Response in
            let id = try Self.documentID(context)
            return try JSONAnswer.response(APIDocument(try await store.read { try $0.document(id) }))
        }
        api.patch("/documents/{id}") { request, context -> Response in
            let id = try Self.documentID(context)
            guard let fields = try await JSONAnswer.decode(Corrections.self, from: request, context: context) else {
                throw WebError(.badRequest, code: "badRequest", nb: "Forventet et JSON-objekt med title, person, type, date, institution, specialty, keywords eller reviewed.",
                               en: "Expected a JSON object with title, person, type, date, institution, specialty, keywords or reviewed.")
            }
            var changes = DocumentChanges(title: fields.title, person: fields.person, institution: fields.institution,
                                          specialty: fields.specialty, keywords: fields.keywords)
            if let type = fields.type {
                guard let known = DocumentType(name: type) else { throw WebError.badField("type") }
                changes.type = known
            }
            if let date = fields.date {
                guard let day = CalendarDate(iso: date) else { throw WebError.badField("date") }
                changes.date = day
            }
            let wanted = changes
            let document = try await store.write { library -> LibraryDocument in
                let document = try library.document(id)
                let changes = wanted
                var result = document
                if !changes.isEmpty { result = try library.edit(document.shortID, changes, programVersion: ArkivatorVersion.current) }
                if fields.reviewed == true { try library.markReviewed(document.shortID) }
                return changes.isEmpty && fields.reviewed != true ? result : try library.document(document.shortID)
            }
            return try JSONAnswer.response(APIDocument(document))
        }
        api.delete("/documents/{id}") { _, context -> Response in
            let id = try Self.documentID(context)
            let document = try await store.write { library -> LibraryDocument in
                let document = try library.document(id)
                return document.trashedAt == nil ? try library.delete(document.shortID) : document
            }
            return try JSONAnswer.response(APIDocument(document))
        }
        api.post("/documents/{id}/restore") { _, context -> Response in
            let id = try Self.documentID(context)
            let document = try await store.write { library -> LibraryDocument in
                let document = try library.document(id)
                return document.trashedAt != nil ? try library.restore(document.shortID) : document
            }
            return try JSONAnswer.response(APIDocument(document))
        }
        api.get("/family") { _, _ -> Response in
            try JSONAnswer.response(try await store.read { library in try library.family { try $0.list() } }.map(APIMember.init))
        }
        api.post("/family") { request, context -> Response in
            guard let member = try await JSONAnswer.decode(NewMember.self, from: request, context: context) else {
                throw WebError.badField("name")
            }
            let added = try await store.write { library in
                try library.family { try $0.add(name: member.name, birthDate: member.birthDate, fodselsnummer: member.fodselsnummer) }
            }
            return try JSONAnswer.response(APIMember(added), status: .created)
        }
        api.delete("/family/{member}") { _, context -> Response in
            let member = try Self.memberID(context)
            try await store.write { library in try library.family { try $0.remove(nameOrID: String(member)) } }
            return Response(status: .noContent)
        }
        api.get("/queue") { _, _ -> Response in
            try JSONAnswer.response(try await store.read { try UploadState.read($0) }.map(APIJob.init))
        }
        api.post("/queue/{job}/retry") { _, context -> Response in
            guard let job = context.parameters.get("job", as: Int.self) else { throw WebError.notFound }
            let retried = try await store.write { library -> UploadJob in
                try library.retryUpload(job)
                return try library.uploadJob(job)
            }
            return try JSONAnswer.response(APIJob(retried))
        }
    }

    /// A whole-number query parameter within `range`; nil when absent, 400 when malformed.
    static func integer(_ query: WebForm, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else { throw WebError.badField(name) }
        return value
    }

    /// A document's corrections; absent fields stay as they are.
    struct Corrections: Decodable {
        var title: String?
        var person: String?
        var type: String?
        var date: String?
        var institution: String?
        var specialty: String?
        var keywords: [String]?
        /// True: the document leaves the review queue.
        var reviewed: Bool?
    }

    struct NewMember: Decodable {
        var name: String
        var birthDate: String?
        var fodselsnummer: String?
    }
}

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
        uploadStatus = summary.uploadStatus
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

    init(_ document: LibraryDocument) {
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
        uploadStatus = document.uploadStatus
        addedAt = document.addedAt
        updatedAt = document.updatedAt
        trashedAt = document.trashedAt
        fieldConfidence = document.fieldConfidence
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

/// An upload job as the API gives it: where it goes by kind only (a folder's path stays on the server).
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

    init(_ job: UploadJob) {
        id = job.id
        documentID = job.documentID
        title = job.title
        destinationKind = String(job.destination.prefix { $0 != ":" })
        state = job.state.rawValue
        attempts = job.attempts
        lastError = job.lastError
        nextAttemptAt = job.nextAttemptAt
        createdAt = job.createdAt
        updatedAt = job.updatedAt
        trashed = job.trashed
    }
}
