import ArkivatorCore
internal import CLeptonica

extension Image {
    /// The width of a thumbnail in pixels: sharp at twice the size it is shown in lists.
    public static let thumbnailWidth = 160

    /// This page as a small JPEG `width` pixels wide (a few kB), for lists: area-averaged in steps
    /// of at most ten times, so a large page shrinks smoothly.
    public func thumbnailJPEG(width: Int = Image.thumbnailWidth, quality: Int = 70) throws(ImagingError) -> [UInt8] {
        // Colour stays colour; anything else (1-bit, a colour map, 16-bit) as 8-bit gray.
        var small = depth == 32 ? self : try grayscale()
        while small.width > width {
            let factor = max(0.1, Double(width) / Double(small.width))
            small = try small.scaled(by: factor)
        }
        return try small.jpegData(quality: quality)
    }

    /// The first page of an image file or PDF (as ``EncodedPages`` reads them) as a thumbnail. A
    /// JPEG (an archived page) is decoded at an eighth, a quarter or half its size where that is
    /// still wider than the thumbnail: a fraction of the time and memory of the whole page.
    public static func thumbnailJPEG(firstPageOf bytes: [UInt8], width: Int = Image.thumbnailWidth) throws -> [UInt8] {
        let pages = try EncodedPages.inspect(bytes)
        guard let size = pages.sizes.first else { throw InputError.noPages }
        if bytes.starts(with: [0xFF, 0xD8]), pages.exifOrientation == nil {
            let reduction = [8, 4, 2].first { size.width / $0 >= width } ?? 1
            let reduced = bytes.withUnsafeBufferPointer { buffer -> Image? in
                guard let base = buffer.baseAddress else { return nil }
                var warnings: Int32 = 0
                return pixReadMemJpeg(base, buffer.count, 0, Int32(reduction), &warnings, 0).map(Image.init(owning:))
            }
            if let reduced { return try reduced.thumbnailJPEG(width: width) }
        }
        return try pages.decode(page: 0).thumbnailJPEG(width: width)
    }
}
