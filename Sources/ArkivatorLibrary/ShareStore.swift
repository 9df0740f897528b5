/// Share links for a doctor: the links and their letters, the openings, and the share packs kept
/// in `<library>/Delinger` (a PDF and its page images per link and version). A small store over
/// the library's connections.
public struct ShareStore: Sendable {
    let library: Library
}

extension Library {
    /// The share links, their openings and their packs.
    public var sharing: ShareStore { ShareStore(library: self) }
}
