import ArkivatorImaging

extension OCRPage {
    /// A page read from a PDF's text layer instead of by OCR: the words as the PDF holds them,
    /// each with confidence 1, in the PDF's reading order. A line starts a new paragraph where
    /// the gap above it is at least about one line high, or where it stands above the line
    /// before (a new column). The words are kept exactly as the PDF has them.
    public init(textLayer: PDFTextLayer) {
        self.init(textLayer: textLayer, pictures: [])
    }

    /// The text layer's lines, each with the breaks the page's text puts before its words (see
    /// ``init(textLayer:)``) and where it stands: its top, bottom, left and right in pixels.
    static func layerLines(_ textLayer: PDFTextLayer) -> [TextLayerLine] {
        var result: [TextLayerLine] = []
        var previous: (top: Int, bottom: Int)?
        for line in textLayer.lines where !line.isEmpty {
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
            let items = line.enumerated().map { index, word in
                (text: word.text, confidence: 1.0, box: word.box, breakBefore: index == 0 ? lineBreak : LayoutBreak.none)
            }
            result.append(TextLayerLine(items: items, top: top, left: line.map { $0.box[0] }.min() ?? 0,
                                        right: line.map { $0.box[0] + $0.box[2] }.max() ?? 0))
        }
        return result
    }

    struct TextLayerLine {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)]
        var top: Int
        var left: Int
        var right: Int
    }
}
