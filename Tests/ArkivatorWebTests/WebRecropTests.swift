import ArkivatorArchive
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

/// The photo as taken over real HTTP: downloaded as it came, shown for moving its corners, and
/// the page read again from it when "Bruk" is pressed; corners that make no sheet are refused
/// on the page in words.
@Suite struct WebRecropTests {
    @Test func thePhotoAsTakenIsDownloadedShownAndThePageReadAgain() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let photo = try Fixtures.bytes("photo2.jpg")
            let sha = String(repeating: "c3", count: 32), title = "2025-08-15 Brev Eikelund legekontor"
            var document = LibraryDocument(sha256: sha, sourceName: "IMG_2001.JPG", title: title, docType: .annet,
                                           documentDate: "2025-08-15", text: "Et brev som ble beskåret feil",
                                           pages: [.init(number: 1, ocrConfidence: 0.5, width: 10, height: 10, original: 1,
                                                         originalPage: 1, crop: .whole(width: 2304, height: 3072))])
            document.pageCount = 1
            let folder = fixture.library.defaultArchiveRoot.appendingPathComponent("Ukjent person")
            let docx = folder.appendingPathComponent("Dokumenter/\(title).docx"), image = folder.appendingPathComponent("Bilder/\(title).jpeg")
            _ = try fixture.library.documents.file(document, originals: [ReceivedOriginal(name: "IMG_2001.JPG", format: "jpeg", bytes: photo)]) {
                try $0.reserve([docx, image])
                for url in [docx, image] {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data("gammel".utf8).write(to: url)
                }
                return [ArchivedFile(kind: .docx, path: docx.path), ArchivedFile(kind: .image, page: 1, path: image.path)]
            }
            try await fixture.signedIn { client, browser in
                let id = ShortID.of(sha)
                let page = try await client.execute(uri: "/documents/\(id)", method: .get, headers: browser.headers)
                #expect(page.text.contains("Last ned bildet slik det ble tatt (JPEG)") && page.text.contains("/static/recrop.js"))
                #expect(page.text.contains("aria-label=\"Hjørne nederst til venstre\""))

                let download = try await client.execute(uri: "/documents/\(id)/originals/1", method: .get, headers: browser.headers)
                #expect(download.status == .ok && download.headers[.contentType] == "image/jpeg")
                #expect(Array(download.body.readableBytesView) == photo, "the photo byte for byte")
                #expect(download.headers[.contentDisposition]?.contains("IMG%5F2001%2EJPG") == true)
                let anonymous = try await client.execute(uri: "/documents/\(id)/originals/1", method: .get)
                #expect(anonymous.status != .ok, "sign-in required")
                let shown = try await client.execute(uri: "/documents/\(id)/pages/1/photo", method: .get, headers: browser.headers)
                #expect(shown.status == .ok && shown.headers[.contentType] == "image/jpeg" && Array(shown.body.readableBytesView).starts(with: [0xFF, 0xD8]))
                #expect(try await client.execute(uri: "/documents/\(id)/originals/2", method: .get, headers: browser.headers).status == .notFound)

                let crossed = try await client.execute(uri: "/documents/\(id)/pages/1/recrop", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)&x1=0&y1=0&x2=100&y2=100&x3=100&y3=0&x4=0&y4=100&turn=0"))
                #expect(crossed.status == .badRequest && crossed.text.contains("danner ikke et ark"), "\(crossed.status)")
                #expect(crossed.text.contains("class=\"text-editor\"") && crossed.text.contains("/static/recrop.js"),
                        "the document page shown again is the whole page, its text editor too")
                let applied = try await client.execute(uri: "/documents/\(id)/pages/1/recrop", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)&whole=1&turn=0"))
                #expect(applied.status == .seeOther && applied.headers[.location] == "/documents/\(id)?lagret=1")
                let after = try fixture.library.documents.document(id)
                #expect(after.text.contains("blodtrykk"), "the page read again from the photo: \(after.text.prefix(200))")
                #expect(after.pages.first?.crop?.source == .user && after.pages.first?.crop?.isWhole == true)
                #expect(try Data(contentsOf: try #require(after.files.images.first).url).starts(with: [0xFF, 0xD8]))
            }
        }
    }
}
