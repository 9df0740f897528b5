/// Numbers judged by what stands around them: a telephone number's digits, a page number at the
/// foot of its page, and a letter OCR reads for a digit beside a number. Each finds a number
/// that reads as a number but cannot be the one printed.
extension NumberDoubt {
    /// One word of the text (``NumberShape/words(_:)``) with its line.
    struct Word {
        var range: Range<Int>
        var text: String
        var line: Int
    }

    static func words(_ scalars: [Unicode.Scalar]) -> [Word] {
        var line = 0, at = 0
        return NumberShape.words(scalars).map { range in
            while at < range.lowerBound {
                if scalars[at] == "\n" || scalars[at] == "\u{0C}" || scalars[at] == "\r" { line += 1 }
                at += 1
            }
            return Word(range: range, text: String(String.UnicodeScalarView(scalars[range])), line: line)
        }
    }

    /// Words that name a telephone number after them ("Tlf.", "Telefon", "Sentralbord:").
    static func isPhoneLabel(_ word: String) -> Bool {
        let key = word.lowercased().filter { $0.isLetter }
        return ["tlf", "tel", "telefon", "telefonnr", "tlfnr", "telefonnummer", "sentralbord", "mobil", "mob", "faks", "telefaks",
                "fax"].contains(key) || (key.count > 7 && key.hasSuffix("telefon"))
    }

    /// Words that name a post box ("Postboks", "Pb.", "Boks", "Postb."), whose number follows.
    static func isPostBoxLabel(_ word: String) -> Bool {
        ["postboks", "pb", "boks", "postb"].contains(word.lowercased().filter(\.isLetter))
    }

    static func isDigits(_ word: String) -> Bool { !word.isEmpty && word.unicodeScalars.allSatisfy(NumberShape.isDigit) }

    /// Three digits and a decimal part ("125,00"): what follows the thousands in a sum written
    /// with a space between its groups.
    static func isThousandsGroup(_ word: String) -> Bool {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 3 && isDigits(String(parts[0]))
            && (1...2).contains(parts[1].count) && isDigits(String(parts[1]))
    }

    /// The telephone numbers of a text, as the word indices of their digit groups: the groups
    /// after a telephone label, or three or more groups of two digits in a row on a line (with a
    /// short group just before them: "38" cut to "3" at a line's end). A number goes on over a
    /// line break while it has fewer than 8 digits ("telefon 55⏎97 50 00"). With each, whether
    /// its digits can be a Norwegian number: 8 digits (10 after a "47"), or one short group of 3
    /// to 5 after a label ("113", "02800"). A group of more than 8 digits after a label is a
    /// number whose spaces were read as digits ("51051180000" for "51 51 80 00"), and a group
    /// after a label with a mark among its digits ("Tlf. 22.45 13.00"): in doubt.
    static func phoneNumbers(_ words: [Word]) -> [(groups: [Int], complete: Bool, marked: Bool)] {
        var found: [(groups: [Int], complete: Bool, marked: Bool)] = []
        var used = Set<Int>()
        func group(_ j: Int, marked: Bool = false) -> Bool {
            j < words.count && !used.contains(j) && (isDigits(words[j].text) || marked && isMarkedGroup(words[j].text))
        }
        func digits(_ groups: [Int]) -> Int {
            let all = groups.reduce(0) { $0 + words[$1].text.unicodeScalars.filter(NumberShape.isDigit).count }
            if let first = groups.first, words[first].text == "47" || words[first].text == "0047", all > 8 { return all - words[first].text.count }
            return all
        }
        /// A lone letter between digit groups on one line (not "i" or "å", which are words).
        func bridges(_ j: Int, after last: Int) -> Bool {
            j + 1 < words.count && words[j].line == words[last].line && words[j + 1].line == words[j].line
                && words[j].text.count == 1 && words[j].text.allSatisfy(\.isLetter) && !["i", "å"].contains(words[j].text.lowercased())
                && group(j + 1)
        }
        /// The groups from `start` on: on the same line, or the next (a blank line between) while short of 8 digits.
        func groups(from start: Int, after previous: Int, behind: [Int] = [], marked: Bool = false) -> [Int] {
            var taken: [Int] = []
            var j = start, last = previous
            while j < words.count {
                if group(j, marked: marked), words[j].line == words[last].line || (digits(behind + taken) < 8 && words[j].line - words[last].line <= 2) {
                    taken.append(j)
                    last = j
                    j += 1
                } else if marked, !taken.isEmpty, digits(behind + taken) < 8, bridges(j, after: last) {
                    // A group read as a letter between groups of a labelled number ("2 E 80 00"
                    // for "51 51 80 00"): the number goes on through it, damaged.
                    taken.append(j)
                    last = j
                    j += 1
                } else {
                    break
                }
            }
            return taken
        }
        func judge(_ groups: [Int], labelled: Bool) {
            let count = digits(groups)
            let marked = groups.contains { !isDigits(words[$0].text) }
            found.append((groups, !marked && (count == 8 || (groups.count == 1 && (3...5).contains(count) && labelled)), marked))
            used.formUnion(groups)
        }
        for i in words.indices where isPhoneLabel(words[i].text) {
            let taken = groups(from: i + 1, after: i, marked: true)
            if !taken.isEmpty { judge(taken, labelled: true) }
        }
        // Groups of two digits, three or more on one line.
        var i = 0
        while i < words.count {
            var j = i
            while group(j), words[j].line == words[i].line, words[j].text.count == 2 { j += 1 }
            guard j - i >= 3 else { i += 1; continue }
            var taken = Array(i..<j)
            if i > 0, group(i - 1), words[i - 1].text.count <= 3, words[i].line - words[i - 1].line <= 2 { taken.insert(i - 1, at: 0) }
            if let last = taken.last { taken += groups(from: last + 1, after: last, behind: taken) }
            judge(taken, labelled: false)
            i = (taken.last ?? i) + 1
        }
        return found
    }

    /// A telephone number's group with a mark OCR put among its digits ("22.45", "13:00"):
    /// two digits or more, and one of . , ! : | inside (or ! | at its end; a full stop or comma
    /// ending it ends the sentence).
    static func isMarkedGroup(_ word: String) -> Bool {
        var core = Substring(word)
        while let last = core.last, ".,;:".contains(last) { core = core.dropLast() }
        let marks = core.filter { !$0.isASCII || !$0.isNumber }
        return core.filter { $0.isASCII && $0.isNumber }.count >= 2 && !marks.isEmpty && marks.allSatisfy { ".,!:|".contains($0) }
    }

    /// Post box numbers read as two groups of digits or more ("Postboks 241 5, 3104 Tønsberg"):
    /// a post box number is one group, so the digits after the label up to the next comma or
    /// word are in doubt as one span. Scalar ranges.
    static func splitPostBoxes(_ words: [Word], _ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for i in words.indices where isPostBoxLabel(words[i].text) {
            var j = i + 1
            while j < words.count, words[j].line == words[i].line, isDigits(words[j].text),
                  j == i + 1 || scalars[words[j - 1].range.upperBound..<words[j].range.lowerBound].allSatisfy({ $0 == " " }) {
                j += 1
            }
            if j - i > 2 { found.append(words[i + 1].range.lowerBound..<words[j - 1].range.upperBound) }
        }
        return found
    }

    /// The page numbers of a text (pages parted by form feeds): a line that is only "Side k av
    /// n" (after "Side" also run together: "Side 1av2", "Side 1 av2"), "Side k/n", "k av n" or
    /// "k/n", or a last line that is only "k" or "Side k". A page
    /// number that is its page's (k the page, n at least the pages there are) confirms its
    /// digits (`right`); one that is not ("11" for "1/1" on page 1 of 1, "V/1") is in doubt
    /// (`wrong`). Word indices.
    static func pageNumbers(_ scalars: [Unicode.Scalar], _ words: [Word]) -> (right: [Int], wrong: [Int]) {
        let pageCount = scalars.filter { $0 == "\u{0C}" }.count + 1
        var lines: [(page: Int, words: [Int])] = []
        var page = 1, at = 0
        for (index, word) in words.enumerated() {
            while at < word.range.lowerBound {
                if scalars[at] == "\u{0C}" { page += 1 }
                at += 1
            }
            if let last = lines.last, let first = last.words.first, words[first].line == word.line {
                lines[lines.count - 1].words.append(index)
            } else {
                lines.append((page, [index]))
            }
        }
        /// A page number's part: digits, or letters OCR may have read for them; between "Side"
        /// and "av n" any letters, since nothing but a number can stand there ("Side f av 1").
        func part(_ text: Substring, between: Bool) -> Bool {
            (1...3).contains(text.count) && text.unicodeScalars.allSatisfy {
                NumberShape.isDigit($0) || $0.properties.isUppercase || NumberShape.isLookalike($0) || (between && $0.properties.isAlphabetic)
            }
        }
        var right: [Int] = [], wrong: [Int] = []
        for (position, line) in lines.enumerated() {
            let lastOfPage = position + 1 == lines.count || lines[position + 1].page != line.page
            var rest = line.words
            let side = words[rest[0]].text.lowercased() == "side"
            if side { rest.removeFirst() }
            // The numbers and what they should read.
            var numbers: [(index: Int, parts: [Substring])] = []
            var sideOf = side && rest.count == 3 && words[rest[1]].text.lowercased() == "av"
            if rest.count == 3, words[rest[1]].text.lowercased() == "av" {
                numbers = [(rest[0], [Substring(words[rest[0]].text)]), (rest[2], [Substring(words[rest[2]].text)])]
            } else if side, let glued = gluedPageNumber(rest.map { words[$0].text }) {
                numbers = rest.count == 1 ? [(rest[0], [glued.page, glued.of])] : [(rest[0], [glued.page]), (rest[1], [glued.of])]
                sideOf = true
            } else if rest.count == 1 {
                let parts = words[rest[0]].text.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2 || (parts.count == 1 && (side || lastOfPage)) else { continue }
                numbers = [(rest[0], parts)]
            } else {
                continue
            }
            let all = numbers.flatMap(\.parts)
            guard all.enumerated().allSatisfy({ part($1, between: sideOf && $0 == 0) }), all.contains(where: { isDigits(String($0)) }) else { continue }
            // Letters for digits only where nothing else can stand: after "Side", or at the page's foot.
            if !all.allSatisfy({ isDigits(String($0)) }), !(side || lastOfPage) { continue }
            let values = all.map { Int($0) }
            let fits = values[0] == line.page && (values.count == 1 || (values[1].map { $0 >= pageCount && $0 >= line.page } ?? false))
            if fits { right += numbers.map(\.index) } else { wrong += numbers.map(\.index) }
        }
        return (right, wrong)
    }

    /// "k av n" read with a space or two lost, after "Side": one word ("1av2", "lav2") or two
    /// ("1 av2", "1av 2"); nil for anything else.
    static func gluedPageNumber(_ texts: [String]) -> (page: Substring, of: Substring)? {
        let lowered = texts.map { $0.lowercased() }
        let page: String, of: String
        if texts.count == 1, let av = lowered[0].range(of: "av") {
            let at = lowered[0].distance(from: lowered[0].startIndex, to: av.lowerBound)
            page = String(texts[0].prefix(at))
            of = String(texts[0].dropFirst(at + 2))
        } else if texts.count == 2, lowered[0].hasSuffix("av") {
            page = String(texts[0].dropLast(2))
            of = texts[1]
        } else if texts.count == 2, lowered[1].hasPrefix("av") {
            page = texts[0]
            of = String(texts[1].dropFirst(2))
        } else {
            return nil
        }
        guard (1...3).contains(page.count), (1...3).contains(of.count) else { return nil }
        return (Substring(page), Substring(of))
    }

    /// Whether a word of letters OCR reads for digits ("I", "l", "O") stands beside a number
    /// within a sentence: after a word ending in a digit ("XT808 I"), or before a number not at
    /// a sentence's start ("på I 500 kr"; "I 2024" opening a sentence is a word), a sum's
    /// thousands group with its øre among them ("Sum I 125,00" for "1 125,00").
    static func besideNumber(_ index: Int, _ words: [Word], _ scalars: [Unicode.Scalar]) -> Bool {
        let word = words[index]
        if index > 0, words[index - 1].line == word.line, let last = words[index - 1].text.unicodeScalars.last,
           NumberShape.isDigit(last) {
            return true
        }
        guard index + 1 < words.count, index > 0, isDigits(words[index + 1].text) || isThousandsGroup(words[index + 1].text),
              words[index + 1].line == word.line,
              words[index - 1].line == word.line else { return false }
        // The word before ends a sentence when a full stop, colon or mark follows it.
        let end = words[index - 1].range.upperBound
        return !(end < scalars.count && ".:!?".unicodeScalars.contains(scalars[end]))
    }

    /// Whether a word of letters OCR reads for digits stands where a building, entrance or room
    /// has its number: right after the word naming it, in the same sentence ("Drammen sykehus,
    /// bygg I" for "bygg 1", "Sentralbygg l", "rom I2" is a damaged number already).
    static func afterNumberedPlace(_ index: Int, _ words: [Word], _ scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, words[index - 1].line == words[index].line else { return false }
        let end = words[index - 1].range.upperBound
        guard !(end < scalars.count && ".:!?,".unicodeScalars.contains(scalars[end])) else { return false }
        let place = words[index - 1].text.lowercased()
        return numberedPlaces.contains(place) || ["bygg", "bygget", "bygning", "bygningen", "blokk", "fløy", "fløya"].contains { place.hasSuffix($0) }
    }

    /// Words a number follows to name a part of a building.
    static let numberedPlaces: Set<String> = ["rom", "inngang", "port", "heis", "sone", "plan", "seksjon", "oppgang", "luke"]

    /// Whether a word of letters OCR reads for digits stands where a street address has its
    /// number: right after a street's name on the same line ("Kløverveien I" for "Kløverveien 1").
    static func afterStreetName(_ index: Int, _ words: [Word]) -> Bool {
        guard index > 0, words[index - 1].line == words[index].line else { return false }
        let street = words[index - 1].text.lowercased()
        return streetEndings.contains { street.hasSuffix($0) && street.count > $0.count + 1 }
            || endsAddressLine(index, words)
    }

    /// Whether the word at `index` ends a line of an address, after a name, right above the
    /// postcode and place ("Marienlyst I I" over "4608 KRISTIANSAND S"): where the house number stands.
    static func endsAddressLine(_ index: Int, _ words: [Word]) -> Bool {
        let line = words[index].line
        // The rest of the line is letters that look like digits too ("I I" for "11").
        var next = index + 1
        while next < words.count, words[next].line == line {
            guard NumberShape.isLookalikeWord(words[next].text) else { return false }
            next += 1
        }
        guard next + 1 < words.count, words[next].line == line + 1, words[next + 1].line == line + 1,
              words[next].text.count == 4, isDigits(words[next].text),
              words[next + 1].text.first?.isUppercase == true, words[next + 1].text.allSatisfy(\.isLetter) else { return false }
        // A name before it: a word of letters that starts with a capital.
        var first = index
        while first > 0, words[first - 1].line == line, NumberShape.isLookalikeWord(words[first - 1].text) { first -= 1 }
        guard first > 0, words[first - 1].line == line else { return false }
        let name = words[first - 1].text
        return name.count >= 3 && name.first?.isUppercase == true && name.allSatisfy { $0.isLetter || $0 == "-" }
    }

    static let streetEndings = ["veien", "vegen", "vei", "veg", "gata", "gate", "gaten", "stien", "plass", "plassen",
                                "bakken", "allé", "alle", "svingen", "tunet", "ringen", "kroken"]

    /// Codes of letters and digits at the ends of lines in a column ("CN3662", "TS5000", batch
    /// numbers of a vaccination card) where one line's code is all digits, the digits in the
    /// letters' place ones OCR reads for letters ("556450" for "SS6450": 5 for S, 8 for B, 0 for
    /// O or D, 1 for I, 2 for Z, 6 for G). Word indices.
    static func codesWithDigitsForLetters(_ words: [Word]) -> [Int] {
        // The last word of each line.
        var lastOfLine: [Int: Int] = [:]
        for (index, word) in words.enumerated() { lastOfLine[word.line] = index }
        func letterPrefix(_ text: String) -> Int? {
            let scalars = Array(text.unicodeScalars)
            let letters = scalars.prefix { ("A"..."Z").contains($0) }.count
            guard (1...3).contains(letters), scalars.count - letters >= 3,
                  scalars.dropFirst(letters).allSatisfy(NumberShape.isDigit) else { return nil }
            return letters
        }
        return lastOfLine.values.sorted().filter { index in
            let text = words[index].text
            guard text.count >= 5, isDigits(text) else { return false }
            let line = words[index].line
            let prefixes = (line - 4...line + 4).compactMap { other -> Int? in
                guard other != line, let j = lastOfLine[other], words[j].text.count == text.count else { return nil }
                return letterPrefix(words[j].text)
            }
            guard prefixes.count >= 2, let length = prefixes.first, prefixes.allSatisfy({ $0 == length }) else { return false }
            return text.unicodeScalars.prefix(length).allSatisfy { "580126".unicodeScalars.contains($0) }
        }
    }

    /// Whether a word is a date with a colon, comma or semicolon read for one of its points
    /// ("01:07.2024", "12.03,2024"): day, month and a year of 2 or 4 digits.
    static func isDateWithWrongMark(_ word: String) -> Bool {
        let marks = word.filter { !$0.isNumber }
        guard marks.count == 2, marks.allSatisfy({ ".:,;".contains($0) }), marks != "..", marks.contains(".") else { return false }
        let parts = word.split(omittingEmptySubsequences: false, whereSeparator: { ".:,;".contains($0) })
        guard parts.count == 3, parts.allSatisfy({ isDigits(String($0)) }), let day = Int(parts[0]), let month = Int(parts[1]) else { return false }
        return parts[0].count <= 2 && parts[1].count <= 2 && (parts[2].count == 4 || parts[2].count == 2)
            && (1...31).contains(day) && (1...12).contains(month)
    }

    /// Whether the word at `index`, of letters that look like digits, is a day: a point right
    /// after it and a month's name next ("I. mars 2024" for "1. mars 2024"). "I mars" without
    /// the point is a sentence's "in March".
    static func isDayBeforeMonth(_ index: Int, _ words: [Word], _ scalars: [Unicode.Scalar]) -> Bool {
        let end = words[index].range.upperBound
        guard end < scalars.count, scalars[end] == ".", words.indices.contains(index + 1) else { return false }
        return NorwegianDate.months[words[index + 1].text.lowercased()] != nil
    }

    /// Whether the word at `index` is a date's month read as letters that look like digits,
    /// between its day and its year, a point after each of the first two ("13. OG. 1974" for
    /// "13.06.1974"): O for 0, G for 6, S for 5, B for 8, Z for 2, I, l and | for 1.
    static func isMonthOfLetters(_ index: Int, _ words: [Word], _ scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, words.indices.contains(index + 1) else { return false }
        let (day, month, year) = (words[index - 1], words[index], words[index + 1])
        guard day.line == month.line, month.line == year.line else { return false }
        func point(after word: Word) -> Bool { word.range.upperBound < scalars.count && scalars[word.range.upperBound] == "." }
        guard isDigits(day.text), day.text.count <= 2, point(after: day), point(after: month),
              isDigits(year.text), year.text.count == 4 || year.text.count == 2 else { return false }
        return (1...2).contains(month.text.count) && month.text.allSatisfy { "OoGSBZzIl|".contains($0) }
    }

    /// Whether the word at `index` is a number and a dash with no number after it on its line
    /// ("1— tablett" for "1–2 tabletter"): a range that lost its end. A compound's shared part
    /// ("1- og 2-roms", "3- eller 4-årige") and a dash that ends the line are not.
    static func isCutRange(_ index: Int, _ placed: [Word]) -> Bool {
        let scalars = Array(placed[index].text.unicodeScalars)
        guard scalars.count >= 2, let last = scalars.last, "-–—".unicodeScalars.contains(last),
              isDigits(String(String.UnicodeScalarView(scalars.dropLast()))) else { return false }
        guard placed.indices.contains(index + 1), placed[index + 1].line == placed[index].line else { return false }
        let next = placed[index + 1].text.lowercased()
        if ["og", "eller", "til", "à", "a", "/"].contains(next) { return false }
        return next.unicodeScalars.first.map { !NumberShape.isDigit($0) } ?? false
    }

    /// Whether the word at `range` is a date that cannot be: day and month ("30.0." for
    /// "30.6.2025", "12.13.2024") with a month outside 1–12 or a day outside 1–31. A decimal
    /// ("30.0" without the point after) and a time ending a sentence ("kl. 10.30.") are not dates.
    static func isImpossibleDate(_ range: Range<Int>, _ scalars: [Unicode.Scalar]) -> Bool {
        let text = String(String.UnicodeScalarView(scalars[range]))
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ isDigits(String($0)) }),
              parts[0].count <= 2, parts[1].count <= 2, let day = Int(parts[0]), let month = Int(parts[1]) else { return false }
        if parts.count == 3 {
            guard parts[2].count == 2 || parts[2].count == 4 else { return false }
        } else {
            // "10.30." ends a sentence with a time: a day and month alone count only with a month
            // of one digit, which no time's minutes have.
            guard parts[1].count == 1, range.upperBound < scalars.count, scalars[range.upperBound] == "." else { return false }
        }
        return !(1...12).contains(month) || !(1...31).contains(day)
    }
}
