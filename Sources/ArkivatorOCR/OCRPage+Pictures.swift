import ArkivatorImaging

extension OCRPage {
    /// What OCR read in one picture of a PDF page (a scanned attachment pasted into a letter).
    public struct PictureReading: Sendable {
        /// Where the picture stands on the page: x, y, width, height in pixels at 300 DPI.
        public var box: [Int]
        /// The reading, its word boxes in the pixels of the image OCR read.
        public var reading: OCRPage
        /// The image's pixels per page pixel (the picture was enlarged for OCR when above 1).
        public var scale: Double

        public init(box: [Int], reading: OCRPage, scale: Double) {
            self.box = box
            self.reading = reading
            self.scale = scale
        }
    }

    /// A PDF page read from its text layer and, by OCR, from its `pictures`: each picture's text
    /// is put, as paragraphs of its own, before the first line of the layer that starts below the
    /// picture's top and overlaps it from side to side; when none does, after the lines beside
    /// it (a column beside a picture is read first), or else before the first line below its top.
    /// So the two read in the order they stand on the page. The pictures' words keep their boxes, moved to
    /// the page, and their OCR confidence: the page's confidence is that of all its words.
    public init(textLayer: PDFTextLayer, pictures: [PictureReading]) {
        let lines = Self.layerLines(textLayer)
        var places = Array(repeating: [PictureReading](), count: lines.count + 1)
        for picture in pictures.sorted(by: { $0.box[1] < $1.box[1] }) {
            let top = picture.box[1], bottom = picture.box[1] + picture.box[3]
            let left = picture.box[0], right = picture.box[0] + picture.box[2]
            let under = lines.firstIndex { $0.top >= top && $0.left < right && $0.right > left }
            let afterBeside = lines.lastIndex { $0.top >= top && $0.top < bottom }.map { $0 + 1 }
            let below = lines.firstIndex { $0.top >= top }
            places[under ?? afterBeside ?? below ?? lines.count].append(picture)
        }
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        var afterPicture = false
        for index in 0...lines.count {
            for picture in places[index] {
                let words = Self.placedItems(picture)
                items += words
                afterPicture = afterPicture || !words.isEmpty
            }
            guard index < lines.count else { break }
            var line = lines[index].items
            if afterPicture, !line.isEmpty { line[0].breakBefore = .paragraph }
            afterPicture = false
            items += line
        }
        self = OCRPage.assemble(items, typography: false)
        if !noText { droppedLines = pictures.reduce(0) { $0 + $1.reading.droppedLines } }
    }

    /// A picture's words with the breaks its text has between them (a paragraph before the
    /// first), their boxes moved from the read image to the page.
    private static func placedItems(_ picture: PictureReading) -> [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] {
        let page = picture.reading
        guard !page.noText else { return [] }
        let scalars = Array(page.text.unicodeScalars)
        let scale = picture.scale > 0 ? picture.scale : 1
        var end = 0
        return page.words.enumerated().map { index, word in
            let gap = scalars[min(end, scalars.count)..<min(max(end, word.start), scalars.count)].filter { $0 == "\n" }.count
            end = word.start + word.length
            let lineBreak: LayoutBreak = index == 0 || gap >= 2 ? .paragraph : gap == 1 ? .line : .none
            let b = word.box.count == 4 ? word.box : [0, 0, 0, 0]
            let x = picture.box[0] + Int((Double(b[0]) / scale).rounded()), y = picture.box[1] + Int((Double(b[1]) / scale).rounded())
            let box = [x, y, max(1, Int((Double(b[2]) / scale).rounded())), max(1, Int((Double(b[3]) / scale).rounded()))]
            return (word.text, word.confidence, box, lineBreak)
        }
    }
}
