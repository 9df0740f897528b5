import Foundation

/// Word recall: the share of the truth's words (lower case, without the punctuation around
/// them, counted with repeats) that the reading holds, 0…1. Extra words do not count against it.
public func wordRecall(truth: String, predicted: String) -> Double {
    func words(_ text: String) -> [String] {
        text.precomposedStringWithCanonicalMapping.lowercased()
            .split(whereSeparator: { $0.isWhitespace })
            .map { $0.trimmingCharacters(in: .punctuationCharacters.union(.symbols)) }
            .filter { !$0.isEmpty }
    }
    let truthWords = words(truth)
    guard !truthWords.isEmpty else { return 1 }
    var left: [String: Int] = [:]
    for word in words(predicted) { left[word, default: 0] += 1 }
    var found = 0
    for word in truthWords where (left[word] ?? 0) > 0 {
        left[word, default: 0] -= 1
        found += 1
    }
    return Double(found) / Double(truthWords.count)
}
