/// Full-text search over the library's FTS5 index: the query parsed and expanded (prefixes,
/// inflections, compounds), filtered by person, type and dates, ranked and cut to snippets. A
/// small store over the library's read-only connections.
public struct SearchIndex: Sendable {
    let library: Library
}

extension Library {
    /// Full-text search.
    public var index: SearchIndex { SearchIndex(library: self) }
}
