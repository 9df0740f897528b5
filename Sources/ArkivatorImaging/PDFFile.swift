import ArkivatorCore
internal import CLeptonica
internal import CArkivatorCodecs
import Foundation

/// A PDF, read through poppler-glib: owns one `PopplerDocument` (and the bytes it reads from)
/// and releases them when released. A page is rendered at ``dpi`` with cairo when it is read.
final class PDFFile {
    /// The resolution pages are rendered at: what the OCR and the archive images expect.
    static let dpi = 300.0

    /// Held while a page is drawn: one page at a time in the whole process. poppler decodes each
    /// picture on a page whole before drawing it (a 60-megapixel scan on an A4 page: 240 MB for a
    /// moment), which the workers' pixel budget, counting the page's own pixels, cannot see;
    /// drawing is a small part of reading a page, so the workers lose little by taking turns.
    private static let drawing = NSLock()

    let document: OpaquePointer
    private let data: OpaquePointer
    let pageCount: Int

    /// Opens the document; refuses an encrypted or damaged one. Renders nothing.
    init(_ bytes: [UInt8]) throws(InputError) {
        guard lazy_poppler_available() != 0 else { throw InputError.readerMissing(format: "PDF", library: "poppler-glib") }
        guard let data = bytes.withUnsafeBytes({ lazy_g_bytes_new($0.baseAddress, gsize($0.count)) }) else {
            throw InputError.damagedPDF
        }
        var error: UnsafeMutablePointer<GError>?
        guard let document = lazy_poppler_document_new_from_bytes(data, nil, &error) else {
            let code = error?.pointee.code ?? -1
            if let error { lazy_g_error_free(error) }
            lazy_g_bytes_unref(data)
            throw code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) ? InputError.encrypted : InputError.damagedPDF
        }
        self.document = document
        self.data = data
        self.pageCount = Int(lazy_poppler_document_get_n_pages(document))
    }

    deinit {
        lazy_g_object_unref(UnsafeMutableRawPointer(document))
        lazy_g_bytes_unref(data)
    }

    /// Page `index` (from 0) in pixels at ``dpi``, from its size in points; nil when it has none.
    func pixelSize(of index: Int) -> (width: Int, height: Int)? {
        guard let page = lazy_poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        let scale = Self.dpi / 72
        guard width.isFinite, height.isFinite, width > 0, height > 0, width * scale < 1e9, height * scale < 1e9 else { return nil }
        return (Int((width * scale).rounded()), Int((height * scale).rounded()))
    }

    /// Page `index`'s text layer with each word's box, or nil when it has none (a scan, a page
    /// drawn as outlines) or its text and character boxes disagree.
    func textLayer(of index: Int) -> PDFTextLayer? {
        guard let page = lazy_poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0 else { return nil }
        var covered = 0.0
        if let mapping = lazy_poppler_page_get_image_mapping(page) {
            var item: UnsafeMutablePointer<GList>? = mapping
            while let node = item {
                if let image = node.pointee.data?.assumingMemoryBound(to: PopplerImageMapping.self) {
                    let area = image.pointee.area
                    let w = min(max(area.x1, area.x2), width) - max(min(area.x1, area.x2), 0)
                    let h = min(max(area.y1, area.y2), height) - max(min(area.y1, area.y2), 0)
                    if w > 0, h > 0 { covered += w * h }
                }
                item = node.pointee.next
            }
            lazy_poppler_page_free_image_mapping(mapping)
        }
        guard let raw = lazy_poppler_page_get_text(page) else { return nil }
        let text = String(cString: raw)
        lazy_g_free(raw)
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard lazy_poppler_page_get_text_layout(page, &rectangles, &count) != 0 || text.isEmpty else { return nil }
        defer { lazy_g_free(rectangles) }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == Int(count) || scalars.isEmpty else { return nil }
        let scale = Self.dpi / 72
        var lines: [[PDFTextLayer.Word]] = [[]]
        var word = "", box: (x1: Double, y1: Double, x2: Double, y2: Double)?
        func endWord() {
            if let b = box, !word.isEmpty {
                let x = Int((b.x1 * scale).rounded()), y = Int((b.y1 * scale).rounded())
                lines[lines.count - 1].append(PDFTextLayer.Word(
                    text: word, box: [x, y, max(1, Int((b.x2 * scale).rounded()) - x), max(1, Int((b.y2 * scale).rounded()) - y)]))
            }
            word = ""
            box = nil
        }
        for (offset, scalar) in scalars.enumerated() {
            if scalar == "\n" {
                endWord()
                lines.append([])
            } else if scalar.properties.isWhitespace {
                endWord()
            } else if let r = rectangles?[offset] {
                word.unicodeScalars.append(scalar)
                let (x1, x2, y1, y2) = (min(r.x1, r.x2), max(r.x1, r.x2), min(r.y1, r.y2), max(r.y1, r.y2))
                box = box.map { (min($0.x1, x1), min($0.y1, y1), max($0.x2, x2), max($0.y2, y2)) } ?? (x1, y1, x2, y2)
            }
        }
        endWord()
        return PDFTextLayer(lines: lines.filter { !$0.isEmpty }, imageCoverage: min(1, covered / (width * height)))
    }

    /// Renders page `index` on white at ``dpi`` as a large page is held (``PagePixels``): a band
    /// of rows at a time, each band turned into gray rows and half-size colour rows at once, so
    /// the page is never whole in 32 bits.
    func renderLean(_ index: Int, size: (width: Int, height: Int)) throws(InputError) -> PagePixels {
        Self.drawing.lock()
        defer { Self.drawing.unlock() }
        guard let page = lazy_poppler_document_get_page(document, Int32(index)) else { throw InputError.damagedPDF }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        guard let lean = LeanPage(width: size.width, height: size.height, colour: true) else { throw InputError.undecodable }
        lean.setResolution(Int(Self.dpi))
        let bandRows = min(size.height, 1024)
        guard let pix = pixCreate(Int32(size.width), Int32(bandRows), 32) else { throw InputError.undecodable }
        let band = Image(owning: pix)
        let wpl = Int(pixGetWpl(band.pix))
        guard let target = pixGetData(band.pix),
              lazy_cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(size.width)) == Int32(wpl * 4) else {
            throw InputError.undecodable
        }
        let raw = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
        var top = 0
        while top < size.height {
            let rows = min(bandRows, size.height - top)
            try Self.draw(page, into: raw, width: size.width, rows: rows, from: top, stride: wpl * 4,
                          scale: Self.scale(of: page, to: size))
            for y in 0..<rows {
                let line = target + y * wpl
                // cairo keeps a pixel as 0x00RRGGBB, Leptonica as 0xRRGGBB00.
                for x in 0..<size.width { line[x] <<= 8 }
                lean.add(wordRow: line, y: top + y)
            }
            top += rows
        }
        return lean.pixels
    }

    /// From points to pixels: ``dpi`` for a page drawn at its size at ``dpi``, else what fits the
    /// page to `size` (a scan's page drawn at its picture's own resolution).
    private static func scale(of page: OpaquePointer, to size: (width: Int, height: Int)) -> (x: Double, y: Double) {
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        let usual = dpi / 72
        guard width > 0, height > 0, Int((width * usual).rounded()) != size.width || Int((height * usual).rounded()) != size.height else {
            return (usual, usual)
        }
        return (Double(size.width) / width, Double(size.height) / height)
    }

    /// Draws rows `top ..< top + rows` of `page` on white at ``dpi`` into `raw` (cairo's RGB24
    /// order, `stride` bytes a row): cairo draws straight into memory the caller owns.
    private static func draw(_ page: OpaquePointer, into raw: UnsafeMutablePointer<UInt8>, width: Int, rows: Int,
                             from top: Int, stride: Int, scale: (x: Double, y: Double)) throws(InputError) {
        guard let surface = lazy_cairo_image_surface_create_for_data(raw, CAIRO_FORMAT_RGB24, Int32(width), Int32(rows),
                                                                Int32(stride)) else {
            throw InputError.undecodable
        }
        defer { lazy_cairo_surface_destroy(surface) }
        guard lazy_cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = lazy_cairo_create(surface) else {
            throw InputError.undecodable
        }
        lazy_cairo_set_source_rgb(context, 1, 1, 1)
        lazy_cairo_paint(context)
        lazy_cairo_translate(context, 0, -Double(top))
        lazy_cairo_scale(context, scale.x, scale.y)
        lazy_poppler_page_render_for_printing(page, context)
        lazy_cairo_destroy(context)
        lazy_cairo_surface_flush(surface)
    }

    /// Renders page `index` on white at ``dpi`` as a 32-bit RGB `Image` of `size`. cairo draws
    /// straight into the image's own pixels (one page in memory, not two), which are then turned
    /// in place from cairo's order to Leptonica's.
    func render(_ index: Int, size: (width: Int, height: Int)) throws(InputError) -> Image {
        Self.drawing.lock()
        defer { Self.drawing.unlock() }
        guard let page = lazy_poppler_document_get_page(document, Int32(index)) else {
            throw InputError.damagedPDF
        }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        guard let pix = pixCreate(Int32(size.width), Int32(size.height), 32) else { throw InputError.undecodable }
        let image = Image(owning: pix)
        image.setResolution(Int(Self.dpi))
        let wpl = Int(pixGetWpl(pix))
        guard let target = pixGetData(pix),
              lazy_cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(size.width)) == Int32(wpl * 4) else {
            throw InputError.undecodable
        }
        let raw = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
        try Self.draw(page, into: raw, width: size.width, rows: size.height, from: 0, stride: wpl * 4,
                      scale: Self.scale(of: page, to: size))
        for y in 0..<size.height {
            let line = target + y * wpl
            // cairo keeps a pixel as 0x00RRGGBB, Leptonica as 0xRRGGBB00.
            for x in 0..<size.width { line[x] <<= 8 }
        }
        return image
    }
}
