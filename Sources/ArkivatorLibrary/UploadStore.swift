/// The upload queue and the mirror's bookkeeping: the jobs (claimed, released, failed, retried),
/// the files each document should have at the destination, and the files known to be there. A
/// small store over the library's connections.
public struct UploadStore: Sendable {
    let library: Library
}

extension Library {
    /// The upload queue and what the destination holds.
    public var uploads: UploadStore { UploadStore(library: self) }
}
