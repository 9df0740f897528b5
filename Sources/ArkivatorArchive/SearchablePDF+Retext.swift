import Foundation

extension SearchablePDF {
    /// The same pages with `text` (pages separated by a form feed, lines by a newline) as their
    /// invisible text: each line of `text` is matched, in order, to the line of the old text
    /// layer it is most like (a corrected word leaves the rest of its line alike), and takes that
    /// line's page and box; a line with no match joins the line before it (or after it, at the
    /// start), and an old line left with none is dropped. A page that held no text gets the new
    /// lines the form feeds put on it set out from the top. The page images stay exactly as they are.
    public func replacingText(_ text: String) -> SearchablePDF {
        guard !pages.isEmpty else { return self }
        let new = Self.textLines(text)
        var old: [(page: Int, line: Int)] = []
        for (pageIndex, page) in pages.enumerated() {
            for lineIndex in page.lines.indices where !page.lines[lineIndex].text.isEmpty {
                old.append((pageIndex, lineIndex))
            }
        }
        var result = self
        for index in result.pages.indices { result.pages[index].lines = [] }
        // Lines for a page that held no text are set out on it; the others find their old line.
        let filled = Set(old.map(\.page))
        let onEmptyPage = { (line: (text: String, page: Int)) in !filled.contains(min(line.page, pages.count - 1)) }
        for pageIndex in pages.indices where !filled.contains(pageIndex) {
            let mine = new.filter { onEmptyPage($0) && min($0.page, pages.count - 1) == pageIndex }.map(\.text)
            result.pages[pageIndex].lines = Self.setOut(mine, on: pages[pageIndex])
        }
        let aligned = new.filter { !onEmptyPage($0) }
        guard !old.isEmpty, !aligned.isEmpty else { return result }
        let anchors = LineAlignment.anchors(old: old.map { pages[$0.page].lines[$0.line].text }, new: aligned.map(\.text))
        var joined: [Int: [String]] = [:]
        for (index, line) in aligned.enumerated() { joined[anchors[index], default: []].append(line.text) }
        for (index, place) in old.enumerated() {
            guard let texts = joined[index] else { continue }
            result.pages[place.page].lines.append(Line(text: texts.joined(separator: " "), box: pages[place.page].lines[place.line].box))
        }
        return result
    }

    /// The text's non-blank lines, trimmed, each with its page (form feeds before it).
    static func textLines(_ text: String) -> [(text: String, page: Int)] {
        var lines: [(text: String, page: Int)] = []
        for (page, part) in text.components(separatedBy: "\u{0C}").enumerated() {
            for line in part.split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { lines.append((trimmed, page)) }
            }
        }
        return lines
    }

    /// Lines for a page that had none: from the top left margin down, one line height apart
    /// (smaller when they would not fit), each as wide as its letters need.
    private static func setOut(_ lines: [String], on page: Page) -> [Line] {
        guard !lines.isEmpty else { return [] }
        let margin = Double(page.width) * 0.08, top = Double(page.height) * 0.08
        let step = min(page.dpi * 0.25, Double(page.height) * 0.84 / Double(lines.count))
        return lines.enumerated().map { index, text in
            let height = max(1, step * 0.8)
            let width = min(Double(page.width) - 2 * margin, Double(text.count) * height * 0.5)
            return Line(text: text, box: [Int(margin), Int(top + Double(index) * step), max(1, Int(width)), Int(height)])
        }
    }
}
