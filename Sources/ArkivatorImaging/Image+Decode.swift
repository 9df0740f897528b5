import ArkivatorCore
internal import CLeptonica

extension Image {
    /// The most pixels one page may have before it is refused unread: 60 megapixels is an A4 page
    /// at 700 DPI, far above any scanner setting people use, and keeps a colour page under 250 MB.
    public static let defaultPixelBudget = 60_000_000

    /// Decodes every page in `bytes` (one for JPEG and PNG, one or more for TIFF).
    ///
    /// The size in the header is checked against `pixelBudget` before any pixels are allocated,
    /// so a decompression bomb is refused at the cost of reading its header.
    public static func decodePages(_ bytes: [UInt8], pixelBudget: Int = defaultPixelBudget) throws(InputError) -> [Image] {
        guard !bytes.isEmpty else { throw .empty }
        return try bytes.withUnsafeBufferPointer { buffer throws(InputError) -> [Image] in
            guard let base = buffer.baseAddress else { throw InputError.empty }
            var format: Int32 = 0
            var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
            guard pixReadHeaderMem(base, buffer.count, &format, &w, &h, &bps, &spp, &cmap) == 0 else {
                throw InputError.undecodable
            }
            let isTIFF = [IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE, IFF_TIFF_G3, IFF_TIFF_G4,
                          IFF_TIFF_LZW, IFF_TIFF_ZIP, IFF_TIFF_JPEG].map { Int32($0) }.contains(format)
            if isTIFF {
                return try decodeTIFF(base, buffer.count, pixelBudget: pixelBudget)
            }
            try checkBudget(width: Int(w), height: Int(h), pixelBudget: pixelBudget)
            guard let pix = pixReadMem(base, buffer.count) else { throw InputError.undecodable }
            let image = Image(owning: pix)
            guard image.width == Int(w), image.height == Int(h) else { throw InputError.undecodable }
            return [image]
        }
    }

    private static func decodeTIFF(_ base: UnsafePointer<UInt8>, _ count: Int,
                                   pixelBudget: Int) throws(InputError) -> [Image] {
        var pages: [Image] = []
        var index: Int32 = 0
        while index < 1000 {
            var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0
            var res: Int32 = 0, cmap: Int32 = 0, format: Int32 = 0
            guard readHeaderMemTiff(base, count, index, &w, &h, &bps, &spp, &res, &cmap, &format) == 0 else { break }
            try checkBudget(width: Int(w), height: Int(h), pixelBudget: pixelBudget)
            guard let pix = pixReadMemTiff(base, count, index) else { throw InputError.undecodable }
            pages.append(Image(owning: pix))
            index += 1
        }
        guard !pages.isEmpty else { throw InputError.noPages }
        return pages
    }

    private static func checkBudget(width: Int, height: Int, pixelBudget: Int) throws(InputError) {
        guard width > 0, height > 0 else { throw InputError.undecodable }
        guard width.multipliedReportingOverflow(by: height).partialValue <= pixelBudget,
              width <= 100_000, height <= 100_000 else {
            throw InputError.tooLarge(width: width, height: height, limit: pixelBudget)
        }
    }
}
