/// The letters themselves: filing, reading and listing, edits and text corrections, a page read
/// again, thumbnails, the originals as they came, the trash, and each member's timeline. A small
/// store over the library's connections.
public struct DocumentStore: Sendable {
    let library: Library
}

extension Library {
    /// The letters, their files and their history.
    public var documents: DocumentStore { DocumentStore(library: self) }
}
