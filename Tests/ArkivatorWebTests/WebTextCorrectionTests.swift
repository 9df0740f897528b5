import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// "Rett teksten" on the document page and in review, and `text` in the API's corrections: the
/// text as the page shows it (its number masked) posted back keeps the number; search follows;
/// the versions are listed and the OCR's reading comes back.
@Suite struct WebTextCorrectionTests {
    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return ByteBuffer(string: fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&"))
    }

    @Test func theTextIsCorrectedKeptAsAVersionAndBroughtBack() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(page.text.contains("Rett teksten") && page.text.contains("<textarea id=\"side1\" name=\"side1\""))
                #expect(page.text.components(separatedBy: "id=\"tekst\"").count == 2, "one place on the page is #tekst: the editor")
                #expect(page.text.contains("170972 •••••") && !page.text.contains(WebFixture.number), "the number masked in the editor")
                #expect(page.text.contains("Et skjult fødselsnummer (•••••) kan stå som det står"))
                #expect(page.text.contains("&lt;script&gt;") && !page.text.contains("<script>alert"), "escaped")
                #expect(!page.text.contains("Hent tilbake OCR-lesningen"), "nothing to bring back yet")

                let shown = try fixture.library.documents.document("b2b2b2b2b2").text
                let posted = shown.replacingOccurrences(of: "brystsmerter", with: "brystsmerter og feber").replacingOccurrences(of: "\n", with: "\r\n")
                #expect(try await client.execute(uri: "/documents/b2b2b2b2b2/text", method: .post, headers: browser.form,
                                                 body: Self.form([("_csrf", "feil"), ("pages", "1"), ("side1", posted)])).status == .forbidden)
                let saved = try await client.execute(uri: "/documents/b2b2b2b2b2/text", method: .post, headers: browser.form,
                                                     body: Self.form([("_csrf", browser.csrf), ("pages", "1"), ("side1", posted)]))
                #expect(saved.status == .seeOther && saved.headers[.location] == "/documents/b2b2b2b2b2?tekst=lagret#tekst")
                let revealed = try fixture.library.documents.document("b2b2b2b2b2", revealNumbers: true).text
                #expect(revealed.contains("brystsmerter og feber") && revealed.contains(WebFixture.number), "the number kept: \(revealed)")
                let found = try await client.execute(uri: "/search?q=feber", method: .get, headers: browser.headers)
                #expect(found.text.contains("/documents/b2b2b2b2b2"))

                let after = try await client.execute(uri: "/documents/b2b2b2b2b2?tekst=lagret", method: .get, headers: browser.headers)
                #expect(after.text.contains("Teksten er lagret") && after.text.contains("<details class=\"text-editor\" id=\"tekst\" open>"))
                #expect(after.text.contains("Rettet: + «og feber»") && after.text.contains("Slik maskinen leste brevet"), "the versions")
                let back = try await client.execute(uri: "/documents/b2b2b2b2b2/text/ocr", method: .post, headers: browser.form,
                                                    body: Self.form([("_csrf", browser.csrf)]))
                #expect(back.headers[.location] == "/documents/b2b2b2b2b2?tekst=ocr#tekst")
                #expect(try fixture.library.documents.document("b2b2b2b2b2").text == shown)
                let gone = try await client.execute(uri: "/search?q=feber", method: .get, headers: browser.headers)
                #expect(!gone.text.contains("/documents/b2b2b2b2b2"))

                // In review, saving comes back to review; the API takes the text too.
                let review = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                #expect(review.text.contains("<input type=\"hidden\" name=\"back\" value=\"review\">"))
                #expect(review.text.contains("<p id=\"low-words\">Ord maskinen var usikker på") && review.text.contains("aria-describedby=\"low-words\""))
                let fromReview = try await client.execute(uri: "/documents/a1a1a1a1a1/text", method: .post, headers: browser.form,
                    body: Self.form([("_csrf", browser.csrf), ("pages", "1"), ("back", "review"),
                                     ("side1", "Innkalling til time ved Ortopedisk poliklinikk.\nDu har fått time til MR av høyre kne.")]))
                #expect(fromReview.headers[.location] == "/review?tekst=lagret#tekst")
                let token = try fixture.library.accounts.createAPIToken(name: "test").token
                let api = try await client.execute(uri: "/api/v1/documents/a1a1a1a1a1", method: .patch,
                                                   headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"text": "Innkalling til time.\nMøt opp i resepsjonen."}"#))
                #expect(api.status == .ok && api.text.contains("resepsjonen"))
                #expect(try fixture.library.documents.textVersions("a1a1a1a1a1").map(\.kind) == [.ocr, .corrected, .corrected])
            }
        }
    }
}
