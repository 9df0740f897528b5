import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The review page says why each letter waits, and "Hopp over" moves on and brings the skipped
/// letter back after the others.
@Suite struct WebReviewTests {
    @Test func reviewSaysWhyAndSkipsToTheNextAndBack() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            // A photo in which nothing could be read: newest, so first in the queue.
            _ = try fixture.library.documents.file(LibraryDocument(sha256: String(repeating: "c3", count: 32), sourceName: "foto.jpg",
                                                         title: "2024-06-01 Skannet dokument foto", docType: .annet,
                                                         documentDate: "2024-06-01", scanDate: "2024-06-01", text: "")) { _ in [] }
            try await fixture.signedIn { client, browser in
                let first = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                #expect(first.text.contains("2 venter") && first.text.contains("Skannet dokument foto"))
                #expect(first.text.contains("Ingen tekst funnet — skriv inn selv eller ta bildet på nytt"))
                #expect(first.text.contains("href=\"/documents/c3c3c3c3c3#tekst\"") && first.text.contains("href=\"/upload\""))
                #expect(first.text.contains("Ingen i husstanden passet til brevet"))
                #expect(first.text.contains("formaction=\"/review/c3c3c3c3c3/skip\"") && first.text.contains("Hopp over"))

                let skipped = try await client.execute(uri: "/review/c3c3c3c3c3/skip", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)&title=x"))
                #expect(skipped.status == .seeOther && skipped.headers[.location] == "/review?hoppet=c3c3c3c3c3")
                #expect(try fixture.library.documents.count(DocumentFilter(waitingForReview: true)) == 2, "a skipped letter still waits")
                let second = try await client.execute(uri: "/review?hoppet=c3c3c3c3c3", method: .get, headers: browser.headers)
                #expect(second.text.contains("2 venter, 1 hoppet over") && second.text.contains("Innkalling Ortopedisk poliklinikk"))
                #expect(second.text.contains("Hvorfor brevet venter") && second.text.contains("Ingen i husstanden passet til brevet"))
                #expect(second.text.contains("Sjekk disse") && second.text.contains("class=\"check-words\""), "the words to check")
                #expect(second.text.contains("name=\"hoppet\" value=\"c3c3c3c3c3\""), "the skips go on with the form")
                #expect(!second.text.contains("Ingen tekst funnet"))

                // Every letter skipped: the round starts again from the first.
                let again = try await client.execute(uri: "/review?hoppet=c3c3c3c3c3,a1a1a1a1a1", method: .get, headers: browser.headers)
                #expect(again.text.contains("Skannet dokument foto") && again.text.contains("2 venter<"))

                let saved = try await client.execute(uri: "/review/a1a1a1a1a1", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&hoppet=c3c3c3c3c3&person=Kari+Nordmann"))
                #expect(saved.status == .seeOther && saved.headers[.location] == "/review?hoppet=c3c3c3c3c3")
                let last = try await client.execute(uri: "/review?hoppet=c3c3c3c3c3", method: .get, headers: browser.headers)
                #expect(last.text.contains("1 venter<") && last.text.contains("Skannet dokument foto"), "the skipped letter comes back")
            }
        }
    }

    /// A letter that names a household member but was filed to no one (it came before the member
    /// was added) shows the member's name chosen in review; saving it files it to the member.
    @Test func savingTheNameShownFilesTheLetterToTheMember() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let document = LibraryDocument(sha256: String(repeating: "e5", count: 32), sourceName: "brev.jpg", title: "2024-06-01 Prøvesvar",
                                           docType: .labSvar, person: "Ola Nordmann", familyMember: nil, documentDate: "2024-06-01",
                                           needsReview: ["person"], text: "Pasient: Ola Nordmann")
            try fixture.library.documents.record([document])
            try await fixture.signedIn { client, browser in
                let page = try await client.execute(uri: "/documents/e5e5e5e5e5", method: .get, headers: browser.headers)
                #expect(page.text.contains("<option value=\"Ola Nordmann\" selected>"), "the printed name is the member's, chosen")
                let saved = try await client.execute(uri: "/review/e5e5e5e5e5", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&person=Ola+Nordmann&type=lab-svar"))
                #expect(saved.status == .seeOther)
            }
            #expect(try fixture.library.documents.document("e5e5e5e5e5").familyMember == "Ola Nordmann")
        }
    }
}
