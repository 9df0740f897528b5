import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// The API's changes, each the same library call as its page (and command): correct a
    /// document, trash and restore it, the household, the upload queue.
    func addAPIChangeRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.patch("/api/v1/documents/{id}") { request, context -> Response in
            let document = try Self.document(library, context)
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            let fields: Corrections
            do {
                fields = try JSONDecoder().decode(Corrections.self, from: Data(buffer: body))
            } catch {
                return try Self.json(APIError(error: "badRequest", message: context.text(
                    "Forventet et JSON-objekt med title, person, type, date, institution, specialty eller keywords.",
                    "Expected a JSON object with title, person, type, date, institution, specialty or keywords.")), status: .badRequest)
            }
            var changes = DocumentChanges(title: fields.title, person: fields.person, institution: fields.institution,
                                          specialty: fields.specialty, keywords: fields.keywords)
            if let type = fields.type {
                guard let known = DocumentType(rawValue: type) else { return try Self.badField("type", context) }
                changes.type = known
            }
            if let date = fields.date {
                guard let day = CalendarDate(iso: date) else { return try Self.badField("date", context) }
                changes.date = day
            }
            do {
                if !changes.isEmpty || fields.reviewed != true {
                    try library.edit(document.shortID, changes, programVersion: ArkivatorVersion.current)
                }
            } catch let failure as LibraryFailure {
                return try Self.json(APIError(error: failure.code.rawValue, message: failure.userMessage.text(in: context.language)),
                                     status: .badRequest)
            }
            if fields.reviewed == true { try library.markReviewed(document.shortID) }
            return try Self.json(try library.document(document.shortID))
        }
        router.delete("/api/v1/documents/{id}") { _, context -> Response in
            let document = try Self.document(library, context)
            guard document.trashedAt == nil else { return try Self.json(try library.document(document.shortID)) }
            return try Self.json(try library.delete(document.shortID))
        }
        router.post("/api/v1/documents/{id}/restore") { _, context -> Response in
            let document = try Self.document(library, context)
            guard document.trashedAt != nil else { return try Self.json(document) }
            return try Self.json(try library.restore(document.shortID))
        }
        router.get("/api/v1/family") { _, _ -> Response in
            try Self.json(try library.family { try $0.list() })
        }
        router.post("/api/v1/family") { request, context -> Response in
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            guard let member = try? JSONDecoder().decode(NewMember.self, from: Data(buffer: body)) else {
                return try Self.badField("name", context)
            }
            do {
                return try Self.json(try library.family {
                    try $0.add(name: member.name, birthDate: member.birthDate, fodselsnummer: member.fodselsnummer)
                }, status: .created)
            } catch let error as any UserFacingError {
                return try Self.json(APIError(error: error.errorCode, message: error.userMessage.text(in: context.language)),
                                     status: .badRequest)
            }
        }
        router.delete("/api/v1/family/{member}") { _, context -> Response in
            try Self.removeMember(library, context)
            return Response(status: .noContent)
        }
        router.get("/api/v1/queue") { _, _ -> Response in
            try Self.json(try library.uploadJobs())
        }
        router.post("/api/v1/queue/{job}/retry") { _, context -> Response in
            let job = try Self.retryUpload(library, context)
            return try Self.json(try library.uploadJob(job))
        }
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

    /// Puts the `job` path parameter's upload back in the queue: 404 for no such job, 409 when
    /// it is uploaded already.
    static func retryUpload(_ library: Library, _ context: WebContext) throws -> Int {
        guard let job = context.parameters.get("job", as: Int.self) else { throw HTTPError(.notFound) }
        do {
            try library.retryUpload(job)
        } catch let failure as LibraryFailure where failure.code == .noUploadJob {
            throw HTTPError(.notFound)
        } catch let failure as LibraryFailure where failure.code == .alreadyUploaded {
            throw HTTPError(.conflict)
        }
        return job
    }

    /// Removes the household member named by the `member` path parameter, or 404.
    static func removeMember(_ library: Library, _ context: WebContext) throws {
        guard let member = context.parameters.get("member", as: Int.self) else { throw HTTPError(.notFound) }
        do {
            try library.family { try $0.remove(nameOrID: String(member)) }
        } catch let error as FamilyError where error.errorCode == "notFound" {
            throw HTTPError(.notFound)
        }
    }

    static func badField(_ name: String, _ context: WebContext) throws -> Response {
        try json(APIError(error: "badRequest", message: context.text("Feltet «\(name)» kan ikke brukes.", "The field “\(name)” cannot be used.")),
                 status: .badRequest)
    }
}
