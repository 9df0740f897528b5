import ArkivatorCore
import Foundation

/// Why a number may be misread. The raw value is the short code records carry; ``userMessage``
/// says it in words.
public enum NumberDoubtReason: String, Sendable, Codable, Equatable, CaseIterable {
    /// OCR was unsure of the word the number stands in.
    case lowConfidence
    /// A letter among the digits ("5O", "l2", "1O,5"): OCR damage.
    case letterInNumber
    /// Two decimal signs in a row ("5,,2", "5.,2").
    case doubledSeparator
    /// A lab result outside what its analysis can be in its unit.
    case outsideSpan
    /// A lab result whose H/L flag disagrees with its reference range.
    case flagDisagrees
    /// A lab result outside its reference range without an H/L flag.
    case missingFlag
    /// A lab result that seems to have lost its decimal comma.
    case commaLost
    /// A lab result that does not read as a number.
    case valueUnreadable
    /// A reference range that does not read as one ("5" where "< 5" is meant, a low limit over the high).
    case rangeUnreadable
    /// A reference range outside what its analysis can be.
    case rangeImplausible
    /// A unit the analysis is not reported in (the unit may be misread).
    case unexpectedUnit
    /// A unit damaged by OCR, read as the analysis's own unit it is closest to ("x10"9/L").
    case unitMisread
    /// A telephone number without the 8 digits of a Norwegian one ("55 97 50 og").
    case phoneDigits
    /// A page number at the foot of a page that is not the page's ("11" on page 1 of 1).
    case pageNumber
    /// A lab row whose name is the start of a known analysis's ("Fritt 14" for "Fritt T4 16").
    case nameCut
    /// A lab row whose name is one letter off a known analysis's short name ("CRAP" for "CRP"):
    /// too short to be taken for it, so the row may be read wrong.
    case nameMisread
    /// A post box number split in two by a space ("Postboks 241 5" for 2415): one of its digits
    /// may be misread, or a mark read as a space.
    case numberSplit
    /// A date that cannot be ("30.0." for "30.6.2025").
    case impossibleDate
    /// A mark read among a number's digits: a point inside a telephone number's group
    /// ("Tlf. 22.45 13.00"), a colon between a date's parts ("01:07.2024").
    case markInNumber
    /// A range that lost its end: a number with a dash after it and no number after the dash
    /// ("1— tablett" for "1–2 tabletter").
    case rangeCut
    /// A lab result without the decimals its reference range is written with ("Leukocytter 5
    /// x10^9/L 3,5–10,0"): a decimal part may have been lost.
    case decimalsLost
    /// A postcode that is not its place's ("1014 Trondheim" for "7014 Trondheim").
    case postcodePlace
    /// A place under a street address without its postcode ("Drammen" for "3015 Drammen").
    case postcodeLost
    /// A code in a column of codes with digits where the others have letters ("556450" among
    /// "CN3662", "TS5000": "SS6450").
    case codeShape
    /// An address the letter writes twice (letterhead and footer) with another number the other
    /// time ("Postboks 148, 8092 Bodø" and "Postboks 1480, 8092 Bodø"): one of them is misread.
    case addressDisagrees
    /// A lab row without the reference range the table's other rows print: its range was not
    /// read, and the value cannot be judged against it.
    case rangeLost
    /// A lab row of a known analysis with its unit and range but no result: the value was not
    /// read (a photo's column left out, ink too faint).
    case valueLost
    /// An organisation number that does not read as nine digits ("Org.nr. WE) 974 899").
    case organisationNumber

    public var userMessage: UserMessage {
        switch self {
        case .lowConfidence: UserMessage(nb: "OCR var usikker på tallet", en: "OCR was unsure of the number")
        case .letterInNumber: UserMessage(nb: "en bokstav står blant sifrene", en: "a letter stands among the digits")
        case .doubledSeparator: UserMessage(nb: "dobbelt komma eller punktum i tallet", en: "a doubled comma or point in the number")
        case .outsideSpan:
            UserMessage(nb: "verdien er utenfor det analysen kan ha i denne enheten",
                        en: "the value is outside what the analysis can be in this unit")
        case .flagDisagrees:
            UserMessage(nb: "H/L-merket stemmer ikke med referanseområdet", en: "the H/L flag disagrees with the reference range")
        case .missingFlag:
            UserMessage(nb: "verdien er utenfor referanseområdet uten H/L-merke",
                        en: "the value is outside the reference range without an H/L flag")
        case .commaLost: UserMessage(nb: "desimalkommaet ser ut til å mangle", en: "the decimal comma seems lost")
        case .valueUnreadable: UserMessage(nb: "verdien kan ikke leses som et tall", en: "the value does not read as a number")
        case .rangeUnreadable: UserMessage(nb: "referanseområdet kan ikke leses", en: "the reference range does not read as one")
        case .rangeImplausible:
            UserMessage(nb: "referanseområdet er utenfor det analysen kan ha", en: "the reference range is outside what the analysis can be")
        case .unexpectedUnit: UserMessage(nb: "uventet enhet for analysen", en: "a unit the analysis is not reported in")
        case .unitMisread: UserMessage(nb: "enheten er delvis uleselig", en: "the unit is partly unreadable")
        case .phoneDigits:
            UserMessage(nb: "telefonnummeret har ikke 8 sifre", en: "the telephone number does not have 8 digits")
        case .pageNumber: UserMessage(nb: "sidetallet stemmer ikke med siden", en: "the page number does not match the page")
        case .nameCut:
            UserMessage(nb: "analysenavnet ser ut til å mangle en del", en: "the analysis's name seems cut short")
        case .nameMisread:
            UserMessage(nb: "analysenavnet ser feillest ut", en: "the analysis's name looks misread")
        case .numberSplit:
            UserMessage(nb: "postboksnummeret er delt i to", en: "the post box number is split in two")
        case .impossibleDate: UserMessage(nb: "datoen finnes ikke", en: "the date does not exist")
        case .markInNumber: UserMessage(nb: "et tegn står feil blant sifrene", en: "a mark stands wrongly among the digits")
        case .decimalsLost: UserMessage(nb: "verdien mangler desimalene som referanseområdet har", en: "the value lacks the decimals its reference range has")
        case .rangeCut: UserMessage(nb: "tallområdet mangler tallet etter streken", en: "the range lacks the number after its dash")
        case .postcodePlace: UserMessage(nb: "postnummeret hører ikke til stedet", en: "the postcode does not belong to the place")
        case .postcodeLost: UserMessage(nb: "postnummeret mangler foran stedet", en: "the postcode before the place is missing")
        case .rangeLost:
            UserMessage(nb: "referanseområdet ble ikke lest, så verdien kan ikke sjekkes mot det",
                        en: "the reference range was not read, so the value cannot be checked against it")
        case .valueLost:
            UserMessage(nb: "verdien i raden ble ikke lest", en: "the row's value was not read")
        case .addressDisagrees:
            UserMessage(nb: "samme adresse står med et annet nummer et annet sted i brevet",
                        en: "the same address has another number elsewhere in the letter")
        case .codeShape:
            UserMessage(nb: "koden har sifre der de andre kodene i kolonnen har bokstaver",
                        en: "the code has digits where the other codes in its column have letters")
        case .organisationNumber:
            UserMessage(nb: "organisasjonsnummeret leses ikke som ni sifre", en: "the organisation number does not read as nine digits")
        }
    }
}

/// A number in a text that may be misread: as it stands, where (Unicode scalars, like the
/// library's low-confidence ranges) and why. A number that is part of a fødselsnummer is shown
/// as bullets.
public struct DoubtfulNumber: Sendable, Codable, Equatable {
    public var text: String
    public var start: Int
    public var length: Int
    /// The first reason, as its code.
    public var reason: NumberDoubtReason
    /// Every reason, first the OCR's, then the lab row's.
    public var reasons: [NumberDoubtReason]

    public init(text: String, start: Int, length: Int, reasons: [NumberDoubtReason]) {
        self.text = text
        self.start = start
        self.length = length
        self.reasons = reasons
        self.reason = reasons.first ?? .lowConfidence
    }
}

/// Finds the numbers of a text that may be misread, so that none is silently taken as read: a
/// number OCR was unsure of, a number damaged by OCR ("5O", "1O,5", "5,,2"), and the result and
/// range of a laboratory row in doubt (``LabTable``, ``LabPlausibility``).
public enum NumberDoubt {
    /// `lowConfidence`: the places OCR was unsure of, in Unicode scalars of `text`.
    public static func doubtfulNumbers(in text: String, lowConfidence: [(start: Int, length: Int)]) -> [DoubtfulNumber] {
        doubtfulNumbers(in: text, lowConfidence: lowConfidence, rows: LabTable.rows(in: text))
    }

    /// The same with the lab rows already read.
    public static func doubtfulNumbers(in text: String, lowConfidence: [(start: Int, length: Int)],
                                       rows: [LabRow]) -> [DoubtfulNumber] {
        let scalars = Array(text.unicodeScalars)
        var found: [Int: DoubtfulNumber] = [:]
        func add(_ start: Int, _ end: Int, _ reason: NumberDoubtReason) {
            guard start < end, start >= 0, end <= scalars.count else { return }
            if var existing = found[start] {
                if !existing.reasons.contains(reason) { existing.reasons.append(reason) }
                if end - start > existing.length {
                    existing.length = end - start
                    existing.text = String(String.UnicodeScalarView(scalars[start..<end]))
                }
                found[start] = existing
            } else {
                found[start] = DoubtfulNumber(text: String(String.UnicodeScalarView(scalars[start..<end])), start: start,
                                              length: end - start, reasons: [reason])
            }
        }

        let unsure = lowConfidence.filter { $0.length > 0 }.map { ($0.start, $0.start + $0.length) }.sorted { $0.0 < $1.0 }
        let placed = Self.words(scalars)
        let words = placed.map(\.range)
        let texts = placed.map(\.text)
        // Digits that what stands around them confirms, however unsure OCR was: a lab row's unit
        // read as the analysis's own ("x10^9/L", "mL/min/1,73m²"), and a page number that is its
        // page's ("Side 1 av 2" on page 1).
        let pages = Self.pageNumbers(scalars, placed)
        let units = rows.filter { !$0.doubt.contains(.unitMisread) && !$0.doubt.contains(.unexpectedUnit) }.compactMap { row in
            row.unitStart.map { $0..<($0 + (row.unitLength ?? 0)) }
        }
        let confirmed = units + pages.right.map { words[$0] }
        for (index, word) in words.enumerated() {
            let core = texts[index]
            if NumberShape.isDamagedNumber(core) {
                add(word.lowerBound, word.upperBound, core.unicodeScalars.contains(where: NumberShape.isLookalike) ? .letterInNumber : .doubledSeparator)
            } else if NumberShape.isMalformedNumber(core) {
                add(word.lowerBound, word.upperBound, .doubledSeparator)
            } else if NumberShape.isLookalikeWord(core),
                      NumberShape.standsForNumber(index, texts) || Self.besideNumber(index, placed, scalars)
                        || Self.afterStreetName(index, placed) || Self.isDayBeforeMonth(index, placed, scalars)
                        || Self.afterNumberedPlace(index, placed, scalars) {
                // After a number on its line the letter may be the number's last digit ("XT808 I").
                let joined = index > 0 && placed[index - 1].line == placed[index].line
                    && placed[index - 1].text.unicodeScalars.last.map(NumberShape.isDigit) == true
                add(joined ? words[index - 1].lowerBound : word.lowerBound, word.upperBound, .letterInNumber)
            } else if core == "å" || core == "Å", NumberShape.standsForNumber(index, texts) {
                // "inntil å ganger" for "inntil 4 ganger": no infinitive stands before what is counted.
                add(word.lowerBound, word.upperBound, .letterInNumber)
            } else if Self.isMonthOfLetters(index, placed, scalars) {
                add(words[index - 1].lowerBound, words[index + 1].upperBound, .letterInNumber)
            } else if Self.isImpossibleDate(word, scalars) {
                add(word.lowerBound, word.upperBound, .impossibleDate)
            } else if Self.isDateWithWrongMark(core) {
                add(word.lowerBound, word.upperBound, .markInNumber)
            } else if NumberShape.isDamagedName(core) {
                add(word.lowerBound, word.upperBound, .letterInNumber)
            } else if Self.isCutRange(index, placed) {
                add(word.lowerBound, word.upperBound, .rangeCut)
            } else if Self.isLetteredHouseNumberOfLetters(core), Self.afterStreetName(index, placed) {
                add(word.lowerBound, word.upperBound, .letterInNumber)
            } else if NumberShape.isSymbolForDigits(core),
                      core.unicodeScalars.contains(where: NumberShape.isDigit) && !core.hasPrefix("§")
                        || NumberShape.standsForNumber(index, texts) {
                // "§ mg" for "5 mg", "$00" for "500"; "§ 2-1" and "§12" are a law's paragraph.
                add(word.lowerBound, word.upperBound, .letterInNumber)
            }
            for number in NumberShape.numbers(scalars, in: word.lowerBound..<word.upperBound) where !confirmed.contains(where: { $0.overlaps(number) }) {
                if Self.overlaps(number, unsure) { add(number.lowerBound, number.upperBound, .lowConfidence) }
            }
            if NumberShape.isDamagedNumber(core), Self.overlaps(word.lowerBound..<word.upperBound, unsure) {
                add(word.lowerBound, word.upperBound, .lowConfidence)
            }
        }
        for row in rows where row.doubtful {
            // A unit the analysis is not reported in, or damaged ("x1019/L" for "x10^9/L"): its digits.
            if row.doubt.contains(where: { $0 == .unexpectedUnit || $0 == .unitMisread }), let start = row.unitStart,
               let length = row.unitLength, scalars[start..<min(scalars.count, start + length)].contains(where: NumberShape.isDigit) {
                add(start, start + length, row.doubt.contains(.unitMisread) ? .unitMisread : .unexpectedUnit)
            }
            let numberReasons = row.doubt.filter { $0 != .unexpectedUnit && $0 != .unitMisread }
            guard let reason = numberReasons.first else { continue }
            // A range that does not read, or cannot be, puts the range in doubt, not the value.
            let rangeOnly: Set<NumberDoubtReason> = [.rangeUnreadable, .rangeImplausible]
            // A value not read: the whole row, where it should stand.
            if numberReasons.contains(.valueLost) {
                add(row.start, row.start + row.length, .valueLost)
            }
            if numberReasons.contains(where: { !rangeOnly.contains($0) }) {
                add(row.valueStart, row.valueStart + row.valueLength, numberReasons.first { !rangeOnly.contains($0) } ?? reason)
            }
            // A range lost: the value and the rest of its row, where the range stood.
            if numberReasons.contains(.rangeLost) {
                add(row.valueStart, max(row.valueStart + row.valueLength, row.start + row.length), .rangeLost)
            }
            if let start = row.rangeStart, let length = row.rangeLength,
               numberReasons.contains(where: { [.rangeUnreadable, .rangeImplausible, .flagDisagrees, .missingFlag].contains($0) }) {
                add(start, start + length, row.doubt.first { [.rangeUnreadable, .rangeImplausible].contains($0) } ?? reason)
            }
            for other in numberReasons.dropFirst() where !rangeOnly.contains(other) {
                add(row.valueStart, row.valueStart + row.valueLength, other)
            }
        }

        for index in pages.wrong {
            add(words[index].lowerBound, words[index].upperBound, .pageNumber)
        }
        for index in Self.misreadPostcodes(placed, scalars) {
            add(words[index].lowerBound, words[index].upperBound, .postcodePlace)
        }
        for index in Self.placesWithoutPostcode(placed, scalars) {
            add(words[index].lowerBound, words[index].upperBound, .postcodeLost)
        }
        for index in Self.disagreeingAddressNumbers(placed) {
            add(words[index].lowerBound, words[index].upperBound, .addressDisagrees)
        }
        for index in Self.codesWithDigitsForLetters(placed) {
            add(words[index].lowerBound, words[index].upperBound, .codeShape)
        }
        for groups in Self.damagedOrganisationNumbers(placed) {
            add(words[groups.lowerBound].lowerBound, words[groups.upperBound].upperBound, .organisationNumber)
        }
        for split in Self.splitPostBoxes(placed, scalars) {
            add(split.lowerBound, split.upperBound, .numberSplit)
        }
        // A telephone number is one number, in doubt as a whole: when OCR was unsure of one of
        // its groups, or when it lacks the 8 digits of a Norwegian one, with a short word before
        // or after it of letters that look like digits ("50 og" for "50 00", "i 10" for "70 10").
        for phone in Self.phoneNumbers(placed) {
            guard var first = phone.groups.first, var last = phone.groups.last else { continue }
            func looksLikeDigits(_ index: Int, beside: Int) -> Bool {
                placed.indices.contains(index) && placed[index].line == placed[beside].line && placed[index].text.count <= 3
                    && placed[index].text.unicodeScalars.allSatisfy { "oOgqlIi|sSBZ".unicodeScalars.contains($0) }
            }
            if !phone.complete, looksLikeDigits(last + 1, beside: last) { last += 1 }
            if !phone.complete, looksLikeDigits(first - 1, beside: first), !Self.isPhoneLabel(placed[first - 1].text) { first -= 1 }
            let span = words[first].lowerBound..<words[last].upperBound
            let inside = found.filter { span.overlaps($0.key..<($0.key + $0.value.length)) }
            guard !phone.complete || !inside.isEmpty else { continue }
            let own: [NumberDoubtReason] = phone.marked ? [.markInNumber] : phone.complete ? [] : [.phoneDigits]
            let reasons = own + inside.sorted { $0.key < $1.key }.flatMap(\.value.reasons)
            for key in inside.keys { found[key] = nil }
            let whole = min(span.lowerBound, inside.keys.min() ?? span.lowerBound)..<max(span.upperBound, inside.map { $0.key + $0.value.length }.max() ?? 0)
            for reason in reasons { add(whole.lowerBound, whole.upperBound, reason) }
        }

        // A fødselsnummer is never copied out of the text: numbers that are part of one are bullets.
        let fnr = Fodselsnummer.matches(in: text).map(\.range)
        return found.values.sorted { $0.start < $1.start }.map { number in
            var number = number
            if fnr.contains(where: { $0.overlaps(number.start..<(number.start + number.length)) }) {
                number.text = String(repeating: "•", count: number.text.count)
            }
            return number
        }
    }

    static func overlaps(_ range: Range<Int>, _ sorted: [(Int, Int)]) -> Bool {
        sorted.contains { $0.0 < range.upperBound && range.lowerBound < $0.1 }
    }
}

/// The shapes of numbers in OCR text.
enum NumberShape {
    /// Letters OCR reads for digits: O and o for 0, l, I and | for 1.
    static func isLookalike(_ c: Unicode.Scalar) -> Bool { "OolI|".unicodeScalars.contains(c) }
    static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// A word that is a number with OCR damage: digits with a letter that looks like one ("5O",
    /// "l2", "1O,5"), or two decimal signs in a row ("5,,2"). At least as many digits as letters,
    /// and no other letters, so "HbA1c", "B12", "T4" and "x10^9/L" are not numbers.
    static func isDamagedNumber(_ t: String) -> Bool {
        let scalars = Array(t.unicodeScalars)
        // A house number's letter after a damaged number ("7OA" for "70A").
        if scalars.count >= 3, let last = scalars.last, ("A"..."H").contains(last), scalars.dropLast().contains(where: isLookalike),
           scalars.dropLast().allSatisfy({ isDigit($0) || isLookalike($0) }) {
            return isDamagedNumber(String(String.UnicodeScalarView(scalars.dropLast())))
        }
        // A diagnosis code (ICD-10 "I21.4", "O24.4") starts with its capital letter.
        if scalars.count >= 3, scalars[0] == "I" || scalars[0] == "O", isDigit(scalars[1]), isDigit(scalars[2]),
           scalars.dropFirst(3).allSatisfy({ isDigit($0) || $0 == "." }) {
            return false
        }
        let digits = scalars.filter(isDigit).count
        guard digits > 0 else { return false }
        var lookalikes = 0
        var previousSeparator = false, doubled = false
        for (i, c) in scalars.enumerated() {
            if isDigit(c) {
                previousSeparator = false
            } else if isLookalike(c) {
                lookalikes += 1
                previousSeparator = false
            } else if c == "," || c == "." {
                if previousSeparator, i > 0, i < scalars.count - 1 { doubled = true }
                previousSeparator = true
            } else if (c == "<" || c == ">") && i == 0 {
                continue
            } else if c == ":" || c == "-" || c == "–" || c == "/" {
                previousSeparator = false
            } else {
                return false
            }
        }
        if doubled, let last = scalars.last, isDigit(last) || isLookalike(last) { return true }
        return lookalikes > 0 && lookalikes <= digits
    }

    /// A word of digits with a sign OCR reads for 5 or 8 among them, or that sign alone ("§",
    /// "$00" for "500").
    static func isSymbolForDigits(_ t: String) -> Bool {
        !t.isEmpty && t.count <= 6 && t.unicodeScalars.contains { $0 == "§" || $0 == "$" }
            && t.unicodeScalars.allSatisfy { isDigit($0) || $0 == "§" || $0 == "$" || $0 == "," }
    }

    /// Digits with two or more decimal commas ("0,504,10": a range that lost its dash).
    static func isMalformedNumber(_ t: String) -> Bool {
        let scalars = Array(t.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last, isDigit(first), isDigit(last) else { return false }
        return scalars.allSatisfy { isDigit($0) || $0 == "," } && scalars.filter { $0 == "," }.count >= 2
    }

    /// A short word of letters OCR reads for digits only ("I", "O", "OL", "Il"): "L" and "H"
    /// may follow as a flag.
    static func isLookalikeWord(_ t: String) -> Bool {
        let scalars = Array(t.unicodeScalars)
        guard !scalars.isEmpty, scalars.count <= 3, let first = scalars.first, isLookalike(first) else { return false }
        return scalars.dropFirst().allSatisfy { isLookalike($0) || $0 == "L" || $0 == "H" }
    }

    /// Words after which a count stands ("1 tablett", "1 døgn").
    static let countNouns: Set<String> = ["tablett", "tabletter", "kapsel", "kapsler", "dosepose", "doseposer", "dose", "doser",
                                          "stikk", "dråpe", "dråper", "drope", "droper", "pust", "døgn", "ganger", "gonger",
                                          "tablettar", "kapslar", "stk", "mg", "ml", "g", "sprøyte", "sprøyter", "sprøyta", "ampulle", "ampuller",
                                          "plaster", "pose", "poser", "flaske", "flasker", "pakning", "pakninger", "inhalasjon",
                                          "inhalasjoner"]

    /// Whether the word at `index`, of letters OCR reads for digits, stands where a number does:
    /// a page number ("Side I av I") or a count before what is counted ("I tablett").
    static func standsForNumber(_ index: Int, _ words: [String]) -> Bool {
        let lower = { (i: Int) -> String in i >= 0 && i < words.count ? words[i].lowercased() : "" }
        if lower(index - 1) == "side" { return true }
        if lower(index - 1) == "av", lower(index - 3) == "side" { return true }
        if lower(index - 1) == "av", lower(index + 1) == "side" { return false }
        return countNouns.contains(lower(index + 1))
    }

    /// A known analysis's name with a letter where its digit stands ("HbAlc" for "HbA1c").
    static func isDamagedName(_ t: String) -> Bool {
        guard t.unicodeScalars.contains(where: isLookalike), t.unicodeScalars.contains(where: { $0.properties.isAlphabetic && !isLookalike($0) }) else {
            return false
        }
        var mapped = ""
        for c in t.unicodeScalars {
            switch c {
            case "O", "o": mapped.unicodeScalars.append("0")
            case "l", "I", "|": mapped.unicodeScalars.append("1")
            default: mapped.unicodeScalars.append(c)
            }
        }
        guard mapped.unicodeScalars.contains(where: isDigit) else { return false }
        // Only the changed letters may differ: try each lookalike turned alone, then all of them.
        let scalars = Array(t.unicodeScalars)
        var candidates = [mapped]
        for (i, c) in scalars.enumerated() where isLookalike(c) {
            var one = scalars
            one[i] = (c == "O" || c == "o") ? "0" : "1"
            candidates.append(String(String.UnicodeScalarView(one)))
        }
        return candidates.contains { candidate in
            let key = candidate.lowercased()
            return key != t.lowercased() && LabAnalyses.aliasIndex[key] != nil && LabAnalyses.aliasIndex[t.lowercased()] == nil
        }
    }

    /// Whitespace-separated words, with brackets, quotes and a trailing full stop, comma, colon
    /// or semicolon left out.
    static func words(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var i = 0
        let opening: Set<Unicode.Scalar> = ["(", "[", "«", "\"", "'", "{"]
        let closing: Set<Unicode.Scalar> = [")", "]", "»", "\"", "'", "}", ".", ",", ";", ":", "!", "?"]
        while i < scalars.count {
            while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 }
            guard i < scalars.count else { break }
            var s = i
            while i < scalars.count, !scalars[i].properties.isWhitespace { i += 1 }
            var e = i
            while s < e, opening.contains(scalars[s]) { s += 1 }
            while e > s, closing.contains(scalars[e - 1]) { e -= 1 }
            if s < e { words.append(s..<e) }
        }
        return words
    }

    /// The numbers in a stretch: digits with decimal signs, colons or dashes between them, and a
    /// "<" or ">" right before ("<5", "3,5–10,0", "08:30").
    static func numbers(_ scalars: [Unicode.Scalar], in range: Range<Int>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var i = range.lowerBound
        let joiners: Set<Unicode.Scalar> = [",", ".", ":", "-", "–"]
        while i < range.upperBound {
            guard isDigit(scalars[i]) else { i += 1; continue }
            var s = i
            if s > range.lowerBound, scalars[s - 1] == "<" || scalars[s - 1] == ">" { s -= 1 }
            var e = i
            while e < range.upperBound {
                if isDigit(scalars[e]) {
                    e += 1
                } else if joiners.contains(scalars[e]), e + 1 < range.upperBound, isDigit(scalars[e + 1]) {
                    e += 1
                } else {
                    break
                }
            }
            found.append(s..<e)
            i = e
        }
        return found
    }
}
