internal import CLeptonica

extension Image {
    /// The pixels of this colour page's coloured marks (see `ColouredMarks`) as a 1-bit mask,
    /// the scale of the mask against this image, and how many marks there were; nil for a gray
    /// page or a page without such marks. Dark print that a mark lies over is not in the mask.
    /// `xHeight` is the body text's x-height in this image's pixels; `sheet`, the photographed
    /// sheet's corners (marks are looked for only on the sheet, not on the table round it).
    ///
    /// The marks are found, and the mask drawn, on a copy where the x-height is about 10 pixels:
    /// a quarter of the pixels of a 300 DPI page, which keeps cleanup fast.
    ///
    /// `scale` is this image's size against the page's (1/2 for a large page's colour copy);
    /// `xHeight`, `sheet` and the scale returned are in the page's pixels.
    func colouredMarkMask(xHeight: Double, sheet: Quad? = nil, scale start: Double = 1) throws(ImagingError) -> (mask: Image, scale: Double, marks: Int)? {
        guard depth == 32 else { return nil }
        // Halved (by averaging 2 × 2 pixels, which is fast) while the letters stay large enough.
        var small = self
        var scale = start
        while xHeight * scale / 2 >= ColouredMarks.analysisXHeight * 0.75, scale > 0.25 {
            small = try Image.wrap(pixScaleAreaMap2(small.pix), "pixScaleAreaMap2")
            scale /= 2
        }
        guard let found = try small.colouredMarks(xHeight: xHeight * scale, sheet: sheet?.scaled(by: scale)) else {
            return nil
        }
        try small.leaveOutDarkPrint(from: found.mask, paper: found.paper)
        return (found.mask, scale, found.marks)
    }

    /// The coloured marks on this (reduced) colour page: a mask of their ink, faint parts
    /// included, and how many there are; nil when there are none.
    private func colouredMarks(xHeight: Double, sheet: Quad?) throws(ImagingError) -> (mask: Image, marks: Int, paper: PaperColour)? {
        // Each pixel is measured against the paper near it, so yellowed paper and coloured light
        // are no colour.
        let paper = try PaperColour(of: self)
        let w = width, h = height
        let rows = Self.rowSpans(of: sheet, width: w, height: h)
        guard let madeStrong = pixCreate(Int32(w), Int32(h), 1), let madeFaint = pixCreate(Int32(w), Int32(h), 1) else {
            throw ImagingError(operation: "pixCreate")
        }
        let strong = Image(owning: madeStrong), faint = Image(owning: madeFaint)
        guard let rgb = pixGetData(pix), let strongBits = pixGetData(strong.pix), let faintBits = pixGetData(faint.pix) else {
            throw ImagingError(operation: "pixGetData")
        }
        let rgbWords = Int(pixGetWpl(pix)), bitWords = Int(pixGetWpl(strong.pix))
        var any = false
        for y in 0..<h {
            let row = rgb + y * rgbWords, outStrong = strongBits + y * bitWords, outFaint = faintBits + y * bitWords
            let blockRow = paper.row(y)
            for x in rows(y) {
                let spread = Self.colourSpread(row[x], paper.factors[blockRow + paper.column(x)])
                guard spread >= ColouredMarks.faintSpread else { continue }
                let bit = UInt32(1) << UInt32(31 - (x & 31))
                outFaint[x >> 5] |= bit
                if spread >= ColouredMarks.colourSpread {
                    outStrong[x >> 5] |= bit
                    any = true
                }
            }
        }
        guard any else { return nil }

        // Join the broken strokes of one mark, then take its parts.
        let join = Int32(max(3, Int(xHeight / 4)) | 1)
        let closed = try Image.wrap(pixCloseBrick(nil, strong.pix, join, join), "pixCloseBrick")
        let components = try closed.componentBoxes()
        // Thousands of coloured pieces are colour noise or a coloured picture, not marks on a
        // letter: no telling marks from print there.
        guard components.count <= ColouredMarks.mostPieces else { return nil }
        let (isMark, regions) = ColouredMarks(xHeight: xHeight).marks(
            components, pageWidth: sheet.map { Int($0.meanSize.width) } ?? w, pageHeight: sheet.map { Int($0.meanSize.height) } ?? h)
        let count = isMark.filter { $0 }.count
        guard count > 0 else { return nil }

        // The marks' ink, faint parts included, within the marks' regions.
        let faintJoined = try Image.wrap(pixCloseBrick(nil, faint.pix, join, join), "pixCloseBrick")
        let rim = try Image.wrap(pixDilateBrick(nil, faintJoined.pix, 3, 3), "pixDilateBrick")
        guard let madeMask = pixCreate(Int32(w), Int32(h), 1) else { throw ImagingError(operation: "pixCreate") }
        let mask = Image(owning: madeMask)
        let margin = Int(xHeight / 2) + 1
        for b in regions {
            // PIX_SRC (0xc): copy the rim's pixels within the region, grown by the margin.
            pixRasterop(mask.pix, Int32(b.x - margin), Int32(b.y - margin), Int32(b.width + 2 * margin),
                        Int32(b.height + 2 * margin), 0xc, rim.pix, Int32(b.x - margin), Int32(b.y - margin))
        }
        return (mask, count, paper)
    }

    /// The boxes of this 1-bit image's connected marks, with how many pixels each covers.
    private func componentBoxes() throws(ImagingError) -> [(box: ColouredMarks.Box, ink: Int)] {
        var pixa: UnsafeMutablePointer<PIXA>?
        var boxa: UnsafeMutablePointer<BOXA>? = pixConnComp(pix, &pixa, 8)
        defer { boxaDestroy(&boxa); pixaDestroy(&pixa) }
        guard let boxa, let pixa else { throw ImagingError(operation: "pixConnComp") }
        let table = makePixelSumTab8()
        defer { lept_free(table) }
        var components: [(box: ColouredMarks.Box, ink: Int)] = []
        for i in 0..<Int(boxaGetCount(boxa)) {
            var bx: Int32 = 0, by: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            guard boxaGetBoxGeometry(boxa, Int32(i), &bx, &by, &bw, &bh) == 0 else { continue }
            var ink: Int32 = 0
            var part: UnsafeMutablePointer<PIX>? = pixaGetPix(pixa, Int32(i), Int32(L_CLONE))
            if let part { pixCountPixels(part, &ink, table) }
            pixDestroy(&part)
            components.append((ColouredMarks.Box(x: Int(bx), y: Int(by), width: Int(bw), height: Int(bh)), Int(ink)))
        }
        return components
    }

    /// Takes out of `mask` the pixels where this colour page shows dark, nearly gray print against
    /// the `paper` near it: the print a mark lies over.
    private func leaveOutDarkPrint(from mask: Image, paper: PaperColour) throws(ImagingError) {
        guard let maskData = pixGetData(mask.pix), let rgb = pixGetData(pix) else { throw ImagingError(operation: "pixGetData") }
        let maskWords = Int(pixGetWpl(mask.pix)), rgbWords = Int(pixGetWpl(pix))
        let w = min(width, Int(pixGetWidth(mask.pix)))
        for y in 0..<min(height, Int(pixGetHeight(mask.pix))) {
            let m = maskData + y * maskWords, row = rgb + y * rgbWords
            let blockRow = paper.row(y)
            for word in 0..<maskWords where m[word] != 0 {
                let set = m[word]
                for bit in 0..<32 where set & (UInt32(1) << UInt32(31 - bit)) != 0 {
                    let x = word * 32 + bit
                    guard x < w else { break }
                    if Self.isDarkPrint(row[x], paper.factors[blockRow + paper.column(x)]) {
                        m[word] &= ~(UInt32(1) << UInt32(31 - bit))
                    }
                }
            }
        }
    }

    /// The columns of each row that lie on the sheet, 3 % in from its edges (clear of the edge's
    /// shadow and the table's colour); the whole row without a sheet.
    private static func rowSpans(of sheet: Quad?, width: Int, height: Int) -> (Int) -> Range<Int> {
        guard let sheet else { return { _ in 0..<width } }
        let corners = sheet.corners
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        let inner = corners.map { Point(x: cx + ($0.x - cx) * 0.94, y: cy + ($0.y - cy) * 0.94) }
        return { y in
            let fy = Double(y) + 0.5
            var low = Double.infinity, high = -Double.infinity
            for i in 0..<4 {
                let a = inner[i], b = inner[(i + 1) % 4]
                guard (a.y <= fy && fy < b.y) || (b.y <= fy && fy < a.y) else { continue }
                let x = a.x + (fy - a.y) / (b.y - a.y) * (b.x - a.x)
                low = min(low, x)
                high = max(high, x)
            }
            guard low <= high else { return 0..<0 }
            let from = max(0, Int(low.rounded(.up))), to = min(width, Int(high.rounded(.down)))
            return from < to ? from..<to : 0..<0
        }
    }

    /// How far apart an RGB pixel's channels lie once the paper colour near it is taken as 200 in
    /// each (`paper`: the factors that do so, 1/256), or 0 for a pixel about as light as paper.
    @inline(__always)
    private static func colourSpread(_ word: UInt32, _ paper: (r: Int, g: Int, b: Int)) -> Int {
        let r = (Int(word >> 24) * paper.r) >> 8, g = (Int((word >> 16) & 0xff) * paper.g) >> 8
        let b = (Int((word >> 8) & 0xff) * paper.b) >> 8
        let high = min(255, max(r, g, b)), low = min(r, g, b)
        return low < 185 ? high - low : 0
    }

    /// Dark and nearly gray once the paper near it is 200 (`paper`: the factors that do so, 1/256):
    /// black print.
    private static func isDarkPrint(_ word: UInt32, _ paper: (r: Int, g: Int, b: Int)) -> Bool {
        let r = (Int(word >> 24) * paper.r) >> 8, g = (Int((word >> 16) & 0xff) * paper.g) >> 8
        let b = (Int((word >> 8) & 0xff) * paper.b) >> 8
        let high = max(r, g, b), low = min(r, g, b)
        return high < 110 && high - low < 35
    }
}

/// A colour page's paper colour in blocks of 8 × 8 pixels: the brightest value of each channel in
/// the block, which is paper unless ink covers all of it; kept as the factors (fixed point, 1/256)
/// that bring each block's paper to 200 in every channel.
private struct PaperColour {
    static let block = 8
    let factors: [(r: Int, g: Int, b: Int)]
    let width: Int
    let height: Int

    init(of page: Image) throws(ImagingError) {
        var bytes: [[UInt8]] = []
        var size = (width: 0, height: 0)
        for channel in [COLOR_RED, COLOR_GREEN, COLOR_BLUE] {
            let one = try Image.wrap(pixGetRGBComponent(page.pix, Int32(channel)), "pixGetRGBComponent")
            let brightest = try Image.wrap(pixScaleGrayMinMax(one.pix, Int32(Self.block), Int32(Self.block), Int32(L_CHOOSE_MAX)),
                                           "pixScaleGrayMinMax")
            size = (brightest.width, brightest.height)
            bytes.append(try brightest.grayBytes())
        }
        (width, height) = size
        factors = (0..<(size.width * size.height)).map { i in
            (r: 51_200 / max(1, Int(bytes[0][i])), g: 51_200 / max(1, Int(bytes[1][i])), b: 51_200 / max(1, Int(bytes[2][i])))
        }
    }

    /// The index in `factors` of the first block of pixel row `y`.
    func row(_ y: Int) -> Int { min(height - 1, y / Self.block) * width }
    /// The block column of pixel column `x`.
    func column(_ x: Int) -> Int { min(width - 1, x / Self.block) }
}
