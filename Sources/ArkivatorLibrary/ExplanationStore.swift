/// Letters explained in plain words («Forklar brevet»): the text an explanation is made from, and
/// the explanation kept with the stamp of that text, so one made from an older text says so. A
/// small store over the library's connections.
public struct ExplanationStore: Sendable {
    let library: Library
}

extension Library {
    /// The letters' explanations.
    public var explanations: ExplanationStore { ExplanationStore(library: self) }
}
