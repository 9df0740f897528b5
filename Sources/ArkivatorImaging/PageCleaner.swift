/// What cleanup found and did to one page, for tests, logs and `--json`.
public struct CleanupReport: Sendable, Codable, Equatable {
    /// The sheet's corners in the original image, when a photo's sheet edge was found.
    public var sheet: Quad?
    /// The page resolution before scaling, estimated from the sheet or page width (A4).
    public var estimatedDPI: Double
    /// The factor the page was scaled by to reach about 300 DPI.
    public var scale: Double
    /// Measured skew in degrees (positive: turned clockwise), already corrected.
    public var skewDegrees: Double
    /// Quarter turns clockwise applied to make the text upright (set by the OCR stage).
    public var quarterTurns: Int

    /// A PDF page read from its text layer: drawn at 300 DPI, nothing cleaned.
    public static let renderedPDFPage = CleanupReport(sheet: nil, estimatedDPI: 300, scale: 1, skewDegrees: 0, quarterTurns: 0)
}

/// A page ready for OCR and for the archive.
public struct CleanedPage {
    /// Upright, flattened, evened light, about 300 DPI, 8-bit gray: the page people look at.
    public var gray: Image
    /// The same page in black and white, for OCR.
    public var binary: Image
    public var report: CleanupReport

    public init(gray: Image, binary: Image, report: CleanupReport) {
        self.gray = gray
        self.binary = binary
        self.report = report
    }

    /// The page turned by quarter turns (for orientation fixes found by OCR).
    public func rotated(quarterTurns: Int) throws(ImagingError) -> CleanedPage {
        var report = self.report
        report.quarterTurns = ((report.quarterTurns + quarterTurns) % 4 + 4) % 4
        return CleanedPage(gray: try gray.rotated(quarterTurns: quarterTurns),
                           binary: try binary.rotated(quarterTurns: quarterTurns), report: report)
    }
}

/// Cleans one page: finds a photographed sheet and flattens it, scales to about 300 DPI,
/// straightens skewed text, evens out the light and makes a black and white copy for OCR.
public struct PageCleaner: Sendable {
    /// The resolution pages are brought to when they are much below it.
    public var targetDPI: Double = 300
    /// Pages below this resolution are scaled up to `targetDPI`.
    public var upscaleBelowDPI: Double = 250
    /// Pages above this resolution are scaled down to `targetDPI`.
    public var downscaleAboveDPI: Double = 420
    public var sheetDetector = SheetDetector()
    /// Width of the white frame put round every page, as a share of its width (0.6 %: 1.3 mm).
    public var frameShare = 0.006

    public init() {}

    public func clean(_ original: Image) throws(ImagingError) -> CleanedPage {
        var gray = try original.grayscale()
        var report = CleanupReport(sheet: nil, estimatedDPI: 0, scale: 1, skewDegrees: 0, quarterTurns: 0)

        // 1. A sheet on a background (phone photo): flatten its perspective and crop.
        let analysis = try gray.analysisCopy(longSide: 600)
        let small = try analysis.image.grayBytes()
        if let found = sheetDetector.detect(gray: small, width: analysis.image.width, height: analysis.image.height) {
            let quad = found.scaled(by: 1 / analysis.scale)
            let size = quad.meanSize
            let dpi = Self.dpi(forPageWidth: size.width, height: size.height)
            let factor = scaleFactor(for: dpi)
            report.sheet = quad
            report.estimatedDPI = dpi
            report.scale = factor
            // One projective transform flattens, crops and scales at once.
            gray = try gray.flattened(quad, width: Int((size.width * factor).rounded()),
                                      height: Int((size.height * factor).rounded()))
        } else {
            // 2. A scan: the page fills the image; bring it to about 300 DPI.
            let dpi = Self.dpi(forPageWidth: Double(gray.width), height: Double(gray.height))
            let factor = scaleFactor(for: dpi)
            report.estimatedDPI = dpi
            report.scale = factor
            gray = try gray.scaled(by: factor)
        }

        // 3. Even light, then straighten by the skew measured on a black and white copy.
        var even = try gray.evenedLight()
        if let skew = try even.binarized().measureSkew(), abs(skew.degrees) >= 0.05, skew.confidence >= 2.5 {
            report.skewDegrees = skew.degrees
            even = try even.rotated(degrees: -skew.degrees)
        }
        even = try even.whiteFramed(pixels: Int(Double(even.width) * frameShare))
        let binary = try even.binarized()
        even.setResolution(Int(targetDPI.rounded()))
        binary.setResolution(Int(targetDPI.rounded()))
        return CleanedPage(gray: even, binary: binary, report: report)
    }

    private func scaleFactor(for dpi: Double) -> Double {
        // Never more than 2.5×: a page far below 120 DPI is a thumbnail, not a scan.
        if dpi < upscaleBelowDPI || dpi > downscaleAboveDPI { return min(2.5, targetDPI / dpi) }
        return 1
    }

    /// Resolution of a page `width × height` pixels, assuming a letter of A4 size (210 × 297 mm),
    /// in either orientation.
    static func dpi(forPageWidth width: Double, height: Double) -> Double {
        let shortSide = min(width, height), longSide = max(width, height)
        // Use whichever side gives the smaller estimate: cut or cropped pages are never larger than A4.
        return min(shortSide / (210 / 25.4), longSide / (297 / 25.4))
    }
}
