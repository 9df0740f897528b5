import ArkivatorCore
import Foundation

/// One row of a laboratory table as the letter prints it: analysis, result, unit, reference
/// range and H/L flag, with whether a number in it is in doubt and why.
public struct LabRow: Sendable, Codable, Equatable {
    /// The analysis's canonical name ("HbA1c" for "Glykert hemoglobin"), or the printed name when
    /// the analysis is not one the rules know.
    public var analysis: String
    /// The name as printed.
    public var printedAnalysis: String
    /// The result as printed, without its flag: "5,2", "< 1".
    public var value: String
    /// The unit in its canonical spelling when known ("µmol/L" for "umol/l"), else as printed;
    /// nil when the row prints none.
    public var unit: String?
    /// The reference range as printed: "2,5 - 5,0", "< 5", "> 60"; nil when the row prints none.
    public var range: String?
    /// "H" or "L", or nil.
    public var flag: String?
    /// True when a number in the row may be misread (`doubt` says why).
    public var doubtful: Bool
    public var doubt: [NumberDoubtReason]
    /// The row's line (0-based, counting every line of the text, pages' form feeds as line breaks).
    public var line: Int
    /// The row's place in the text, in Unicode scalars.
    public var start: Int
    public var length: Int
    /// The result's place in the text, in Unicode scalars.
    public var valueStart: Int
    public var valueLength: Int
    /// The reference range's place in the text, in Unicode scalars; nil without a range.
    public var rangeStart: Int?
    public var rangeLength: Int?
    /// The unit's place in the text, in Unicode scalars; nil without a unit.
    public var unitStart: Int?
    public var unitLength: Int?

    public init(analysis: String, printedAnalysis: String, value: String, unit: String?, range: String?, flag: String?,
                doubt: [NumberDoubtReason] = [], line: Int = 0, start: Int = 0, length: Int = 0,
                valueStart: Int = 0, valueLength: Int = 0, rangeStart: Int? = nil, rangeLength: Int? = nil,
                unitStart: Int? = nil, unitLength: Int? = nil) {
        self.analysis = analysis
        self.printedAnalysis = printedAnalysis
        self.value = value
        self.unit = unit
        self.range = range
        self.flag = flag
        self.doubt = doubt
        self.doubtful = !doubt.isEmpty
        self.line = line
        self.start = start
        self.length = length
        self.valueStart = valueStart
        self.valueLength = valueLength
        self.rangeStart = rangeStart
        self.rangeLength = rangeLength
        self.unitStart = unitStart
        self.unitLength = unitLength
    }
}

/// Reads the rows of the laboratory tables a letter prints. A row is recognised by its shape,
/// not by a list of names: an analysis name (letters first), a result, a unit from the unit
/// vocabulary or of a unit's shape, and a reference range, in the order the letter's columns
/// have them ("Kreatinin 88 µmol/L 60–105", "Kalium 3,4 L 3,5 - 4,4 mmol/L", "CRP mg/L 20 H < 5").
/// Every token after the name must be one of those, so a sentence or a drug's strength is not
/// taken for a row. Each row is checked for plausibility (``LabPlausibility``).
public enum LabTable {
    /// The version of these rules: raised whenever a change reads a row otherwise, so that the
    /// library reads the values of the letters it holds again (``DocumentStore/rereadLabsIfRulesChanged(version:)``).
    public static let rulesVersion = 5

    public static func rows(in text: String) -> [LabRow] {
        let lines = TextLine.split(text)
        // A fødselsnummer is never a result: a row whose numbers hold one is not a row.
        let fnr = Fodselsnummer.matches(in: text).map(\.range)
        var parsed: [(LabRow, ParsedRow)] = []
        for line in lines {
            guard let row = parse(line) else { continue }
            let places = [row.0.valueStart..<(row.0.valueStart + row.0.valueLength)]
                + [row.0.rangeStart.map { $0..<($0 + (row.0.rangeLength ?? 0)) }].compactMap { $0 }
            if places.contains(where: { place in fnr.contains { $0.overlaps(place) } }) { continue }
            parsed.append(row)
        }
        // A row without its value is one that lost it only in a table whose rows print values (a
        // list of reference ranges prints none).
        if parsed.filter({ !$0.0.value.isEmpty }).count < 2 { parsed.removeAll { $0.0.value.isEmpty } }
        // A table whose rows print flags uses them: a result outside its range without one is in doubt.
        let flagsInUse = parsed.contains { $0.0.flag != nil }
        // A table whose rows print reference ranges prints one on each: a row without it lost it
        // in reading (a column the photo's reading left out), and its value cannot be judged.
        let rangesInUse = parsed.filter { if case .none = $0.1.range { false } else { true } }.count >= 2
        return parsed.map { row, facts in
            var row = row
            row.doubt = LabPlausibility.check(facts, flagsInUse: flagsInUse)
            if rangesInUse, case .none = facts.range, !row.doubt.contains(.rangeLost) { row.doubt.append(.rangeLost) }
            row.doubtful = !row.doubt.isEmpty
            // A lost decimal comma put back where the range and the flag leave one place for it;
            // the row stays in doubt, and the letter's text keeps what OCR read.
            if row.doubt.contains(.commaLost), let restored = LabPlausibility.restoredComma(facts) { row.value = restored }
            return row
        }
    }

    /// What plausibility needs of a row.
    struct ParsedRow {
        var analysis: LabAnalyses.Analysis?
        /// The canonical unit, or the printed one; nil when none is printed.
        var unit: String?
        var value: LabNumber?
        /// The result's printed text (a damaged number that does not parse leaves `value` nil).
        var valueText: String
        var range: LabRange
        var flag: String?
        var unitMisread = false
        /// The name is the start of a known analysis's ("Fritt" of "Fritt T4"): its last part may
        /// have been read as the result.
        var nameCut = false
        /// The name is one letter off a known analysis's short name ("CRAP" for "CRP").
        var nameMisread = false
    }

    /// One token of a line: its text (without trailing "." "," ";" ":") and its scalar place.
    struct Token {
        var text: String
        var start: Int
        var end: Int
    }

    /// What a stretch of tokens after the name is.
    private enum Item {
        case number(LabNumber, flag: String?, start: Int, end: Int)
        case span(low: LabNumber, high: LabNumber, start: Int, end: Int)
        case flag(String)
        case unit(String, start: Int, end: Int)
        case damaged(String, start: Int, end: Int)
    }

    static func parse(_ line: TextLine) -> (LabRow, ParsedRow)? {
        var tokens = line.tokens()
        while let first = tokens.first, Self.isPunctuation(first.text) || Self.isBullet(first.text) { tokens.removeFirst() }
        guard tokens.count >= 3 else { return nil }

        // The name: tokens up to the first number, comparator, range or known unit; after a known
        // analysis's name, a token of letters OCR reads for digits ("OL" for "0 L") is its result.
        var nameEnd = 0
        var lookalikeValue = false
        while nameEnd < tokens.count {
            let t = tokens[nameEnd].text
            if nameEnd > 0, Self.startsValue(t) || LabUnits.canonical(t) != nil { break }
            if nameEnd > 0, NumberShape.isLookalikeWord(t), nameEnd + 1 < tokens.count,
               LabAnalyses.analysis(named: tokens[0..<nameEnd].map(\.text).joined(separator: " ")) != nil {
                lookalikeValue = true
                break
            }
            // Digits read as capitals ("TOL" for "10L", "GIH" for "6,21 H") before the unit or range.
            if nameEnd > 0, Self.digitsReadAsLetters(t), nameEnd + 1 < tokens.count,
               LabUnits.isUnit(tokens[nameEnd + 1].text) || Self.startsValue(tokens[nameEnd + 1].text) {
                let name = tokens[0..<nameEnd].map(\.text).joined(separator: " ")
                if LabAnalyses.analysis(named: name) != nil, LabAnalyses.analysis(named: name + " " + t) == nil {
                    lookalikeValue = true
                    break
                }
            }
            // Capitals where a result stands, before the analysis's own unit however damaged
            // ("Leukocytter LIL x10"94." for "1,9 L x10^9/L"): the unit says the result stood here.
            if nameEnd > 0, nameEnd + 1 < tokens.count, (2...4).contains(t.unicodeScalars.count),
               t.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || NumberShape.isDigit($0) || "l|,.".unicodeScalars.contains($0) }) {
                let name = tokens[0..<nameEnd].map(\.text).joined(separator: " ")
                let unit = tokens[nameEnd + 1].text
                // A unit too damaged to be told from the analysis's own: "x10…" or a "/", a range after it.
                let damaged = (unit.hasPrefix("x10") || unit.contains("/")) && nameEnd + 2 < tokens.count
                    && Self.startsValue(tokens[nameEnd + 2].text)
                if let known = LabAnalyses.analysis(named: name), LabAnalyses.analysis(named: name + " " + t) == nil,
                   damaged || LabUnits.closest(to: unit, among: known.units.map(\.unit)) != nil {
                    lookalikeValue = true
                    break
                }
            }
            // A result OCR mixed with letters ("L7E" for "1,7 L") after a known analysis's name and
            // before its unit or range: the row is kept, its result unreadable, not lost.
            if nameEnd > 0, t.contains(where: \.isNumber), t.contains(where: \.isLetter), !t.contains("/"),
               nameEnd + 1 < tokens.count,
               LabUnits.isUnit(tokens[nameEnd + 1].text) || Self.startsValue(tokens[nameEnd + 1].text) {
                let name = tokens[0..<nameEnd].map(\.text).joined(separator: " ")
                if LabAnalyses.analysis(named: name) != nil, LabAnalyses.analysis(named: name + " " + t) == nil {
                    lookalikeValue = true
                    break
                }
            }
            nameEnd += 1
        }
        guard nameEnd > 0, nameEnd < tokens.count, nameEnd <= 6 else { return nil }
        // A stray mark after the name ("HbA1c '") is no part of it.
        var nameLast = nameEnd
        while nameLast > 1, !tokens[nameLast - 1].text.contains(where: { $0.isLetter || $0.isNumber }) { nameLast -= 1 }
        let nameTokens = tokens[0..<nameLast]
        let printedName = String(String.UnicodeScalarView(line.scalars(from: nameTokens.first?.start ?? 0,
                                                                            to: nameTokens.last?.end ?? 0)))
        guard printedName.filter(\.isLetter).count >= 2, let firstScalar = printedName.unicodeScalars.first,
              firstScalar.properties.isAlphabetic || ("0"..."9").contains(firstScalar) else { return nil }
        // A name one letter off a known analysis's is taken for it when the row prints a unit of
        // that analysis and of no other as near ("eGEFR … mL/min/1,73m²"); the row stays in doubt.
        let named = LabAnalyses.analysis(named: printedName)
        let near = named == nil
            ? LabAnalyses.nearAnalysis(printedName, units: tokens[nameEnd...].map(\.text).filter { LabUnits.isUnit($0) || $0.contains("/") })
            : nil
        let analysis = named ?? near
        // OCR's damage to a unit ("x10"9/L", "umMol/L"): the analysis's own unit it is close to.
        // So too a known unit the analysis is not reported in, one letter off one it is
        // ("pmol/L" for Kreatinin's "µmol/L": the µ read as a p).
        func unitOf(_ printed: String) -> (unit: String, misread: Bool) {
            let own = analysis?.units.map(\.unit) ?? []
            if let known = LabUnits.canonical(printed) {
                guard !own.isEmpty, !own.contains(where: { LabUnits.same($0, known) }),
                      let close = own.first(where: { LabAnalyses.editDistance(Array(LabUnits.fold($0)), Array(LabUnits.fold(known)), limit: 1) == 1 })
                else { return (known, false) }
                return (close, true)
            }
            if let close = LabUnits.closest(to: printed, among: own) { return (close, true) }
            return (printed, false)
        }
        if analysis == nil, nameEnd > 4 { return nil }
        // A unit OCR split in two with a space: after its decimal comma («mL/min/1, 73m2»: the
        // rules' spelling, or one close to the analysis's own), or beside its slash («umol /L»,
        // «mmol/ L»: the rules' spelling alone). Nil when the two tokens are no such unit.
        /// The digits of a unit split after its comma («1, 73») are a number read otherwise than
        /// printed: the row is in doubt (`misread`), though its unit is known.
        func splitUnit(_ t: Token, _ next: Token) -> (unit: String, misread: Bool)? {
            guard LabNumber(t.text) == nil, t.end < line.end else { return nil }
            if t.text.contains("/"), next.start == t.end + 2, line.all[t.end] == "," {
                let joined = t.text + "," + next.text
                if LabUnits.canonical(joined) != nil { return (joined, true) }
                if let analysis, LabUnits.closest(to: joined, among: analysis.units.map(\.unit)) != nil { return (joined, true) }
                return nil
            }
            guard next.start == t.end + 1, t.text.hasSuffix("/") || next.text.hasPrefix("/") else { return nil }
            let joined = t.text + next.text
            return LabUnits.canonical(joined) != nil ? (joined, false) : nil
        }

        // The rest: numbers, ranges, flags and a unit.
        var items: [Item] = []
        var unknown = 0
        var unitMisread = false
        var i = nameEnd
        while i < tokens.count {
            let t = tokens[i]
            let next = i + 1 < tokens.count ? tokens[i + 1] : nil
            let afterNext = i + 2 < tokens.count ? tokens[i + 2] : nil
            if Self.comparators.contains(t.text), let next, let n = LabNumber(next.text), n.comparator == nil {
                items.append(.number(LabNumber(comparator: Self.normalComparator(t.text), n), flag: nil, start: t.start, end: next.end))
                i += 2
            } else if let (n, flag) = LabNumber.withFlag(t.text) {
                if n.comparator == nil, flag == nil, let dash = next, Self.dashes.contains(dash.text),
                   let high = afterNext.flatMap({ LabNumber($0.text) }), high.comparator == nil {
                    items.append(.span(low: n, high: high, start: t.start, end: afterNext?.end ?? t.end))
                    i += 3
                } else if n.comparator == nil, flag == nil, let next, let high = Self.leadingDashNumber(next.text) {
                    items.append(.span(low: n, high: high, start: t.start, end: next.end))
                    i += 2
                } else {
                    items.append(.number(n, flag: flag, start: t.start, end: t.end))
                    i += 1
                }
            } else if let (low, high) = Self.attachedSpan(t.text) {
                items.append(.span(low: low, high: high, start: t.start, end: t.end))
                i += 1
            } else if let low = Self.trailingDashNumber(t.text), let next, let high = LabNumber(next.text), high.comparator == nil {
                items.append(.span(low: low, high: high, start: t.start, end: next.end))
                i += 2
            } else if let flag = Self.flag(t.text) {
                items.append(.flag(flag))
                i += 1
            } else if let next, let split = splitUnit(t, next) {
                // A unit OCR split with a space: one unit, as printed without the space.
                let read = unitOf(split.unit)
                unitMisread = unitMisread || read.misread || split.misread
                items.append(.unit(read.unit, start: t.start, end: next.end))
                i += 2
            } else if LabUnits.isUnit(t.text) {
                let read = unitOf(t.text)
                unitMisread = unitMisread || read.misread
                items.append(.unit(read.unit, start: t.start, end: t.end))
                i += 1
            } else if let analysis, t.text.contains("/"), LabNumber(t.text) == nil,
                      let close = LabUnits.closest(to: t.text, among: analysis.units.map(\.unit)) {
                // A unit whose last sign OCR read as no unit's ("mL/min/1,73m>", its square as a
                // comparator): the analysis's own unit it is close to, in doubt.
                unitMisread = true
                items.append(.unit(close, start: t.start, end: t.end))
                i += 1
            } else if NumberShape.isDamagedNumber(t.text) || NumberShape.isMalformedNumber(t.text)
                        || (lookalikeValue && i == nameEnd) {
                items.append(.damaged(t.text, start: t.start, end: t.end))
                i += 1
            } else if Self.isPunctuation(t.text) {
                i += 1
            } else {
                unknown += 1
                i += 1
            }
        }

        // The result is the first number; the range the first span, else a later comparator, else a
        // lone later number (a range that lost its "<").
        var value: (n: LabNumber?, text: String, flag: String?, start: Int, end: Int)?
        var range: (range: LabRange, start: Int, end: Int)?
        var flag: String?
        var unit: (text: String, start: Int, end: Int)?
        for item in items {
            switch item {
            case let .number(n, attached, start, end):
                if value == nil {
                    value = (n, line.text(from: start, to: end), attached, start, end)
                } else if range == nil, n.comparator != nil {
                    range = (n.comparator == "<" || n.comparator == "≤" ? .below(n) : .above(n), start, end)
                } else if range == nil {
                    range = (.unreadable, start, end)
                } else if let unreadable = range, unreadable.range == .unreadable, Self.adjacent(unreadable.end, start, line) {
                    // A range that lost its dash and commas ("117 153" for "11,7 - 15,3") is one range in doubt.
                    range = (.unreadable, unreadable.start, end)
                } else {
                    unknown += 1
                }
            case let .span(low, high, start, end):
                if range == nil || range?.range == .unreadable { range = (.between(low, high), start, end) } else { unknown += 1 }
            case let .damaged(text, start, end):
                if value == nil { value = (nil, text, nil, start, end) } else if range == nil { range = (.unreadable, start, end) } else { unknown += 1 }
            case let .flag(f):
                if flag == nil { flag = f } else { unknown += 1 }
            case let .unit(u, start, end):
                if unit == nil { unit = (u, start, end) } else { unknown += 1 }
            }
        }
        guard let value else {
            // A known analysis's row with its unit and its range and nothing else: the result
            // was not read (a photo's column left out). Kept as a row without a value, in doubt,
            // so the letter goes to review; a list line of names and spans is no such row.
            guard let analysis, let unit, let range, case .between = range.range, unknown == 0, flag == nil,
                  let nameEnd = nameTokens.last?.end else { return nil }
            let rangeText = line.text(from: range.start, to: range.end)
            let row = LabRow(analysis: analysis.name, printedAnalysis: printedName, value: "", unit: unit.text, range: rangeText,
                             flag: nil, line: line.index, start: tokens.first?.start ?? line.start,
                             length: (tokens.last?.end ?? line.start) - (tokens.first?.start ?? line.start),
                             valueStart: nameEnd, valueLength: 0, rangeStart: range.start, rangeLength: range.end - range.start,
                             unitStart: unit.start, unitLength: unit.end - unit.start)
            let facts = ParsedRow(analysis: analysis, unit: unit.text, value: nil, valueText: "", range: range.range,
                                  flag: nil, unitMisread: unitMisread)
            return (row, facts)
        }
        if let attached = value.flag {
            if flag != nil { unknown += 1 }
            flag = attached
        }
        let known = analysis != nil
        // One token the row has no place for (OCR's debris) is let pass in a row of a known analysis
        // that prints its range; a list line with a date after the value is not a table's row.
        guard unknown == 0 || (known && unknown == 1 && range != nil) else { return nil }
        guard (unit != nil && (known || range != nil)) || (known && range != nil) else { return nil }
        // The value's text without an attached flag ("20H" → "20").
        var valueText = value.text
        var valueEnd = value.end
        if value.flag != nil, let last = valueText.unicodeScalars.last, last == "H" || last == "L" || last == "*" {
            while let last = valueText.unicodeScalars.last, !("0"..."9").contains(last) {
                valueText.unicodeScalars.removeLast()
                valueEnd -= 1
            }
        }
        let rangeText = range.map { line.text(from: $0.start, to: $0.end) }
        let row = LabRow(analysis: analysis?.name ?? printedName, printedAnalysis: printedName, value: valueText,
                         unit: unit?.text, range: rangeText, flag: flag, line: line.index,
                         start: tokens.first?.start ?? line.start, length: (tokens.last?.end ?? line.start) - (tokens.first?.start ?? line.start),
                         valueStart: value.start, valueLength: valueEnd - value.start,
                         rangeStart: range?.start, rangeLength: range.map { $0.end - $0.start },
                         unitStart: unit?.start, unitLength: unit.map { $0.end - $0.start })
        let facts = ParsedRow(analysis: analysis, unit: unit?.text, value: value.n, valueText: valueText,
                              range: range?.range ?? .none, flag: flag, unitMisread: unitMisread,
                              nameCut: analysis == nil && LabAnalyses.isCutName(printedName),
                              nameMisread: near != nil || (analysis == nil && LabAnalyses.isNearName(printedName)))
        return (row, facts)
    }

    static let comparators: Set<String> = ["<", ">", "≤", "≥", "<=", ">="]
    static let dashes: Set<String> = ["-", "–", "—", "‒", "−"]
    private static let dashScalars: Set<Unicode.Scalar> = ["-", "–", "—", "‒", "−"]

    static func normalComparator(_ s: String) -> String {
        switch s {
        case "<=": "≤"
        case ">=": "≥"
        default: s
        }
    }

    /// Whether a token after the name starts the results: a number (with a comparator or an
    /// attached flag), a comparator, a range, or a number damaged by OCR.
    static func startsValue(_ t: String) -> Bool {
        comparators.contains(t) || LabNumber.withFlag(t) != nil || attachedSpan(t) != nil || trailingDashNumber(t) != nil
            || NumberShape.isDamagedNumber(t)
    }

    /// "3,5–10,0" or "3,5-10,0" in one token.
    static func attachedSpan(_ t: String) -> (LabNumber, LabNumber)? {
        let scalars = Array(t.unicodeScalars)
        guard let dash = scalars.firstIndex(where: { dashScalars.contains($0) }), dash > 0, dash < scalars.count - 1 else { return nil }
        // A dash OCR read twice ("137—-145") is one.
        var after = dash + 1
        while after < scalars.count - 1, dashScalars.contains(scalars[after]) { after += 1 }
        let low = String(String.UnicodeScalarView(scalars[..<dash])), high = String(String.UnicodeScalarView(scalars[after...]))
        guard let l = LabNumber(low), let h = LabNumber(high), l.comparator == nil, h.comparator == nil else { return nil }
        return (l, h)
    }

    /// "3,5-" (the range's second half in the next token).
    static func trailingDashNumber(_ t: String) -> LabNumber? {
        guard let last = t.unicodeScalars.last, dashScalars.contains(last) else { return nil }
        let n = LabNumber(String(t.unicodeScalars.dropLast()))
        return n?.comparator == nil ? n : nil
    }

    /// "-10,0" (the range's first half in the previous token).
    static func leadingDashNumber(_ t: String) -> LabNumber? {
        guard let first = t.unicodeScalars.first, dashScalars.contains(first) else { return nil }
        let n = LabNumber(String(t.unicodeScalars.dropFirst()))
        return n?.comparator == nil ? n : nil
    }

    static func flag(_ t: String) -> String? {
        switch t {
        case "H", "H*", "*H", "(H)", "HH", "Høy", "høy", "H+": "H"
        case "L", "L*", "*L", "(L)", "LL", "Lav", "lav", "L-": "L"
        default: nil
        }
    }

    /// Whether only spaces stand between `end` and `start` in the line.
    static func adjacent(_ end: Int, _ start: Int, _ line: TextLine) -> Bool {
        end <= start && line.scalars(from: end, to: start).allSatisfy { $0 == " " }
    }

    /// Two to four capitals and digits that OCR can read for digits ("TOL" for "10L", "IS"
    /// for "15"): a flag's "H" or "L" may end them.
    static func digitsReadAsLetters(_ t: String) -> Bool {
        var scalars = Array(t.unicodeScalars)
        guard (2...4).contains(scalars.count) else { return false }
        if let last = scalars.last, last == "H" || last == "L" { scalars.removeLast() }
        let lookalikes: Set<Unicode.Scalar> = ["O", "I", "l", "|", "T", "S", "Z", "B", "G"]
        return scalars.contains(where: lookalikes.contains) && scalars.allSatisfy { lookalikes.contains($0) || NumberShape.isDigit($0) }
    }

    static func isPunctuation(_ t: String) -> Bool {
        !t.isEmpty && t.unicodeScalars.allSatisfy { "|!¦:;.,_'\"`~*".unicodeScalars.contains($0) }
    }

    static func isBullet(_ t: String) -> Bool { ["•", "·", "-", "–", "—", "*", "o", "►", "▪"].contains(t) }
}
