import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// `docs/openapi.json` describes exactly the API the server has, and the answers keep to it.
@Suite struct OpenAPITests {
    static func spec() throws -> [String: Any] {
        let url = Fixtures.root.appendingPathComponent("docs/openapi.json")
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

    @Test func answersHaveTheDescribedStatusAndFields() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let token = try fixture.library.createAPIToken(name: "test").token
            let page = try Fixtures.bytes("clean.png")
            try await fixture.server.application().test(.router) { client in
                let spec = try Self.spec()
                let paths = try #require(spec["paths"] as? [String: [String: [String: Any]]])
                let schemas = try #require((spec["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
                func call(_ method: HTTPRequest.Method, _ uri: String, _ path: String, body: ByteBuffer? = nil) async throws -> [String: Any]? {
                    let response = try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer \(token)"], body: body)
                    let operation = try #require(paths[path]?[method.rawValue.lowercased()], "\(method) \(path) is not described")
                    let responses = try #require(operation["responses"] as? [String: [String: Any]])
                    let described = try #require(responses[String(response.status.code)], "\(method) \(uri): \(response.status) is not described")
                    guard let reference = ((described["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                        as? [String: String], let name = reference["$ref"]?.split(separator: "/").last else { return nil }
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    let required = schemas[String(name)]?["required"] as? [String] ?? []
                    for field in required { #expect(object[field] != nil, "\(method) \(uri): \(field) missing") }
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
                #expect(try fixture.library.count(DocumentFilter(waitingForReview: true)) == 0)
                _ = try await call(.patch, "/api/v1/documents/a1a1a1a1a1", "/api/v1/documents/{id}", body: ByteBuffer(string: #"{"date": "15.03.2024"}"#))
                _ = try await call(.patch, "/api/v1/documents/a1a1a1a1a1", "/api/v1/documents/{id}", body: ByteBuffer(string: "ikke json"))
                let trashed = try #require(try await call(.delete, "/api/v1/documents/b2b2b2b2b2", "/api/v1/documents/{id}"))
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
}
