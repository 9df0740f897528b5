import ArkivatorCore
internal import CLeptonica

extension Image {
    /// The most pixels one page may have before it is refused unread: 60 megapixels is an A4 page
    /// at 700 DPI, far above any scanner setting people use, and keeps a colour page under 250 MB.
    public static let defaultPixelBudget = 60_000_000

    /// The most pages one document may have: a long hospital record is some tens of pages; a
    /// file with more is refused before any page is decoded (a TIFF may repeat one small
    /// compressed page thousands of times).
    public static let maximumPages = 100

    /// The most pixels all pages of one document may hold together: 1.5 gigapixels is some 170
    /// A4 pages at 300 DPI, more than ``maximumPages`` ordinary pages, but only 25 pages at the
    /// page budget (a document that would take hours to read).
    public static let documentPixelBudget = 1_500_000_000

    /// Decodes every page in `bytes` (one for JPEG and PNG, one or more for TIFF), after checking
    /// them all from their headers (see ``EncodedPages/inspect(_:pixelBudget:pageLimit:)``).
    public static func decodePages(_ bytes: [UInt8], pixelBudget: Int = defaultPixelBudget) throws(InputError) -> [Image] {
        let pages = try EncodedPages.inspect(bytes, pixelBudget: pixelBudget)
        var images: [Image] = []
        for index in 0..<pages.count { images.append(try pages.decode(page: index)) }
        return images
    }
}

/// The pages of one image file, checked from their headers before any pixel is decoded; each
/// page is decoded on its own, when it is read, so a file costs one page's pixels at a time.
public struct EncodedPages: Sendable {
    /// The file's bytes (shared, not copied, between pages); for a file left on disk, its header.
    let bytes: [UInt8]
    let container: Container
    /// A large bitmap's file, read from disk when its pixels are (see ``ReceivedFile/onDisk``).
    let onDisk: FileOnDisk?
    /// For a PDF, each page's one large picture when it is a scan read straight from the file
    /// (``PDFPicture``), its size then the page's; empty for other files.
    private let pictures: [PDFPicture?]

    enum Container: Sendable {
        /// One image Leptonica reads (JPEG, PNG, WebP; a GIF's first frame; an uncompressed bitmap).
        case image
        /// Pages Leptonica reads one by one.
        case tiff
        /// An HEIC/HEIF photo, read through libheif.
        case heif
        /// A PDF, its pages rendered at 300 DPI through poppler.
        case pdf
    }
    /// Width and height of each page, from its header (as stored, before any EXIF turn).
    public let sizes: [(width: Int, height: Int)]
    /// The pixels of all pages together.
    public var pixels: Int { sizes.reduce(0) { $0 + $1.width * $1.height } }
    /// A JPEG's EXIF orientation (2…8), applied when its page is decoded; nil for none.
    public let exifOrientation: Int?
    /// For a PDF, each page's text layer where it can stand in for OCR (see
    /// ``PDFTextLayer/isTrustworthy``); empty for other files.
    private let textLayers: [PDFTextLayer?]

    private init(bytes: [UInt8], container: Container, sizes: [(width: Int, height: Int)], exifOrientation: Int?,
                 textLayers: [PDFTextLayer?] = [], onDisk: FileOnDisk? = nil, pictures: [PDFPicture?] = []) {
        self.bytes = bytes
        self.pictures = pictures
        self.container = container
        self.onDisk = onDisk
        self.sizes = sizes
        self.exifOrientation = exifOrientation
        self.textLayers = textLayers
    }

    /// Whether the file is a PDF.
    public var isPDF: Bool { container == .pdf }

    /// Whether every page is a PDF page with a trustworthy text layer: a letter made on a
    /// computer, read without OCR and kept as it came.
    public var isDigitalPDF: Bool { container == .pdf && !textLayers.isEmpty && textLayers.allSatisfy { $0 != nil } }

    /// Page `index`'s text layer when it can stand in for OCR, else nil (then the page is read
    /// from its pixels).
    public func textLayer(page index: Int) -> PDFTextLayer? {
        textLayers.indices.contains(index) ? textLayers[index] : nil
    }

    public var count: Int { sizes.count }

    /// Page `index`'s picture when the page is a large scan read straight from the PDF.
    func picture(page index: Int) -> PDFPicture? {
        pictures.indices.contains(index) ? pictures[index] : nil
    }

    /// Reads the headers: refuses a file that is no image, a page over `pixelBudget`, and a file
    /// that would take its document over `pageLimit` pages or over `documentPixelBudget` pixels,
    /// counting the `pagesBefore` and `pixelsBefore` of the document's earlier files (counting
    /// stops there, so a huge TIFF costs little). `onDisk` is the file of a bitmap left on disk,
    /// `bytes` then its header only. A scanned PDF page whose one picture has at least
    /// `largePicture` pixels is read from that picture (``PDFPicture``); the parameter is for tests.
    public static func inspect(_ bytes: [UInt8], onDisk: FileOnDisk? = nil, pixelBudget: Int = Image.defaultPixelBudget,
                               pagesBefore: Int = 0, pageLimit: Int = Image.maximumPages,
                               pixelsBefore: Int = 0,
                               documentPixelBudget: Int = Image.documentPixelBudget,
                               largePicture: Int = PagePixels.largePage) throws(InputError) -> EncodedPages {
        let budget = { (pixels: Int) throws(InputError) in
            guard pixelsBefore + pixels <= documentPixelBudget else {
                throw InputError.documentTooLarge(megapixels: (pixelsBefore + pixels) / 1_000_000,
                                                  limit: documentPixelBudget / 1_000_000)
            }
        }
        let pages = try inspectPages(bytes, onDisk: onDisk, pixelBudget: pixelBudget, pagesBefore: pagesBefore,
                                     pageLimit: pageLimit, largePicture: largePicture, documentBudget: budget)
        try budget(pages.pixels)
        return pages
    }

    /// ``inspect(_:pixelBudget:pagesBefore:pageLimit:pixelsBefore:documentPixelBudget:)`` but for
    /// the document budget, which `documentBudget` checks (a PDF's before its text is read).
    private static func inspectPages(_ bytes: [UInt8], onDisk: FileOnDisk?, pixelBudget: Int, pagesBefore: Int,
                                     pageLimit: Int, largePicture: Int,
                                     documentBudget: (Int) throws(InputError) -> Void) throws(InputError) -> EncodedPages {
        guard !bytes.isEmpty else { throw .empty }
        if let onDisk {
            if FileSignature.isBMP(bytes) {
                guard pagesBefore < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
                let file = try BMPFile(bytes, fileSize: onDisk.size)
                try checkBudget(width: file.width, height: file.height, pixelBudget: pixelBudget)
                return EncodedPages(bytes: bytes, container: .image, sizes: [(file.width, file.height)], exifOrientation: nil,
                                    onDisk: onDisk)
            }
            // A TIFF measured from its directories, read from disk a piece at a time.
            guard let sizes = TIFFBands.pageSizes(in: try DiskBytes(onDisk), limit: pageLimit - pagesBefore) else {
                throw InputError.undecodable
            }
            guard pagesBefore + sizes.count <= pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
            for size in sizes { try checkBudget(width: size.width, height: size.height, pixelBudget: pixelBudget) }
            return EncodedPages(bytes: bytes, container: .tiff, sizes: sizes, exifOrientation: nil, onDisk: onDisk)
        }
        if FileSignature.isPDF(bytes) {
            let file = try PDFFile(bytes)
            guard file.pageCount > 0 else { throw InputError.noPages }
            guard pagesBefore + file.pageCount <= pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
            var sizes: [(width: Int, height: Int)] = []
            for index in 0..<file.pageCount {
                guard let size = file.pixelSize(of: index) else { throw InputError.damagedPDF }
                try checkPDFPageSize(size)
                try checkBudget(width: size.width, height: size.height, pixelBudget: pixelBudget)
                sizes.append(size)
            }
            try documentBudget(sizes.reduce(0) { $0 + $1.width * $1.height })
            let layers = (0..<file.pageCount).map { index in
                file.textLayer(of: index).flatMap { $0.isTrustworthy ? file.withPictures($0, of: index) : nil }
            }
            // A scanned page whose one picture is large is read from the picture itself, at its
            // own resolution: poppler would decode it whole in 32 bits to draw it.
            var pictures = [PDFPicture?](repeating: nil, count: file.pageCount)
            if layers.contains(where: { $0 == nil }), let objects = PDFObjects(bytes) {
                for index in 0..<file.pageCount where layers[index] == nil {
                    guard let picture = PDFPicture.find(in: objects, page: index), picture.pixels >= largePicture,
                          picture.pixels <= pixelBudget else { continue }
                    pictures[index] = picture
                    sizes[index] = (picture.width, picture.height)
                }
                try documentBudget(sizes.reduce(0) { $0 + $1.width * $1.height })
            }
            return EncodedPages(bytes: bytes, container: .pdf, sizes: sizes, exifOrientation: nil, textLayers: layers,
                                pictures: pictures)
        }
        if FileSignature.isHEIF(bytes) {
            guard pagesBefore < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
            let file = try HEIFFile(bytes)
            try checkBudget(width: file.width, height: file.height, pixelBudget: pixelBudget)
            return EncodedPages(bytes: bytes, container: .heif, sizes: [(file.width, file.height)], exifOrientation: nil)
        }
        // Leptonica reads a GIF's or a bitmap's size only by decoding it: their headers are read here.
        if FileSignature.isGIF(bytes) {
            guard pagesBefore < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
            let file = try GIFFile(bytes)
            try checkBudget(width: file.width, height: file.height, pixelBudget: pixelBudget)
            return EncodedPages(bytes: file.firstFrame, container: .image, sizes: [(file.width, file.height)], exifOrientation: nil)
        }
        if FileSignature.isBMP(bytes) {
            guard pagesBefore < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
            let file = try BMPFile(bytes)
            try checkBudget(width: file.width, height: file.height, pixelBudget: pixelBudget)
            return EncodedPages(bytes: file.decodable, container: .image, sizes: [(file.width, file.height)], exifOrientation: nil)
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(InputError) -> EncodedPages in
            guard let base = buffer.baseAddress else { throw InputError.empty }
            var format: Int32 = 0
            var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
            guard pixReadHeaderMem(base, buffer.count, &format, &w, &h, &bps, &spp, &cmap) == 0 else {
                throw InputError.undecodable
            }
            let isTIFF = [IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE, IFF_TIFF_G3, IFF_TIFF_G4,
                          IFF_TIFF_LZW, IFF_TIFF_ZIP, IFF_TIFF_JPEG].map { Int32($0) }.contains(format)
            guard isTIFF else {
                guard pagesBefore < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
                try checkBudget(width: Int(w), height: Int(h), pixelBudget: pixelBudget)
                let turn = format == Int32(IFF_JFIF_JPEG) ? ExifOrientation.of(jpeg: bytes).flatMap { $0 == 1 ? nil : $0 } : nil
                return EncodedPages(bytes: bytes, container: .image, sizes: [(Int(w), Int(h))], exifOrientation: turn)
            }
            var sizes: [(width: Int, height: Int)] = []
            while true {
                var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0
                var res: Int32 = 0, cmap: Int32 = 0, format: Int32 = 0
                guard readHeaderMemTiff(base, buffer.count, Int32(sizes.count), &w, &h, &bps, &spp, &res, &cmap,
                                        &format) == 0 else { break }
                guard pagesBefore + sizes.count < pageLimit else { throw InputError.tooManyPages(limit: pageLimit) }
                try checkBudget(width: Int(w), height: Int(h), pixelBudget: pixelBudget)
                sizes.append((Int(w), Int(h)))
            }
            guard !sizes.isEmpty else { throw InputError.noPages }
            return EncodedPages(bytes: bytes, container: .tiff, sizes: sizes, exifOrientation: nil)
        }
    }

    /// Decodes page `index` (from 0), checking that it is the size its header promised, and
    /// turns it upright as its EXIF orientation says (so a phone photo needs no detection).
    public func decode(page index: Int) throws(InputError) -> Image {
        guard sizes.indices.contains(index) else { throw InputError.noPages }
        if let onDisk { return try readWhole(onDisk).decode(page: index) }
        if container == .pdf {
            return try PDFFile(bytes).render(index, size: sizes[index])
        }
        if container == .heif {
            let image = try HEIFFile(bytes).decode()
            guard image.width == sizes[index].width, image.height == sizes[index].height else { throw InputError.undecodable }
            return image
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(InputError) -> Image in
            guard let base = buffer.baseAddress else { throw InputError.empty }
            let pix = container == .tiff ? pixReadMemTiff(base, buffer.count, Int32(index)) : pixReadMem(base, buffer.count)
            guard let pix else { throw InputError.undecodable }
            let image = Image(owning: pix)
            guard image.width == sizes[index].width, image.height == sizes[index].height else { throw InputError.undecodable }
            guard let exifOrientation else { return image }
            do {
                return try image.upright(exifOrientation: exifOrientation)
            } catch {
                throw InputError.undecodable
            }
        }
    }

    /// A file left on disk read whole after all (for a page no band reader takes), checked to be
    /// the file measured before.
    func readWhole(_ onDisk: FileOnDisk) throws(InputError) -> EncodedPages {
        let whole = try EncodedPages.inspect(onDisk.readAll())
        guard whole.sizes.count == sizes.count, zip(whole.sizes, sizes).allSatisfy({ $0 == $1 }) else {
            throw InputError.changedWhileRead
        }
        return whole
    }

    /// A PDF page larger than PDF itself allows (14,400 points a side, 5.08 m: ISO 32000-1, annex C)
    /// is no real sheet: said so, rather than asking for a lower scan resolution.
    private static func checkPDFPageSize(_ size: (width: Int, height: Int)) throws(InputError) {
        let points = (width: Int((Double(size.width) * 72 / PDFFile.dpi).rounded()),
                      height: Int((Double(size.height) * 72 / PDFFile.dpi).rounded()))
        guard points.width <= 14_400, points.height <= 14_400 else {
            throw InputError.absurdPageSize(widthPoints: points.width, heightPoints: points.height)
        }
    }

    private static func checkBudget(width: Int, height: Int, pixelBudget: Int) throws(InputError) {
        guard width > 0, height > 0 else { throw InputError.undecodable }
        guard width.multipliedReportingOverflow(by: height).partialValue <= pixelBudget,
              width <= 100_000, height <= 100_000 else {
            throw InputError.tooLarge(width: width, height: height, limit: pixelBudget)
        }
    }
}
