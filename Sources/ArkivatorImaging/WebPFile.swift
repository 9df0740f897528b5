import ArkivatorCore
internal import CWebP

/// A large WebP page read through libwebp as its planes (``ChromaPlanes``): Leptonica decodes a
/// WebP whole in 32 bits (240 MB at the page limit), the planes are a third of that.
enum WebPFile {
    /// The page in `bytes` as a large page is held, or nil when libwebp cannot read it so.
    static func decodeLean(_ bytes: [UInt8], width: Int, height: Int) throws(InputError) -> PagePixels? {
        try bytes.withUnsafeBufferPointer { buffer throws(InputError) -> PagePixels? in
            guard let base = buffer.baseAddress else { throw InputError.empty }
            var w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0, chromaStride: Int32 = 0
            var u: UnsafeMutablePointer<UInt8>?, v: UnsafeMutablePointer<UInt8>?
            // One buffer holds all three planes; it is freed through the luma's pointer.
            guard let luma = WebPDecodeYUV(base, buffer.count, &w, &h, &u, &v, &stride, &chromaStride) else {
                throw InputError.undecodable
            }
            defer { WebPFree(luma) }
            guard Int(w) == width, Int(h) == height, let u, let v else { return nil }
            // VP8 codes BT.601 colours at video levels.
            return try ChromaPlanes(luma: luma, lumaStride: Int(stride), blue: u, blueStride: Int(chromaStride), red: v,
                                    redStride: Int(chromaStride), fullRange: false, bt709: false)
                .leanPage(width: width, height: height)
        }
    }
}
