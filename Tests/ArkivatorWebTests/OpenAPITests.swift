import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// `openapi.json` (served at `/api/v1/openapi.json`) describes exactly the API the server has, and the answers keep to it.
@Suite struct OpenAPITests {
    static func spec() throws -> [String: Any] {
        let url = Fixtures.root.appendingPathComponent("Sources/ArkivatorWeb/Resources/static/openapi.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func everyAPIRouteIsDescribedAndNothingElse() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let served = Set(fixture.server.router().routes.map { "\($0.method) \($0.path)" }.filter { $0.contains(" /api/") })
            let paths = try #require(try Self.spec()["paths"] as? [String: [String: Any]])
            let described = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
            #expect(served == described, "served but not described: \(served.subtracting(described)); described but not served: \(described.subtracting(served))")
        }
    }

    @Test func theDescriptionIsServedToAnyone() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.server.application().test(.router) { client in
                let answer = try await client.execute(uri: "/api/v1/openapi.json", method: .get)
                #expect(answer.status == .ok && answer.headers[.contentType] == "application/json")
                let served = try #require(try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any])
                #expect(served["openapi"] as? String == (try Self.spec())["openapi"] as? String)
                #expect((served["paths"] as? [String: Any])?["/api/v1/openapi.json"] != nil)
            }
        }
    }

    @Test func answersHaveTheDescribedStatusAndFields() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let token = try fixture.library.accounts.createAPIToken(name: "test").token
            let page = try Fixtures.bytes("clean.png")
            try await fixture.server.application().test(.router) { client in
                let spec = try Self.spec()
                let paths = try #require(spec["paths"] as? [String: [String: [String: Any]]])
                let schemas = try #require((spec["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
                let shared = try #require((spec["components"] as? [String: Any])?["responses"] as? [String: [String: Any]])
                func call(_ method: HTTPRequest.Method, _ uri: String, _ path: String, body: ByteBuffer? = nil) async throws -> [String: Any]? {
                    let response = try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer \(token)"], body: body)
                    let operation = try #require(paths[path]?[method.rawValue.lowercased()], "\(method) \(path) is not described")
                    let responses = try #require(operation["responses"] as? [String: [String: Any]])
                    var described = try #require(responses[String(response.status.code)], "\(method) \(uri): \(response.status) is not described")
                    if let name = (described["$ref"] as? String)?.split(separator: "/").last { described = try #require(shared[String(name)]) }
                    guard let reference = ((described["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                        as? [String: String], let name = reference["$ref"]?.split(separator: "/").last else { return nil }
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    let schema = schemas[String(name)] ?? [:]
                    let required = schema["required"] as? [String] ?? []
                    for field in required { #expect(object[field] != nil, "\(method) \(uri): \(field) missing") }
                    if schema["additionalProperties"] as? Bool == false, let properties = schema["properties"] as? [String: Any] {
                        let extra = Set(object.keys).subtracting(properties.keys)
                        #expect(extra.isEmpty, "\(method) \(uri): \(extra) not described")
                    }
                    #expect(!object.values.contains { $0 is NSNull }, "\(method) \(uri): a field is null")
                    #expect(!response.text.contains(dir.path), "\(method) \(uri) names a path on the server")
                    return object
                }
                _ = try await call(.get, "/api/v1/documents?type=epikrise&limit=5", "/api/v1/documents")
                _ = try await call(.get, "/api/v1/documents?from=2024-3-5", "/api/v1/documents")
                _ = try await call(.get, "/api/v1/search?q=kne", "/api/v1/search")
                _ = try await call(.get, "/api/v1/search?q=", "/api/v1/search")
                _ = try await call(.get, "/api/v1/documents/b2b2b2b2b2", "/api/v1/documents/{id}")
                _ = try await call(.get, "/api/v1/documents/ffffffffff", "/api/v1/documents/{id}")
                let upload = try #require(try await call(.post, "/api/v1/uploads", "/api/v1/uploads"))
                let id = try #require(upload["id"] as? String)
                _ = try await call(.put, "/api/v1/uploads/\(id)/pages/1", "/api/v1/uploads/{id}/pages/{number}",
                                   body: ByteBuffer(string: "ikke et bilde"))
                _ = try await call(.put, "/api/v1/uploads/\(id)/pages/1", "/api/v1/uploads/{id}/pages/{number}", body: ByteBuffer(bytes: page))
                _ = try await call(.get, "/api/v1/uploads/\(id)", "/api/v1/uploads/{id}")
                _ = try await call(.post, "/api/v1/uploads/\(id)/done", "/api/v1/uploads/{id}/done")
                _ = try await call(.post, "/api/v1/uploads/\(id)/done", "/api/v1/uploads/{id}/done")

                // Corrections, the trash, the household and the queue.
                let corrected = try #require(try await call(.patch, "/api/v1/documents/a1a1a1a1a1", "/api/v1/documents/{id}",
                                                            body: ByteBuffer(string: #"{"person": "Kari Nordmann", "type": "henvisning", "reviewed": true}"#)))
                #expect(corrected["familyMember"] as? String == "Kari Nordmann" && corrected["docType"] as? String == "henvisning")
                #expect(try fixture.library.documents.count(DocumentFilter(waitingForReview: true)) == 0)
                _ = try await call(.patch, "/api/v1/documents/a1a1a1a1a1", "/api/v1/documents/{id}", body: ByteBuffer(string: #"{"date": "15.03.2024"}"#))
                _ = try await call(.patch, "/api/v1/documents/a1a1a1a1a1", "/api/v1/documents/{id}", body: ByteBuffer(string: "ikke json"))
                let trashed = try #require(try await call(.post, "/api/v1/documents/b2b2b2b2b2/trash", "/api/v1/documents/{id}/trash"))
                #expect(trashed["trashedAt"] as? String != nil)
                let back = try #require(try await call(.post, "/api/v1/documents/b2b2b2b2b2/restore", "/api/v1/documents/{id}/restore"))
                #expect(back["trashedAt"] == nil)
                _ = try await call(.post, "/api/v1/family", "/api/v1/family", body: ByteBuffer(string: #"{"name": "Per", "fodselsnummer": "12345678901"}"#))
                let added = try #require(try await call(.post, "/api/v1/family", "/api/v1/family",
                                                        body: ByteBuffer(string: #"{"name": "Ingrid Haugseth", "fodselsnummer": "\#(WebFixture.number)"}"#)))
                #expect(added["maskedFnr"] as? String == "170972 •••••")
                let members = try await client.execute(uri: "/api/v1/family", method: .get, headers: [.authorization: "Bearer \(token)"])
                #expect(members.status == .ok && !members.text.contains(WebFixture.number) && members.text.contains("Ingrid Haugseth"))
                let memberID = try #require(added["id"] as? Int)
                _ = try await call(.delete, "/api/v1/family/\(memberID)", "/api/v1/family/{member}")
                _ = try await call(.delete, "/api/v1/family/\(memberID)", "/api/v1/family/{member}")
                let queue = try await client.execute(uri: "/api/v1/queue", method: .get, headers: [.authorization: "Bearer \(token)"])
                #expect(queue.status == .ok && queue.text == "[]")
                _ = try await call(.post, "/api/v1/queue/999/retry", "/api/v1/queue/{job}/retry")
            }
        }
    }

    /// What earlier runs of Schemathesis found, each answered as the description says.
    @Test func theAPIKeepsToItsDescription() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let token = try fixture.library.accounts.createAPIToken(name: "test").token
            try await fixture.server.application().test(.router) { client in
                let auth: HTTPFields = [.authorization: "Bearer \(token)"]
                func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil,
                          headers: HTTPFields? = nil) async throws -> (status: Int, json: [String: Any], response: TestResponse) {
                    var fields = headers ?? auth
                    if body != nil { fields[.contentType] = "application/json" }
                    let response = try await client.execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
                    let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
                    return (Int(response.status.code), json, response)
                }

                // The scheme's name in any case; no token, or a wrong one: 401 in JSON, with WWW-Authenticate.
                #expect(try await send(.get, "/api/v1/documents", headers: [.authorization: "bearer \(token)"]).status == 200)
                #expect(try await send(.get, "/api/v1/documents", headers: [.authorization: "BEARER \(token)"]).status == 200)
                for headers: HTTPFields in [[:], [.authorization: "Bearer ark_feil"], [.authorization: "Basic YTpi"]] {
                    let refused = try await send(.get, "/api/v1/documents", headers: headers)
                    #expect(refused.status == 401 && refused.json["error"] as? String == "unauthorized")
                    #expect(refused.response.headers[.contentType]?.hasPrefix("application/json") == true)
                    #expect(refused.response.headers[.wwwAuthenticate] == "Bearer")
                }

                // A method a path does not take: 405 in JSON with Allow, for any method.
                for (method, uri, allowed) in [(HTTPRequest.Method.trace, "/api/v1/documents", "GET"),
                                               (.options, "/api/v1/documents/a1a1a1a1a1", "GET, PATCH"),
                                               (.delete, "/api/v1/documents/a1a1a1a1a1", "GET, PATCH"),
                                               (.put, "/api/v1/family", "GET, POST")] {
                    let answer = try await send(method, uri)
                    #expect(answer.status == 405 && answer.response.headers[.allow] == allowed, "\(method) \(uri)")
                    #expect(answer.json["error"] as? String == "methodNotAllowed")
                }

                // An empty correction changes nothing; null is not a value; fields are as strict as described.
                let before = try await send(.get, "/api/v1/documents/a1a1a1a1a1")
                let unchanged = try await send(.patch, "/api/v1/documents/a1a1a1a1a1", "{}")
                #expect(unchanged.status == 200 && unchanged.json["title"] as? String == before.json["title"] as? String)
                #expect(unchanged.json["updatedAt"] as? String == before.json["updatedAt"] as? String)
                for body in [#"{"title": null}"#, #"{"type": "Epikrise"}"#, #"{"date": "1899-12-31"}"#, #"{"title": " \t"}"#,
                             #"{"reviewed": "true"}"#, #"{"keywords": [null]}"#, "[]", ""] {
                    let refused = try await send(.patch, "/api/v1/documents/a1a1a1a1a1", body)
                    #expect(refused.status == 400 && refused.json["error"] != nil, "\(body)")
                }
                for query in ["type=Epikrise", "type=", "from=", "from=%202024-01-01", "to=2024-1-5", "limit=%2B5", "limit=", "offset=-1"] {
                    #expect(try await send(.get, "/api/v1/documents?\(query)").status == 400, "\(query)")
                }
                #expect(try await send(.get, "/api/v1/documents?person=&institution=").status == 200)

                // Nothing searchable finds nothing and says why; no query at all is a bad request.
                let nothing = try await send(.get, "/api/v1/search?q=%21%21")
                #expect(nothing.status == 200 && nothing.json["total"] as? Int == 0 && (nothing.json["notes"] as? [String])?.count == 1)
                #expect(try await send(.get, "/api/v1/search").status == 400)

                // Trashing is an action: the document stays readable, and is restored.
                let trashed = try await send(.post, "/api/v1/documents/a1a1a1a1a1/trash")
                #expect(trashed.status == 200 && trashed.json["trashedAt"] != nil)
                #expect(try await send(.get, "/api/v1/documents/a1a1a1a1a1").json["trashedAt"] != nil)
                #expect(try await send(.patch, "/api/v1/documents/a1a1a1a1a1", #"{"title": "Ny"}"#).status == 409)
                #expect(try await send(.post, "/api/v1/documents/a1a1a1a1a1/restore").json["trashedAt"] == nil)

                // The household: a name taken is a conflict; well-formed data no person has is 422.
                #expect(try await send(.post, "/api/v1/family", #"{"name": "Kari Nordmann"}"#).status == 409)
                #expect(try await send(.post, "/api/v1/family", #"{"name": "Kari  Nordmann"}"#).json["error"] as? String == "duplicateName")
                for body in [#"{"name": "Per", "fodselsnummer": "12345678901"}"#, #"{"name": "Per", "birthDate": "2099-01-01"}"#,
                             #"{"name": "Per", "birthDate": "1972-09-18", "fodselsnummer": "\#(WebFixture.number)"}"#] {
                    #expect(try await send(.post, "/api/v1/family", body).status == 422, "\(body)")
                }
                for body in [#"{"name": "123"}"#, #"{"name": "Per\u0000"}"#, #"{"name": null}"#, #"{"name": "Per", "birthDate": null}"#,
                             #"{"name": "Per", "birthDate": "1849-12-31"}"#, #"{"name": "Per", "fodselsnummer": "170972 43859"}"#,
                             #"{"name": "\#(String(repeating: "a", count: 101))"}"#] {
                    #expect(try await send(.post, "/api/v1/family", body).status == 400, "\(body)")
                }
                let added = try await send(.post, "/api/v1/family", #"{"name": "Åse Ŋilla-O’Brien", "birthDate": "1850-01-01"}"#)
                #expect(added.status == 201 && added.json["birthDate"] as? String == "1850-01-01")

                // An upload with no pages cannot be handed over yet: a conflict, in JSON.
                let upload = try await send(.post, "/api/v1/uploads")
                let id = try #require(upload.json["id"] as? String)
                let early = try await send(.post, "/api/v1/uploads/\(id)/done")
                #expect(early.status == 409 && early.json["error"] as? String == "noPages")
            }
        }
    }

    /// A job's failure is told without a path on the server.
    @Test func uploadJobsNameNoPathOnTheServer() throws {
        let json = #"""
            {"id": 3, "documentNumber": 1, "documentID": "a1a1a1a1a1", "title": "Brev", "destination": "folder:/media/kopi/Arkiv",
             "state": "error", "attempts": 6, "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z", "trashed": false,
             "lastError": "Mappen /media/kopi/Arkiv finnes ikke nå. Filen /srv/bibliotek/Arkiv/Kari/Dokumenter/Brev.docx mangler; /tmp/x også."}
            """#
        let job = try JSONDecoder().decode(UploadJob.self, from: Data(json.utf8))
        let answer = APIJob(job, hiding: ["/srv/bibliotek", "/srv/bibliotek/Arkiv"])
        #expect(answer.destinationKind == "folder")
        #expect(answer.lastError == "Mappen … finnes ikke nå. Filen Kari/Dokumenter/Brev.docx mangler; … også.")
        #expect(ServerPaths.hidden(in: "/srv/Arkiv/Kari/Brev.docx finnes allerede. Bruk folder:/x, ja/nei eller https://sky.no/dav.")
                == "… finnes allerede. Bruk folder:/x, ja/nei eller https://sky.no/dav.")
    }
}
