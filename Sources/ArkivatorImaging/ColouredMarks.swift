/// Marks made on a letter after it was printed, in coloured ink: a rubber stamp ("MOTTATT"), a pen
/// signature, a tick in the margin, underlining. They belong in the archived image, but OCR reads
/// them as stray letters and cuts the paragraphs they lie over into blocks, so the copy that OCR
/// reads leaves them out (`Image.colouredMarkMask`).
///
/// What tells a mark from coloured print (a blue letterhead, a red logo text) is its shape, not its
/// colour. Printed letters stand in rows of letters of one height. A mark is a stroke drawing: a
/// stamp's frame or a signature's loop taller than any line of text, a long pen line, a thin
/// stroke across a wide box, a lone tick. The pieces of a faded stamp or a broken pen stroke next
/// to a mark belong to it, and whatever lies inside a stamp's or a signature's outline (the
/// stamp's own words and date) goes with it, rows of letters included.
struct ColouredMarks {
    /// The body text's x-height in pixels of the image examined: marks are measured against it.
    var xHeight: Double

    /// A pixel is coloured ink when, with the paper evened to 200, its channels differ by at least
    /// this much: black print and its anti-aliased edges stay well under it, even through JPEG's
    /// colour blur; stamp and ballpoint inks are well over it.
    static let colourSpread = 45
    /// Within a mark's region, a pale stroke's end or a faded stamp's edge is coloured ink already
    /// at this spread.
    static let faintSpread = 20
    /// Taller than this many x-heights is taller than a line of text, even a large heading.
    static let tallest = 4.5
    /// A stroke drawing (frame, loop, tick) covers less than this share of its box; letters,
    /// even thin ones, cover more.
    static let strokeCover = 0.12
    /// A mark covering more than this share of its box is a solid shape (a logo), not a stroke.
    static let solid = 0.25
    /// Pieces closer than this many x-heights to a mark are part of it.
    static let reach = 1.5
    /// Marks are looked for on a copy scaled so that the x-height is about this many pixels:
    /// enough to tell letters from strokes.
    static let analysisXHeight = 10.0
    /// More coloured pieces than this on one page are noise or a picture, not marks.
    static let mostPieces = 2500

    struct Box: Equatable {
        var x, y, width, height: Int
        var midX: Int { x + width / 2 }
        var midY: Int { y + height / 2 }
        func contains(x px: Int, y py: Int) -> Bool {
            px >= x && px < x + width && py >= y && py < y + height
        }
        /// The gap between two boxes (0 when they touch or overlap).
        func gap(to o: Box) -> Int {
            let dx = max(0, max(o.x - (x + width), x - (o.x + o.width)))
            let dy = max(0, max(o.y - (y + height), y - (o.y + o.height)))
            return max(dx, dy)
        }
        func union(_ o: Box) -> Box {
            let left = min(x, o.x), top = min(y, o.y)
            return Box(x: left, y: top, width: max(x + width, o.x + o.width) - left,
                       height: max(y + height, o.y + o.height) - top)
        }
    }

    /// Which of the coloured components (boxes, with the ink pixels each covers) are marks, on a
    /// page `pageWidth × pageHeight` pixels, and the regions the marks take up: a mark's box, or
    /// the outline of a stroke with the pieces that joined it.
    func marks(_ components: [(box: Box, ink: Int)], pageWidth: Int, pageHeight: Int) -> (isMark: [Bool], regions: [Box]) {
        let xh = max(4, xHeight)
        let boxes = components.map(\.box)
        let cover = components.map { Double($0.ink) / Double(max(1, $0.box.width * $0.box.height)) }
        let letter = boxes.map(isLetterSized)
        // Print: letters in a row, or a word whose letters ran together (a dense, wide box of
        // letter height).
        let isPrint = boxes.indices.map { i in
            let b = boxes[i], h = Double(b.height)
            guard h >= 0.5 * xh, h <= Self.tallest * xh else { return false }
            return (letter[i] && standsInRow(i, boxes, letter))
                || (Double(b.width) >= max(1.5 * h, 2 * xh) && cover[i] >= 0.3)
        }
        var isMark = boxes.indices.map { i in
            let b = boxes[i], (w, h) = (Double(b.width), Double(b.height))
            if isPrint[i] { return false }
            if h > Self.tallest * xh { return true }                        // frame, loop, logo
            if h < 0.6 * xh && w > 8 * xh { return true }                   // a pen or printed rule
            if max(w, h) > 2.5 * xh && cover[i] < Self.strokeCover { return true }  // thin loop, frame
            // A lone stroke taller than letters: a tick or a cross in the margin.
            return h > 2 * xh && !boxes.indices.contains { $0 != i && boxes[$0].gap(to: b) < Int(1.5 * xh) }
        }
        // Strokes (not solid shapes such as a logo) grow by the pieces near them that are not
        // print: a faded frame or a broken pen line comes apart in many pieces.
        let isStroke = boxes.indices.map { isMark[$0] && cover[$0] < Self.solid }
        let strokes = boxes.indices.filter { isStroke[$0] }
        let near = Int((Self.reach * xh).rounded())
        var outline = boxes
        var grew = true
        while grew {
            grew = false
            for i in boxes.indices where !isMark[i] && !isPrint[i] {
                guard let m = strokes.first(where: { outline[$0].gap(to: boxes[i]) <= near }) else { continue }
                isMark[i] = true
                outline[m] = outline[m].union(boxes[i])
                grew = true
            }
        }
        // What lies inside a stroke's outline (a stamp's words in its frame) is part of it, print
        // or not. Stamps and signatures are a few centimetres across: a coloured band or border
        // round much of the page is no outline.
        let frames = strokes.filter { i in
            let b = outline[i]
            return b.height > Int(Self.tallest * xh) && b.width < pageWidth * 2 / 5 && b.height < pageHeight / 4
        }.map { outline[$0] }
        for i in boxes.indices where !isMark[i] {
            isMark[i] = frames.contains { $0.contains(x: boxes[i].midX, y: boxes[i].midY) }
        }
        let regions = boxes.indices.filter { isMark[$0] }.map { isStroke[$0] ? outline[$0] : boxes[$0] }
        return (isMark, regions)
    }

    /// A box of a letter's size: from half an x-height to as tall as a large heading, and not
    /// much wider than tall.
    private func isLetterSized(_ b: Box) -> Bool {
        let h = Double(b.height), w = Double(b.width)
        return h >= 0.5 * xHeight && h <= Self.tallest * xHeight && w <= 2.5 * h
    }

    /// Whether letter `i` has at least two letters of about its height beside it on its line,
    /// within a few letter heights: a row of print.
    private func standsInRow(_ i: Int, _ boxes: [Box], _ letter: [Bool]) -> Bool {
        let b = boxes[i], h = Double(b.height)
        var found = 0
        for j in boxes.indices where j != i && letter[j] {
            let o = boxes[j]
            guard abs(Double(o.height) - h) <= 0.5 * max(h, Double(o.height)),
                  abs(Double(o.y + o.height) - Double(b.y + b.height)) <= 0.35 * h,
                  abs(Double(o.midX - b.midX)) <= 4 * h else { continue }
            found += 1
            if found >= 2 { return true }
        }
        return false
    }
}
