import ArkivatorLibrary
import Mustache

/// One archived page image on the document and review pages, linking to itself at full size,
/// with each number OCR may have misread outlined over it (``NumberMark``). The outlines are an
/// SVG laid over the image whose view box is the page's own pixels, so they scale with the
/// image; their places are attributes, not inline styles (the Content-Security-Policy allows
/// none). Each outline is named («12,5 – Usikkert tall»), and the numbers are listed under the
/// image as well.
struct PageImageView {
    struct Mark {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        /// The number and «Usikkert tall», for a screen reader and as the outline's tooltip.
        let label: String
        /// The lab value a person came to see (from «Prøvesvar»), outlined apart.
        var chosen = false
    }

    let href: String
    let alt: String
    /// The page's size in pixels: the outlines' view box.
    let pageWidth: Int
    let pageHeight: Int
    let marks: [Mark]
    /// The numbers outlined, in words under the image («Usikkert tall, markert på siden: 12,5 · 5O»).
    let marksCaption: String?
    /// The lab value a person came to see, in words under the image; its page is the anchor `#verdi`.
    var chosenCaption: String?

    /// How far an outline stands out from the number's box (so it frames the digits rather than
    /// crossing them): a share of its height, at least a few pixels.
    static func padding(height: Int) -> Int { max(6, height * 2 / 5) }

    /// The pages with `chosen` (a lab value of this letter, from «Prøvesvar») outlined on its
    /// page as well, and named under it; the pages as ``images(_:words:)`` has them when the
    /// value has no box.
    static func images(_ document: LibraryDocument, chosen: LabReading, words: Words) -> [PageImageView] {
        var pages = images(document, words: words)
        guard chosen.letter == document.shortID, chosen.entry.hasBox, let page = chosen.entry.page, let box = chosen.entry.box,
              let index = document.files.enumerated().filter({ $0.element.kind == .image }).firstIndex(where: { $0.element.page == page }),
              pages.indices.contains(index), pages[index].pageWidth > 0, pages[index].pageHeight > 0 else { return pages }
        let view = pages[index]
        // A wider margin than a number in doubt has: on a phone's small page the outline stands
        // around the value rather than over it.
        let pad = max(padding(height: box[3]), box[3])
        let left = max(0, box[0] - pad), top = max(0, box[1] - pad)
        let name = "\(chosen.entry.analysis) \(chosen.entry.value)\(chosen.entry.unit.map { " " + $0 } ?? "")"
        var mark = Mark(x: left, y: top, width: min(view.pageWidth, box[0] + box[2] + pad) - left,
                        height: min(view.pageHeight, box[1] + box[3] + pad) - top,
                        label: words.text("\(name) – verdien du valgte", "\(name) – the value you chose"))
        mark.chosen = true
        var chosenPage = PageImageView(href: view.href, alt: view.alt, pageWidth: view.pageWidth, pageHeight: view.pageHeight,
                                       marks: view.marks + [mark], marksCaption: view.marksCaption)
        chosenPage.chosenCaption = words.text("Markert med blått: \(name) (\(words.date(chosen.day))).",
                                              "Outlined in blue: \(name) (\(words.date(chosen.day))).")
        pages[index] = chosenPage
        return pages
    }

    static func images(_ document: LibraryDocument, words: Words) -> [PageImageView] {
        document.files.enumerated().filter { $0.element.kind == .image }.map { index, file in
            let size = document.pages.first { $0.number == file.page }
            let shown = (document.numberMarks ?? []).filter { $0.page == file.page && $0.hasBox }
            let (width, height) = (size?.width ?? 0, size?.height ?? 0)
            // Numbers in one word ("13,4–17,0") share its box: one outline names them all.
            var boxes: [(box: [Int], numbers: [String])] = []
            for mark in shown {
                if let index = boxes.firstIndex(where: { $0.box == mark.box }) {
                    if !boxes[index].numbers.contains(mark.text) { boxes[index].numbers.append(mark.text) }
                } else {
                    boxes.append((mark.box, [mark.text]))
                }
            }
            let marks: [Mark] = width > 0 && height > 0 ? boxes.map { box, numbers -> Mark in
                let pad = padding(height: box[3])
                let left = max(0, box[0] - pad), top = max(0, box[1] - pad)
                return Mark(x: left, y: top, width: min(width, box[0] + box[2] + pad) - left,
                            height: min(height, box[1] + box[3] + pad) - top,
                            label: numbers.joined(separator: ", ") + " – " + words["uncertainNumber"])
            } : []
            var numbers: [String] = []
            for mark in shown where !numbers.contains(mark.text) { numbers.append(mark.text) }
            return PageImageView(href: "/documents/\(document.shortID)/files/\(index)",
                                 alt: words.text("Side \(file.page)", "Page \(file.page)"), pageWidth: width, pageHeight: height,
                                 marks: marks,
                                 marksCaption: marks.isEmpty ? nil : words["uncertainNumbersOnPage"] + " " + numbers.joined(separator: " · "))
        }
    }
}

extension PageImageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "alt": alt
        case "pageWidth": pageWidth
        case "pageHeight": pageHeight
        case "marks": marks
        case "hasMarks": !marks.isEmpty
        case "marksCaption": marksCaption
        case "chosenCaption": chosenCaption
        default: nil
        }
    }
}

extension PageImageView.Mark: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "x": x
        case "y": y
        case "width": width
        case "height": height
        case "label": label
        case "chosen": chosen
        default: nil
        }
    }
}
