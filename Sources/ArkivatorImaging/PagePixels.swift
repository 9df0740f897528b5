import ArkivatorCore
internal import CLeptonica
import Glibc

/// A page's pixels as cleanup reads them: the page in 8-bit gray at full size, and in colour only
/// where cleanup needs colour (to find coloured marks), possibly at half size.
///
/// A large colour page held as one 32-bit image next to its gray copy is five bytes a pixel (a
/// page at the 60-megapixel limit: 300 MB). Here a large page is one byte a pixel of gray and
/// one more of colour at half size, and cleanup lets the colour go once the marks are found.
public final class PagePixels {
    /// The page in 8-bit gray, full size, with the resolution the file records.
    public let gray: Image
    /// The page in colour at ``colourScale`` of full size; nil for a gray page, and once
    /// cleanup has found the coloured marks (``releaseColour()``).
    public private(set) var colour: Image?
    /// The colour copy's size against the page: 1, or 1/2 for a large page.
    public let colourScale: Double

    /// Pages of at least this many pixels are held lean: colour at half size, gray made in place
    /// of the colour (about an A4 page at 470 DPI, twice a phone photo).
    public static let largePage = 20_000_000

    /// The resolution the file records.
    public var recordedDPI: Int? { gray.recordedDPI }

    init(gray: Image, colour: Image?, colourScale: Double) {
        self.gray = gray
        self.colour = colour
        self.colourScale = colourScale
    }

    /// A page from a decoded image that stays as it is: gray made as a copy (or the image itself
    /// when it is gray already), colour the image itself when it has colour.
    public convenience init(_ image: Image) throws(ImagingError) {
        self.init(gray: try image.grayscale(), colour: image.depth == 32 ? image : nil, colourScale: 1)
    }

    /// A page from a decoded image that nothing else holds, made lean when it is large: its colour
    /// halved into a copy, then its own pixels turned to gray in place and the rest of its memory
    /// given back, so the page never needs room for a full-size gray copy beside the colour one.
    package static func taking(_ image: Image, largePage: Int = largePage) throws(ImagingError) -> PagePixels {
        guard image.width * image.height >= largePage, image.depth == 32 else { return try PagePixels(image) }
        let half = try Image.wrap(pixScaleAreaMap2(image.pix), "pixScaleAreaMap2")
        image.grayInPlace()
        return PagePixels(gray: image, colour: half, colourScale: 0.5)
    }

    /// Lets the colour copy go (cleanup calls this once the coloured marks are found).
    public func releaseColour() {
        colour = nil
    }
}

extension Image {
    /// Turns this 32-bit image into 8-bit gray in its own memory (by luminance, with Leptonica's
    /// weights, as `grayscale()` does), and gives the memory past the gray pixels back to the
    /// system. Only for an image nothing else reads meanwhile.
    func grayInPlace() {
        let w = width, h = height
        guard depth == 32, w >= 4, let data = pixGetData(pix) else { return }
        let grayWords = (w + 3) / 4
        // Raw memory: the same bytes are read as colour words and written as gray bytes.
        let bytes = UnsafeMutableRawPointer(data)
        // Gray row y lies before colour row y from the second row on; in the first row gray byte
        // x overwrites colour pixel x / 4 or earlier, already read. So top to bottom, left to
        // right, nothing is overwritten before it is read.
        for y in 0..<h {
            let source = bytes + y * w * 4
            let target = bytes + y * grayWords * 4
            for x in 0..<w {
                let word = source.load(fromByteOffset: x * 4, as: UInt32.self)
                let r = Float((word >> 24) & 0xFF), g = Float((word >> 16) & 0xFF), b = Float((word >> 8) & 0xFF)
                // Leptonica keeps 8-bit pixels in 32-bit words, most significant byte first: on
                // this little-endian machine byte x of a row is at x ^ 3.
                let value: Float = 0.3 * r + 0.5 * g + 0.2 * b
                target.storeBytes(of: UInt8(min(255, Int(Double(value) + 0.5))), toByteOffset: x ^ 3, as: UInt8.self)
            }
        }
        pixSetDepth(pix, 8)
        pixSetWpl(pix, Int32(grayWords))
        pixSetSpp(pix, 1)
        // The colour rows' memory past the gray: whole pages of it back to the system.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: bytes) + grayWords * 4 * h, end = Int(bitPattern: bytes) + w * 4 * h
        let first = (start + page - 1) / page * page, last = end / page * page
        if last > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) {
            _ = madvise(pointer, last - first, MADV_DONTNEED)
        }
    }
}
