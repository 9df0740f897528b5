package import CLeptonica
import ArkivatorCore

/// A page image: owns one Leptonica `PIX` and frees it when released.
///
/// Every operation returns a new `Image`; an `Image` is never changed after it is made. Not
/// `Sendable`: a page is decoded, cleaned and read on one worker thread, and its images stay there
/// (what crosses threads is the JPEG and the text).
public final class Image {
    /// The owned pixels. `package` so that the OCR target can hand them to Tesseract.
    package let pix: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pix`.
    package init(owning pix: UnsafeMutablePointer<PIX>) {
        self.pix = pix
    }

    /// Takes ownership of a result that Leptonica may have failed to make.
    package static func wrap(_ pix: UnsafeMutablePointer<PIX>?, _ operation: String) throws(ImagingError) -> Image {
        guard let pix else { throw ImagingError(operation: operation) }
        return Image(owning: pix)
    }

    deinit {
        var pointer: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&pointer)
    }

    public var width: Int { Int(pixGetWidth(pix)) }
    public var height: Int { Int(pixGetHeight(pix)) }
    /// Bits per pixel: 1, 8 or 32 for the images Arkivator makes.
    public var depth: Int { Int(pixGetDepth(pix)) }

    /// The horizontal resolution recorded in the file, if any.
    public var recordedDPI: Int? {
        var x: Int32 = 0
        var y: Int32 = 0
        guard pixGetResolution(pix, &x, &y) == 0, x > 0 else { return nil }
        return Int(x)
    }

    /// Records a resolution (kept in encoded files, used by OCR).
    package func setResolution(_ dpi: Int) {
        pixSetResolution(pix, Int32(dpi), Int32(dpi))
    }

    /// An 8-bit gray image with `width × height` pixels and the given bytes, row by row.
    public convenience init(gray bytes: [UInt8], width: Int, height: Int) throws(ImagingError) {
        guard width > 0, height > 0, bytes.count == width * height,
              let made = pixCreate(Int32(width), Int32(height), 8) else {
            throw ImagingError(operation: "pixCreate")
        }
        let wpl = Int(pixGetWpl(made))
        if let data = pixGetData(made) {
            bytes.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    let line = data + y * wpl
                    for word in 0..<wpl {
                        var value: UInt32 = 0
                        for k in 0..<4 {
                            let x = word * 4 + k
                            let byte: UInt32 = x < width ? UInt32(source[y * width + x]) : 0
                            value |= byte << UInt32(24 - 8 * k)
                        }
                        line[word] = value
                    }
                }
            }
        }
        self.init(owning: made)
    }

    /// The pixels of an 8-bit image as bytes, row by row (converted to 8-bit gray first if needed).
    public func grayBytes() throws(ImagingError) -> [UInt8] {
        let gray = try depth == 8 ? self : grayscale()
        var data: UnsafeMutablePointer<UInt8>?
        var count = 0
        guard pixGetRasterData(gray.pix, &data, &count) == 0, let data else {
            throw ImagingError(operation: "pixGetRasterData")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// The image as 8-bit gray (colour by luminance; 1-bit black and white as 0 and 255).
    public func grayscale() throws(ImagingError) -> Image {
        if depth == 8 && pixGetColormap(pix) == nil { return self }
        return try .wrap(pixConvertTo8(pix, 0), "pixConvertTo8")
    }
}

/// A Leptonica call that failed. Leptonica reports only that it failed, so this names the call.
public struct ImagingError: UserFacingError, Sendable {
    public let operation: String
    public var errorCode: String { "imaging" }
    public var userMessage: UserMessage {
        UserMessage(nb: "Bildebehandlingen feilet (Leptonica: \(operation)). Prøv et annet bilde av siden, eller meld fra om feilen.",
                    en: "Image processing failed (Leptonica: \(operation)). Try another image of the page, or report the problem.")
    }
}

/// Silences Leptonica's own messages on standard error; Arkivator reports failures itself.
public enum Leptonica {
    public static func silence() {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
    }
}
