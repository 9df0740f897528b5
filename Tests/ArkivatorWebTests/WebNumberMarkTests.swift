import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A number OCR may have misread is outlined over the page image on the review and document
/// pages, in the page's own pixels (so the outline scales with the image), named in words.
@Suite struct WebNumberMarkTests {
    static let sha = String(repeating: "d4", count: 32)
    static let text = "Svar på blodprøver\nHemoglobin 1O,5 g/dL\nKreatinin 88 µmol/L"

    /// A lab letter with one number in doubt on its one page (2480 × 3508 pixels).
    static func fileLetter(_ fixture: WebFixture) throws {
        var document = LibraryDocument(sha256: sha, sourceName: "prøver.jpg", title: "2024-07-01 Prøvesvar blodprøver",
                                       docType: .labSvar, person: "Kari Nordmann", familyMember: "Kari Nordmann",
                                       institution: "Vestvik sykehus", documentDate: "2024-07-01", needsReview: ["numbers"],
                                       text: text, lowConfidence: [LibraryDocument.TextRange(start: 30, length: 4)],
                                       pages: [LibraryDocument.Page(number: 1, ocrConfidence: 0.8, width: 2480, height: 3508)])
        document.numberMarks = [NumberMark(page: 1, box: [620, 410, 160, 48], text: "1O,5", start: 30, length: 4)]
        let image = fixture.library.defaultArchiveRoot.appendingPathComponent("Kari Nordmann/Bilder/\(document.title).jpeg")
        _ = try fixture.library.documents.file(document) { reservation in
            try reservation.reserve([image])
            try FileManager.default.createDirectory(at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: image)
            return [ArchivedFile(kind: .image, page: 1, path: image.path)]
        }
    }

    @Test func theNumberInDoubtIsOutlinedOnTheReviewAndDocumentPages() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try Self.fileLetter(fixture)
            try await fixture.signedIn { client, browser in
                let review = try await client.execute(uri: "/review", method: .get, headers: browser.headers)
                let document = try await client.execute(uri: "/documents/d4d4d4d4d4", method: .get, headers: browser.headers)
                for page in [review.text, document.text] {
                    #expect(page.contains("Prøvesvar blodprøver"))
                    #expect(page.contains("<svg class=\"number-marks\" viewBox=\"0 0 2480 3508\""), "the page's own pixels")
                    // The box and a margin of two fifths of its height around it.
                    #expect(page.contains("<rect x=\"601\" y=\"391\" width=\"198\" height=\"86\"><title>1O,5 – Usikkert tall</title></rect>"))
                    #expect(page.contains("aria-label=\"Usikkert tall, markert med ramme på siden: 1O,5\""))
                    #expect(page.contains("<figcaption class=\"number-marks-caption\">Usikkert tall, markert med ramme på siden: 1O,5</figcaption>"))
                    #expect(!page.contains("style="), "no inline style: the Content-Security-Policy allows none")
                }

                // A letter without numbers in doubt shows its page as before.
                let plain = try await client.execute(uri: "/documents/a1a1a1a1a1", method: .get, headers: browser.headers)
                #expect(plain.text.contains("<img src=\"/documents/a1a1a1a1a1/files/1\"") && !plain.text.contains("number-marks"))
            }
        }
    }

    @Test func englishNamesTheNumberToo() throws {
        let templates = try Templates.load()
        let words = Words(templates, language: .english)
        var document = LibraryDocument(sha256: Self.sha, sourceName: "x.jpg", title: "t", docType: .labSvar, documentDate: "2024-07-01",
                                       text: Self.text, pages: [LibraryDocument.Page(number: 1, ocrConfidence: 1, width: 1000, height: 1400)],
                                       files: [ArchivedFile(kind: .image, page: 1, path: "/x/side.jpeg")])
        document.numberMarks = [NumberMark(page: 1, box: [990, 1390, 20, 20], text: "5O", start: 0, length: 2),
                                NumberMark(page: 2, box: [1, 1, 10, 10], text: "7", start: 0, length: 1)]
        let image = try #require(PageImageView.images(document, words: words).first)
        #expect(image.marks.map(\.label) == ["5O – Uncertain number"], "only the page's own marks")
        let mark = try #require(image.marks.first)
        #expect(mark.x + mark.width == 1000 && mark.y + mark.height == 1400, "an outline stays on the page")
        #expect(image.marksCaption == "Uncertain numbers, outlined on the page: 5O")
    }
}
