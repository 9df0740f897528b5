import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache
import Testing
@testable import ArkivatorWeb

/// A page's photo as taken on the document page: its values reach the template by name, and the
/// form without JavaScript (eight numbers and a turn, or the whole photo) is read as the handles send it.
@Suite struct PhotoViewTests {
    static func view() throws -> PhotoView {
        let templates = try Templates.load()
        let crop = PageCrop(corners: [[10, 20], [390, 12], [380, 290], [14, 280]], quarterTurns: 1, width: 400, height: 300,
                            source: .found)
        var document = LibraryDocument(sha256: String(repeating: "cd", count: 32), sourceName: "IMG_1.HEIC", title: "2025-01-02 Brev",
                                       docType: .annet, documentDate: "2025-01-02", text: "Brev",
                                       pages: [.init(number: 1, ocrConfidence: 0.9, width: 100, height: 140, original: 1,
                                                     originalPage: 1, crop: crop)])
        document.files = [ArchivedFile(kind: .image, page: 1, path: "/x/Bilder/2025-01-02 Brev.jpeg")]
        let original = DocumentOriginal(number: 1, name: "IMG_1.HEIC", format: "heic", path: "/x/Originaler/cdcd/1.heic")
        return try #require(PhotoView.photos(document, originals: [original], words: Words(templates, language: .norwegian)).first)
    }

    @Test func everyValueReachesTheTemplateAndTheHandlesAreLabelled() throws {
        let view = try Self.view()
        for field in Mirror(reflecting: view).children {
            guard let label = field.label else { continue }
            let inner = Mirror(reflecting: field.value)
            #expect((inner.displayStyle == .optional && inner.children.isEmpty) || view.child(named: label) != nil, "\(label)")
        }
        #expect(view.child(named: "page") == nil && view.child(named: "t") == nil, "the page's own values stay reachable")
        #expect(view.canRecrop && view.points == "10,20 390,12 380,290 14,280" && view.turnNow == "90")
        #expect(view.handles.map(\.label) == ["Hjørne øverst til venstre", "Hjørne øverst til høyre",
                                              "Hjørne nederst til høyre", "Hjørne nederst til venstre"])
        #expect(view.downloadHref == "/documents/cdcdcdcdcd/originals/1" && view.downloadLabel.contains("HEIC"))
        for handle in view.handles { #expect(handle.child(named: "label") != nil && handle.child(named: "x") != nil) }
        for field in view.fields { #expect(field.child(named: "name") != nil && field.child(named: "value") != nil) }
    }

    @Test func theFormIsReadAsTheNumbersTheTurnOrTheWholePhoto() {
        let numbers = WebForm("x1=10&y1=20&x2=390&y2=12&x3=380&y3=290&x4=14&y4=280&turn=180")
        #expect(PhotoView.recrop(numbers) == .init(corners: [[10, 20], [390, 12], [380, 290], [14, 280]], quarterTurns: 2))
        #expect(PhotoView.recrop(WebForm("whole=1&turn=270&x1=1")) == .init(quarterTurns: 3, whole: true))
        #expect(PhotoView.recrop(WebForm("x1=10&y1=20&x2=390&y2=12&x3=380&y3=290&x4=14&y4=abc")) == nil)
        #expect(PhotoView.recrop(WebForm("x1=1&y1=2&x2=3&y2=4&x3=5&y3=6&x4=7&y4=8&turn=45"))?.quarterTurns == nil)
    }
}
