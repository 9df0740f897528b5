import ArkivatorCore
@testable import ArkivatorOCR
import Testing

/// Numbers the model misreads the same way every time are put right from the words around them,
/// and nothing else is touched.
@Suite struct NumberRepairTests {
    /// A line of words, each letter 20 px wide with one letter's space between words, as read.
    private func repaired(_ text: String, confidence: Double = 0.95) -> String {
        var line = words(text, confidence: confidence)
        NumberRepair.repair(&line)
        return line.map(\.text).joined(separator: " ")
    }

    /// As ``repaired(_:confidence:)``, the word at `index` moved two letters farther right.
    private func repaired(_ text: String, movingWordAt index: Int) -> [String] {
        var line = words(text)
        line[index].box[0] += 40
        NumberRepair.repair(&line)
        return line.map(\.text)
    }

    /// An account number's last one read apart as a letter is joined, kept doubtful; a lone I
    /// after other numbers, or after a four-digit group alone, stays.
    @Test func anAccountNumbersLastOneReadAsALetterIsJoined() {
        #expect(repaired("Kontonummer: 8601.86.9637 I") == "Kontonummer: 8601.86.96371")
        #expect(repaired("Kontonr. 8601 86 9637 l") == "Kontonr. 8601 86 96371")
        var line = words("Kontonummer: 8601.86.9637 I")
        NumberRepair.repair(&line)
        #expect(line.last.map { $0.confidence <= 0.5 } == true)
        #expect(repaired("Kontonummer: 8601.86.9637 I", movingWordAt: 2) == ["Kontonummer:", "8601.86.9637", "I"])
        #expect(repaired("i 2024 I dag") == "i 2024 I dag")
        #expect(repaired("rom 12 4021 I andre etasje") == "rom 12 4021 I andre etasje")
        #expect(repaired("Vår ref.: 24/03730- I") == "Vår ref.: 24/03730-1")
        #expect(repaired("Vår ref.: 24/03730 I") == "Vår ref.: 24/03730 I")
    }

    private func words(_ text: String, confidence: Double = 0.95) -> [PageLayout.Word] {
        var x = 0
        return text.split(separator: " ").map { token in
            defer { x += 20 * token.count + 20 }
            return PageLayout.Word(text: String(token), confidence: confidence, box: [x, 0, 20 * token.count, 30])
        }
    }

    @Test func aOneReadAsALetterBeforeACountedWord() {
        #expect(repaired("Atorvastatin 40 mg tablett: I tablett om kvelden") == "Atorvastatin 40 mg tablett: 1 tablett om kvelden")
        #expect(repaired("Regn med å være innlagt i I døgn.") == "Regn med å være innlagt i 1 døgn.")
        #expect(repaired("12.04.2009 Rotarix (rotavirus) I. dose LL2366") == "12.04.2009 Rotarix (rotavirus) 1. dose LL2366")
        #expect(repaired("Movicol Junior dosepose 6,9 g l dosepose daglig") == "Movicol Junior dosepose 6,9 g 1 dosepose daglig")
        #expect(repaired("Side I av I") == "Side 1 av 1")
        // After a dose's unit written short, no sentence begins.
        #expect(repaired("Selo-Zok depottablett 50 mg. I tablett om morgenen") == "Selo-Zok depottablett 50 mg. 1 tablett om morgenen")
        #expect(repaired("Levaxin tablett 75 mikrog. I tablett om morgenen") == "Levaxin tablett 75 mikrog. 1 tablett om morgenen")
        #expect(repaired("Det er sagt. I tablett om dagen er nok") == "Det er sagt. I tablett om dagen er nok")
        #expect(repaired("Side l") == "Side 1")
        #expect(repaired("Side Lav 1") == "Side 1 av 1")
        #expect(repaired("Side Lav 2") == "Side 1 av 2")
        #expect(repaired("Side Lav I") == "Side 1 av 1")
        #expect(repaired("Side L av 1") == "Side 1 av 1")
        #expect(repaired("– Side I av I") == "– Side 1 av 1")
        #expect(repaired("Side L-av 1") == "Side 1 av 1")
        // "Side" with a letter misread, in small print: only in the whole form of a page's number.
        #expect(repaired("Sade I av I") == "Side 1 av 1")
        #expect(repaired("side 2 av 3") == "side 2 av 3")
        #expect(repaired("Sido l av 2") == "Side 1 av 2")
        #expect(repaired("Sade I") == "Sade I")
        #expect(repaired("Sale I av I") == "Sale I av I")
        #expect(repaired("Sadel I av I") == "Sadel I av I")
        #expect(repaired("Fragmin 5000 IE injeksjon I sprøyte under huden") == "Fragmin 5000 IE injeksjon 1 sprøyte under huden")
        // A thousand whose one was read as a letter, its hundreds written apart.
        #expect(repaired("Konsultasjon hos lege, egenandel I 125,00") == "Konsultasjon hos lege, egenandel 1 125,00")
        #expect(repaired("ilagt et gebyr på I 500 kr.") == "ilagt et gebyr på 1 500 kr.")
        var sum = words("Sum I 125,00")
        NumberRepair.repair(&sum)
        #expect(sum.map(\.text) == ["Sum", "1", "125,00"] && sum[1].confidence <= 0.5, "a sum stays doubtful")
        #expect(repaired("Sum | 500") == "Sum | 500")
        // Alone on its line, a sum in a table's column; a year or a count there stays.
        var cell = words("I 500,00")
        NumberRepair.repair(&cell)
        #expect(cell.map(\.text) == ["1", "500,00"] && cell[0].confidence <= 0.5, "a sum stays doubtful")
        #expect(repaired("I 2025") == "I 2025")
        #expect(repaired("I 500 år") == "I 500 år")
        #expect(repaired("Svar. I 500 år har") == "Svar. I 500 år har")
        // A sentence may begin with I; a word not counted, or in capitals (old Danish nouns), stays.
        #expect(repaired("Du får svar. I dag er klinikken stengt") == "Du får svar. I dag er klinikken stengt")
        #expect(repaired("I tablett") == "I tablett")
        #expect(repaired("som I har skrevet") == "som I har skrevet")
        #expect(repaired("sat I Gang igjen") == "sat I Gang igjen")
        #expect(repaired("Diabetes type I") == "Diabetes type I")
        // Years: a capital I or a bar inside a sentence; "l år" is often "i år" (this year), and
        // after a label or at a sentence's start, "I år" is this year.
        #expect(repaired("Tom er en I år gammel gutt") == "Tom er en 1 år gammel gutt")
        #expect(repaired("vi har l år hatt") == "vi har l år hatt")
        #expect(repaired("Status: I år har") == "Status: I år har")
        #expect(repaired("Takk. I år kom") == "Takk. I år kom")
    }

    /// A five read as a lone S before a dose's unit, inside a sentence; kept doubtful.
    @Test func aFiveReadAsAnSBeforeADosesUnit() {
        #expect(repaired("– Ramipril S mg (høyt blodtrykk): 1 kapsel") == "– Ramipril 5 mg (høyt blodtrykk): 1 kapsel")
        var line = words("Ramipril S mg")
        NumberRepair.repair(&line)
        #expect(line[1].text == "5" && line[1].confidence <= 0.5)
        #expect(repaired("Vitamin D S mikrogram daglig") == "Vitamin D 5 mikrogram daglig")
        // At a sentence's start, before another word, or alone: an S.
        #expect(repaired("Dosering: S mg") == "Dosering: S mg")
        #expect(repaired("S mg") == "S mg")
        #expect(repaired("Ramipril S tabletter") == "Ramipril S tabletter")
    }

    /// A written date's day read as letters like its digits, before a month's name: kept doubtful.
    @Test func aDaysDigitsReadAsLettersBeforeAMonth() {
        #expect(repaired("Oslo, B. juli 2024") == "Oslo, 8. juli 2024")
        #expect(repaired("timen 2S. mai kl. 10") == "timen 25. mai kl. 10")
        #expect(repaired("fra I. august") == "fra 1. august")
        var line = words("B. juli 2024")
        NumberRepair.repair(&line)
        #expect(line[0].text == "8." && line[0].confidence <= 0.5)
        // Not before a month, not a day that cannot be, not a word.
        #expect(repaired("Se B. Hansen") == "Se B. Hansen")
        #expect(repaired("den SB. mai") == "den SB. mai")
        #expect(repaired("dr. juli") == "dr. juli")
        #expect(repaired("8. juli") == "8. juli")
    }

    /// A date whose year was cut off where no space stands, and a fødselsnummer cut by a space
    /// (boxes as a real reading gives them: "02.06." and "2025" 6 px apart, the year's box
    /// taller for a speck above it).
    @Test func aNumberCutWhereNoSpaceStandsIsOneWordAgain() throws {
        func line(_ items: [(String, [Int])]) -> String {
            var line = items.map { PageLayout.Word(text: $0.0, confidence: 0.95, box: $0.1) }
            NumberRepair.repair(&line)
            return line.map(\.text).joined(separator: " ")
        }
        #expect(line([("av", [912, 903, 49, 28]), ("02.06.", [978, 891, 133, 40]), ("2025", [1117, 855, 107, 76])]) == "av 02.06.2025")
        #expect(line([("av", [912, 903, 49, 28]), ("2.6.", [978, 891, 90, 40]), ("2025.", [1072, 891, 120, 40])]) == "av 2.6.2025.")
        // A word space apart, or not a year: two words.
        #expect(line([("av", [912, 903, 49, 28]), ("02.06.", [978, 891, 133, 40]), ("2025", [1131, 891, 107, 40])]) == "av 02.06. 2025")
        #expect(line([("02.06.", [978, 891, 133, 40]), ("3025", [1117, 891, 107, 40])]) == "02.06. 3025")
        let number = try #require(Fodselsnummer.first(bornOn: "080716"))
        let (four, seven) = (String(number.prefix(4)), String(number.dropFirst(4)))
        #expect(line([("Personnr.:", [200, 900, 200, 40]), (four, [420, 900, 90, 40]), (seven, [530, 900, 160, 40])])
                == "Personnr.: \(number)")
        // Cut after its date, as it is written too; control digits that do not hold; or farther
        // apart than a space.
        let (six, five) = (String(number.prefix(6)), String(number.dropFirst(6)))
        #expect(line([(six, [420, 900, 130, 40]), (five, [570, 900, 110, 40])]) == "\(six) \(five)")
        let wrong = String(seven.dropLast()) + String(((seven.last?.wholeNumberValue ?? 0) + 1) % 10)
        #expect(line([(four, [420, 900, 90, 40]), (wrong, [530, 900, 160, 40])]).contains(" "))
        #expect(line([(four, [420, 900, 90, 40]), (seven, [560, 900, 160, 40])]) == "\(four) \(seven)")
    }

    @Test func codesAndCountUnits() {
        #expect(repaired("HbAlc 51 H mmol/mol") == "HbA1c 51 H mmol/mol")
        #expect(repaired("HbALC 31 mmol/mol") == "HbA1c 31 mmol/mol")
        #expect(repaired("HbATc 50 H mmol/mol 20 - 42") == "HbA1c 50 H mmol/mol 20 - 42")
        #expect(repaired("Vitamin Bl2 300 pmol/L") == "Vitamin B12 300 pmol/L")
        #expect(repaired("Trombocytter 362 x1079/L 145 - 390") == "Trombocytter 362 x10^9/L 145 - 390")
        #expect(repaired("Trombocytter 178 x107\"9/L 145–390") == "Trombocytter 178 x10^9/L 145–390")
        #expect(repaired("Leukocytter 5,9 x10/09/L 3,5 - 10,0") == "Leukocytter 5,9 x10^9/L 3,5 - 10,0")
        #expect(repaired("Erytrocytter 4,5 x1012/L") == "Erytrocytter 4,5 x10^12/L")
        #expect(repaired("Leukocytter 8,7 x10N9/L 3,5–10,0") == "Leukocytter 8,7 x10^9/L 3,5–10,0")
        #expect(repaired("Leukocytter 9,1 X1019/L 3,5–10,0") == "Leukocytter 9,1 x10^9/L 3,5–10,0")
        #expect(repaired("Leukocytter 6,5 x10^9/L") == "Leukocytter 6,5 x10^9/L")
        #expect(repaired("Leukocytter 7,9 x 10^9/L 3,5–10,0") == "Leukocytter 7,9 x10^9/L 3,5–10,0")
        #expect(repaired("Leukocytter 7,9 x 1079/L 3,5–10,0") == "Leukocytter 7,9 x10^9/L 3,5–10,0")
        #expect(repaired("Leukocytter 5,5 x1049/L 3,5–10,0") == "Leukocytter 5,5 x10^9/L 3,5–10,0")
        #expect(repaired("Trombocytter 210 X1ON9/L 145–390") == "Trombocytter 210 x10^9/L 145–390")
        #expect(repaired("Ta x 10 ganger") == "Ta x 10 ganger")
        #expect(repaired("Ring 1049/Lars") == "Ring 1049/Lars")
    }

    @Test func aDecimalCutAtItsCommaIsJoinedInAMeasurement() {
        #expect(repaired("Hemoglobin 16, 1H g/dL 11, 7-15,3") == "Hemoglobin 16,1H g/dL 11,7-15,3")
        #expect(repaired("TSH 1,44 mIE/L 0, 50–4, 10") == "TSH 1,44 mIE/L 0,50–4,10")
        #expect(repaired("TSH 1, 44 mIE/L") == "TSH 1,44 mIE/L")
        // Prose, and numbers farther apart than a letter, stay.
        #expect(repaired("Ta 2, 3 eller 4 tabletter") == "Ta 2, 3 eller 4 tabletter")
        #expect(repaired("Hemoglobin 16, 1H g/dL", movingWordAt: 2) == ["Hemoglobin", "16,", "1H", "g/dL"])
    }

    /// A decimal comma read as a colon before a unit, kept doubtful; a time, a ratio without a
    /// unit after it, or a colon with two digits after it stays.
    @Test func aDecimalCommaReadAsAColonBeforeAUnit() {
        var line = words("LDL-kolesterol 2:5 mmol/L < 3,0")
        NumberRepair.repair(&line)
        #expect(line.map(\.text).joined(separator: " ") == "LDL-kolesterol 2,5 mmol/L < 3,0" && line[1].confidence <= 0.5)
        #expect(repaired("Kalium 3:6L mmol/L 3,5–4,4") == "Kalium 3,6L mmol/L 3,5–4,4")
        #expect(repaired("Møt kl. 10:15 mg") == "Møt kl. 10:15 mg")
        #expect(repaired("fortynnet 1:5 med vann") == "fortynnet 1:5 med vann")
    }

    @Test func eGFRsBodySurfaceCutAtItsCommaIsJoined() {
        #expect(repaired("eGFR 77 mL/min/1, 73m? > 60") == "eGFR 77 mL/min/1,73m² > 60")
        #expect(repaired("eGFR 81 mL/min/1, 73m2 > 60") == "eGFR 81 mL/min/1,73m² > 60")
        #expect(repaired("eGFR 72 mL/min/1, 73m>? > 60") == "eGFR 72 mL/min/1,73m² > 60")
        #expect(repaired("eGFR 81 mL/min/1,73m² > 60") == "eGFR 81 mL/min/1,73m² > 60")
        // Farther apart than a letter, or another number after the comma: as read.
        #expect(repaired("ml/min/1, 75m? > 60") == "ml/min/1, 75m? > 60")
        #expect(repaired("eGFR 77 mL/min/1, 73m?", movingWordAt: 3) == ["eGFR", "77", "mL/min/1,", "73m?"])
    }

    @Test func aTelephoneNumberInPairsWithASpaceReadAsAPointOrLost() {
        #expect(repaired("Telefon: 73.51 77 30 – Org.nr.") == "Telefon: 73 51 77 30 – Org.nr.")
        #expect(repaired("Sentralbord 69 86.00 00") == "Sentralbord 69 86 00 00")
        #expect(repaired("Ålesund – Tlf. 33 51 1100") == "Ålesund – Tlf. 33 51 11 00")
        #expect(repaired("på telefon 51 51 8000.") == "på telefon 51 51 80 00.")
        #expect(repaired("Tlf. 7351 77 30") == "Tlf. 73 51 77 30")
        #expect(repaired("Telefon 73 5177 30") == "Telefon 73 51 77 30")
        // Two groups of four are a way of writing it: as read.
        #expect(repaired("Tlf. 7352 1040") == "Tlf. 7352 1040")
        // Points throughout, a time, a year, a longer run of numbers, or no word announcing a
        // number written together: as read.
        #expect(repaired("Tlf. 73.51.77.30") == "Tlf. 73.51.77.30")
        #expect(repaired("Oppmøte kl. 10.30 i 2. etasje") == "Oppmøte kl. 10.30 i 2. etasje")
        #expect(repaired("Timen er 12 10 2025") == "Timen er 12 10 2025")
        #expect(repaired("Konto 12 34 56.78 90") == "Konto 12 34 56.78 90")
    }

    @Test func aReferenceRangeWhoseDashWasLostIsCutWhereItMakesARange() {
        var line = words("Kalium 3,8 mmol/L 3,54,4")
        NumberRepair.repair(&line)
        #expect(line.map(\.text).joined(separator: " ") == "Kalium 3,8 mmol/L 3,5–4,4")
        #expect(line[3].confidence <= 0.5)
        #expect(repaired("TSH 1,44 mIE/L 0,504,10") == "TSH 1,44 mIE/L 0,50–4,10")
        #expect(repaired("HbA1c 38 mmol/mol 2042") == "HbA1c 38 mmol/mol 20–42")
        #expect(repaired("Natrium 146 H mmol/L 137145") == "Natrium 146 H mmol/L 137–145")
        #expect(repaired("Trombocytter 322 x10^9/L 145390") == "Trombocytter 322 x10^9/L 145–390")
        #expect(repaired("Fritt T4 17 pmol/L 12.22") == "Fritt T4 17 pmol/L 12–22")
        #expect(repaired("Kreatinin 80 umol/L 4590") == "Kreatinin 80 umol/L 45–90")
        // A range as printed, one that cuts no way or more than one, a decimal with a point, or
        // a number that ends no lab row: as read.
        #expect(repaired("Kalium 3,8 mmol/L 3,5–4,4") == "Kalium 3,8 mmol/L 3,5–4,4")
        #expect(repaired("Hemoglobin 13,8 g/dL 3,510,0") == "Hemoglobin 13,8 g/dL 3,5–10,0")
        #expect(repaired("Kalium 3,8 mmol/L 4,43,5") == "Kalium 3,8 mmol/L 4,43,5")
        #expect(repaired("Kalium 4.1 mmol/L 3.5") == "Kalium 4.1 mmol/L 3.5")
        #expect(repaired("Kreatinin 80 umol/L 9045") == "Kreatinin 80 umol/L 9045")
        #expect(repaired("Møtetid 12 1/2 2025") == "Møtetid 12 1/2 2025")
        #expect(repaired("Du har fått time 14. mars 2025") == "Du har fått time 14. mars 2025")
    }

    @Test func aLabValueReadAsLettersIsReadAsDigitsAndStaysDoubtful() {
        var line = words("Ferritin OL ug/L 15 - 200")
        NumberRepair.repair(&line)
        #expect(line.map(\.text).joined(separator: " ") == "Ferritin 0L ug/L 15 - 200")
        #expect(line[1].confidence <= 0.5)
        #expect(repaired("HbA1c SIH mmol/mol 20 - 42") == "HbA1c 51H mmol/mol 20 - 42")
        #expect(repaired("CRP I8H mg/L <5") == "CRP 18H mg/L <5")
        #expect(repaired("Ferritin OL ' ug/L 15 - 200") == "Ferritin 0L ' ug/L 15 - 200")
        // Not in a value's place: a word before a unit with no range after it, or a number.
        #expect(repaired("Ta OL mmol/L nå") == "Ta OL mmol/L nå")
        #expect(repaired("Kalium 4,6 mmol/L 3,5 - 4,4") == "Kalium 4,6 mmol/L 3,5 - 4,4")
        #expect(repaired("25-OH vitamin D nmol/L 50–150") == "25-OH vitamin D nmol/L 50–150")
        // A seven read as a T; not in an analysis's name whose value was lost.
        #expect(repaired("25-OH vitamin D TT nmol/L 50–150") == "25-OH vitamin D 77 nmol/L 50–150")
        #expect(repaired("Fritt T4 pmol/L 12–22") == "Fritt T4 pmol/L 12–22")
    }

    @Test func unitsAfterANumber() {
        #expect(repaired("Totalkolesterol 5,2 mmoll (2,9–6,1)") == "Totalkolesterol 5,2 mmol/L (2,9–6,1)")
        #expect(repaired("Hemoglobin 13,4 g/dlL, ferritin 42") == "Hemoglobin 13,4 g/dL, ferritin 42")
        #expect(repaired("Kalium 4,1 mmol/I") == "Kalium 4,1 mmol/L")
        // A unit printed another way stays as printed, and so does a word after a number.
        #expect(repaired("Kalium 4,1 mmol/l") == "Kalium 4,1 mmol/l")
        #expect(repaired("kl. 10 i luftegården") == "kl. 10 i luftegården")
    }

    @Test func aDiagnosisCodeOfTheCirculation() {
        #expect(repaired("Hjerneinfarkt, uspesifisert (163.9)") == "Hjerneinfarkt, uspesifisert (I63.9)")
        #expect(repaired("Akutt subendokardielt hjerteinfarkt (NSTEMI), 121.4") == "Akutt subendokardielt hjerteinfarkt (NSTEMI), I21.4")
        #expect(repaired("110 Essensiell hypertensjon") == "I10 Essensiell hypertensjon")
        #expect(repaired("148.0 – Paroksysmal atrieflimmer") == "I48.0 – Paroksysmal atrieflimmer")
        #expect(repaired("163.9 Hjerneinfarkt, uspesifisert") == "I63.9 Hjerneinfarkt, uspesifisert")
        #expect(repaired("582.6 – Brot i laterale malleol") == "S82.6 – Brot i laterale malleol")
        #expect(repaired("Diagnose: Lårhalsbrudd (572.0)") == "Diagnose: Lårhalsbrudd (S72.0)")
        // Without a point a five or an eight stays a number.
        #expect(repaired("582 Stavanger") == "582 Stavanger")
        #expect(repaired("Betalt beløp (850)") == "Betalt beløp (850)")
        #expect(repaired("Essensiell hypertensjon (110)") == "Essensiell hypertensjon (I10)")
        // A number in prose or an amount stays.
        #expect(repaired("Ring 113 ved fare") == "Ring 113 ved fare")
        #expect(repaired("Beløp (150)") == "Beløp (150)")
        #expect(repaired("Du betaler egenandel (150)") == "Du betaler egenandel (150)")
        #expect(repaired("150 Oslo 12") == "150 Oslo 12")
        #expect(repaired("Blodtrykk 160/110 (120)") == "Blodtrykk 160/110 (120)")
    }
}
