import ArkivatorCore
import Foundation

/// Numbers the model misreads the same way every time, put right from the words around them, one
/// line at a time:
/// - a one read as a capital I, a small l or a bar before a word that counts ("I tablett",
///   "I. dose", "i I døgn"; "en I år gammel", as a capital I or a bar), before the hundreds of a
///   thousand ("kr I 500,00", or "I 500,00" alone on its line; kept doubtful) or as a page
///   number ("Side I av I", and "Sade I av I": "Side" with a letter misread); Norwegian writes
///   no capital I inside a sentence, and the words counted are written in small letters;
/// - a five read as a lone S before a dose's unit ("Ramipril S mg"); kept doubtful;
/// - a code with a one in it read with a letter ("HbAlc", "HbATc", "Bl2");
/// - a count unit's caret read as another sign, a 0, 1 or 7, or lost ("x1079/L", "x107\"9/L",
///   "x10/09/L", "x10N9/L", "x109/L" for "x10^9/L");
/// - a lab value read as letters that look like digits ("OL", "SIH" for "0 L", "51 H") where a
///   value must stand: after the analysis, before its unit and range; kept doubtful;
/// - a decimal number cut at its comma into two words ("16, 1H", "0, 50–4, 10") where it is a
///   measurement: a flag, a range or a unit follows, and the gap is no wider than a letter; and
///   so the body surface of eGFR's unit ("mL/min/1, 73m?" for "mL/min/1,73m²");
/// - a decimal comma read as a colon before a unit ("2:5 mmol/L"; one digit after a colon is no
///   time); kept doubtful;
/// - a diagnosis code's I read as a one ("(163.9)", ", 121.4", "110 Essensiell hypertensjon"), and
///   with a point, an S as a five or a B as an eight ("582.6 – Brot i laterale malleol");
/// - a written date's day read as letters ("B. juli 2024" for "8. juli 2024"); kept doubtful;
/// - a bank account number's last one read apart as a letter ("8601.86.9637 I"), and a case
///   reference's document number ("24/03730- I"); kept doubtful;
/// - a date whose year Tesseract cut off where no space stands ("02.06. 2025"), and a
///   fødselsnummer cut by a space anywhere but after its date ("0807 1685056"), when both its
///   control digits hold;
/// - a telephone number written in pairs whose space the model read as a point or left out
///   ("73.51 77 30", "33 51 1100" for "73 51 77 30", "33 51 11 00");
/// - a lab row's reference range whose dash was lost or read as a point ("3,54,4", "2042",
///   "12.22" for "3,5–4,4", "20–42", "12–22"); kept doubtful.
///
/// Nothing else is touched: a one that could be a word, a number in prose, a date.
enum NumberRepair {
    static func repair(_ line: inout [PageLayout.Word]) {
        guard !line.isEmpty else { return }
        pageNumber(&line)
        for index in line.indices {
            line[index].text = code(line[index].text)
            line[index].text = countUnit(line[index].text)
        }
        countTimes(&line)
        countedOne(&line)
        doseFive(&line)
        dateDay(&line)
        joinDecimals(&line)
        cutNumbers(&line)
        colonComma(&line)
        lastOne(&line)
        surfaceUnit(&line)
        phoneNumber(&line)
        labValue(&line)
        units(&line)
        rangeDash(&line)
        diagnosisCodes(&line)
    }

    // MARK: A one read as a letter

    /// Tokens the model makes of a lone one.
    static let onesAsLetters: Set<String> = ["I", "l", "|"]

    /// Words that count, written in small letters after a number: a one before them is a number.
    static let counted: Set<String> = [
        "tablett", "tabletter", "kapsel", "kapsler", "dose", "doser", "døgn", "gang", "ganger",
        "stk", "mg", "ml", "mL", "g", "µg", "mikrogram", "dråpe", "dråper", "pust", "sprut", "plaster",
        "ampulle", "ampuller", "enhet", "enheter", "porsjon", "pose", "poser", "brusetablett",
        "depottablett", "enterotablett", "sugetablett", "stikkpille", "inhalasjon", "injeksjon",
        "time", "timer", "uke", "uker", "måned", "måneder", "sprøyte", "sprøyter",
    ]

    /// A counted word, or a compound ending in one of four letters or more ("dosepose",
    /// "smeltetablett"), in small letters.
    static func isCounted(_ word: String) -> Bool {
        if counted.contains(word) { return true }
        guard word.count >= 6, word.allSatisfy({ $0.isLetter && $0.isLowercase }) else { return false }
        return counted.contains { $0.count >= 4 && word.hasSuffix($0) && word.count > $0.count + 1 }
    }

    /// "I tablett", "i I døgn", "I. dose": a lone I, l or bar inside a sentence before a counted
    /// word; "en I år gammel": a lone I or bar before years.
    static func countedOne(_ line: inout [PageLayout.Word]) {
        // "I 500,00" alone on its line: a sum in a table's column, its thousand read as a letter.
        if line.count == 2, ["I", "l"].contains(line[0].text), line[1].text.wholeMatch(of: /\d{3}(,\d{2}|,-)/) != nil {
            line[0].text = "1"
            line[0].confidence = min(line[0].confidence, 0.5)
        }
        for index in line.indices.dropFirst() where index + 1 < line.count {
            let token = line[index].text
            let dotted = token.hasSuffix(".")
            let core = dotted ? String(token.dropLast()) : token
            guard onesAsLetters.contains(core) else { continue }
            // A sentence may begin with "I" ("I dag", "I 2025"): only inside one is it a number.
            // A dose's unit written short ends no sentence ("50 mg. I tablett om morgenen").
            let before = line[index - 1].text
            guard let last = before.last, !".!?".contains(last) || (last == "." && shortUnits.contains(String(before.dropLast()))) else { continue }
            let next = line[index + 1].text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:)"))
            // "kr I 500,00", "gebyr på I 500 kr": a thousand, its hundreds written apart (not
            // after a bar: a table's rule).
            let hundreds = !dotted && core != "|" && line[index + 1].text.wholeMatch(of: /\d{3}(,\d{2}|,-)?[.,;:]?/) != nil
            // "en I år gammel": a one before years, as a capital I or a bar only ("i år", this
            // year, is often read "l år"), and not after a label ("Status: I år …").
            let years = next == "år" && core != "l" && last != ":"
            let counted = isCounted(next) || years
            guard counted || hundreds else { continue }
            line[index].text = dotted ? "1." : "1"
            // A sum is worth a second look: kept doubtful (confidence 0.5 or under).
            if !counted { line[index].confidence = min(line[index].confidence, 0.5) }
        }
    }

    /// What the model makes of a one as a page number: as ``onesAsLetters``, and a capital L.
    static let pageOnes: Set<String> = onesAsLetters.union(["L"])

    /// "Side I av I", "Side l", "Side L av 1", "Side Lav I", "Side L-av 1" (a one joined to "av"): a page number. Only a line
    /// that is nothing else, or a dash before it ("– Side I av I").
    static func pageNumber(_ line: inout [PageLayout.Word]) {
        if line.count > 1, ["–", "-", "—"].contains(line[0].text) {
            var rest = Array(line.dropFirst())
            pageNumber(&rest)
            line.replaceSubrange(1..., with: rest)
            return
        }
        if line.count == 3, line[0].text.lowercased() == "side", line[1].text.wholeMatch(of: /[IlL|1][-–.]?av/) != nil,
           line[2].text.allSatisfy(\.isNumber) || pageOnes.contains(line[2].text) {
            var one = line[1], av = line[1]
            let half = max(1, one.box[2] / 3)
            one.text = "1"
            one.box[2] = half
            av.text = "av"
            av.box[0] += half
            av.box[2] = max(1, av.box[2] - half)
            line.replaceSubrange(1...1, with: [one, av])
        }
        let texts = line.map(\.text)
        // "Sade I av I" in small print: "Side" with one letter misread, in the whole form only.
        if texts.count == 4, texts[2] == "av", isSideMisread(texts[0]),
           [texts[1], texts[3]].allSatisfy({ $0.allSatisfy(\.isNumber) || pageOnes.contains($0) }) {
            line[0].text = texts[0].first == "s" ? "side" : "Side"
        }
        guard line.first?.text.lowercased() == "side", texts.count == 2 || (texts.count == 4 && texts[2] == "av") else { return }
        for index in [1, 3] where index < line.count && pageOnes.contains(line[index].text) {
            line[index].text = "1"
        }
    }

    /// "Side" with one letter after the S read as another ("Sade", "Sido", "Siae").
    static func isSideMisread(_ word: String) -> Bool {
        let letters = Array(word.lowercased())
        guard letters.count == 4, letters[0] == "s", letters.allSatisfy(\.isLetter) else { return false }
        return zip(letters, "side").filter { $0 != $1 }.count == 1
    }

    /// "Ramipril S mg": a lone S after a word inside a sentence, before a dose's unit, is a five
    /// (no Norwegian word is a lone capital S); kept doubtful.
    static func doseFive(_ line: inout [PageLayout.Word]) {
        for index in line.indices.dropFirst() where index + 1 < line.count && line[index].text == "S" {
            guard let last = line[index - 1].text.last, !".!?:".contains(last),
                  doseUnits.contains(line[index + 1].text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:)"))) else { continue }
            line[index].text = "5"
            line[index].confidence = min(line[index].confidence, 0.5)
        }
    }

    /// A written date's day read as letters that look like its digits ("B. juli 2024", "2S. mai"
    /// for "8. juli 2024", "25. mai"): one or two signs and a point before a month's name, a
    /// letter among them. Kept doubtful (0.5 at most).
    static func dateDay(_ line: inout [PageLayout.Word]) {
        for index in line.indices where index + 1 < line.count && months.contains(line[index + 1].text.lowercased()) {
            let text = line[index].text
            guard text.count >= 2, text.count <= 3, text.last == ".", text.contains(where: { dayLookalikes[$0] != nil }) else { continue }
            let day = String(text.dropLast().map { dayLookalikes[$0] ?? $0 })
            guard let value = Int(day), (1...31).contains(value) else { continue }
            line[index].text = day + "."
            line[index].confidence = min(line[index].confidence, 0.5)
        }
    }

    /// The months' names, as a date writes them.
    static let months = Set(CalendarDate.monthNames)

    /// Letters the model reads for a day's digits.
    static let dayLookalikes: [Character: Character] = ["B": "8", "S": "5", "I": "1", "l": "1", "|": "1", "Z": "2", "O": "0"]

    /// A dose's units, after its number.
    static let doseUnits: Set<String> = ["mg", "ml", "mL", "g", "µg", "mikrogram", "IE"]

    /// A dose's units as they are written short, with a point after them ("mg.", "mikrog.").
    static let shortUnits: Set<String> = ["mg", "ml", "mL", "g", "µg", "mikrog", "mcg", "stk"]

    // MARK: Codes and units

    /// Lab codes with a one inside, as the model misreads them.
    static let codes: [String: String] = ["hbalc": "HbA1c", "hbaic": "HbA1c", "hba|c": "HbA1c", "hbatc": "HbA1c",
                                          "bl2": "B12", "bi2": "B12"]

    static func code(_ token: String) -> String {
        guard token.count <= 8, token.lowercased().contains(where: { "lit|".contains($0) }) else { return token }
        let (lead, core, trail) = split(token)
        guard let right = codes[core.lowercased()] else { return token }
        return lead + right + trail
    }

    /// "x1079/L", "x107\"9/L", "x1019/L", "x1049/L", "x10/09/L", "10*9/L", "X1ON9/L" → "x10^9/L":
    /// ten to a power, per litre.
    static func countUnit(_ token: String) -> String {
        guard token.contains("1"), token.contains("/") else { return token }
        let (lead, core, trail) = split(token)
        guard let match = core.wholeMatch(of: /([xX×]?)1[0O](?:[^\s\d]|[0147]){0,2}(9|12)\/([lL])/) else { return token }
        return lead + (match.1 == "X" ? "x" : String(match.1)) + "10^" + String(match.2) + "/" + String(match.3) + trail
    }

    /// "7,9 x 10^9/L": the count unit's "x" read as a word of its own, after a number, is the
    /// unit's ("x10^9/L"), as its analysis is read and looked up.
    static func countTimes(_ line: inout [PageLayout.Word]) {
        var index = 1
        while index + 1 < line.count {
            let times = line[index], unit = line[index + 1]
            guard ["x", "X", "×"].contains(times.text), unit.text.hasPrefix("10^"), line[index - 1].text.last?.isNumber == true
                    || ["H", "L"].contains(line[index - 1].text.last.map(String.init) ?? "") else {
                index += 1
                continue
            }
            let top = min(times.box[1], unit.box[1]), bottom = max(times.box[1] + times.box[3], unit.box[1] + unit.box[3])
            line[index] = PageLayout.Word(text: "x" + unit.text, confidence: min(times.confidence, unit.confidence),
                                          box: [times.box[0], top, unit.box[0] + unit.box[2] - times.box[0], bottom - top])
            line.remove(at: index + 1)
            index += 1
        }
    }

    // MARK: A lab value read as letters

    /// Letters the model reads for digits.
    static let digitLookalikes: [Character: Character] = ["O": "0", "o": "0", "I": "1", "l": "1", "|": "1",
                                                         "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2", "T": "7"]

    /// "Ferritin OL µg/L 15 - 200", "HbA1c SIH mmol/mol 20 - 42", "25-OH vitamin D TT nmol/L
    /// 50–150": a token of one to three such
    /// letters, with a flag (H or L) after them, after a word and before a unit followed by a
    /// range, is the value. Its confidence is kept at 0.5 or under, so the value stays doubtful.
    /// ("D" is no such letter: "vitamin D" names an analysis.)
    static func labValue(_ line: inout [PageLayout.Word]) {
        guard line.count >= 4 else { return }
        for index in 1..<(line.count - 2) {
            let token = line[index].text
            // A stray mark between the value and its unit ("Ferritin OL ' ug/L") is passed over.
            var unit = index + 1
            while unit + 2 < line.count, !line[unit].text.contains(where: { $0.isLetter || $0.isNumber }) { unit += 1 }
            guard (1...4).contains(token.count), line[index - 1].text.last?.isLetter == true,
                  line[unit].text.contains("/"),
                  let range = line[unit + 1].text.first, range.isNumber || range == "<" || range == ">" else { continue }
            var body = Array(token)
            var flag = ""
            if body.count >= 2, let last = body.last, last == "H" || last == "L" {
                flag = String(last)
                body.removeLast()
            }
            guard (1...3).contains(body.count), body.contains(where: { !$0.isNumber }),
                  body.allSatisfy({ $0.isNumber || digitLookalikes[$0] != nil }) else { continue }
            // "T3", "T4" name an analysis (thyroid hormones), whose value was lost.
            if body.first == "T", body.dropFirst().allSatisfy(\.isNumber), body.count > 1 { continue }
            line[index].text = String(body.map { digitLookalikes[$0] ?? $0 }) + flag
            line[index].confidence = min(line[index].confidence, 0.5)
        }
    }

    // MARK: Numbers cut by a space the print does not have

    /// "02.06. 2025" where the print has "02.06.2025": a day and month, and a year right after
    /// them, closer than a quarter of the date's height (a word space is wider), at one height
    /// (sharing three quarters of the smaller height: a speck above the year makes its box
    /// taller); and "Personnr.: 0807 1685056": two runs of digits, one space apart at most,
    /// that make a valid fødselsnummer of eleven digits (both control digits hold), cut
    /// elsewhere than after its date (a fødselsnummer is written "080716 85056" too). One word
    /// again, with the lower confidence of the two.
    static func cutNumbers(_ line: inout [PageLayout.Word]) {
        var index = 0
        while index + 1 < line.count {
            defer { index += 1 }
            let (a, b) = (line[index], line[index + 1])
            guard a.box.count == 4, b.box.count == 4 else { continue }
            let gap = b.box[0] - (a.box[0] + a.box[2])
            let low = min(a.box[3], b.box[3])
            let shared = min(a.box[1] + a.box[3], b.box[1] + b.box[3]) - max(a.box[1], b.box[1])
            guard gap >= -2, 4 * shared >= 3 * low else { continue }
            let date = 4 * gap <= low && a.text.wholeMatch(of: /\d{1,2}\.\d{1,2}\./) != nil
                && b.text.wholeMatch(of: /(19|20)\d\d[.,;:)]?/) != nil
            let digits = a.text + b.text
            let fodselsnummer = gap <= low && a.text.count != 6 && digits.count == 11
                && digits.allSatisfy({ $0.isASCII && $0.isNumber }) && (try? Fodselsnummer(digits)) != nil
            guard date || fodselsnummer else { continue }
            let top = min(a.box[1], b.box[1]), bottom = max(a.box[1] + a.box[3], b.box[1] + b.box[3])
            line[index] = PageLayout.Word(text: digits, confidence: min(a.confidence, b.confidence),
                                          box: [a.box[0], top, b.box[0] + b.box[2] - a.box[0], bottom - top])
            line.remove(at: index + 1)
        }
    }

    // MARK: Telephone numbers

    /// "73.51 77 30", "69 86.00 00", "33 51 1100", "Tlf. 7351 77 30": eight digits written in
    /// pairs, one space read as a point or lost. Only where the other pairs stand apart, as pairs, around it: a number
    /// written with points throughout ("73.51.77.30") or as a decimal or time ("12.30") has none.
    static func phoneNumber(_ line: inout [PageLayout.Word]) {
        func core(_ text: String) -> Substring {
            var core = Substring(text)
            while let last = core.last, ".,;:)".contains(last) { core = core.dropLast() }
            return core
        }
        func digits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        // Words a telephone number follows ("Tlf.", "Telefon:", "på telefon", "Sentralbord").
        func announces(_ text: String) -> Bool {
            let word = core(text).lowercased()
            return ["tlf", "telefon", "sentralbord", "mobil", "faks", "tel"].contains { word.hasPrefix($0) }
        }
        var index = 0
        while index + 3 <= line.count {
            defer { index += 1 }
            let run = (index..<index + 3).map { core(line[$0].text) }
            // Only the last may end in a sign; no digits just before or after the run.
            guard (index..<index + 2).allSatisfy({ core(line[$0].text) == Substring(line[$0].text) }),
                  index == 0 || !digits(core(line[index - 1].text)),
                  index + 3 == line.count || !digits(core(line[index + 3].text)) else { continue }
            let pairs = run.indices.filter { run[$0].count == 2 && digits(run[$0]) }
            guard pairs.count == 2, let at = run.indices.first(where: { !pairs.contains($0) }) else { continue }
            let joined = run[at]
            let pointed = joined.count == 5 && joined.filter({ $0 == "." }).count == 1
                && joined[joined.index(joined.startIndex, offsetBy: 2)] == "." && digits(Substring(joined.filter { $0 != "." }))
            // Written together ("1100", "7351"), only after a word that announces a number.
            let together = joined.count == 4 && digits(joined) && index > 0 && announces(line[index - 1].text)
            guard pointed || together else { continue }
            let word = line[index + at]
            let number = word.text.filter(\.isNumber)
            let tail = word.text.dropFirst(joined.count)
            let box = word.box, half = box[2] / 2
            line.replaceSubrange((index + at)...(index + at), with: [
                PageLayout.Word(text: String(number.prefix(2)), confidence: word.confidence, box: [box[0], box[1], half, box[3]]),
                PageLayout.Word(text: String(number.suffix(2)) + tail, confidence: word.confidence,
                                box: [box[0] + half, box[1], box[2] - half, box[3]]),
            ])
            index += 3
        }
    }

    // MARK: Decimal numbers cut in two

    /// "16," + "1H", "0," + "50–4," + "10": a decimal comma the model took for the end of a word.
    static func joinDecimals(_ line: inout [PageLayout.Word]) {
        var index = 0
        while index + 1 < line.count {
            let a = line[index], b = line[index + 1]
            guard a.text.hasSuffix(","), b.text.first?.isNumber == true, a.text.wholeMatch(of: /[<>]?\d{1,4},|[<>]?\d{1,4}(?:,\d{1,3})?[–-]\d{1,4},/) != nil,
                  let tail = b.text.wholeMatch(of: /(\d{1,3})([HL*]?)((?:[–-]\d{1,4}(?:,\d{1,3})?,?)?)([.;)]?)/) else {
                index += 1
                continue
            }
            // No wider apart than one of its letters: a space in prose ("2, 3 og 4") is wider.
            let letter = Double(a.box[2]) / Double(max(1, a.text.count))
            let gap = Double(b.box[0] - (a.box[0] + a.box[2]))
            let flagOrRange = !tail.2.isEmpty || !tail.3.isEmpty || a.text.contains(where: { $0 == "–" || $0 == "-" })
            let unitNext = index + 2 < line.count && isUnit(line[index + 2].text)
            guard gap <= 1.5 * letter, flagOrRange || unitNext else {
                index += 1
                continue
            }
            line[index] = joined(a, b, as: a.text + b.text)
            line.remove(at: index + 1)
        }
    }

    /// "LDL-kolesterol 2:5 mmol/L": a decimal comma read as a colon, in a number before a unit.
    /// One digit after a colon makes no time of day ("10:15" has two), so it is the comma. Kept
    /// doubtful (confidence 0.5 or under).
    static func colonComma(_ line: inout [PageLayout.Word]) {
        for index in line.indices.dropLast() where isUnit(line[index + 1].text) {
            guard let parts = line[index].text.wholeMatch(of: /([<>]?\d{1,4}):(\d)([HL*]?)/) else { continue }
            line[index].text = "\(parts.1),\(parts.2)\(parts.3)"
            line[index].confidence = min(line[index].confidence, 0.5)
        }
    }

    /// A number whose last one the model read apart as a letter, joined as printed where the
    /// letter stands no wider apart than a letter, and kept doubtful (confidence 0.5 or under):
    /// a bank account number (11 digits, "8601.86.9637 I" or "8601 86 9637 I", its last group
    /// five digits with the one) and a case's reference with its document's number after a
    /// hyphen ("24/03730- I" for "24/03730-1").
    static func lastOne(_ line: inout [PageLayout.Word]) {
        var index = 0
        while index + 1 < line.count {
            let a = line[index], b = line[index + 1]
            let account = a.text.wholeMatch(of: /\d{4}\.\d{2}\.\d{4}/) != nil
                || index >= 2 && a.text.wholeMatch(of: /\d{4}/) != nil && line[index - 1].text.wholeMatch(of: /\d{2}/) != nil
                && line[index - 2].text.wholeMatch(of: /\d{4}/) != nil
            let reference = a.text.wholeMatch(of: /\d{2,4}\/\d{1,6}[-–]/) != nil
            let letter = Double(a.box[2]) / Double(max(1, a.text.count))
            guard account || reference, onesAsLetters.contains(b.text), Double(b.box[0] - (a.box[0] + a.box[2])) <= 1.5 * letter else {
                index += 1
                continue
            }
            var one = joined(a, b, as: a.text + "1")
            one.confidence = min(one.confidence, 0.5)
            line[index] = one
            line.remove(at: index + 1)
        }
    }

    /// "mL/min/1," + "73m?": the body surface an eGFR is given for (1,73 m²), cut at its comma and
    /// its square read as "?", "*", "2" or ">?", is joined as printed ("mL/min/1,73m²") where the two
    /// parts stand no wider apart than a letter.
    static func surfaceUnit(_ line: inout [PageLayout.Word]) {
        var index = 0
        while index + 1 < line.count {
            let a = line[index], b = line[index + 1]
            let letter = Double(a.box[2]) / Double(max(1, a.text.count))
            guard a.text.hasSuffix("/1,"), let tail = b.text.wholeMatch(of: /73m[?*2²>]{0,2}([.,;)]?)/),
                  Double(b.box[0] - (a.box[0] + a.box[2])) <= 1.5 * letter else {
                index += 1
                continue
            }
            line[index] = joined(a, b, as: a.text + "73m²" + tail.1)
            line.remove(at: index + 1)
        }
    }

    /// Two words side by side made one, `text`: the box over both, the lesser confidence.
    static func joined(_ a: PageLayout.Word, _ b: PageLayout.Word, as text: String) -> PageLayout.Word {
        let right = max(a.box[0] + a.box[2], b.box[0] + b.box[2])
        let top = min(a.box[1], b.box[1]), bottom = max(a.box[1] + a.box[3], b.box[1] + b.box[3])
        return PageLayout.Word(text: text, confidence: min(a.confidence, b.confidence), box: [a.box[0], top, right - a.box[0], bottom - top])
    }

    /// A unit of measurement: per something ("mmol/L", "g/dL"), a share, or a unit alone.
    static func isUnit(_ token: String) -> Bool {
        token.contains("/") || token == "%" || ["mg", "g", "µg", "ug", "kg", "ml", "mL", "U", "IE", "mmHg", "kPa", "fL", "pg"].contains(token)
    }

    // MARK: Units

    /// Units of lab values and doses, as printed.
    static let knownUnits = ["mmol/L", "µmol/L", "nmol/L", "pmol/L", "mol/L", "g/L", "g/dL", "mg/L", "mg/dL", "µg/L",
                             "ng/L", "ng/mL", "pg/mL", "U/L", "kU/L", "IE/L", "mIE/L", "mU/L", "mL/min", "mmol/mol",
                             "mg/mmol", "mg/kg", "mg/ml", "mm/t"]

    /// A unit after a number, misread by a letter doubled, its slash lost, or an l for an L
    /// ("mmoll", "g/dlL", "mmol/I"): the one unit that reads the same with l, L, I and 1 taken
    /// as one letter and the slash left out, first as read, then with one doubled letter once.
    /// A unit printed another way ("mmol/l") stays as it is.
    static func units(_ line: inout [PageLayout.Word]) {
        for index in line.indices.dropFirst() {
            let before = line[index - 1].text
            let afterNumber = before.last?.isNumber == true
                || ((before.hasSuffix("H") || before.hasSuffix("L")) && before.dropLast().last?.isNumber == true)
                || (index >= 2 && (before == "H" || before == "L") && line[index - 2].text.last?.isNumber == true)
            guard afterNumber else { continue }
            let (lead, core, trail) = split(line[index].text)
            guard core.count >= 3, core.contains(where: { "lLI1|/".contains($0) }),
                  !knownUnits.contains(where: { $0.caseInsensitiveCompare(core) == .orderedSame }) else { continue }
            if let unit = unitMatching(core) { line[index].text = lead + unit + trail }
        }
    }

    static func unitMatching(_ token: String) -> String? {
        func key(_ s: String) -> String {
            String(s.lowercased().compactMap { c -> Character? in c == "/" ? nil : ("li1|".contains(c) ? "l" : c) })
        }
        let keys = knownUnits.map { ($0, key($0)) }
        let read = key(token)
        let exact = keys.filter { $0.1 == read }
        if exact.count == 1 { return exact[0].0 }
        guard exact.isEmpty else { return nil }
        let chars = Array(read)
        var undoubled: Set<String> = []
        for i in chars.indices.dropFirst() where chars[i] == chars[i - 1] {
            var copy = chars
            copy.remove(at: i)
            undoubled.insert(String(copy))
        }
        let once = keys.filter { undoubled.contains($0.1) }
        return once.count == 1 ? once[0].0 : nil
    }

    // MARK: A range's dash lost

    /// "Kalium 3,8 mmol/L 3,54,4", "HbA1c 38 mmol/mol 2042", "Fritt T4 17 pmol/L 12.22": a lab
    /// row's last word, after its unit, is its reference range; one number there (two decimal
    /// commas, or a whole number of three to six digits, or a point between whole numbers of two
    /// digits or more, as no Norwegian reference is written) is a range whose dash the model lost or read as a
    /// point. It is cut where it makes a range: the low end under the high, neither starting
    /// with a nought, with as many decimals, or as many digits give or take one, on both sides;
    /// only where one cut does. Its confidence is kept at 0.5 or under, so it stays doubtful.
    static func rangeDash(_ line: inout [PageLayout.Word]) {
        guard line.count >= 4 else { return }
        let unit = line[line.count - 2].text
        guard let last = line.last, unit.contains(where: \.isLetter), unit.contains("/") || isUnit(unit),
              line[line.count - 3].text.first?.isNumber == true
                || (line.count >= 5 && ["H", "L"].contains(line[line.count - 3].text)) else { return }
        let text = last.text
        func number(_ s: Substring) -> Double? {
            guard let first = s.first, first.isNumber, s.last?.isNumber == true, first != "0" || s.count == 1 || s.dropFirst().first == "," else { return nil }
            return Double(s.replacingOccurrences(of: ",", with: "."))
        }
        var cuts: [(String, String)] = []
        if text.wholeMatch(of: /\d+,\d+,\d+/) != nil, let first = text.firstIndex(of: ","), let second = text.lastIndex(of: ",") {
            // The first number's decimals run on into the second's whole part.
            let run = text[text.index(after: first)..<second]
            for k in 1..<run.count {
                let low = text[..<run.index(run.startIndex, offsetBy: k)]
                let high = text[run.index(run.startIndex, offsetBy: k)...]
                guard k == text[text.index(after: second)...].count else { continue }
                cuts.append((String(low), String(high)))
            }
        } else if text.wholeMatch(of: /\d{3,6}/) != nil {
            for k in 1..<text.count {
                let low = text.prefix(k), high = text.dropFirst(k)
                guard abs(low.count - high.count) <= 1 else { continue }
                cuts.append((String(low), String(high)))
            }
        } else if let parts = text.wholeMatch(of: /(\d{2,4})\.(\d{2,4})/) {
            cuts.append((String(parts.1), String(parts.2)))
        }
        let ranges = cuts.filter { cut in
            guard let low = number(Substring(cut.0)), let high = number(Substring(cut.1)) else { return false }
            return low < high
        }
        guard ranges.count == 1, let range = ranges.first else { return }
        line[line.count - 1].text = range.0 + "–" + range.1
        line[line.count - 1].confidence = min(last.confidence, 0.5)
    }

    /// Brackets and quotes before a token, its core, and what follows it (brackets, punctuation).
    static func split(_ token: String) -> (String, String, String) {
        let leading = token.prefix { "([«\"'".contains($0) }
        var rest = token.dropFirst(leading.count)
        var trailing = ""
        while let last = rest.last, ")].,;:»\"'".contains(last) {
            trailing = String(last) + trailing
            rest = rest.dropLast()
        }
        return (String(leading), String(rest), trailing)
    }
}
