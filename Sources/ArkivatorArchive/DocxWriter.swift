import Foundation

/// Writes a ``DocxContent`` as a Word document (`.docx`, WordprocessingML), readable by Word,
/// LibreOffice and python-docx.
///
/// Parts: `[Content_Types].xml` (first in the zip), `_rels/.rels`, `word/document.xml`,
/// `word/_rels/document.xml.rels`, `word/styles.xml`, `word/header1.xml`, `word/footer1.xml`,
/// `docProps/core.xml`, `docProps/app.xml` and `docProps/custom.xml`. A4 pages, 2.5 cm margins.
/// The same content gives the same bytes (every zip entry carries ``DocxContent/created``).
public struct DocxWriter: Sendable {
    public var content: DocxContent

    public init(content: DocxContent) {
        self.content = content
    }

    /// Writes the document to `url` (replacing any file there). Give a temporary path and rename
    /// it into place: libzip writes beside `url` and renames, but a crash can still leave a file
    /// named `url` missing, never half-written.
    public func write(to url: URL) throws(ZipError) {
        let writer = try ZipWriter(url: url, modified: content.created)
        for part in parts() { try writer.add(path: part.path, data: part.data) }
        try writer.close()
    }

    /// The document's bytes, built in memory.
    public func data() throws(ZipError) -> [UInt8] {
        try ZipWriter.archive(parts(), modified: content.created)
    }

    /// Every part, `[Content_Types].xml` first.
    func parts() -> [(path: String, data: [UInt8])] {
        [
            ("[Content_Types].xml", contentTypes),
            ("_rels/.rels", packageRelationships),
            ("word/document.xml", document),
            ("word/_rels/document.xml.rels", documentRelationships),
            ("word/styles.xml", styles),
            ("word/header1.xml", header),
            ("word/footer1.xml", footer),
            ("docProps/core.xml", coreProperties),
            ("docProps/app.xml", appProperties),
            ("docProps/custom.xml", customProperties),
        ].map { (path: $0.0, data: Array((DocxXML.declaration + $0.1).utf8)) }
    }

    // MARK: Package

    private var contentTypes: String {
        let main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
        return """
            <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/word/document.xml" ContentType="\(main).document.main+xml"/>\
            <Override PartName="/word/styles.xml" ContentType="\(main).styles+xml"/>\
            <Override PartName="/word/header1.xml" ContentType="\(main).header+xml"/>\
            <Override PartName="/word/footer1.xml" ContentType="\(main).footer+xml"/>\
            <Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>\
            <Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>\
            <Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>\
            </Types>
            """
    }

    private var packageRelationships: String {
        let office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        return """
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="\(office)/officeDocument" Target="word/document.xml"/>\
            <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>\
            <Relationship Id="rId3" Type="\(office)/extended-properties" Target="docProps/app.xml"/>\
            <Relationship Id="rId4" Type="\(office)/custom-properties" Target="docProps/custom.xml"/>\
            </Relationships>
            """
    }

    private var documentRelationships: String {
        let office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        return """
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="\(office)/styles" Target="styles.xml"/>\
            <Relationship Id="rId2" Type="\(office)/header" Target="header1.xml"/>\
            <Relationship Id="rId3" Type="\(office)/footer" Target="footer1.xml"/>\
            </Relationships>
            """
    }

    // MARK: Word

    private var document: String {
        var body = DocxXML.paragraph(style: "Heading1", DocxXML.run(content.title))
        for runs in content.paragraphs {
            body += DocxXML.paragraph(style: nil, runs.map(DocxXML.run).joined())
        }
        // A4, 2.5 cm margins, header and footer 1.25 cm from the edge.
        return """
            <w:document xmlns:w="\(DocxXML.wordNamespace)" xmlns:r="\(DocxXML.relationshipNamespace)"><w:body>\
            \(body)\
            <w:sectPr><w:headerReference w:type="default" r:id="rId2"/><w:footerReference w:type="default" r:id="rId3"/>\
            <w:pgSz w:w="11906" w:h="16838"/>\
            <w:pgMar w:top="1417" w:right="1417" w:bottom="1417" w:left="1417" w:header="709" w:footer="709" w:gutter="0"/>\
            </w:sectPr></w:body></w:document>
            """
    }

    private var header: String {
        var runs = ""
        for field in content.headerFields where !field.value.isEmpty {
            if !runs.isEmpty { runs += DocxXML.run(" · ") }
            runs += DocxXML.run(field.label + ":", properties: "<w:b/>") + DocxXML.run(" " + field.value)
        }
        return "<w:hdr xmlns:w=\"\(DocxXML.wordNamespace)\">\(DocxXML.paragraph(style: "Header", runs))</w:hdr>"
    }

    private var footer: String {
        "<w:ftr xmlns:w=\"\(DocxXML.wordNamespace)\">\(DocxXML.paragraph(style: "Footer", DocxXML.run(content.footer)))</w:ftr>"
    }

    private var styles: String {
        let fonts = #"<w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/>"#
        let language = DocxXML.escape(content.language)
        return """
            <w:styles xmlns:w="\(DocxXML.wordNamespace)">\
            <w:docDefaults>\
            <w:rPrDefault><w:rPr>\(fonts)<w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="\(language)"/></w:rPr></w:rPrDefault>\
            <w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault>\
            </w:docDefaults>\
            <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>\
            <w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont">\
            <w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>\
            <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>\
            <w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/>\
            <w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="240" w:after="240"/><w:outlineLvl w:val="0"/></w:pPr>\
            <w:rPr><w:b/><w:bCs/><w:color w:val="1F3864"/><w:sz w:val="32"/><w:szCs w:val="32"/></w:rPr></w:style>\
            <w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/>\
            <w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>\
            <w:rPr><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr></w:style>\
            <w:style w:type="paragraph" w:styleId="Footer"><w:name w:val="footer"/><w:basedOn w:val="Normal"/>\
            <w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>\
            <w:rPr><w:color w:val="595959"/><w:sz w:val="16"/><w:szCs w:val="16"/></w:rPr></w:style>\
            </w:styles>
            """
    }

    // MARK: Properties

    /// `created` as W3CDTF in UTC, to the second (`2025-11-20T10:15:00Z`).
    static func w3cdtf(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let year = String(parts.year ?? 1970)
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(paddedYear)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }

    private var coreProperties: String {
        let created = Self.w3cdtf(content.created)
        return """
            <cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" \
            xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\
            <dc:title>\(DocxXML.escape(content.title))</dc:title>\
            <dc:language>\(DocxXML.escape(content.language))</dc:language>\
            <dcterms:created xsi:type="dcterms:W3CDTF">\(created)</dcterms:created>\
            <dcterms:modified xsi:type="dcterms:W3CDTF">\(created)</dcterms:modified>\
            </cp:coreProperties>
            """
    }

    private var appProperties: String {
        """
        <Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" \
        xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">\
        <Application>Arkivator</Application><DocSecurity>0</DocSecurity>\
        </Properties>
        """
    }

    /// The custom properties with unique, non-empty names, in first-seen order, last value winning.
    var uniqueCustomProperties: [(name: String, value: String)] {
        var order: [String] = []
        var values: [String: String] = [:]
        for property in content.customProperties where !property.name.isEmpty {
            if values.updateValue(property.value, forKey: property.name) == nil { order.append(property.name) }
        }
        return order.map { (name: $0, value: values[$0] ?? "") }
    }

    private var customProperties: String {
        // The format id every user-defined property uses; property ids start at 2.
        let formatID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
        let properties = uniqueCustomProperties.enumerated().map { number, property in
            #"<property fmtid="\#(formatID)" pid="\#(number + 2)" name="\#(DocxXML.escape(property.name))">"#
                + "<vt:lpwstr>\(DocxXML.escape(property.value))</vt:lpwstr></property>"
        }
        return """
            <Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" \
            xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">\
            \(properties.joined())\
            </Properties>
            """
    }
}
