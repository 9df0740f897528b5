/// Network failures in a few words, for messages: "connection refused", "timed out", or the
/// error's own text, shortened.
public enum ConnectionError {
    public static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        let lower = text.lowercased()
        if lower.contains("connection refused") || lower.contains("econnrefused") { return "connection refused" }
        if lower.contains("timeout") || lower.contains("timedout") || lower.contains("deadline") { return "timed out" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
