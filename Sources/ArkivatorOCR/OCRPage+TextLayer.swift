import ArkivatorImaging

extension OCRPage {
    /// A page read from a PDF's text layer instead of by OCR: the words as the PDF holds them,
    /// each with confidence 1, in the PDF's reading order. A line starts a new paragraph where
    /// the gap above it is at least about one line high, or where it stands above the line
    /// before (a new column). The words are kept exactly as the PDF has them.
    public init(textLayer: PDFTextLayer) {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        var previous: (top: Int, bottom: Int)?
        for line in textLayer.lines.map({ $0.map { PageLayout.Word(text: $0.text, confidence: 1, box: $0.box) } }) where !line.isEmpty {
            let top = line.map { $0.box[1] }.min() ?? 0
            let bottom = line.map { $0.box[1] + $0.box[3] }.max() ?? 0
            let lineBreak: LayoutBreak
            if let previous {
                let height = max(1, previous.bottom - previous.top)
                lineBreak = top - previous.bottom >= height * 4 / 5 || bottom <= previous.top ? .paragraph : .line
            } else {
                lineBreak = .paragraph
            }
            previous = (top, bottom)
            for (index, word) in line.enumerated() {
                items.append((word.text, 1, word.box, index == 0 ? lineBreak : .none))
            }
        }
        self = OCRPage.assemble(items, typography: false)
    }
}
