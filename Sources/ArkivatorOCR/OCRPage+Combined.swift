import Foundation

/// Two readings of one page, combined word by word.
extension OCRPage {
    /// The longest stretch of words, on either side, that one combination step replaces: a word
    /// misread here and there, not a line read differently.
    static let combinedStretch = 3

    /// How much surer, in mean confidence, the other reading must be of a stretch of words to
    /// replace this reading's.
    static let combinedMargin = 0.1

    /// This reading with its doubtful words put right from `other`, a second reading of the same
    /// page (the page as it came beside the cleaned page): the two are aligned word by word, and
    /// where they differ over a short stretch between words both read alike (at most
    /// ``combinedStretch`` words on either side), the stretch the other reading is surer of (by
    /// ``combinedMargin``) is taken. Each reading keeps some letters the other loses (a "d" read
    /// as "å" on one, a stroke through a word on the other), and a misread word reads with less
    /// confidence than the same word read right.
    ///
    /// The text keeps this reading's order and layout, and words taken from the other reading take
    /// the place of this reading's words on the page (their boxes, shared out by length), so marks
    /// and redaction boxes stay in this reading's image. Returns the page and how many words were
    /// taken.
    ///
    /// With `missingWords`, words of the other reading that this one lacks altogether are put in
    /// too, where they stand among the shared words: a title in a coloured bar that the cleanup
    /// took for a mark. Only words read with confidence (``missingConfidence``), of letters, at
    /// most ``missingStretch`` in a row, and no number: their place on this reading's page is only
    /// known as a point beside the word before, too little to mask a number there. Only for two
    /// readings of the same picture (no sheet cut out of a photo, where the other reading may
    /// hold print beside the sheet).
    public func combined(with other: OCRPage, missingWords: Bool = false,
                         lexicon: Lexicon? = Lexicon.shared) -> (page: OCRPage, taken: Int) {
        guard !noText, !other.noText else { return (self, 0) }
        let ours = words.map(\.text), theirs = other.words.map(\.text)
        let difference = theirs.difference(from: ours)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Words both readings share, in order: the anchors between which the readings differ.
        let keptOurs = ours.indices.filter { !removed.contains($0) }
        let keptTheirs = theirs.indices.filter { !inserted.contains($0) }
        guard keptOurs.count == keptTheirs.count else { return (self, 0) }
        var replacements: [(ours: Range<Int>, theirs: Range<Int>)] = []
        var previous = (ours: -1, theirs: -1)
        for (a, b) in zip(keptOurs + [ours.count], keptTheirs + [theirs.count]) {
            let stretch = (ours: (previous.ours + 1)..<a, theirs: (previous.theirs + 1)..<b)
            if stretch.ours.count > 1, stretch.ours.count == stretch.theirs.count, stretch.ours.count <= Self.combinedStretch {
                // As many words on either side: each word against its own.
                for k in 0..<stretch.ours.count {
                    let one = (ours: (stretch.ours.lowerBound + k)..<(stretch.ours.lowerBound + k + 1),
                               theirs: (stretch.theirs.lowerBound + k)..<(stretch.theirs.lowerBound + k + 1))
                    if Self.takes(other.words[one.theirs], over: words[one.ours], lexicon: lexicon) { replacements.append(one) }
                }
            } else if !stretch.ours.isEmpty, !stretch.theirs.isEmpty,
               stretch.ours.count <= Self.combinedStretch, stretch.theirs.count <= Self.combinedStretch,
               Self.takes(other.words[stretch.theirs], over: words[stretch.ours], lexicon: lexicon) {
                replacements.append(stretch)
            } else if missingWords, stretch.ours.isEmpty, Self.missing(other.words[stretch.theirs]) {
                // Missing only when this reading has none of them close by (the two readings may
                // have put a line in different places).
                let near = Set(words[max(0, a - 30)..<min(words.count, a + 30)].map(\.text))
                if !other.words[stretch.theirs].contains(where: { near.contains($0.text) }) { replacements.append(stretch) }
            }
            previous = (a, b)
        }
        guard !replacements.isEmpty else { return (self, 0) }
        let scalars = Array(text.unicodeScalars)
        func breakBefore(_ index: Int) -> LayoutBreak { self.breakBefore(index, in: scalars) }
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        var next = 0
        var taken = 0
        func append(_ word: RecognizedWord, box: [Int], breakBefore: LayoutBreak) {
            items.append((word.text, word.confidence, box, breakBefore))
        }
        let otherScalars = Array(other.text.unicodeScalars)
        for replacement in replacements {
            for index in next..<replacement.ours.lowerBound { append(words[index], box: words[index].box, breakBefore: breakBefore(index)) }
            if replacement.ours.isEmpty {
                // Words this reading lacks: each at a point after the word before (or before the
                // first), broken into lines as the other reading has them.
                let at = replacement.ours.lowerBound
                let point = at > 0 ? [words[at - 1].box[0] + words[at - 1].box[2], words[at - 1].box[1], 1, words[at - 1].box[3]]
                    : words.first.map { [$0.box[0], $0.box[1], 1, $0.box[3]] } ?? [0, 0, 1, 1]
                for index in replacement.theirs {
                    append(other.words[index], box: point, breakBefore: other.breakBefore(index, in: otherScalars))
                }
                taken += replacement.theirs.count
                next = at
                if at < words.count {
                    // The word after keeps its own break, or starts a line when it had none at the start.
                    append(words[at], box: words[at].box, breakBefore: at == 0 ? .paragraph : breakBefore(at))
                    next = at + 1
                }
                continue
            }
            let boxes = Self.shared(words[replacement.ours].map(\.box), among: other.words[replacement.theirs].map(\.length))
            for (offset, word) in other.words[replacement.theirs].enumerated() {
                append(word, box: boxes[offset], breakBefore: offset == 0 ? breakBefore(replacement.ours.lowerBound) : .none)
            }
            taken += replacement.theirs.count
            next = replacement.ours.upperBound
        }
        for index in next..<words.count { append(words[index], box: words[index].box, breakBefore: breakBefore(index)) }
        var page = OCRPage.assemble(items, typography: false)
        guard !page.noText else { return (self, 0) }
        page.droppedLines = droppedLines
        page.droppedMarks = droppedMarks
        page.droppedMarkLines = droppedMarkLines
        return (page, taken)
    }

    /// Whether a stretch of the other reading (`theirs`) takes the place of this reading's
    /// (`ours`): when the other's, with as many words, are all words of `lexicon` and this one has
    /// a word of letters that is none, unless the other's are much less sure (by
    /// ``combinedMargin`` twice); otherwise when the other's are surer by ``combinedMargin``. A
    /// misread word is seldom a word: "øsift" beside "gift". (This reading's words are kept when
    /// the other's are not words: measured on the typewritten letters, that lost as often as it
    /// gained.)
    static func takes(_ theirs: ArraySlice<RecognizedWord>, over ours: ArraySlice<RecognizedWord>, lexicon: Lexicon?) -> Bool {
        let surer = confidence(theirs) - confidence(ours)
        if let lexicon, theirs.count == ours.count {
            if notWords(theirs, lexicon) == 0, notWords(ours, lexicon) > 0, surer > -2 * combinedMargin { return true }
        }
        return surer > combinedMargin
    }

    /// How many of `words` are of three letters or more (stops and brackets around them aside)
    /// and not words of `lexicon`; a word with a digit or another sign inside is not counted.
    static func notWords(_ words: ArraySlice<RecognizedWord>, _ lexicon: Lexicon) -> Int {
        words.filter { word in
            let core = word.text.trimmingCharacters(in: .punctuationCharacters)
            return core.count >= 3 && core.allSatisfy(\.isLetter) && !lexicon.contains(core)
        }.count
    }

    /// The longest run of missing words taken (see ``combined(with:missingWords:)``): a title or
    /// a line, not a block the cleanup rightly left out.
    static let missingStretch = 6
    /// The confidence (mean, weighted by length) missing words are taken with.
    static let missingConfidence = 0.85

    /// Whether `words`, missing from a reading, are taken into it: up to ``missingStretch`` words,
    /// each a word of letters (no number, no noise; ``TokenShape/wordLetters(_:)``), four letters
    /// or more in all, read with ``missingConfidence``.
    private static func missing(_ words: ArraySlice<RecognizedWord>) -> Bool {
        guard !words.isEmpty, words.count <= missingStretch, confidence(words) >= missingConfidence else { return false }
        var letters = 0
        for word in words {
            guard !word.text.contains(where: \.isNumber), let count = TokenShape.wordLetters(word.text), count >= 2 else { return false }
            letters += count
        }
        return letters >= 4
    }

    /// What stands before word `index` in the text: a paragraph break, a line break or a space.
    /// (`scalars`: the text's Unicode scalars, which the words' places count.)
    private func breakBefore(_ index: Int, in scalars: [Unicode.Scalar]) -> LayoutBreak {
        guard index > 0 else { return .paragraph }
        let end = words[index].start, start = words[index - 1].start + words[index - 1].length
        guard start <= end, end <= scalars.count else { return .none }
        let newlines = scalars[start..<end].filter { $0 == "\n" }.count
        return newlines >= 2 ? .paragraph : newlines == 1 ? .line : .none
    }

    /// The words' confidence, weighted by their length.
    private static func confidence(_ words: ArraySlice<RecognizedWord>) -> Double {
        let length = words.reduce(0) { $0 + $1.length }
        return words.reduce(0) { $0 + $1.confidence * Double($1.length) } / Double(max(1, length))
    }

    /// `boxes` for words of the given lengths: one to one when they are as many, otherwise the
    /// box around them all cut across, each word a share of its width by its length.
    static func shared(_ boxes: [[Int]], among lengths: [Int]) -> [[Int]] {
        if boxes.count == lengths.count { return boxes }
        let left = boxes.map { $0[0] }.min() ?? 0, top = boxes.map { $0[1] }.min() ?? 0
        let right = boxes.map { $0[0] + $0[2] }.max() ?? left, bottom = boxes.map { $0[1] + $0[3] }.max() ?? top
        let total = max(1, lengths.reduce(0, +))
        var x = Double(left)
        return lengths.map { length in
            let width = Double(right - left) * Double(length) / Double(total)
            defer { x += width }
            return [Int(x.rounded()), top, max(1, Int(width.rounded())), bottom - top]
        }
    }
}
