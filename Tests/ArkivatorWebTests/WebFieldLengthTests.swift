import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// A value longer than its field may hold, from the edit form and the API: 400 with the plain
/// sentence of ``FieldTooLong``, and nothing changed.
@Suite(.serialized) struct WebFieldLengthTests {
    @Test func anOverlongTitleIsRefusedWithWordsFromTheFormAndTheAPI() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let id = try #require(try fixture.library.documents.list(DocumentFilter(), limit: 10).first?.id)
            let before = try fixture.library.documents.document(id)
            try await fixture.signedIn { client, browser in
                let long = String(repeating: "Epikrise+", count: 400)
                let form = try await client.execute(uri: "/documents/\(id)/edit", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)&title=\(long)"))
                #expect(form.status == .badRequest)
                #expect(form.text.contains("Feltet «Tittel» har for mange tegn (3&#160;600); høyst 300 tegn kan lagres.")
                        || form.text.contains("Feltet «Tittel» har for mange tegn"), "\(form.text.prefix(300))")
                let api = try await client.execute(uri: "/api/v1/documents/\(id)", method: .patch, headers: browser.script,
                                                   body: ByteBuffer(string: "{\"title\": \"Ny tittel\", \"text\": \"\(String(repeating: "a", count: 1_000))\", \"institution\": \"\(String(repeating: "b", count: 201))\"}"))
                #expect(api.status == .badRequest)
                let answer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any])
                #expect(answer["error"] as? String == "tooLong")
                #expect((answer["message"] as? String)?.contains("«Avsender»") == true)
            }
            let after = try fixture.library.documents.document(id)
            #expect(after.title == before.title && after.institution == before.institution && after.text == before.text)
        }
    }
}
