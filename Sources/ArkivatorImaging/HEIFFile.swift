import ArkivatorCore
internal import CArkivatorCodecs
internal import CLeptonica

/// An HEIC/HEIF photo (what an iPhone saves), read through libheif: owns one `heif_context`
/// and frees it when released. Only the primary image is a page; libheif applies the file's
/// own rotation and mirroring when it decodes.
final class HEIFFile {
    private let context: OpaquePointer
    /// The bytes libheif reads from (it keeps no copy): held as long as the context.
    private let bytes: [UInt8]
    let width: Int
    let height: Int

    /// Reads the container and the primary image's size; decodes nothing yet.
    init(_ bytes: [UInt8]) throws(InputError) {
        guard lazy_heif_available() != 0 else { throw InputError.readerMissing(format: "HEIC", library: "libheif") }
        guard let context = lazy_heif_context_alloc() else { throw InputError.undecodable }
        // Tiles of a grid image decoded one after the other, each freed before the next: the
        // workers already read pages side by side, and each decoding thread holds a tile and a decoder.
        lazy_heif_context_set_max_decoding_threads(context, 0)
        let read = bytes.withUnsafeBytes { buffer in
            lazy_heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil)
        }
        var size: (width: Int, height: Int)?
        if let failure = HEIFError(read) {
            lazy_heif_context_free(context)
            throw failure.inputError
        }
        var handle: OpaquePointer?
        if HEIFError(lazy_heif_context_get_primary_image_handle(context, &handle)) == nil, let handle {
            size = (Int(lazy_heif_image_handle_get_width(handle)), Int(lazy_heif_image_handle_get_height(handle)))
            lazy_heif_image_handle_release(handle)
        }
        guard let size else {
            lazy_heif_context_free(context)
            throw InputError.undecodable
        }
        self.context = context
        self.bytes = bytes
        self.width = size.width
        self.height = size.height
    }

    deinit {
        lazy_heif_context_free(context)
    }

    /// The primary image as a 32-bit RGB `Image`.
    func decode() throws(InputError) -> Image {
        try withPixels { plane, stride throws(InputError) -> Image in
            guard let pix = pixCreate(Int32(width), Int32(height), 32) else { throw InputError.undecodable }
            let image = Image(owning: pix)
            guard let data = pixGetData(pix) else { throw InputError.undecodable }
            let wpl = Int(pixGetWpl(pix))
            for y in 0..<height {
                let row = plane + y * stride
                let line = data + y * wpl
                for x in 0..<width {
                    // Leptonica keeps a pixel as 0xRRGGBB00.
                    line[x] = UInt32(row[3 * x]) << 24 | UInt32(row[3 * x + 1]) << 16 | UInt32(row[3 * x + 2]) << 8
                }
            }
            return image
        }
    }

    /// The primary image as a large page is held (``PagePixels``): gray at full size and colour
    /// at half size, each made straight from libheif's pixels.
    func decodeLean() throws(InputError) -> PagePixels {
        if let page = try decodeLeanFromPlanes() { return page }
        return try withPixels { plane, stride throws(InputError) -> PagePixels in
            guard let page = LeanPage(width: width, height: height, colour: true) else { throw InputError.undecodable }
            for y in 0..<height { page.add(rgbRow: plane + y * stride, y: y) }
            return page.pixels
        }
    }

    /// The primary image as it is coded (8-bit luma at full size, chroma at half size): gray from
    /// the luma, as a large JPEG's is, and the half-size colour from chroma and the mean of four
    /// lumas, so the page is never whole in RGB (a 48-megapixel photo: 145 MB saved). Nil for an
    /// image libheif will not give so (more than 8 bits), decoded through RGB instead.
    private func decodeLeanFromPlanes() throws(InputError) -> PagePixels? {
        var handle: OpaquePointer?
        if let failure = HEIFError(lazy_heif_context_get_primary_image_handle(context, &handle)) { throw failure.inputError }
        guard let handle else { throw InputError.undecodable }
        defer { lazy_heif_image_handle_release(handle) }
        guard lazy_heif_image_handle_get_luma_bits_per_pixel(handle) == 8, lazy_heif_image_handle_get_chroma_bits_per_pixel(handle) == 8
        else { return nil }
        var decoded: OpaquePointer?
        if let failure = HEIFError(lazy_heif_decode_image(handle, &decoded, heif_colorspace_YCbCr, heif_chroma_420, nil)) {
            throw failure.inputError
        }
        guard let decoded else { throw InputError.undecodable }
        defer { lazy_heif_image_release(decoded) }
        var strides: (Int32, Int32, Int32) = (0, 0, 0)
        guard [heif_channel_Y, heif_channel_Cb, heif_channel_Cr].allSatisfy({ lazy_heif_image_get_bits_per_pixel_range(decoded, $0) == 8 }),
              let luma = lazy_heif_image_get_plane_readonly(decoded, heif_channel_Y, &strides.0),
              let blue = lazy_heif_image_get_plane_readonly(decoded, heif_channel_Cb, &strides.1),
              let red = lazy_heif_image_get_plane_readonly(decoded, heif_channel_Cr, &strides.2),
              Int(lazy_heif_image_get_width(decoded, heif_channel_Y)) == width,
              Int(lazy_heif_image_get_height(decoded, heif_channel_Y)) == height,
              Int(lazy_heif_image_get_width(decoded, heif_channel_Cb)) >= width / 2,
              Int(lazy_heif_image_get_height(decoded, heif_channel_Cb)) >= height / 2 else { return nil }
        // Full-range BT.601 unless the image says otherwise, as libheif itself assumes.
        var fullRange = true, bt709 = false
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if HEIFError(lazy_heif_image_get_nclx_color_profile(decoded, &nclx)) == nil, let nclx {
            fullRange = nclx.pointee.full_range_flag != 0
            bt709 = nclx.pointee.matrix_coefficients == heif_matrix_coefficients_ITU_R_BT_709_5
            lazy_heif_nclx_color_profile_free(nclx)
        }
        return try ChromaPlanes(luma: luma, lumaStride: Int(strides.0), blue: blue, blueStride: Int(strides.1), red: red,
                                redStride: Int(strides.2), fullRange: fullRange, bt709: bt709)
            .leanPage(width: width, height: height)
    }

    /// Decodes the primary image to interleaved 8-bit RGB and hands its rows to `body` (the first
    /// row, and the bytes from one row to the next).
    private func withPixels<T>(_ body: (UnsafePointer<UInt8>, Int) throws(InputError) -> T) throws(InputError) -> T {
        var handle: OpaquePointer?
        if let failure = HEIFError(lazy_heif_context_get_primary_image_handle(context, &handle)) { throw failure.inputError }
        guard let handle else { throw InputError.undecodable }
        defer { lazy_heif_image_handle_release(handle) }
        var decoded: OpaquePointer?
        if let failure = HEIFError(lazy_heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)) {
            throw failure.inputError
        }
        guard let decoded else { throw InputError.undecodable }
        defer { lazy_heif_image_release(decoded) }
        var stride: Int32 = 0
        guard let plane = lazy_heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride), stride >= 3 * width,
              Int(lazy_heif_image_get_width(decoded, heif_channel_interleaved)) == width,
              Int(lazy_heif_image_get_height(decoded, heif_channel_interleaved)) == height else { throw InputError.undecodable }
        return try body(plane, Int(stride))
    }
}

/// What libheif refused: its one error type, made in one place from a `heif_error`.
struct HEIFError: Error {
    let code: UInt32
    let message: String

    /// The error `result` reports, or nil for success.
    init?(_ result: heif_error) {
        guard result.code != heif_error_Ok else { return nil }
        code = result.code.rawValue
        message = result.message.map { String(cString: $0) } ?? "libheif error \(result.code.rawValue)"
    }

    /// As the user hears it: a file cut off before its end is `truncated`, the rest `undecodable`.
    var inputError: InputError {
        code == heif_error_Invalid_input.rawValue && message.lowercased().contains("end of data") ? .truncated : .undecodable
    }
}
