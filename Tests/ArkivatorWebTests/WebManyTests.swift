import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Many letters at once: chosen in the library or a search, filed to a person, given a type,
/// moved to the trash or shared, in one step; «Angre» puts every one back as it was.
@Suite struct WebManyTests {
    @Test func fiftyLettersFiledToAPersonInOneStepAndUndone() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            var made: [String] = []
            for number in 0..<50 {
                let sha = String(format: "%02x", number + 16) + String(repeating: "e", count: 62)
                try fixture.file(sha: sha, title: String(format: "2023-05-%02d Brev nummer %d", number % 28 + 1, number), type: .annet,
                                 person: nil, date: String(format: "2023-05-%02d", number % 28 + 1), text: "Brev \(number) om hjemmetjenester")
                made.append(sha)
            }
            let ids = made
            try await fixture.signedIn { client, owner in
                let library = try await client.execute(uri: "/?side=1", method: .get, headers: owner.headers)
                #expect(library.text.contains("<form id=\"valgte\" method=\"post\" action=\"/brev/valgte\""))
                #expect(library.text.components(separatedBy: "class=\"pick\"").count - 1 == 50, "a box before each letter of the page")
                let all = try await client.execute(uri: "/?alle=1", method: .get, headers: owner.headers)
                #expect(all.text.components(separatedBy: "form=\"valgte\" aria-label=\"Velg ").count - 1 == 50)
                #expect(all.text.components(separatedBy: " checked>").count - 1 >= 50, "«Velg alle på siden» without script")

                let chosen = ids.map { "id=\($0.prefix(10))" }.joined(separator: "&")
                let filed = try await client.execute(uri: "/brev/valgte", method: .post, headers: owner.form, body: ByteBuffer(string:
                    "_csrf=\(owner.csrf)&\(chosen)&handling=person&person=Kari+Nordmann&tilbake=%2F%3Fperson%3Dukjent"))
                #expect(filed.status == .seeOther)
                let back = try #require(filed.headers[.location])
                #expect(back.hasPrefix("/?person=ukjent&gjort="), "\(back)")
                for id in ids {
                    let document = try fixture.library.documents.document(id)
                    #expect(document.familyMember == "Kari Nordmann" && document.files.allSatisfy { $0.path.contains("/Kari Nordmann/") })
                }
                let told = try await client.execute(uri: back, method: .get, headers: owner.headers)
                #expect(told.text.contains("La 50 brev til Kari Nordmann.") && told.text.contains("action=\"/brev/valgte/angre\""))
                let token = try #require(told.text.components(separatedBy: "name=\"token\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
                let undone = try await client.execute(uri: "/brev/valgte/angre", method: .post, headers: owner.form,
                                                      body: ByteBuffer(string: "_csrf=\(owner.csrf)&token=\(token)&tilbake=%2F"))
                #expect(undone.status == .seeOther && undone.headers[.location] == "/?angret=50")
                for id in ids {
                    let document = try fixture.library.documents.document(id)
                    #expect(document.familyMember == nil && document.person == nil && document.files.allSatisfy { $0.path.contains("/Ukjent person/") })
                }
                let again = try await client.execute(uri: "/brev/valgte/angre", method: .post, headers: owner.form,
                                                     body: ByteBuffer(string: "_csrf=\(owner.csrf)&token=\(token)&tilbake=%2F"))
                #expect(again.headers[.location] == "/?angret=0", "an undo works once")
                #expect(try fixture.library.audit.entries(limit: 500).filter { $0.action == .letterChanged && $0.detail == "flere på en gang" }.count == 50)
            }
        }
    }

    @Test func typeTrashShareAndWhatIsRefused() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, owner in
                func post(_ body: String) async throws -> TestResponse {
                    try await client.execute(uri: "/brev/valgte", method: .post, headers: owner.form, body: ByteBuffer(string: "_csrf=\(owner.csrf)&\(body)"))
                }
                let typed = try await post("id=a1a1a1a1a1&id=b2b2b2b2b2&handling=type&type=vedtak&tilbake=%2Fsearch%3Fq%3Dbrev")
                #expect(typed.headers[.location]?.hasPrefix("/search?q=brev&gjort=") == true)
                #expect(try fixture.library.documents.document("a1a1a1a1a1").docType == .vedtak)
                #expect(try fixture.library.documents.document("b2b2b2b2b2").title.contains("Vedtak"), "the title follows the type")
                let trashed = try await post("id=a1a1a1a1a1&id=b2b2b2b2b2&handling=trash&tilbake=%2F")
                #expect(try fixture.library.documents.document("b2b2b2b2b2").trashedAt != nil)
                let told = try await client.execute(uri: try #require(trashed.headers[.location]), method: .get, headers: owner.headers)
                #expect(told.text.contains("Flyttet 2 brev til papirkurven."))
                let token = try #require(told.text.components(separatedBy: "name=\"token\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
                _ = try await client.execute(uri: "/brev/valgte/angre", method: .post, headers: owner.form,
                                             body: ByteBuffer(string: "_csrf=\(owner.csrf)&token=\(token)"))
                #expect(try fixture.library.documents.document("b2b2b2b2b2").trashedAt == nil, "back from the trash")
                #expect(try fixture.library.documents.document("b2b2b2b2b2").docType == .vedtak, "only the last change is undone")

                let shared = try await post("id=a1a1a1a1a1&id=b2b2b2b2b2&handling=share")
                #expect(shared.headers[.location] == "/del/ny?id=a1a1a1a1a1&id=b2b2b2b2b2")
                let none = try await post("handling=trash&tilbake=%2F%2Fandre.no%2F")
                #expect(none.headers[.location] == "/?valgt=0", "no letters chosen, and never back to another site")
                let said = try await client.execute(uri: "/?valgt=0", method: .get, headers: owner.headers)
                #expect(said.text.contains("Du valgte ingen brev"))
                #expect(try await post("id=a1a1a1a1a1&handling=person&person=Per").status == .badRequest, "only a household member")

                // An account neither sees the boxes nor may use them.
                let mormor = try await WebAccountTests.join(client, try await WebAccountTests.invite(client, owner: owner, role: "family"))
                let page = try await client.execute(uri: "/", method: .get, headers: mormor.headers)
                #expect(!page.text.contains("class=\"pick\"") && !page.text.contains("/brev/valgte"))
                let refused = try await client.execute(uri: "/brev/valgte", method: .post, headers: mormor.form,
                                                       body: ByteBuffer(string: "_csrf=\(mormor.csrf)&id=c3c3c3c3c3&handling=trash"))
                #expect(refused.status == .forbidden)
            }
        }
    }

    @Test func aSearchIsSavedOnTheLibraryPageAndRemoved() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, owner in
                let search = try await client.execute(uri: "/search?q=epikrise&person=Ola+Nordmann", method: .get, headers: owner.headers)
                #expect(search.text.contains("action=\"/sok/lagre\"") && search.text.contains("value=\"epikrise, Ola Nordmann\""))
                let plain = try await client.execute(uri: "/", method: .get, headers: owner.headers)
                #expect(!plain.text.contains("action=\"/sok/lagre\""), "the whole library is no search to keep")
                let saved = try await client.execute(uri: "/sok/lagre", method: .post, headers: owner.form, body: ByteBuffer(string:
                    "_csrf=\(owner.csrf)&navn=Olas+epikriser%1B&tilbake=%2Fsearch%3Fq%3Depikrise%26person%3DOla%2BNordmann%26gjort%3Dx"))
                #expect(saved.headers[.location] == "/search?q=epikrise&person=Ola%20Nordmann&lagret-sok=1", "\(saved.headers[.location] ?? "")")
                let kept = try fixture.library.savedSearches()
                #expect(kept.map(\.name) == ["Olas epikriser "] || kept.map(\.name) == ["Olas epikriser"])
                #expect(kept.first?.address == "/search?q=epikrise&person=Ola%20Nordmann")
                let library = try await client.execute(uri: "/", method: .get, headers: owner.headers)
                #expect(library.text.contains("Lagrede søk") && library.text.contains("href=\"/search?q=epikrise&amp;person=Ola%20Nordmann\""))
                let id = try #require(kept.first?.id)
                let removed = try await client.execute(uri: "/sok/\(id)/slett", method: .post, headers: owner.form,
                                                       body: ByteBuffer(string: "_csrf=\(owner.csrf)&tilbake=%2F"))
                #expect(removed.status == .seeOther)
                #expect(try fixture.library.savedSearches().isEmpty)
                let elsewhere = try await client.execute(uri: "/sok/lagre", method: .post, headers: owner.form,
                                                         body: ByteBuffer(string: "_csrf=\(owner.csrf)&navn=x&tilbake=https%3A%2F%2Fandre.no%2F"))
                #expect(elsewhere.headers[.location] == "/")
                #expect(try fixture.library.savedSearches().isEmpty, "never another site's address")
            }
        }
    }
}
