extension PDFTextLayer {
    /// Each page's text as the PDF holds it, whether or not it could stand in for OCR (a scan's
    /// invisible text too): what `pdftotext` prints, line by line. Nil when the file is no PDF
    /// poppler can open.
    public static func pageTexts(ofPDF bytes: [UInt8]) -> [String]? {
        guard let file = try? PDFFile(bytes) else { return nil }
        return (0..<file.pageCount).map { index in
            file.textLayer(of: index)?.lines.map { $0.map(\.text).joined(separator: " ") }.joined(separator: "\n") ?? ""
        }
    }
}

extension PDFTextLayer {
    /// Each page's text with its words' boxes (pixels at 300 DPI), whether or not it could stand
    /// in for OCR: the text laid over an archive PDF's page images, to make the PDF again with
    /// one page changed. Nil when the file is no PDF poppler can open.
    public static func pageLayers(ofPDF bytes: [UInt8]) -> [PDFTextLayer?]? {
        guard let file = try? PDFFile(bytes) else { return nil }
        return (0..<file.pageCount).map { file.textLayer(of: $0) }
    }
}
