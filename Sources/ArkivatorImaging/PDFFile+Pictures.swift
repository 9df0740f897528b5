internal import CArkivatorCodecs

extension PDFFile {
    /// Where page `index`'s pictures stand: x, y, width, height in pixels at ``dpi``, in the
    /// order the page draws them. Found from the page's drawing instructions: no picture is
    /// decoded.
    ///
    /// None on a page turned a quarter (its size is its crop box's turned): poppler places a
    /// picture there by the corner it starts from, with its width and height unturned, so the
    /// box would lie beside the picture.
    func pictureBoxes(of index: Int) -> [[Int]] {
        guard let page = lazy_poppler_document_get_page(document, Int32(index)) else { return [] }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        var crop = PopplerRectangle()
        lazy_poppler_page_get_crop_box(page, &crop)
        guard abs(abs(crop.x2 - crop.x1) - width) < 0.5, abs(abs(crop.y2 - crop.y1) - height) < 0.5 else { return [] }
        guard let mapping = lazy_poppler_page_get_image_mapping(page) else { return [] }
        defer { lazy_poppler_page_free_image_mapping(mapping) }
        let scale = Self.dpi / 72
        var boxes: [[Int]] = []
        var item: UnsafeMutablePointer<GList>? = mapping
        while let node = item {
            if let image = node.pointee.data?.assumingMemoryBound(to: PopplerImageMapping.self) {
                let area = image.pointee.area
                let edges = [min(area.x1, area.x2), min(area.y1, area.y2), max(area.x1, area.x2), max(area.y1, area.y2)]
                    .map { $0 * scale }
                // A picture drawn far off the page (or at no place at all) is no picture to read.
                if edges.allSatisfy({ $0.isFinite && abs($0) < 1e7 }) {
                    let x = Int(edges[0].rounded()), y = Int(edges[1].rounded())
                    boxes.append([x, y, Int(edges[2].rounded()) - x, Int(edges[3].rounded()) - y])
                }
            }
            item = node.pointee.next
        }
        return boxes
    }

    /// `layer`, page `index`'s text layer, with the pictures OCR should read as well (see
    /// ``PDFTextLayer/readablePictures(_:words:pageWidth:pageHeight:)``).
    func withPictures(_ layer: PDFTextLayer, of index: Int) -> PDFTextLayer {
        guard let size = pixelSize(of: index) else { return layer }
        var layer = layer
        layer.pictures = PDFTextLayer.readablePictures(pictureBoxes(of: index), words: layer.lines.joined().map(\.box),
                                                       pageWidth: size.width, pageHeight: size.height)
        return layer
    }
}
