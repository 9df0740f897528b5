internal import CLeptonica

/// What cleanup found and did to one page, for tests, logs and `--json`.
public struct CleanupReport: Sendable, Codable, Equatable {
    /// The sheet's corners in the original image, when a photo's sheet edge was found.
    public var sheet: Quad?
    /// The page resolution before scaling: from the page's size as A4, from the file, or from
    /// the height of its letters, whichever the letters bear out (see `dpiSource`).
    public var estimatedDPI: Double
    /// Where `estimatedDPI` came from: "page" (the sheet or image size taken as A4), "file" (the
    /// resolution the file records) or "text" (the height of the letters); nil in older reports.
    public var dpiSource: String?
    /// The resolution the letters' height alone suggests, when there were enough letters to tell.
    public var textDPI: Double?
    /// The factor the page was scaled by to reach about 300 DPI.
    public var scale: Double
    /// Measured skew in degrees (positive: turned clockwise), already corrected.
    public var skewDegrees: Double
    /// Quarter turns clockwise applied to make the text upright (set by the OCR stage).
    public var quarterTurns: Int
    /// Set when the page was also read as it came, because the cleaned reading looked doubtful
    /// (see `GuardCheck`); nil otherwise.
    public var guardCheck: GuardCheck?
    /// How many coloured marks (stamps, pen signatures, ticks, underlining) were left out of the
    /// copy OCR reads; they stay on the archived image. Nil when there were none.
    public var colouredMarks: Int?
    /// True when pen strokes (marks many lines tall: handwriting, signatures, ticks) were left
    /// out of the copy OCR reads; they stay on the archived image. Nil when there were none.
    public var penStrokes: Bool?
    /// The share (0…1) of the page's dark pixels that coloured marks and pen strokes took out of
    /// the copy OCR reads; nil when nothing was left out.
    public var inkLeftOut: Double?
    /// "dark" or "light" for a page with no ink contrast at all (a photo taken with the lens
    /// covered, an empty sheet): it is not cleaned, and reads as a page without text. Nil otherwise.
    public var blank: String?

    /// The page read twice: cleaned, and as it came (only turned upright and, when far from it,
    /// brought to about 300 DPI: no sheet cropping, flattening, straightening or evening of the
    /// light). The better reading is kept, so a cleanup step that goes wrong on an unusual page
    /// can never make the text worse than the page as it is.
    public struct GuardCheck: Sendable, Codable, Equatable {
        /// Which reading was kept: "cleaned" or "asIs".
        public var kept: String
        /// Why the second reading was made: "doubtful" (low confidence), "noText" (the cleaned
        /// page read as no text), "inkLeftOut" (cleanup left much of the page's ink out), "uncovered"
        /// (the reading left much print untouched) or "small" (a
        /// picture too small to risk a cleanup step's mistake on).
        public var reason: String
        /// Each reading's score: its good letters (words that look like words, read with confidence,
        /// less noise tokens) times the square root of its good letters per line.
        public var cleanedScore: Double
        public var asIsScore: Double
        /// When the two readings scored close, how many words the kept reading took from the
        /// other, where the other was surer of them; nil when they were not combined.
        public var wordsFromOther: Int?

        public init(kept: String, reason: String, cleanedScore: Double, asIsScore: Double) {
            self.kept = kept
            self.reason = reason
            self.cleanedScore = cleanedScore
            self.asIsScore = asIsScore
        }
    }

    /// A PDF page read from its text layer: drawn at 300 DPI, nothing cleaned.
    public static let renderedPDFPage = CleanupReport(sheet: nil, estimatedDPI: 300, scale: 1, skewDegrees: 0, quarterTurns: 0)

    public init(sheet: Quad?, estimatedDPI: Double, dpiSource: String? = nil, textDPI: Double? = nil,
                scale: Double, skewDegrees: Double, quarterTurns: Int, guardCheck: GuardCheck? = nil) {
        self.guardCheck = guardCheck
        self.sheet = sheet
        self.estimatedDPI = estimatedDPI
        self.dpiSource = dpiSource
        self.textDPI = textDPI
        self.scale = scale
        self.skewDegrees = skewDegrees
        self.quarterTurns = quarterTurns
    }
}

/// A page ready for OCR and for the archive.
public struct CleanedPage {
    /// Upright, flattened, evened light, about 300 DPI, 8-bit gray: the page people look at.
    public var gray: Image
    /// The page OCR reads: `gray` less any coloured marks (stamps, signatures, ticks).
    public var text: Image
    public var report: CleanupReport
    /// Whether `text` has its light evened already (a cleaned page) or not (a page as it came).
    var textIsEven: Bool

    public init(gray: Image, text: Image? = nil, report: CleanupReport, textIsEven: Bool = true) {
        self.gray = gray
        self.text = text ?? gray
        self.report = report
        self.textIsEven = textIsEven
    }

    /// `text` in black and white, for orientation detection; made only when asked for, since
    /// most pages never need it.
    public func binary() throws(ImagingError) -> Image {
        let binary = try (textIsEven ? text : text.evenedLight()).binarized()
        if let dpi = text.recordedDPI { binary.setResolution(dpi) }
        return binary
    }

    /// The page turned by quarter turns (for orientation fixes found by OCR).
    public func rotated(quarterTurns: Int) throws(ImagingError) -> CleanedPage {
        var report = self.report
        report.quarterTurns = ((report.quarterTurns + quarterTurns) % 4 + 4) % 4
        return CleanedPage(gray: try gray.rotated(quarterTurns: quarterTurns),
                           text: text === gray ? nil : try text.rotated(quarterTurns: quarterTurns),
                           report: report, textIsEven: textIsEven)
    }
}

/// Cleans one page: finds a photographed sheet and flattens it, scales to about 300 DPI,
/// straightens skewed text, evens out the light and makes a black and white copy for OCR.
public struct PageCleaner: Sendable {
    /// The resolution small print is brought to, and pages far above it.
    public var targetDPI: Double = 300
    /// Pages below this resolution, or with letters smaller than body text at it (an x-height
    /// under 13 pixels), are scaled up to `targetDPI`.
    public var upscaleBelowDPI: Double = 175
    /// Pages between `upscaleBelowDPI` and this are scaled up to this only. Body text at 250 DPI
    /// reads as well as at 300 (on the evaluation sets a little better, taken together), and
    /// every later step, OCR included, then has a third fewer pixels to work through.
    public var readableDPI: Double = 250
    /// Pages above this resolution are scaled down to `targetDPI`.
    public var downscaleAboveDPI: Double = 420
    public var sheetDetector = SheetDetector()
    /// Pages turned less than this (degrees) are left as they are: OCR reads lines this close to
    /// level as well as straight ones, and turning a page softens thin strokes (typewriter text,
    /// faint print) a little.
    public static let smallestSkew = 0.3
    /// A page whose darkest and lightest grays (on a copy 600 pixels long) are closer than this
    /// has no ink contrast: no print, no sheet edge, only noise.
    static let blankContrast = 24
    /// Width of the white frame put round every page, as a share of its width (0.6 %: 1.3 mm).
    public var frameShare = 0.006
    /// Pages whose shorter side has fewer pixels than this (after scaling) get no frame: a
    /// label, a receipt's strip or a line cut from a screen, not a scan with dark edges.
    static let framedFrom = 1000

    public init() {}

    public func clean(_ original: Image) throws(ImagingError) -> CleanedPage {
        try clean(PagePixels(original))
    }

    /// Cleans a page: the gray copy is what is cleaned; the colour copy is read for coloured marks
    /// and then let go (``PagePixels/releaseColour()``), so a large page holds no colour after.
    ///
    /// With `given` (corners set by hand, in the page's pixels) the sheet detector is not asked:
    /// that quadrilateral is flattened to a rectangle; corners at the picture's own corners keep
    /// the whole picture, as a scan.
    public func clean(_ page: PagePixels, sheet given: Quad? = nil) throws(ImagingError) -> CleanedPage {
        let gray = page.gray
        var report = CleanupReport(sheet: nil, estimatedDPI: 0, scale: 1, skewDegrees: 0, quarterTurns: 0)

        // 0. A page with no ink contrast at all (all black, all white, one even gray) holds
        // nothing to find, flatten, straighten or even: it is read as it came, as a blank page.
        let small = try gray.reduced(longSide: 600)
        let tones = try small.image.tones()
        if tones.lightest - tones.darkest < Self.blankContrast {
            page.releaseColour()
            var blank = try asIs(page, report: report)
            blank.report.blank = tones.mean < 128 ? "dark" : "light"
            return blank
        }

        // 1. A sheet on a background (phone photo) is flattened and cropped; a scan fills the
        // image and is only brought to about 300 DPI. One projective transform flattens, crops
        // and scales a sheet at once.
        let located: Quad?
        if let given {
            located = given.isWhole(width: gray.width, height: gray.height) ? nil : given
        } else {
            let analysis = try Image.analysisCopy(of: small)
            let small = try analysis.image.grayBytes()
            located = sheetDetector.detect(gray: small, width: analysis.image.width, height: analysis.image.height)
                .map { $0.scaled(by: 1 / analysis.scale) }
        }
        let placed: Image
        /// Places a mask made at `scale` of the page the way the page was placed.
        let placeMask: (Image, Double) throws(ImagingError) -> Image
        /// The letters' x-height as measured, nil when too few letters could be measured.
        let xHeight: Double?
        /// The x-height in the placed page's pixels.
        let placedXHeight: Double?
        var sheet: Quad?
        if let quad = located {
            let size = quad.meanSize
            let (factor, x) = try measure(gray, inside: quad.corners, pageSize: size, recorded: nil, into: &report)
            report.sheet = quad
            sheet = quad
            xHeight = x
            placedXHeight = x.map { $0 * factor }
            placed = try gray.flattened(quad, width: Int((size.width * factor).rounded()),
                                        height: Int((size.height * factor).rounded()))
            // Flattened at the mask's own scale, then enlarged: cheaper than flattening at full size.
            placeMask = { (mask: Image, scale: Double) throws(ImagingError) -> Image in
                try mask.flattened(quad.scaled(by: scale), width: Int((size.width * factor * scale).rounded()),
                                   height: Int((size.height * factor * scale).rounded())).scaled(by: 1 / scale)
            }
        } else {
            let corners = [Point(x: 0, y: 0), Point(x: Double(gray.width), y: Double(gray.height))]
            let (factor, x) = try measure(gray, inside: corners, pageSize: (Double(gray.width), Double(gray.height)),
                                          recorded: page.recordedDPI, into: &report)
            xHeight = x
            placedXHeight = x.map { $0 * factor }
            placed = try gray.scaled(by: factor)
            placeMask = { (mask: Image, scale: Double) throws(ImagingError) -> Image in try mask.scaled(by: factor / scale) }
        }

        // 2. Coloured marks (stamps, signatures, ticks) stay on the page people look at and are
        // left out of the copy OCR reads. Every step that leaves ink out judges a shape by the
        // letters' size: without a measured size (too few letters) no ink is left out.
        let marks = try xHeight.flatMap { (x) throws(ImagingError) in
            try page.colour?.colouredMarkMask(xHeight: x, sheet: sheet, scale: page.colourScale)
        }
        report.colouredMarks = marks?.marks
        page.releaseColour()

        // 3. Even light, then straighten by the skew measured on a black and white copy.
        let even = try placed.evenedLight()
        var turn = 0.0
        if let skew = try even.binarized().measureSkew(), abs(skew.degrees) >= Self.smallestSkew, skew.confidence >= 2.5 {
            report.skewDegrees = skew.degrees
            turn = -skew.degrees
        }
        // The frame whitens a scanner's dark edges; a small picture (a label, a line cut from a
        // screen) has none, and its letters may touch its edge.
        let frame = min(even.width, even.height) >= Self.framedFrom ? Int(Double(even.width) * frameShare) : 0
        let shown = try even.rotated(degrees: turn).whiteFramed(pixels: frame)
        let colourMask = try marks.map { (m) throws(ImagingError) -> Image in try placeMask(m.mask, m.scale).rotated(degrees: turn) }
        var text = try colourMask.map { (mask) throws(ImagingError) -> Image in try shown.whitened(where: mask) } ?? shown
        // 4. Pen strokes in gray or black ink are left out of the copy OCR reads too. A coloured
        // mark's strokes (a stamp over print) are not: the print under them stays.
        let binary = try shown.binarized()
        let strokes = try placedXHeight.flatMap { (x) throws(ImagingError) in try binary.penStrokeMask(xHeight: x, apartFrom: colourMask) }
        if let strokes {
            text = try text.whitened(where: strokes)
            report.penStrokes = true
        }
        // How much of the page's ink was left out: the guard reads a page as it came as well
        // when a step took much of it (letters judged as marks).
        if colourMask != nil || strokes != nil {
            report.inkLeftOut = try binary.share(coveredBy: [colourMask, strokes].compactMap { $0 })
        }
        for image in [shown, text] { image.setResolution(Int(targetDPI.rounded())) }
        return CleanedPage(gray: shown, text: text, report: report)
    }

    /// The page as it came, for the guard's second reading: gray, brought to about 300 DPI only
    /// when its letters show it far from that (as measured for the cleaned page), nothing else.
    public func asIs(_ original: Image, report cleaned: CleanupReport) throws(ImagingError) -> CleanedPage {
        try asIs(PagePixels(original), report: cleaned)
    }

    /// ``asIs(_:report:)`` from a page's gray copy.
    public func asIs(_ page: PagePixels, report cleaned: CleanupReport) throws(ImagingError) -> CleanedPage {
        var gray = page.gray
        let resolution = Self.resolution(page: Self.dpi(forPageWidth: Double(gray.width), height: Double(gray.height)),
                                         recorded: page.recordedDPI, text: cleaned.textDPI)
        // Only a page far from a readable resolution is scaled: in between, the page is read at its
        // own size, as plain OCR reads it (OCR's layout analysis finds a column at one scale and
        // loses it at another; the guard's reading must lose nothing the page as it came shows).
        let far = resolution.dpi < upscaleBelowDPI || (cleaned.textDPI ?? resolution.dpi) < upscaleBelowDPI
            || resolution.dpi > downscaleAboveDPI
        let factor = far ? scaleFactor(for: resolution.dpi, textDPI: cleaned.textDPI, pixels: Double(gray.width * gray.height)) : 1
        gray = try gray.scaled(by: factor)
        // The resolution is recorded below; the caller's image stays as it was.
        if gray === page.gray { gray = try Image.wrap(pixCopy(nil, gray.pix), "pixCopy") }
        let report = CleanupReport(sheet: nil, estimatedDPI: resolution.dpi, dpiSource: resolution.source, textDPI: cleaned.textDPI,
                                   scale: factor, skewDegrees: 0, quarterTurns: 0)
        gray.setResolution(Int(targetDPI.rounded()))
        return CleanedPage(gray: gray, report: report, textIsEven: false)
    }

    /// Measures the letters inside `corners`, settles the page's resolution from them, its size
    /// (`pageSize`, taken as A4) and the file's `recorded` DPI, writes all three findings to
    /// `report`, and returns the factor that brings the page to about 300 DPI.
    /// The x-height returned is the letters' own; nil when there were too few letters to measure.
    /// A picture too small to be a page at a readable resolution (a line cut from a screen, a
    /// label, a receipt's strip) is measured by its few letters (``TextSize/snippetLetters``):
    /// taken as an A4 page it would be a thumbnail, and its letters scaled as such would be
    /// enlarged too little and judged as pen strokes.
    private func measure(_ gray: Image, inside corners: [Point], pageSize: (width: Double, height: Double),
                         recorded: Int?, into report: inout CleanupReport) throws(ImagingError) -> (factor: Double, xHeight: Double?) {
        let region = Self.inside(corners, width: gray.width, height: gray.height)
        let pageDPI = Self.dpi(forPageWidth: pageSize.width, height: pageSize.height)
        var text = try gray.textSize(in: region)
        if text == nil, pageDPI < Self.snippetBelowDPI {
            text = try gray.textSize(in: region, minimumLetters: TextSize.snippetLetters)
        }
        report.textDPI = text.map { ($0.dpi * 10).rounded() / 10 }
        let resolution = Self.resolution(page: pageDPI, recorded: recorded, text: text?.dpi)
        let factor = scaleFactor(for: resolution.dpi, textDPI: text?.dpi, pixels: pageSize.width * pageSize.height)
        report.estimatedDPI = resolution.dpi
        report.dpiSource = resolution.source
        report.scale = factor
        return (factor, text?.xHeight)
    }

    /// A picture that, taken as an A4 page, would be under this resolution is too small to be a
    /// page: its letters are measured even when there are few of them.
    static let snippetBelowDPI = 150.0

    /// The most pixels a page is enlarged to when its letters call for more than the usual
    /// 2.5× (an A4 page at 400 DPI).
    static let enlargedPixelLimit = 16_000_000.0

    /// The factor a page of `dpi` is scaled by: to `targetDPI` below `upscaleBelowDPI` (or with
    /// letters smaller than body text at that resolution: `textDPI`) and above
    /// `downscaleAboveDPI`, to `readableDPI` in between when below it, otherwise 1.
    /// `pixels` is the page's size, for the enlargement's limit.
    func scaleFactor(for dpi: Double, textDPI: Double?, pixels: Double = 0) -> Double {
        let small = dpi < upscaleBelowDPI || (textDPI ?? dpi) < upscaleBelowDPI
        // Never more than 2.5× on a resolution guessed from the size: a page far below 120 DPI
        // is a thumbnail, not a scan. Letters measured at 70–120 px/inch (a screenshot, a photo
        // of a label) are brought to a readable size, up to 4.5× and `enlargedPixelLimit`.
        var most = 2.5
        if textDPI != nil, pixels > 0 { most = max(2.5, min(4.5, (Self.enlargedPixelLimit / pixels).squareRoot())) }
        if small || dpi > downscaleAboveDPI { return min(most, targetDPI / dpi) }
        // A page just under it is not worth a resampling.
        if dpi < 0.98 * readableDPI { return readableDPI / dpi }
        return 1
    }

    /// The box around `corners`, less 4 % on each side (away from sheet and scanner edges),
    /// within the image.
    static func inside(_ corners: [Point], width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let left = max(0, xs.min() ?? 0), right = min(Double(width), xs.max() ?? Double(width))
        let top = max(0, ys.min() ?? 0), bottom = min(Double(height), ys.max() ?? Double(height))
        let dx = (right - left) * 0.04, dy = (bottom - top) * 0.04
        let x = Int(left + dx), y = Int(top + dy)
        return (x, y, max(1, min(width - x, Int(right - left - 2 * dx))), max(1, min(height - y, Int(bottom - top - 2 * dy))))
    }

    /// How far apart two resolution estimates may be and still agree: body text is set at 10 to
    /// 12 pt in faces whose x-height differs by a quarter, and blur in a photo thins letters, so
    /// the letters tell the resolution only to within about this factor.
    static let textAgreement = 1.6

    /// The page's resolution from three witnesses: its size taken as A4 (`page`), the resolution
    /// the file records, and the height of its letters (`text`). The size is the most exact when
    /// the page is A4; the letters decide whether it is. A page that is not A4 (an A5 prescription,
    /// a strip cut from a letter, a long foolscap sheet) or a sheet found in the wrong place gives
    /// a size that the letters contradict; then the file's resolution is taken if the letters
    /// bear it out, and otherwise the letters' own estimate.
    static func resolution(page: Double, recorded: Int?, text: Double?) -> (dpi: Double, source: String) {
        guard let text, text > 0 else { return (page, "page") }
        func agrees(_ dpi: Double) -> Bool { dpi / text < textAgreement && text / dpi < textAgreement }
        if agrees(page) { return (page, "page") }
        if let recorded, (100...1200).contains(recorded), agrees(Double(recorded)) { return (Double(recorded), "file") }
        return (text, "text")
    }

    /// Resolution of a page `width × height` pixels, assuming a letter of A4 size (210 × 297 mm),
    /// in either orientation.
    static func dpi(forPageWidth width: Double, height: Double) -> Double {
        let shortSide = min(width, height), longSide = max(width, height)
        // Use whichever side gives the smaller estimate: cut or cropped pages are never larger than A4.
        return min(shortSide / (210 / 25.4), longSide / (297 / 25.4))
    }
}
