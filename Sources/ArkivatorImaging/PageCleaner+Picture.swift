extension PageCleaner {
    /// The most pixels a picture is read at: more than an A4 page at 300 DPI. A larger picture
    /// is read smaller, so one picture never costs more memory than a page.
    public static let picturePixelLimit = 12_000_000

    /// The picture at `box` (x, y, width, height) of a PDF page drawn at 300 DPI, ready for OCR:
    /// cut out, gray, its light evened, and brought to about 300 DPI by the height of its letters
    /// when they can be measured (a scan pasted small is enlarged), within ``picturePixelLimit``.
    /// Returns the image and the factor it was scaled by (its pixels per page pixel); nil when
    /// `box` lies outside the page (or is a sliver too thin to scale within the limit).
    public func picture(on page: Image, box: [Int]) throws(ImagingError) -> (image: Image, scale: Double)? {
        guard box.count == 4 else { return nil }
        let x = max(0, box[0]), y = max(0, box[1])
        let width = min(page.width - x, box[2] - (x - box[0])), height = min(page.height - y, box[3] - (y - box[1]))
        guard width > 0, height > 0 else { return nil }
        let gray = try page.cropped(x: x, y: y, width: width, height: height).grayscale()
        // Letters are measured only in a picture tall enough to tell them from lines and rules;
        // a strip of a few lines is read at the page's own 300 DPI.
        var factor = (try gray.textSize()).map { scaleFactor(for: $0.dpi, textDPI: $0.dpi) } ?? 1
        // Less a pixel's worth, since the scaled size is rounded.
        let fitting = (Double(Self.picturePixelLimit) / Double(width * height)).squareRoot() - 1 / Double(min(width, height))
        guard fitting > 0 else { return nil }
        factor = min(factor, fitting)
        let image = try gray.scaled(by: factor).evenedLight()
        image.setResolution(Int(targetDPI.rounded()))
        return (image, factor)
    }
}
