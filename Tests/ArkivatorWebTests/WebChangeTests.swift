import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Review, corrections, delete with undo and the trash, as a person does them in the browser;
/// the files follow as with `arkivator edit`.
@Suite struct WebChangeTests {
    @Test func reviewCorrectsThePersonAndMovesTheFiles() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let review = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                #expect(review.text.contains("1 venter") && review.text.contains("Innkalling Ortopedisk poliklinikk"))
                #expect(review.text.contains("Lagre og neste") && review.text.contains("usikker"))
                #expect(review.text.contains("40 %") && review.text.contains("93 %"), "the rules' confidence per field")
                #expect(review.text.contains("<option value=\"Kari Nordmann\">Kari Nordmann</option>"), "the household to choose from")
                #expect(review.text.contains("til <mark class=\"low\">tim</mark>e") || review.text.contains("<mark class=\"low\">"))
                let before = try fixture.library.documents.document("a1a1a1a1a1").files.map(\.path)
                #expect(before.allSatisfy { $0.contains("/Ukjent person/") })

                let saved = try await client.execute(uri: "/review/a1a1a1a1a1", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&person=Kari+Nordmann&type=innkalling"
                                                                      + "&date=2024-03-15&title=2024-03-15+Innkalling+Ortopedisk+poliklinikk"
                                                                      + "&institution=Vestvik+sykehus"))
                #expect(saved.status == .seeOther && saved.headers[.location] == "/review")
                let after = try fixture.library.documents.document("a1a1a1a1a1")
                #expect(after.familyMember == "Kari Nordmann")
                #expect(after.files.allSatisfy { $0.path.contains("/Kari Nordmann/") && FileManager.default.fileExists(atPath: $0.path) })
                for path in before { #expect(!FileManager.default.fileExists(atPath: path), "left behind: \(path)") }
                let empty = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                #expect(empty.text.contains("Ingenting venter"))
                let bad = try await client.execute(uri: "/review/a1a1a1a1a1", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&date=31.02.2024"))
                #expect(bad.status == .badRequest && bad.text.contains("05.03.2024"), "a day that does not exist, and how to write one")
                let typed = try await client.execute(uri: "/documents/a1a1a1a1a1/edit", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&date=16.03.2024"))
                #expect(typed.status == .seeOther)
                #expect(try fixture.library.documents.document("a1a1a1a1a1").documentDate == "2024-03-16", "a day typed as a Norwegian writes it")
            }
        }
    }

    @Test func controlCharactersAndTurningMarksNeverReachAField() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                // ESC [31m (red), BEL, a line break and U+202E (right-to-left override) typed into the fields.
                let typed = "Epikrise%1B%5B31m+r%C3%B8d%07+linje%0Ato+%E2%80%AEsnudd"
                let edited = try await client.execute(uri: "/documents/b2b2b2b2b2/edit", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)&title=\(typed)&institution=\(typed)"))
                #expect(edited.status == .seeOther)
                let document = try fixture.library.documents.document("b2b2b2b2b2")
                for field in [document.title, document.institution ?? ""] {
                    #expect(!field.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isBidiControl }, "\(field.debugDescription)")
                    #expect(field.hasSuffix("Epikrise [31m rød linje to snudd"), "\(field.debugDescription)")
                }
                for path in ["/", "/documents/b2b2b2b2b2"] {
                    let page = try await client.execute(uri: path, method: .get, headers: browser.headers)
                    #expect(!page.text.contains("\u{1B}") && !page.text.contains("\u{07}") && !page.text.contains("\u{202E}"), "\(path)")
                }
            }
        }
    }

    @Test func editDeleteUndoAndTheTrash() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let edited = try await client.execute(uri: "/documents/b2b2b2b2b2/edit", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)&date=2024-05-03&type=epikrise"
                                                                       + "&specialty=Kardiologi&keywords=brystsmerter%2C+hjerte"))
                #expect(edited.status == .seeOther)
                let document = try fixture.library.documents.document("b2b2b2b2b2")
                #expect(document.documentDate == "2024-05-03" && document.title.hasPrefix("2024-05-03 "))
                #expect(document.specialty == "Kardiologi" && document.keywords == ["brystsmerter", "hjerte"])
                let found = try await client.execute(uri: "/search?q=kardiologi", method: .get, headers: browser.headers)
                #expect(found.text.contains("/documents/b2b2b2b2b2"), "the index follows the correction")
                let shownPage = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(shownPage.text.contains("Skjul fødselsnummeret"))
                let redacted = try await client.execute(uri: "/documents/b2b2b2b2b2/redact", method: .post, headers: browser.form,
                                                        body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(redacted.status == .seeOther)
                let opened = try fixture.library.documents.document("b2b2b2b2b2", revealNumbers: true)
                #expect(!opened.text.contains(WebFixture.number) && opened.fodselsnummerCount == 0, "gone for good, not only masked")
                #expect(try await client.execute(uri: "/documents/b2b2b2b2b2/delete", method: .post, headers: browser.form,
                                                 body: ByteBuffer(string: "_csrf=feil")).status == .forbidden)

                let deleted = try await client.execute(uri: "/documents/b2b2b2b2b2/delete", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(deleted.status == .seeOther)
                let location = try #require(deleted.headers[.location])
                let list = try await client.execute(uri: location, method: .get, headers: browser.headers)
                #expect(list.text.contains("Slettet «2024-05-03 Epikrise Hjerteavdelingen»") && list.text.contains("Angre"))
                #expect(list.text.contains("1 dokument<"))
                let trash = try await client.execute(uri: "/trash", method: .get, headers: browser.headers)
                #expect(trash.text.contains("Epikrise Hjerteavdelingen") && trash.text.contains("Gjenopprett"))
                let undo = try await client.execute(uri: "/documents/b2b2b2b2b2/restore", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(undo.status == .seeOther)
                #expect(try fixture.library.documents.document("b2b2b2b2b2").trashedAt == nil)
                #expect(try fixture.library.documents.document("b2b2b2b2b2").files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
                let page = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(page.text.contains("Kopier tekst") && page.text.contains("/static/app.js"))
            }
        }
    }

    /// «Skjul fødselsnummeret» replaces the family's copy before the page says it is done.
    @Test func aRedactionReplacesTheFamilysCopyBeforeItIsDone() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let copy = dir.appendingPathComponent("Kopi")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try fixture.library.setSetting(.destination, "folder:\(copy.path)")
            try await fixture.signedIn { client, browser in
                let redacted = try await client.execute(uri: "/documents/b2b2b2b2b2/redact", method: .post, headers: browser.form,
                                                        body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(redacted.status == .seeOther)
                let location = try #require(redacted.headers[.location])
                #expect(location.contains("kopi=erstattet"), "\(location)")
                let page = try await client.execute(uri: location, method: .get, headers: browser.headers)
                #expect(page.text.contains("Kopien i det eksterne lageret er også erstattet."))
                let document = try fixture.library.documents.document("b2b2b2b2b2")
                let root = fixture.library.defaultArchiveRoot.standardizedFileURL.path + "/"
                for file in document.files {
                    let copied = copy.appendingPathComponent(String(URL(fileURLWithPath: file.path).standardizedFileURL.path.dropFirst(root.count)))
                    #expect(FileManager.default.contents(atPath: copied.path) == FileManager.default.contents(atPath: file.path),
                            "the copy holds the redacted file: \(copied.path)")
                }
                #expect(try fixture.library.uploads.copyStatus(ofDocument: document.number) == .copied)
            }
        }
    }
}
