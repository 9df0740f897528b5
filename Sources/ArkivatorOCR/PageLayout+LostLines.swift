import Foundation

/// Lines Tesseract's layout analysis lost: print on the page that no word of the reading covers.
///
/// Tesseract now and then leaves a short line out of its reading altogether: a letterhead's
/// address beside a name in larger letters (joined to the name's line and then dropped), a footer
/// right under a rule (taken with the rule for a picture). The letters are on the page it read,
/// but no word stands on them. Such lines are found from the page's marks and read again on
/// their own.
extension PageLayout {
    /// The most lines of a page read again: a page with more lost lines than this is no letter
    /// Tesseract read well anyway, and each costs a reading.
    static let lostLineLimit = 12

    /// The height of the page's words (the median box of words of three letters or digits or
    /// more read with confidence 0.6 or more): a letter with its ascender, about; nil when too
    /// few words were read to tell.
    func wordHeight() -> Int? {
        let heights = words.filter { $0.confidence >= 0.6 && Self.alphanumerics([$0]) >= 3 }.map { $0.box[3] }.sorted()
        guard heights.count >= 5 else { return nil }
        return heights[heights.count / 2]
    }

    /// Boxes (x, y, width, height) of lines of print that no word covers, given the boxes of the
    /// page's marks (connected dark shapes of the image read, in its pixels), at most
    /// ``lostLineLimit``, those of the most marks first.
    ///
    /// A mark counts when it is letter-sized (from a third to two and a half word heights tall,
    /// at most two and a half wide), or letters run together (``isRunTogether(_:height:)``,
    /// counted as the letters they hold, beside a letter-sized mark), and touches no box of a
    /// word the page keeps (a scribble's words are no cover, nor is noise that hides lines,
    /// ``hidingNoise(in:height:)``). Such marks side by side (less than
    /// a word height apart, overlapping in height by half) make a line; a line of four marks or
    /// more, at least three word heights long and at most three tall (a name in letters half
    /// again as large as the text's, with its descenders), is print the reading lost; so is a
    /// line of three to five marks at least a word height long, which may be a short number alone
    /// ("1/1" at a page's foot, "5701" before a town read on its own) and is kept only when it
    /// reads as one (``readsAsNumber(_:)``), and so are two marks below every word read, wider
    /// than they are tall and narrower than three word heights ("1/2" whose stroke touches the
    /// 2), kept only as a page's number.
    /// Paper grain, rules and frames, and pictures are not letter-sized; a logo's or a stamp's few
    /// shapes make no line, or read as no text and are left out after reading (see the engine).
    func lostLines(marks: [[Int]]) -> [[Int]] {
        guard let height = wordHeight(), height >= 6 else { return [] }
        let h = Double(height)
        // A line read as a scribble covers nothing: where Tesseract joins a name in large
        // letters with the smaller lines beside it, it reads the whole as a few marks of
        // noise, and the page keeps none of it.
        // Nor does noise that hides lines beside it (``hidingNoise(in:height:)``).
        let covered = blocks.flatMap { $0.paragraphs.joined() }.filter { !Self.isScribble($0) }.flatMap { line in
            line.dropLast(Self.hidingNoise(in: line, height: height))
        }.map(\.box)
        let letters = marks.filter { m in
            (Self.isLetterSized(m, height: h) || Self.isRunTogether(m, height: h)) && !covered.contains { Self.touches(m, $0) }
        }.sorted { $0[0] < $1[0] }
        guard letters.count >= 2 else { return [] }
        // How many letters the marks stand for: one each, or as many as a run of letters that
        // touch holds (each about seven tenths as wide as it is tall).
        func count(_ group: [[Int]]) -> Int {
            group.reduce(0) { $0 + (Self.isLetterSized($1, height: h) ? 1 : max(1, Int(Double($1[2]) / (0.7 * Double($1[3]))))) }
        }
        // Marks side by side join.
        let groups = Self.groups(letters, reach: { Double($0[0] + $0[2]) + h }) { a, b in
            let gap = Double(b[0] - (a[0] + a[2]))
            let overlap = Double(min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
            return gap <= h && overlap >= 0.5 * Double(min(a[3], b[3]))
        }
        // The page's foot: below every word read (where a page's number stands).
        let foot = covered.map { $0[1] + $0[3] }.max() ?? 0
        let lines: [(box: [Int], count: Int)] = groups.compactMap { group in
            // Letters run together only beside a letter of their own (a bold line's words, each
            // one mark, are a region's: ``lostRegions(marks:)``).
            let marks = count(group)
            guard group.count >= 2, group.contains(where: { Self.isLetterSized($0, height: h) }) else { return nil }
            let left = group.map { $0[0] }.min() ?? 0, right = group.map { $0[0] + $0[2] }.max() ?? 0
            let top = group.map { $0[1] }.min() ?? 0, bottom = group.map { $0[1] + $0[3] }.max() ?? 0
            // Two marks below every word read may be a page's number whose stroke runs into a
            // digit ("1" and "/2"), wider than their own height and narrower than three word
            // heights (page numbers are often smaller than the text): read only when it reads as
            // a page's number.
            if marks == 2 {
                let width = Double(right - left), height = Double(bottom - top)
                guard width >= 1.2 * height, width < 3 * h, height <= 1.5 * h, top >= foot else { return nil }
                return ([left, top, right - left, bottom - top], 2)
            }
            // Three to five marks may be a short number on its own ("1/1" at the foot of a page,
            // a post code whose town was read beside a letterhead's name), read only when it
            // reads as one (``readsAsNumber(_:)``, ``readsAsPageNumber(_:)``).
            guard Double(right - left) >= (marks <= 5 ? 1 : 3) * h, Double(bottom - top) <= 3 * h else { return nil }
            return ([left, top, right - left, bottom - top], marks)
        }
        return lines.sorted { ($0.count, $1.box[1]) > ($1.count, $0.box[1]) }.prefix(Self.lostLineLimit).map(\.box)
    }

    /// Below this confidence a word is noise.
    static let garbledConfidence = 0.35

    /// Whether `word` is noise (``garbledConfidence``) 1.6 word heights tall or more (`height`):
    /// two lines of an address block read together at a larger name's height come out as one or
    /// two such words ("ee", "HFiczsos"), and the block read on its own reads plainly. Such a
    /// word covers no print, and a region read again in its place takes its place. Noise of a
    /// line's height (a pencil note, a stamp) is left as it is.
    static func isStackedNoise(_ word: Word, height: Int) -> Bool {
        word.confidence < garbledConfidence && 5 * word.box[3] >= 8 * height
    }

    /// How many words at the end of `line` are noise that hides lines beside it (words `height`
    /// tall), or 0. Such noise covers no print: the lines it hides are read again as lost lines.
    /// - Stacked noise (``isStackedNoise(_:height:)``) that ends a line of larger letters (its
    ///   other words half again as tall as the page's): two lines of an address block beside a
    ///   letterhead's name read together as "MS".
    /// - Noise (``garbledConfidence``) that ends a line a column's width (three word heights)
    ///   after its last word, with stacked noise among it: a date under the references in the
    ///   right-hand column, joined to the recipient's name at its height and read as "oG 5".
    /// Noise inside a line of text (a word framed with a pencil mark above it) is left to its line.
    static func hidingNoise(in line: [Word], height: Int) -> Int {
        guard line.count >= 2, let last = line.last else { return 0 }
        if isStackedNoise(last, height: height) {
            let heights = printHeights(Array(line.dropLast()))
            if 2 * heights[heights.count / 2] >= 3 * height { return 1 }
        }
        var start = line.count
        while start > 1, line[start - 1].confidence < garbledConfidence { start -= 1 }
        guard start < line.count, line[start...].contains(where: { isStackedNoise($0, height: height) }) else { return 0 }
        let (before, first) = (line[start - 1], line[start])
        return first.box[0] - (before.box[0] + before.box[2]) >= 3 * height ? line.count - start : 0
    }

    /// Boxes (x, y, width, height) of regions of two lines of print or more that no word covers:
    /// Tesseract's layout analysis now and then leaves a whole block out (a recipient's address
    /// and the references under it, in print it reads plainly once the block is read on its own),
    /// and bold print whose letters run together makes marks too wide for ``lostLines(marks:)``
    /// to join into lines. Print here is a mark from a third to two and a half word heights tall
    /// and at most fifteen wide (a word whose letters touch) that no word of the page touches;
    /// such marks less than a word height and a half apart side by side, or a word height above
    /// or below each other, make a region, framed by those of them up to 1.6 times its marks'
    /// median height (a larger name's letters beside an address block are not its print). A
    /// region is a word height and a half tall or more (two lines: a word's box is often taller
    /// than its letters) and four wide, holds six marks or more, ten word heights of them side by
    /// side, and the middles of two of the page's words at most (lines a reading lost between
    /// lines it read are ``lostLines(marks:)``'s).
    func lostRegions(marks: [[Int]]) -> [[Int]] {
        guard let height = wordHeight(), height >= 6 else { return [] }
        let h = Double(height)
        // A scribble's words cover nothing (see ``lostLines(marks:)``), nor do words of noise
        // 1.6 word heights tall or more (``isStackedNoise(_:height:)``).
        let kept = blocks.flatMap { $0.paragraphs.joined() }.filter { !Self.isScribble($0) }.joined()
            .filter { !Self.isStackedNoise($0, height: height) }.map(\.box)
        let print = marks.filter { m in
            let (w, mh) = (Double(m[2]), Double(m[3]))
            return mh >= max(5, h / 3) && mh <= 2.5 * h && w >= 2 && w <= 15 * h && !kept.contains { Self.touches(m, $0) }
        }.sorted { $0[0] < $1[0] }
        guard print.count >= 6 else { return [] }
        let groups = Self.groups(print, reach: { Double($0[0] + $0[2]) + 1.5 * h }) { a, b in
            Double(max(b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]))) <= h
        }
        let middles = kept.map { (x: $0[0] + $0[2] / 2, y: $0[1] + $0[3] / 2) }
        return groups.compactMap { group -> [Int]? in
            // Its own print: marks up to 1.6 times its median height (a larger name's letters
            // beside an address block are left to their own line).
            let heights = group.map { $0[3] }.sorted()
            let group = group.filter { 5 * $0[3] <= 8 * heights[heights.count / 2] }
            guard group.count >= 6, Double(group.reduce(0) { $0 + $1[2] }) >= 10 * h else { return nil }
            let left = group.map { $0[0] }.min() ?? 0, right = group.map { $0[0] + $0[2] }.max() ?? 0
            let top = group.map { $0[1] }.min() ?? 0, bottom = group.map { $0[1] + $0[3] }.max() ?? 0
            guard 2 * Double(bottom - top) >= 3 * h, Double(right - left) >= 4 * h else { return nil }
            let inside = middles.filter { left <= $0.x && $0.x <= right && top <= $0.y && $0.y <= bottom }.count
            return inside <= 2 ? [left, top, right - left, bottom - top] : nil
        }.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }
    }

    /// `marks`, sorted by their left edge, in groups: those that `joined` says belong together,
    /// through any chain of them (union-find). A later mark starting past `reach` of a mark joins
    /// it no more: the marks after it start farther still.
    static func groups(_ marks: [[Int]], reach: ([Int]) -> Double, joined: ([Int], [Int]) -> Bool) -> [[[Int]]] {
        var parent = Array(marks.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for i in marks.indices {
            let limit = reach(marks[i])
            for j in (i + 1)..<marks.count {
                if Double(marks[j][0]) > limit { break }
                if joined(marks[i], marks[j]) { parent[root(j)] = root(i) }
            }
        }
        var groups: [Int: [[Int]]] = [:]
        for i in marks.indices { groups[root(i), default: []].append(marks[i]) }
        return Array(groups.values)
    }

    /// Whether a mark and a word's box (x, y, width, height) touch, or stand within two pixels.
    static func touches(_ m: [Int], _ w: [Int]) -> Bool {
        m[0] <= w[0] + w[2] + 2 && w[0] <= m[0] + m[2] + 2 && m[1] <= w[1] + w[3] + 2 && w[1] <= m[1] + m[3] + 2
    }

    /// Whether a mark is letters of print that run together (a photo's blur, bold print): as
    /// tall as the text's letters (six tenths to 1.3 word heights, `h`), wider than a letter
    /// (``isLetterSized(_:height:)``) and at most six word heights wide (".06.202" of a date).
    /// A rule is not as tall, a picture or a signature's stroke seldom so even.
    static func isRunTogether(_ m: [Int], height h: Double) -> Bool {
        let (w, mh) = (Double(m[2]), Double(m[3]))
        return mh >= 0.6 * h && mh <= 1.3 * h && w > 2.5 * h && w <= 6 * h
    }

    /// Whether a mark (x, y, width, height) is the size of a letter on a page whose words are `h`
    /// tall: from a third to two and a half word heights tall, at most two and a half wide.
    static func isLetterSized(_ m: [Int], height h: Double) -> Bool {
        let (w, mh) = (Double(m[2]), Double(m[3]))
        return mh >= max(5, h / 3) && mh <= 2.5 * h && w >= 2 && w <= 2.5 * h
    }

    /// The share of the page's letter-sized marks (as ``lostLines(marks:)`` counts them) that no
    /// word of the reading touches: print the reading lost, or ink that is no print (a
    /// signature, a stamp, a logo). Nil when too few words were read to tell a letter's size.
    func uncoveredShare(marks: [[Int]]) -> Double? {
        guard let height = wordHeight(), height >= 6 else { return nil }
        let h = Double(height)
        let boxes = words.map(\.box).sorted { $0[1] < $1[1] }
        let letters = marks.filter { Self.isLetterSized($0, height: h) }
        guard letters.count >= 50 else { return nil }
        // Words sorted from the top: only those whose band can reach the mark are looked at.
        let tallest = boxes.map { $0[3] }.max() ?? 0
        let uncovered = letters.filter { m in
            var lo = 0, hi = boxes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if boxes[mid][1] < m[1] - tallest - 2 { lo = mid + 1 } else { hi = mid }
            }
            var i = lo
            while i < boxes.count, boxes[i][1] <= m[1] + m[3] + 2 {
                let w = boxes[i]
                if m[0] <= w[0] + w[2] + 2 && w[0] <= m[0] + m[2] + 2 && m[1] <= w[1] + w[3] + 2 { return false }
                i += 1
            }
            return true
        }
        return Double(uncovered.count) / Double(letters.count)
    }

    /// Whether the page already holds most of `line`'s words (half or more; with `every`, all of
    /// them) within two line heights above or below where they stand: the marks were read in the
    /// line nearby, and reading them again would write them twice.
    func holdsNearby(_ line: [Word], height: Int, every: Bool = false) -> Bool {
        let page = words
        let found = line.filter { word in
            page.contains { other in
                other.text == word.text && abs((other.box[1] + other.box[3] / 2) - (word.box[1] + word.box[3] / 2)) <= 2 * height
                    && other.box[0] < word.box[0] + word.box[2] && word.box[0] < other.box[0] + other.box[2]
            }
        }
        return every ? found.count == line.count : 2 * found.count >= line.count
    }

    /// Whether a second reading of a lost line holds text: four letters or digits or more, read
    /// with a mean confidence of 0.75 or more, and no scribble (``isScribble(_:)``).
    static func readsAsText(_ line: [Word]) -> Bool {
        !line.isEmpty && alphanumerics(line) >= 4 && meanConfidence(line) >= 0.75 && !isScribble(line)
    }

    /// Whether a second reading of a lost line is one short number alone, read with confidence:
    /// two digits or more with "/", "-", "." or "," between ("1/1", "12"), confidence 0.85 or more.
    /// Whether a line is a table's number cell alone: a number with "<" or ">" before it, or
    /// a range of two numbers with a dash between ("< 5", "> 60", "20 - 42", "20-42").
    static func isNumberCell(_ line: [Word]) -> Bool {
        let text = line.map(\.text).joined(separator: " ")
        return text.wholeMatch(of: /[<>] ?\d+(?:[,.]\d+)?/) != nil || text.wholeMatch(of: /\d+(?:[,.]\d+)? ?[-–] ?\d+(?:[,.]\d+)?/) != nil
    }

    static func readsAsNumber(_ line: [Word]) -> Bool {
        guard line.count == 1, let text = line.first?.text, text.filter(\.isNumber).count >= 2,
              text.allSatisfy({ $0.isASCII && $0.isNumber || "/-.,".contains($0) }),
              text.first?.isNumber == true, text.last?.isNumber == true else { return false }
        return meanConfidence(line) >= 0.85
    }

    /// Whether a second reading is a page's number alone: "n/m" with 1 ≤ n ≤ m ≤ 99, read with
    /// confidence 0.55 or more. Tesseract is less sure of a stroke between digits than of the
    /// digits; the form (a first number no greater than the second) says what the confidence
    /// cannot.
    ///
    /// So is "Side n" or "Side n av m" (n from 1 to m, a one as the model reads it: "Side I"),
    /// four letters and digits or five, too few for ``readsAsText(_:)``.
    static func readsAsPageNumber(_ line: [Word]) -> Bool {
        guard meanConfidence(line) >= 0.55 else { return false }
        if line.count == 1, let text = line.first?.text { return hasPageNumberForm(text) }
        return hasPageLabelForm(line.map(\.text))
    }

    /// Whether `words` are a page's number written out: "Side n" or "Side n av m", n from 1 to m
    /// (at most 99), a one read as a letter (``NumberRepair/pageOnes``) counting as a one.
    static func hasPageLabelForm(_ words: [String]) -> Bool {
        guard words.count == 2 || words.count == 4 && words[2] == "av", words[0] == "Side" || words[0] == "side" else { return false }
        func page(_ text: String) -> Int? {
            NumberRepair.pageOnes.contains(text) ? 1 : text.count <= 2 && text.allSatisfy { $0.isASCII && $0.isNumber } ? Int(text) : nil
        }
        guard let n = page(words[1]), n >= 1 else { return false }
        guard words.count == 4 else { return true }
        guard let m = page(words[3]) else { return false }
        return n <= m
    }

    /// Whether `text` is a page's number: "n/m", one or two digits each, n from 1 to m.
    static func hasPageNumberForm(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let n = Int(parts[0]), let m = Int(parts[1]) else { return false }
        return 1 <= n && n <= m
    }

    /// A second reading of a line without a sign at its start or end that is no letter or digit
    /// or dash and under two thirds the height of the line's print: a speck its frame caught ("*"
    /// before "2010 Strømmen").
    static func withoutSpecks(_ line: [Word]) -> [Word] {
        guard line.count >= 2 else { return line }
        let heights = printHeights(line)
        let height = heights[heights.count / 2]
        func speck(_ word: Word) -> Bool {
            word.text.count == 1 && !word.text.contains { $0.isLetter || $0.isNumber || "-–—".contains($0) } && 3 * word.box[3] < 2 * height
        }
        var words = line[...]
        while let first = words.first, words.count > 1, speck(first) { words = words.dropFirst() }
        while let last = words.last, words.count > 1, speck(last) { words = words.dropLast() }
        return Array(words)
    }

    /// A second reading as a block without a line of one sign under two thirds the height of the
    /// other lines' print: a speck its frame caught ("1" for a dot beside an address).
    static func withoutSpeckLines(_ lines: [[Word]]) -> [[Word]] {
        func speck(_ line: [Word]) -> Bool { line.count == 1 && line[0].text.count == 1 }
        let heights = lines.filter { !speck($0) }.flatMap { printHeights($0) }.sorted()
        guard !heights.isEmpty else { return lines }
        let height = heights[heights.count / 2]
        return lines.filter { !speck($0) || 3 * $0[0].box[3] >= 2 * height }
    }

    /// A second reading of a lost line that is a page's number whose ones the model read as
    /// letters ("L/1", "1/l", "I/2" for "1/1", "1/1", "1/2": a serif one read as a capital L),
    /// the ones made digits; nil when it is no such reading. The caller asks that three marks
    /// stand there with the stroke between them (``strokeBetween(_:marks:)``). The model was
    /// unsure of it, so it stays doubtful: confidence 0.5 (``scribbleConfidence``), no more and
    /// no less, so it is kept and not left out as a scribble.
    static func pageNumberWithLetterOnes(_ line: [Word]) -> [Word]? {
        guard line.count == 1, let word = line.first else { return nil }
        let parts = word.text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.contains(where: { NumberRepair.pageOnes.contains(String($0)) }) else { return nil }
        let digits = parts.map { NumberRepair.pageOnes.contains(String($0)) ? "1" : String($0) }
        guard digits.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let n = Int(digits[0]), let m = Int(digits[1]), 1 <= n, n <= m else { return nil }
        return [Word(text: digits.joined(separator: "/"), confidence: scribbleConfidence, box: word.box)]
    }

    /// Whether a second reading of a lost line of a page's number lost its stroke: two digits,
    /// the first no greater than the second ("11" for "1/1"), read with confidence 0.5 or more,
    /// over three marks with the stroke between them (``strokeBetween(_:marks:)``, which the
    /// caller asks). Tesseract is unsure of digits whose stroke it did not see.
    static func readsAsPageNumberWithoutStroke(_ line: [Word]) -> Bool {
        guard line.count == 1, let text = line.first?.text else { return false }
        let digits = Array(text)
        guard digits.count == 2, let n = digits[0].wholeNumberValue, let m = digits[1].wholeNumberValue,
              digits.allSatisfy(\.isASCII), 1 <= n, n <= m else { return false }
        return meanConfidence(line) >= 0.5
    }
}

extension PageLayout {
    /// The frame a lost line (box x, y, width, height) is read again in: half its height wider
    /// and a third taller on each side, within a page `width` by `height`.
    static func lostLineFrame(_ box: [Int], width: Int, height: Int) -> [Int] {
        let h = max(1, box[3])
        let x = max(0, box[0] - h / 2), y = max(0, box[1] - h / 3)
        return [x, y, min(width, box[0] + box[2] + h / 2) - x, min(height, box[1] + box[3] + h / 3) - y]
    }

    /// Whether a word of a lost line's second reading stands on the line (`box`), its middle
    /// within a quarter of the line's height: a reading across its frame's edges adds pieces of
    /// the lines above and below.
    static func stands(_ word: Word, on box: [Int]) -> Bool {
        let h = max(1, box[3]), middle = word.box[1] + word.box[3] / 2
        return middle >= box[1] - h / 4 && middle <= box[1] + box[3] + h / 4
    }

    /// The marks whose middles lie in `box`.
    static func marksInside(_ box: [Int], _ marks: [[Int]]) -> [[Int]] {
        marks.filter { m in
            let (x, y) = (m[0] + m[2] / 2, m[1] + m[3] / 2)
            return x >= box[0] && x <= box[0] + box[2] && y >= box[1] && y <= box[1] + box[3]
        }
    }

    /// How many of `marks` stand in `box` (their middles inside it), each at least half its height.
    static func marks(in box: [Int], _ marks: [[Int]]) -> Int {
        marksInside(box, marks).filter { 2 * $0[3] >= box[3] }.count
    }

    /// Whether three marks stand in `box` (their middles inside it), each at least half its
    /// height, one after the other without overlapping, the middle one as tall as the others give
    /// or take a fifth; or the middle one in two or three pieces that climb to the right, two
    /// thirds of the others' height together (a faint stroke broken by the black and white page).
    static func strokeBetween(_ box: [Int], marks: [[Int]]) -> Bool {
        let sorted = marksInside(box, marks).sorted { $0[0] < $1[0] }
        guard sorted.count >= 3, let first = sorted.first, let last = sorted.last,
              2 * first[3] >= box[3], 2 * last[3] >= box[3] else { return false }
        let between = Array(sorted.dropFirst().dropLast())
        guard between.allSatisfy({ first[0] + first[2] <= $0[0] + 1 && $0[0] + $0[2] <= last[0] + 1 }) else { return false }
        let outer = max(first[3], last[3])
        if between.count == 1 { return 2 * between[0][3] >= box[3] && 5 * between[0][3] >= 4 * outer }
        // A faint stroke the black and white page broke in pieces (a phone's photo): two or
        // three pieces climbing to the right, together two thirds of the digits' height at least.
        guard between.count <= 3, let top = between.map({ $0[1] }).min(), let bottom = between.map({ $0[1] + $0[3] }).max() else { return false }
        let downwards = between.sorted { $0[1] < $1[1] }
        let climbs = zip(downwards, downwards.dropFirst()).allSatisfy { upper, lower in 2 * upper[0] + upper[2] >= 2 * lower[0] + lower[2] }
        return climbs && 3 * (bottom - top) >= 2 * outer
    }
}
