import Foundation

/// Paths to the committed test fixtures and helpers every test target uses.
public enum Fixtures {
    /// The repository root (two levels above this file's folder).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let directory = root.appendingPathComponent("Tests/Fixtures")

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    public static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }

    public static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: url(name))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    public static func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }
}

/// A temporary folder that is removed after `body`, whatever happens.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Character error rate: Levenshtein distance over Unicode scalars after collapsing whitespace,
/// divided by the truth length (as the corpus scorer computes it).
public func characterErrorRate(truth: String, predicted: String) -> Double {
    func normal(_ s: String) -> [Unicode.Scalar] {
        Array(s.precomposedStringWithCanonicalMapping.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").unicodeScalars)
    }
    let a = normal(truth), b = normal(predicted)
    guard !a.isEmpty else { return b.isEmpty ? 0 : 1 }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return Double(previous[b.count]) / Double(a.count)
}

/// The evaluation corpus, when the Makefile found one beside the checkout (`ARKIVATOR_CORPUS`,
/// a folder with `images/` and `truth/`). Tests that use it are skipped in a user's clone.
public enum Corpus {
    public static var directory: URL? {
        guard let path = ProcessInfo.processInfo.environment["ARKIVATOR_CORPUS"], !path.isEmpty,
              FileManager.default.fileExists(atPath: path + "/truth") else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// Every truth document as parsed JSON.
    public static func truths() throws -> [[String: Any]] {
        guard let directory else { return [] }
        let truth = directory.appendingPathComponent("truth")
        return try FileManager.default.contentsOfDirectory(atPath: truth.path).sorted()
            .filter { $0.hasSuffix(".json") }
            .compactMap { try JSONSerialization.jsonObject(with: Data(contentsOf: truth.appendingPathComponent($0))) as? [String: Any] }
    }
}
