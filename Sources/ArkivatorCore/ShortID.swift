/// The short id people type and see: the first 10 hex digits of a document's SHA-256.
public enum ShortID {
    /// How many hex digits it has.
    public static let length = 10

    /// The short id of a document with this SHA-256.
    public static func of(_ sha256: String) -> String {
        String(sha256.prefix(length))
    }
}
