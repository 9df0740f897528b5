import Foundation

/// Which old line each new line belongs to: the order-keeping matching of most likeness
/// (character pairs in common), lines of little likeness left unmatched and joined to a neighbour.
public enum LineAlignment {
    /// `text` with the page breaks (form feeds) of `old` put back where its lines went on to the
    /// next page, for a text given without them (a file made from `show --text`). A text with
    /// page breaks of its own, or an old text without, is returned as it is.
    public static func withPageBreaks(_ text: String, like old: String) -> String {
        guard !text.contains("\u{0C}"), old.contains("\u{0C}") else { return text }
        let oldLines = SearchablePDF.textLines(old)
        let rows = text.components(separatedBy: "\n")
        let filled = rows.indices.filter { !rows[$0].trimmingCharacters(in: .whitespaces).isEmpty }
        guard !oldLines.isEmpty, !filled.isEmpty else { return text }
        let anchors = anchors(old: oldLines.map(\.text), new: filled.map { rows[$0].trimmingCharacters(in: .whitespaces) })
        var breaks: [Int: Int] = [:]
        var page = oldLines[anchors[0]].page
        for (index, row) in filled.enumerated().dropFirst() where oldLines[anchors[index]].page > page {
            breaks[row] = oldLines[anchors[index]].page - page
            page = oldLines[anchors[index]].page
        }
        var out: [String] = []
        for (index, row) in rows.enumerated() {
            guard let count = breaks[index] else {
                out.append(row)
                continue
            }
            // The break takes the place of the blank lines before the page's first line.
            while let last = out.last, last.trimmingCharacters(in: .whitespaces).isEmpty { out.removeLast() }
            out.append(String(repeating: "\u{0C}", count: count) + row)
        }
        return out.joined(separator: "\n")
    }

    /// Lines this alike or more may be matched.
    static let threshold = 0.35
    /// Above this many pairs to compare, lines are matched by their place in the text instead.
    static let largest = 2_000_000

    /// For each new line, the index of the old line it goes with (`old` is not empty).
    static func anchors(old: [String], new: [String]) -> [Int] {
        guard !new.isEmpty else { return [] }
        var matched = [Int?](repeating: nil, count: new.count)
        // The same lines at the start and the end need no comparing.
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] {
            matched[head] = head
            head += 1
        }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] {
            matched[new.count - 1 - tail] = old.count - 1 - tail
            tail += 1
        }
        let oldMiddle = Array(old[head..<(old.count - tail)]), newMiddle = Array(new[head..<(new.count - tail)])
        if !oldMiddle.isEmpty, !newMiddle.isEmpty {
            if oldMiddle.count * newMiddle.count > largest {
                for j in newMiddle.indices { matched[head + j] = head + j * oldMiddle.count / newMiddle.count }
            } else {
                for (j, i) in match(oldMiddle, newMiddle) { matched[head + j] = head + i }
            }
        }
        // Unmatched lines go with the line matched before them, or the first matched after.
        var anchors = [Int](repeating: 0, count: new.count)
        var previous: Int?
        for index in new.indices {
            if let own = matched[index] { previous = own }
            anchors[index] = matched[index] ?? previous ?? matched[index...].lazy.compactMap { $0 }.first ?? 0
        }
        return anchors
    }

    /// The matching of most total likeness that keeps both orders: (new index, old index) pairs.
    private static func match(_ old: [String], _ new: [String]) -> [(Int, Int)] {
        let oldPairs = old.map(pairs), newPairs = new.map(pairs)
        let n = old.count, m = new.count
        var score = [Double](repeating: 0, count: (n + 1) * (m + 1))
        var likeness = [Double](repeating: 0, count: n * m)
        for i in 0..<n {
            for j in 0..<m { likeness[i * m + j] = dice(oldPairs[i], newPairs[j]) }
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                var best = max(score[(i + 1) * (m + 1) + j], score[i * (m + 1) + j + 1])
                let alike = likeness[i * m + j]
                if alike >= threshold { best = max(best, alike + score[(i + 1) * (m + 1) + j + 1]) }
                score[i * (m + 1) + j] = best
            }
        }
        var result: [(Int, Int)] = []
        var i = 0, j = 0
        while i < n, j < m {
            let alike = likeness[i * m + j]
            if alike >= threshold, score[i * (m + 1) + j] == alike + score[(i + 1) * (m + 1) + j + 1] {
                result.append((j, i))
                i += 1
                j += 1
            } else if score[i * (m + 1) + j] == score[(i + 1) * (m + 1) + j] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    /// The line's neighbouring character pairs, lowercased.
    private static func pairs(_ line: String) -> Set<UInt64> {
        let scalars = Array(line.lowercased().unicodeScalars)
        guard scalars.count > 1 else { return scalars.first.map { [UInt64($0.value)] } ?? [] }
        return Set((1..<scalars.count).map { UInt64(scalars[$0 - 1].value) << 32 | UInt64(scalars[$0].value) })
    }

    private static func dice(_ a: Set<UInt64>, _ b: Set<UInt64>) -> Double {
        guard !a.isEmpty || !b.isEmpty else { return 1 }
        return 2 * Double(a.intersection(b).count) / Double(a.count + b.count)
    }
}
