import ArkivatorCore
internal import CArkivatorPNG
internal import CLeptonica

/// A scanned PDF page's one picture, read straight from the file: a page that draws one 8-bit
/// gray or colour picture over the whole page and nothing else that shows (an invisible text
/// layer is allowed). poppler decodes such a picture whole, in 32 bits, before it draws it (a
/// 60-megapixel scan: 240 MB); here a Flate picture is read a row at a time and a JPEG one as
/// JPEG files are (``PagePixels``), so a large scan costs what the same scan as an image file does.
struct PDFPicture: Sendable {
    let width: Int
    let height: Int
    /// 1 (gray) or 3 (RGB) for Flate; what the JPEG says for DCT.
    let channels: Int
    let encoding: Encoding
    /// Where the stored picture is in the file.
    let data: Range<Int>
    /// The picture's resolution on the page.
    let dpi: Int

    enum Encoding: Sendable, Equatable {
        /// zlib, rows as stored or led by PNG filter bytes.
        case flate(pngPredictors: Bool)
        /// A JPEG file as it is.
        case dct
    }

    var pixels: Int { width * height }

    /// The most bytes of drawing instructions a page is read with.
    static let programLimit = 16 << 20

    /// The picture of page `index` (from 0), or nil when the page is anything else: turned,
    /// several pictures or other marks, a picture that does not cover the page, a mask, a
    /// palette, 16 bits or another filter.
    static func find(in objects: PDFObjects, page index: Int) -> PDFPicture? {
        guard let page = objects.page(index), (objects.resolve(page["Rotate"])?.int ?? 0) % 360 == 0,
              let box = (objects.resolve(page["CropBox"]) ?? objects.resolve(page["MediaBox"]))?.array?
                .compactMap({ objects.resolve($0)?.number }), box.count == 4 else { return nil }
        let left = min(box[0], box[2]), bottom = min(box[1], box[3])
        let pageWidth = abs(box[2] - box[0]), pageHeight = abs(box[3] - box[1])
        guard pageWidth >= 1, pageHeight >= 1 else { return nil }
        let contents: [PDFValue]
        switch objects.resolve(page["Contents"]) {
        case .stream(let dictionary, let start)?: contents = [.stream(dictionary, start: start)]
        case .array(let parts)?: contents = parts.compactMap { objects.resolve($0) }
        default: return nil
        }
        // The parts together at most 16 MB, however many times a part is named.
        var program: [UInt8] = []
        for part in contents {
            guard program.count < Self.programLimit,
                  let data = objects.decodedData(part, limit: Self.programLimit - program.count) else { return nil }
            program += data + [10]
        }
        let resources = objects.resolve(page["Resources"])?.dictionary ?? [:]
        let xobjects = objects.resolve(resources["XObject"])?.dictionary ?? [:]
        guard let drawn = PDFPageProgram.onePicture(program), let image = objects.resolve(xobjects[drawn.name]),
              case .stream(let dictionary, _) = image else { return nil }
        let m = drawn.matrix
        let tolerance = max(2, 0.01 * max(pageWidth, pageHeight))
        guard abs(m[1]) < 1e-6, abs(m[2]) < 1e-6, m[0] > 0, m[3] > 0, abs(m[0] - pageWidth) <= tolerance,
              abs(m[3] - pageHeight) <= tolerance, abs(m[4] - left) <= tolerance, abs(m[5] - bottom) <= tolerance else {
            return nil
        }
        func value(_ key: String) -> PDFValue? { objects.resolve(dictionary[key]) }
        guard value("Subtype")?.name == "Image", value("ImageMask") != .bool(true), dictionary["SMask"] == nil,
              dictionary["Mask"] == nil, dictionary["Decode"] == nil, value("BitsPerComponent")?.int == 8,
              let width = value("Width")?.int, let height = value("Height")?.int, width > 0, height > 0,
              width <= 100_000, height <= 100_000, let channels = Self.channels(value("ColorSpace"), objects),
              let data = objects.storedData(image)?.indices else { return nil }
        let encoding: Encoding
        switch PDFObjects.filters(dictionary, resolve: objects.resolve) {
        case ["DCTDecode"]:
            encoding = .dct
        case ["FlateDecode"]:
            let parameters = value("DecodeParms")?.dictionary ?? [:]
            let predictor = objects.resolve(parameters["Predictor"])?.int ?? 1
            if predictor >= 10 {
                guard (objects.resolve(parameters["Colors"])?.int ?? 1) == channels,
                      (objects.resolve(parameters["BitsPerComponent"])?.int ?? 8) == 8,
                      (objects.resolve(parameters["Columns"])?.int ?? 1) == width else { return nil }
            } else if predictor != 1 {
                return nil
            }
            encoding = .flate(pngPredictors: predictor >= 10)
        default:
            return nil
        }
        return PDFPicture(width: width, height: height, channels: channels, encoding: encoding, data: data,
                          dpi: max(1, Int((Double(width) * 72 / pageWidth).rounded())))
    }

    /// Reads the picture from the file's `bytes` as a large page is held: gray at full size,
    /// colour at half size.
    func decodeLean(from bytes: [UInt8]) throws(InputError) -> PagePixels {
        guard data.upperBound <= bytes.count else { throw InputError.damagedPDF }
        switch encoding {
        case .dct:
            let page = try bytes.withUnsafeBufferPointer { file throws(InputError) -> PagePixels? in
                guard let base = file.baseAddress else { throw InputError.damagedPDF }
                return try EncodedPages.leanJPEG(base + data.lowerBound, count: data.count, width: width, height: height,
                                                 exifOrientation: nil)
            }
            guard let page else { throw InputError.undecodable }
            page.gray.setResolution(dpi)
            page.colour?.setResolution(max(1, dpi / 2))
            return page
        case .flate(let pngPredictors):
            guard let page = LeanPage(width: width, height: height, colour: channels == 3) else { throw InputError.undecodable }
            page.setResolution(dpi)
            let sink = PictureRows(page: page, channels: channels)
            let result = bytes.withUnsafeBufferPointer { file -> Int32 in
                guard let base = file.baseAddress else { return -1 }
                return arkivator_flate_read_rows(base + data.lowerBound, data.count, UInt32(height), UInt32(width * channels),
                                                 pngPredictors ? 1 : 0, UInt32(channels),
                                                 Unmanaged.passUnretained(sink).toOpaque()) { context, row, y in
                    guard let context, let row else { return 1 }
                    Unmanaged<PictureRows>.fromOpaque(context).takeUnretainedValue().add(row, y: Int(y))
                    return 0
                }
            }
            guard result == 0 else { throw InputError.damagedPDF }
            return page.pixels
        }
    }

    /// Channels of an 8-bit colour space: gray or RGB (device, calibrated or ICC-based).
    private static func channels(_ space: PDFValue?, _ objects: PDFObjects) -> Int? {
        switch space {
        case .name("DeviceGray")?, .name("CalGray")?: return 1
        case .name("DeviceRGB")?, .name("CalRGB")?: return 3
        case .array(let parts)?:
            guard let kind = parts.first?.name else { return nil }
            switch kind {
            case "CalGray": return 1
            case "CalRGB": return 3
            case "ICCBased":
                guard parts.count == 2, let n = objects.resolve(parts[1])?.dictionary?["N"].flatMap(objects.resolve)?.int,
                      n == 1 || n == 3 else { return nil }
                return n
            default: return nil
            }
        default: return nil
        }
    }
}

/// Where a Flate picture's rows go as zlib gives them.
private final class PictureRows {
    let page: LeanPage
    let channels: Int

    init(page: LeanPage, channels: Int) {
        self.page = page
        self.channels = channels
    }

    func add(_ row: UnsafePointer<UInt8>, y: Int) {
        if channels == 1 { page.add(grayRow: row, y: y) } else { page.add(rgbRow: row, y: y) }
    }
}
