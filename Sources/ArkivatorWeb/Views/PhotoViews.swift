import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation
import Mustache

/// Each page's photo as taken, beside its cleaned page: a download of the original, and the
/// sheet's outline with four corner handles, a turn and "Bruk" to read the page again.
struct PhotoView {
    let pageNumber: Int
    let heading: String
    let anchor: String
    let downloadHref: String
    let downloadLabel: String
    /// The outline can be moved and the page read again (a photo with a stored outline).
    let canRecrop: Bool
    let photoHref: String
    let photoAlt: String
    let action: String
    /// The corners' frame: the original page's size in pixels.
    let width: Int
    let height: Int
    /// `x,y x,y x,y x,y` for the outline drawn over the photo.
    let points: String
    let handles: [Handle]
    let fields: [Field]
    let turns: [Option]
    let turnNow: String
    /// Where the page goes after "Bruk": the review when it was applied there (else the document).
    let back: String?

    struct Handle {
        let index: Int
        let label: String
        let x: String
        let y: String
    }

    /// One number of the fallback form (x or y of a corner).
    struct Field {
        let name: String
        let label: String
        let value: String
    }

    /// The photos of a document's pages that have a kept original.
    static func photos(_ document: LibraryDocument, originals: [DocumentOriginal], words: Words, back: String? = nil) -> [PhotoView] {
        document.pages.compactMap { page in
            guard let number = page.original, let original = originals.first(where: { $0.number == number }) else { return nil }
            return PhotoView(document, page: page, original: original, words: words, back: back)
        }
    }

    init(_ document: LibraryDocument, page row: LibraryDocument.Page, original: DocumentOriginal, words: Words,
         back: String? = nil) {
        self.back = back
        let id = document.shortID
        pageNumber = row.number
        anchor = "side-\(row.number)"
        heading = words.text("Side \(row.number): bildet slik det ble tatt", "Page \(row.number): the photo as taken")
        downloadHref = "/documents/\(id)/originals/\(original.number)"
        downloadLabel = words.text("Last ned bildet slik det ble tatt (\(original.format.uppercased()))",
                                   "Download the photo as taken (\(original.format.uppercased()))")
        let hasImage = document.files.contains { $0.kind == .image && $0.page == row.number }
        let crop = row.crop
        canRecrop = document.trashedAt == nil && hasImage && crop != nil
        photoHref = "/documents/\(id)/pages/\(row.number)/photo"
        photoAlt = words.text("Side \(row.number) slik den ble fotografert, med arkets kant tegnet inn",
                              "Page \(row.number) as photographed, with the sheet's edge drawn in")
        action = "/documents/\(id)/pages/\(row.number)/recrop"
        width = crop?.width ?? 1
        height = crop?.height ?? 1
        let corners = crop?.corners ?? []
        points = corners.map { "\(Self.number($0[0])),\(Self.number($0[1]))" }.joined(separator: " ")
        let names = [words["recropTopLeft"], words["recropTopRight"], words["recropBottomRight"], words["recropBottomLeft"]]
        handles = corners.enumerated().map { index, point in
            Handle(index: index, label: names[index], x: Self.number(point[0]), y: Self.number(point[1]))
        }
        var fields: [Field] = []
        for (index, point) in corners.enumerated() {
            fields.append(Field(name: "x\(index + 1)", label: "\(names[index]): x", value: Self.number(point[0])))
            fields.append(Field(name: "y\(index + 1)", label: "\(names[index]): y", value: Self.number(point[1])))
        }
        self.fields = fields
        let turn = crop?.quarterTurns ?? 0
        turns = (0..<4).map { Option(value: String($0 * 90), label: "\($0 * 90)°", selected: $0 == turn) }
        turnNow = String(turn * 90)
    }

    private static func number(_ value: Double) -> String {
        String(Int(value.rounded()))
    }

    /// The re-reading a form asks for: the eight numbers, the turn, or the whole picture; nil
    /// when a number is missing or not a number.
    static func recrop(_ form: WebForm) -> Household.Recrop? {
        let turn = form.value("turn").flatMap { Int($0) }.flatMap { [0, 90, 180, 270].contains($0) ? $0 / 90 : nil }
        if form.value("whole") == "1" { return Household.Recrop(quarterTurns: turn, whole: true) }
        let names = (1...4).flatMap { ["x\($0)", "y\($0)"] }
        let values = names.compactMap { form.value($0).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        guard values.count == 8, values.allSatisfy(\.isFinite) else { return nil }
        return Household.Recrop(corners: stride(from: 0, to: 8, by: 2).map { [values[$0], values[$0 + 1]] }, quarterTurns: turn)
    }
}

extension PhotoView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "pageNumber": pageNumber
        case "heading": heading
        case "anchor": anchor
        case "downloadHref": downloadHref
        case "downloadLabel": downloadLabel
        case "canRecrop": canRecrop
        case "photoHref": photoHref
        case "photoAlt": photoAlt
        case "action": action
        case "width": width
        case "height": height
        case "points": points
        case "handles": handles
        case "fields": fields
        case "turns": turns
        case "turnNow": turnNow
        case "back": back
        default: nil
        }
    }
}

extension PhotoView.Handle: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "index": index
        case "label": label
        case "x": x
        case "y": y
        default: nil
        }
    }
}

extension PhotoView.Field: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "label": label
        case "value": value
        default: nil
        }
    }
}
