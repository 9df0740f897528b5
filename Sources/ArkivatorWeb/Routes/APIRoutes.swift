import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// `/api/v1`: the same list, search, document, corrections, trash, household and upload queue
    /// as the pages, as JSON (described in `openapi.json` (served at `/api/v1/openapi.json`)). Answers never hold a path on the
    /// server: a file is named by its kind, page and download address.
    /// `anyone`: the list, search and a document, narrowed to the account's letters; `api`: the
    /// owner's (changes, the trash, the household, the queue).
    func addAPIRoutes(anyone: RouterGroup<WebContext>, api: RouterGroup<WebContext>) {
        let store = self.store, uploads = household.uploads
        anyone.get("/documents") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            let filter = context.seen.narrowed(try Self.apiFilter(query))
            let limit = try Self.integer(query, "limit", in: 1...200) ?? Self.pageSize
            let offset = try Self.integer(query, "offset", in: 0...Int(Int32.max)) ?? 0
            let (total, documents) = try await store.read { library in
                (try library.documents.count(filter), try library.documents.list(filter, limit: limit, offset: offset))
            }
            return try JSONAnswer.response(APIDocumentList(total: total, documents: documents.map(APISummary.init)))
        }
        anyone.get("/search") { request, context -> Response in
            let query = WebForm(request.uri.query ?? "")
            guard let text = query["q"], !text.isEmpty else { throw WebError.badField("q") }
            let filter = context.seen.narrowed(try Self.apiFilter(query))
            let result: SearchResult
            do {
                result = try await store.read { try $0.index.search(text, filter: filter, limit: Self.pageSize) }
            } catch let failure as LibraryFailure where failure.code == .emptyQuery {
                // Any text is safe to search for: nothing searchable finds nothing, and says why.
                let note = context.text("Ingenting å søke etter: skriv minst ett ord som ikke er et vanlig småord.",
                                        "Nothing to search for: type at least one word that is not a common little word.")
                return try JSONAnswer.response(APISearchAnswer(query: text, total: 0, notes: [note], hits: []))
            }
            return try JSONAnswer.response(APISearchAnswer(
                query: text, total: result.total, notes: result.notes.map { $0.text(in: context.language) },
                hits: result.hits.map { hit in
                    var summary = APISummary(hit)
                    summary.snippet = hit.snippet.map {
                        $0.replacingOccurrences(of: SearchIndex.markStart, with: "[").replacingOccurrences(of: SearchIndex.markEnd, with: "]")
                    }
                    return summary
                }))
        }
        anyone.get("/documents/{id}") { _, context -> Response in
            let id = try await Self.seenID(context, store: store)
            let answer = try await store.read { library in try APIDocument.withAppointments(id, in: library) }
            try await Self.audit(.letterOpened, document: id, context: context, store: store)
            return try JSONAnswer.response(answer)
        }
        api.patch("/documents/{id}") { request, context -> Response in
            let id = try Self.documentID(context)
            let fields = try await Self.body(Corrections.self, from: request, context: context, fields: Corrections.names,
                                             nb: "Forventet et JSON-objekt med title, person, type, date, institution, specialty, keywords, text, appointments eller reviewed.",
                                             en: "Expected a JSON object with title, person, type, date, institution, specialty, keywords, text, appointments or reviewed.")
            var changes = DocumentChanges(title: fields.title, person: fields.person, institution: fields.institution,
                                          specialty: fields.specialty, keywords: fields.keywords)
            if let type = fields.type {
                guard let known = DocumentType(rawValue: type) else { throw WebError.badField("type") }
                changes.type = known
            }
            if let date = fields.date {
                guard let day = CalendarDate(iso: date) else { throw WebError.badField("date") }
                changes.date = day
            }
            // Every value's length first: a text too long changes nothing, the title included.
            try changes.checkLengths()
            try StoredField.text.check(fields.text)
            let wanted = changes, reviewed = fields.reviewed == true, text = fields.text, household = self.household
            let appointments = fields.appointments?.map(\.appointment)
            // Absent fields stay as they are: `{}` changes nothing and answers the document as it is.
            let document = try await store.write { library -> APIDocument in
                let document = try library.documents.document(id)
                guard !wanted.isEmpty || reviewed || text != nil || appointments != nil else { return try APIDocument.withAppointments(id, in: library) }
                if !wanted.isEmpty { _ = try library.documents.edit(document.shortID, wanted, programVersion: ArkivatorVersion.current) }
                if let text { _ = try household.correctText(document.sha256, to: text) }
                // After the text: appointments given by hand are not read again from it.
                if let appointments { try library.calendar.replaceAppointments(of: document.sha256, with: appointments) }
                if reviewed { try library.documents.markReviewed(document.shortID) }
                return try APIDocument.withAppointments(document.sha256, in: library)
            }
            return try JSONAnswer.response(document)
        }
        // Trashing is not a DELETE: the document stays readable (with `trashedAt`) and can be restored.
        api.post("/documents/{id}/trash") { _, context -> Response in
            let id = try Self.documentID(context)
            let document = try await store.write { library -> APIDocument in
                let document = try library.documents.document(id)
                if document.trashedAt == nil { _ = try library.documents.delete(document.shortID) }
                return try APIDocument.withAppointments(document.sha256, in: library)
            }
            return try JSONAnswer.response(document)
        }
        api.post("/documents/{id}/restore") { _, context -> Response in
            let id = try Self.documentID(context)
            let document = try await store.write { library -> APIDocument in
                let document = try library.documents.document(id)
                if document.trashedAt != nil { _ = try library.documents.restore(document.shortID) }
                return try APIDocument.withAppointments(document.sha256, in: library)
            }
            return try JSONAnswer.response(document)
        }
        api.get("/family") { _, _ -> Response in
            try JSONAnswer.response(try await store.read { try $0.familyMembers() }.map(APIMember.init))
        }
        api.post("/family") { request, context -> Response in
            let member = try await Self.body(NewMember.self, from: request, context: context, fields: NewMember.names,
                                             nb: "Forventet et JSON-objekt med name, og gjerne birthDate eller fodselsnummer.",
                                             en: "Expected a JSON object with name, and perhaps birthDate or fodselsnummer.")
            try member.check()
            let added: FamilyMemberSummary
            do {
                added = try await store.write { library in
                    try library.family { try $0.add(name: member.name, birthDate: member.birthDate, fodselsnummer: member.fodselsnummer) }
                }
            } catch let failure as FamilyError where NewMember.unprocessable.contains(failure.errorCode) {
                // Well formed, but no real person's: the control digits, a date in the future.
                throw WebError(.init(code: 422, reasonPhrase: "Unprocessable Content"), code: failure.errorCode, message: failure.userMessage)
            }
            return try JSONAnswer.response(APIMember(added), status: .created)
        }
        api.delete("/family/{member}") { _, context -> Response in
            let member = try Self.memberID(context)
            _ = try await store.write { library in try library.family { try $0.remove(nameOrID: String(member)) } }
            return Response(status: .noContent)
        }
        api.get("/queue") { _, _ -> Response in
            try JSONAnswer.response(try await store.read { library in
                let hidden = [library.location.directory.path, library.defaultArchiveRoot.path]
                return try UploadState.read(library).map { APIJob($0, hiding: hidden) }
            })
        }
        api.post("/queue/{job}/retry") { _, context -> Response in
            guard let job = context.parameters.get("job", as: Int.self) else { throw WebError.notFound }
            // Through the worker, so it wakes and tries at once.
            try await uploads.retry(job)
            let retried = try await store.read { library -> APIJob in
                APIJob(try library.uploads.uploadJob(job), hiding: [library.location.directory.path, library.defaultArchiveRoot.path])
            }
            return try JSONAnswer.response(retried)
        }
    }

    /// The API's filters, as strict as `openapi.json` (served at `/api/v1/openapi.json`) says: a type exactly as named, dates
    /// exactly `YYYY-MM-DD`, present ones never blank. A blank person or sender is no filter.
    static func apiFilter(_ query: WebForm) throws -> DocumentFilter {
        var filter = DocumentFilter()
        if let person = query.value("person") {
            if PersonFilter.isUnknown(person) { filter.withoutPerson = true } else { filter.person = person }
        }
        filter.institution = query.value("institution")
        if let type = query["type"] {
            guard let known = DocumentType(rawValue: type) else {
                throw WebError(.badRequest, code: "badType", nb: "«\(type)» er ikke en dokumenttype.", en: "“\(type)” is not a document type.")
            }
            filter.type = known
        }
        for (name, keyPath) in [("from", \DocumentFilter.from), ("to", \DocumentFilter.to)] {
            if let text = query[name] {
                guard let date = CalendarDate(iso: text) else {
                    throw WebError(.badRequest, code: "badDate", nb: "Datoen «\(text)» må skrives som ÅÅÅÅ-MM-DD, for eksempel 2024-03-05.",
                                   en: "The date “\(text)” must be written as YYYY-MM-DD, for example 2024-03-05.")
                }
                filter[keyPath: keyPath] = date
            }
        }
        return filter
    }

    /// A JSON body that must be one object of `T`: no field named in `fields` may be `null`
    /// (absent fields stay as they are; `null` is not a value the description allows).
    static func body<T: Decodable>(_ type: T.Type, from request: Request, context: WebContext, fields: [String],
                                   nb: String, en: String) async throws -> T {
        let refused = WebError(.badRequest, code: "badRequest", nb: nb, en: en)
        let data = Data(buffer: try await request.body.collect(upTo: context.maxUploadSize))
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw refused }
        for name in fields where object[name] is NSNull { throw WebError.badField(name) }
        guard let value = try? JSONDecoder().decode(T.self, from: data) else { throw refused }
        return value
    }

    /// A whole-number query parameter within `range`, written as digits only; nil when absent,
    /// 400 when malformed or out of range.
    static func integer(_ query: WebForm, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query[name] else { return nil }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), range.contains(value) else {
            throw WebError.badField(name)
        }
        return value
    }

    /// A document's corrections; absent fields stay as they are.
    struct Corrections: Decodable {
        static let names = ["title", "person", "type", "date", "institution", "specialty", "keywords", "text", "appointments", "reviewed"]
        var title: String?
        var person: String?
        var type: String?
        var date: String?
        var institution: String?
        var specialty: String?
        var keywords: [String]?
        /// The corrected text (pages separated by a form feed); kept as a version.
        var text: String?
        /// The letter's appointments as a person corrected them (replacing those it called to;
        /// `[]`: none); never read again from the text.
        var appointments: [AppointmentInput]?
        /// True: the document leaves the review queue.
        var reviewed: Bool?
    }

    /// One appointment in ``Corrections``: the day, and what else the letter says.
    struct AppointmentInput: Decodable {
        var date: String
        var time: String?
        var place: String?
        var bring: String?
        var change: String?
        var cancelled: Bool?

        var appointment: Appointment {
            Appointment(date: date, time: time, place: place, bring: bring, change: change, cancelled: cancelled ?? false)
        }
    }

    /// A new member of the household, checked as `openapi.json` (served at `/api/v1/openapi.json`) describes it before the
    /// library sees it (the library's own rules are wider; the API says exactly what it takes).
    struct NewMember: Decodable {
        static let names = ["name", "birthDate", "fodselsnummer"]
        /// The library's refusals of well-formed data: answered 422.
        static let unprocessable: Set<String> = ["invalidBirthDate", "invalidFodselsnummer", "birthDateMismatch"]
        var name: String
        var birthDate: String?
        var fodselsnummer: String?

        /// Letters of the Latin script (Norwegian and Sami ones included), spaces, `-`, `.`, `'` and `’`,
        /// at least one letter, at most 100 characters.
        static func isName(_ name: String) -> Bool {
            let scalars = name.unicodeScalars
            func isLetter(_ s: Unicode.Scalar) -> Bool {
                switch s.value {
                case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F: true
                default: false
                }
            }
            return scalars.count <= 100 && scalars.contains(where: isLetter)
                && scalars.allSatisfy { isLetter($0) || " '’.-".unicodeScalars.contains($0) }
        }

        /// `YYYY-MM-DD`, a real day from 1850 to 2099 (the library refuses a day after today).
        static func isBirthDate(_ text: String) -> Bool {
            guard let (year, _, _) = CalendarDate.isoComponents(text) else { return false }
            return (1850...2099).contains(year)
        }

        func check() throws {
            guard Self.isName(name) else {
                throw WebError(.badRequest, code: "invalidName",
                               nb: "Navnet kan ha bokstaver, mellomrom, bindestrek, punktum og apostrof, minst én bokstav og høyst 100 tegn.",
                               en: "The name can have letters, spaces, hyphens, full stops and apostrophes, at least one letter and at most 100 characters.")
            }
            if let birthDate, !Self.isBirthDate(birthDate) {
                throw WebError(.badRequest, code: "invalidBirthDate", nb: "Fødselsdatoen må skrives som ÅÅÅÅ-MM-DD, for eksempel 1987-01-26.",
                               en: "The birth date must be written as YYYY-MM-DD, for example 1987-01-26.")
            }
            if let fodselsnummer, fodselsnummer.utf8.count != 11 || !fodselsnummer.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                throw WebError(.badRequest, code: "invalidFodselsnummer", nb: "Fødselsnummeret må være 11 sifre, uten mellomrom.",
                               en: "The fødselsnummer must be 11 digits, without spaces.")
            }
        }
    }
}
