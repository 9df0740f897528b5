import Foundation

/// An `application/x-www-form-urlencoded` body or query, by field name (the first of each).
struct WebForm: Sendable {
    private var fields: [String: String] = [:]
    /// Every field in order, repeated names included (checkboxes that share a name).
    private var pairs: [(name: String, value: String)] = []

    init(_ encoded: String) {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = parts.first else { continue }
            let decode = { (s: Substring) in s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            let name = decode(rawName)
            let value = parts.count > 1 ? decode(parts[1]) : ""
            if fields[name] == nil { fields[name] = value }
            pairs.append((name, value))
        }
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// The field trimmed, nil when absent or blank.
    func value(_ name: String) -> String? {
        fields[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every value sent under `name`, trimmed, blanks left out (ticked checkboxes that share it).
    func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Whether a checkbox with the value `true` was ticked.
    func isTicked(_ name: String) -> Bool { fields[name] == "true" }

    /// This form as a query string with only `names`, in that order (for links that keep filters).
    func query(keeping names: [String], adding extra: [(String, String)] = []) -> String {
        var items = URLComponents()
        items.queryItems = names.compactMap { name in value(name).map { URLQueryItem(name: name, value: $0) } }
            + extra.map { URLQueryItem(name: $0.0, value: $0.1) }
        return items.percentEncodedQuery ?? ""
    }
}
