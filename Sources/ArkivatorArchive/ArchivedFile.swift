import Foundation

/// One file of a document in the archive: the one list type every stage and shell uses for
/// "a document's files" (the pipeline's record, the library's rows, re-filing, uploads).
public struct ArchivedFile: Sendable, Equatable, Codable {
    /// The kinds of file a document has in the archive.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case docx, image, pdf

        /// The file name extension, without the dot.
        public var fileExtension: String {
            switch self {
            case .docx: "docx"
            case .image: "jpeg"
            case .pdf: "pdf"
            }
        }

        /// docx, then pages, then the PDF.
        var order: Int {
            switch self {
            case .docx: 0
            case .image: 1
            case .pdf: 2
            }
        }
    }

    public var kind: Kind
    /// 1… for page images, 0 otherwise.
    public var page: Int
    /// Absolute path.
    public var path: String

    public init(kind: Kind, page: Int = 0, path: String) {
        self.kind = kind
        self.page = page
        self.path = path
    }

    public var url: URL { URL(fileURLWithPath: path) }
}

extension [ArchivedFile] {
    /// The `.docx`, if any.
    public var docx: ArchivedFile? { first { $0.kind == .docx } }
    /// The page images, in page order.
    public var images: [ArchivedFile] { filter { $0.kind == .image }.sorted { $0.page < $1.page } }
    /// The searchable PDF, if any.
    public var pdf: ArchivedFile? { first { $0.kind == .pdf } }
}
