import ArkivatorCore
internal import CLeptonica
internal import CPoppler

/// A PDF, read through poppler-glib: owns one `PopplerDocument` (and the bytes it reads from)
/// and releases them when released. A page is rendered at ``dpi`` with cairo when it is read.
final class PDFFile {
    /// The resolution pages are rendered at: what the OCR and the archive images expect.
    static let dpi = 300.0

    private let document: OpaquePointer
    private let data: OpaquePointer
    let pageCount: Int

    /// Opens the document; refuses an encrypted or damaged one. Renders nothing.
    init(_ bytes: [UInt8]) throws(InputError) {
        guard let data = bytes.withUnsafeBytes({ g_bytes_new($0.baseAddress, gsize($0.count)) }) else {
            throw InputError.undecodable
        }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(data, nil, &error) else {
            let code = error?.pointee.code ?? -1
            if let error { g_error_free(error) }
            g_bytes_unref(data)
            throw code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) ? InputError.encrypted : InputError.undecodable
        }
        self.document = document
        self.data = data
        self.pageCount = Int(poppler_document_get_n_pages(document))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(document))
        g_bytes_unref(data)
    }

    /// Page `index` (from 0) in pixels at ``dpi``, from its size in points; nil when it has none.
    func pixelSize(of index: Int) -> (width: Int, height: Int)? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        let scale = Self.dpi / 72
        guard width.isFinite, height.isFinite, width > 0, height > 0, width * scale < 1e9, height * scale < 1e9 else { return nil }
        return (Int((width * scale).rounded()), Int((height * scale).rounded()))
    }

    /// Renders page `index` on white at ``dpi`` as a 32-bit RGB `Image` of `size`.
    func render(_ index: Int, size: (width: Int, height: Int)) throws(InputError) -> Image {
        guard let page = poppler_document_get_page(document, Int32(index)) else {
            throw InputError.undecodable
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(size.width), Int32(size.height)) else {
            throw InputError.undecodable
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            throw InputError.undecodable
        }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, Self.dpi / 72, Self.dpi / 72)
        poppler_page_render_for_printing(page, context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let source = cairo_image_surface_get_data(surface),
              let pix = pixCreate(Int32(size.width), Int32(size.height), 32) else { throw InputError.undecodable }
        let image = Image(owning: pix)
        image.setResolution(Int(Self.dpi))
        guard let target = pixGetData(pix) else { throw InputError.undecodable }
        let wpl = Int(pixGetWpl(pix))
        source.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * size.height) { pixels in
            for y in 0..<size.height {
                let row = pixels + y * (stride / 4)
                let line = target + y * wpl
                // cairo keeps a pixel as 0x00RRGGBB, Leptonica as 0xRRGGBB00.
                for x in 0..<size.width { line[x] = row[x] << 8 }
            }
        }
        return image
    }
}
