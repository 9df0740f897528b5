/// A network failure in a few words, for the messages of the errors that carry one (the LLM
/// client's, the upload queue's): connection refused, timed out, or the error's own text, shortened.
public struct ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case refused
        case timedOut
        case other
    }

    public let kind: Kind
    /// `connection refused`, `timed out`, or the underlying error's text (at most 200 characters).
    public let detail: String

    /// Reads what happened from any error a network client threw.
    public init(_ error: any Error) {
        let text = String(describing: error)
        let lower = text.lowercased()
        if lower.contains("connection refused") || lower.contains("econnrefused") {
            (kind, detail) = (.refused, "connection refused")
        } else if lower.contains("timeout") || lower.contains("timedout") || lower.contains("deadline") {
            (kind, detail) = (.timedOut, "timed out")
        } else {
            (kind, detail) = (.other, text.count > 200 ? String(text.prefix(200)) + "…" : text)
        }
    }

    public var description: String { detail }
}
