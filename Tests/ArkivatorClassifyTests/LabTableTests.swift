import ArkivatorCore
@testable import ArkivatorClassify
import Foundation
import Testing

/// Laboratory rows, their plausibility and the numbers in doubt, on tables written for these
/// tests in the forms letters print (not from any corpus).
@Suite struct LabTableTests {
    /// A laboratory's table with flags apart, ranges with spaced dashes and open ranges.
    static let spacedTable = """
        Fürst Medisinsk Laboratorium
        Analyseresultater
        Analyse Resultat Enhet Referanseområde
        CRP 2 mg/L < 5
        25-OH vitamin D 208 H nmol/L 50 - 150
        Leukocytter 9,5 x10^9/L 3,5 - 10,0
        HbA1c 45 H mmol/mol 20 - 42
        eGFR 52 L mL/min/1,73m² > 60
        TSH 0,00 L mIE/L 0,50 - 4,10
        Kalium 3,4 L mmol/L 3,5 - 4,4
        Kreatinin 88 µmol/L 60 - 105
        Ta kontakt med legekontoret på telefon 22 67 04 90 dersom du har spørsmål.
        """

    /// Another laboratory's: flags attached to the value, dashes without spaces.
    static let compactTable = """
        Undersøkelse Svar Enhet Normalområde
        Totalkolesterol 7,9H mmol/L 3,3–6,9
        Natrium 146H mmol/L 137–145
        Hemoglobin 10,7L g/dL 11,7–15,3
        LDL-kolesterol 1,3 mmol/L <3,0
        Trombocytter 171 x10^9/L 145–390
        ALAT 0 L U/L 10–45
        Ferritin 132 µg/L 15–200
        Fritt T4 16 pmol/L 12–22
        """

    @Test func readsRowsOfASpacedTable() {
        let rows = LabTable.rows(in: Self.spacedTable)
        #expect(rows.map(\.analysis) == ["CRP", "25-OH vitamin D", "Leukocytter", "HbA1c", "eGFR", "TSH", "Kalium", "Kreatinin"])
        #expect(rows.map(\.value) == ["2", "208", "9,5", "45", "52", "0,00", "3,4", "88"])
        #expect(rows.map(\.unit) == ["mg/L", "nmol/L", "x10^9/L", "mmol/mol", "mL/min/1,73m²", "mIE/L", "mmol/L", "µmol/L"])
        #expect(rows.map(\.range) == ["< 5", "50 - 150", "3,5 - 10,0", "20 - 42", "> 60", "0,50 - 4,10", "3,5 - 4,4", "60 - 105"])
        #expect(rows.map(\.flag) == [nil, "H", nil, "H", "L", "L", "L", nil])
        #expect(rows.allSatisfy { !$0.doubtful }, "\(rows.filter(\.doubtful).map { ($0.analysis, $0.doubt) })")
        // Places in the text: the value's scalars are the value.
        let scalars = Array(Self.spacedTable.unicodeScalars)
        for row in rows {
            let value = String(String.UnicodeScalarView(scalars[row.valueStart..<(row.valueStart + row.valueLength)]))
            #expect(value == row.value)
        }
        #expect(rows.first?.line == 3)
    }

    @Test func readsRowsWithAttachedFlagsAndUnspacedRanges() {
        let rows = LabTable.rows(in: Self.compactTable)
        #expect(rows.count == 8)
        #expect(rows.map(\.value) == ["7,9", "146", "10,7", "1,3", "171", "0", "132", "16"])
        #expect(rows.map(\.flag) == ["H", "H", "L", nil, nil, "L", nil, nil])
        #expect(rows.map(\.range) == ["3,3–6,9", "137–145", "11,7–15,3", "<3,0", "145–390", "10–45", "15–200", "12–22"])
        #expect(rows.allSatisfy { !$0.doubtful }, "\(rows.filter(\.doubtful).map { ($0.analysis, $0.doubt) })")
    }

    @Test func aStrayMarkAfterTheNameIsNoPartOfIt() {
        let rows = LabTable.rows(in: "HbA1c ' 24 mmol/mol 20 - 42\nKalium 4,1 mmol/L 3,5–4,4")
        #expect(rows.map(\.analysis) == ["HbA1c", "Kalium"])
        #expect(rows.map(\.value) == ["24", "4,1"])
    }

    @Test func readsOtherColumnOrdersAndSpellings() {
        let rows = LabTable.rows(in: """
            S-Kreatinin 88 60-105 µmol/L
            Glykert hemoglobin mmol/mol 52 H < 42
            Hemoglobin A1c 6,1 % 4,0 - 6,0 H
            B-Hemoglobin (Hb) 13,9 g/dL 11,7 - 15,3
            """)
        #expect(rows.map(\.analysis) == ["Kreatinin", "HbA1c", "HbA1c", "Hemoglobin"])
        #expect(rows.map(\.value) == ["88", "52", "6,1", "13,9"])
        #expect(rows.map(\.unit) == ["µmol/L", "mmol/mol", "%", "g/dL"])
        #expect(rows.map(\.range) == ["60-105", "< 42", "4,0 - 6,0", "11,7 - 15,3"])
        #expect(rows.allSatisfy { !$0.doubtful })
    }

    @Test func unitsReadByOCRFindTheirCanonicalSpelling() {
        let rows = LabTable.rows(in: """
            Kreatinin 71 umol/l 45 - 90
            Leukocytter 6,2 x10*9/L 3,5 - 10,0
            """)
        #expect(rows.map(\.unit) == ["µmol/L", "x10^9/L"])
    }

    @Test func sentencesAndDrugLinesAreNotRows() {
        let rows = LabTable.rows(in: """
            Paracet mikstur 24 mg/ml 7,5 ml inntil 4 ganger daglig ved behov
            Metformin 500 mg tablett: 1 tablett 2 ganger daglig
            Vi tok blodprøver 24.03.2025 kl. 08.30 og svarene kom samme dag.
            Blodtrykk 130/80 mmHg, puls 72.
            Ta kontakt på telefon 22 67 04 90 - 22 67 04 91.
            Dato: 24.03.2025
            SpO2 97 %
            • Kreatinin 68 µmol/L (09.05.2024)
            """)
        #expect(rows.isEmpty, "\(rows.map(\.printedAnalysis))")
    }

    /// The misreadings that reached a doctor: a lost decimal comma and a lost "<".
    @Test func misreadValuesAreDoubtful() {
        let rows = LabTable.rows(in: """
            Analyse Resultat Enhet Referanseområde
            Totalkolesterol 52 mmol/L 3,3 - 6,9
            CRP 20 H mg/L 5
            Kalium 4,1 mmol/L 3,5 - 4,4
            """)
        #expect(rows.count == 3)
        #expect(rows[0].doubtful)
        #expect(rows[0].doubt.contains(.outsideSpan))
        #expect(rows[0].doubt.contains(.commaLost))
        #expect(rows[1].doubtful)
        #expect(rows[1].doubt.contains(.rangeUnreadable))
        #expect(!rows[2].doubtful)
    }

    /// A result of a digit or two where the range has decimals may have lost its own: in doubt.
    /// A result with its decimals, and a whole number in a whole-number range, are not.
    @Test func aResultWithoutTheDecimalsOfItsRangeIsDoubtful() {
        let rows = LabTable.rows(in: """
            Leukocytter 5 x10^9/L 3,5–10,0
            Leukocytter 5,3 x10^9/L 3,5–10,0
            Kreatinin 49 umol/L 45–90
            Trombocytter 250 x10^9/L 145–390
            """)
        #expect(rows.count == 4)
        #expect(rows[0].doubt == [.decimalsLost])
        #expect(rows.dropFirst().allSatisfy { !$0.doubtful })
        #expect(NumberDoubt.doubtfulNumbers(in: "Leukocytter 5 x10^9/L 3,5–10,0", lowConfidence: []).map(\.text) == ["5"])
    }

    /// A row without the reference range the table's other rows print lost it in reading; a
    /// table that prints no ranges, or only one, leaves its rows alone.
    @Test func aRowWithoutTheRangeTheOtherRowsPrintIsDoubtful() {
        let rows = LabTable.rows(in: """
            ALAT 14 U/L
            Hemoglobin 12,2 L g/dL 13,4–17,0
            Natrium 136 L mmol/L 137–145
            Ferritin 362 µg/L 30–400
            """)
        #expect(rows.count == 4)
        #expect(rows[0].doubt == [.rangeLost])
        #expect(rows.dropFirst().allSatisfy { !$0.doubt.contains(.rangeLost) })
        // The value is in doubt with the rest of its row, where the range stood.
        let doubtful = NumberDoubt.doubtfulNumbers(in: "ALAT 14 U/L\nNatrium 136 L mmol/L 137–145\nFerritin 362 µg/L 30–400",
                                                   lowConfidence: [])
        #expect(doubtful.map(\.text) == ["14 U/L"])
        #expect(doubtful.first?.reason == .rangeLost)
        let bare = LabTable.rows(in: "ALAT 14 U/L\nKreatinin 88 µmol/L\nFerritin 362 µg/L 30–400")
        #expect(bare.allSatisfy { !$0.doubt.contains(.rangeLost) })
    }

    /// A row of a known analysis with its unit and range but no result lost its value in
    /// reading: it is in doubt, the whole row marked, and it files no value; a list of
    /// reference ranges alone is no table of results.
    @Test func aRowWhoseValueWasNotReadIsDoubtful() {
        let text = "Hemoglobin 12,2 L g/dL 13,4–17,0\nALAT U/L 10–70\nNatrium 136 L mmol/L 137–145"
        let rows = LabTable.rows(in: text)
        #expect(rows.map(\.analysis) == ["Hemoglobin", "ALAT", "Natrium"])
        #expect(rows[1].value.isEmpty && rows[1].doubt == [.valueLost] && rows[1].range == "10–70")
        let doubtful = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [])
        #expect(doubtful.contains { $0.text == "ALAT U/L 10–70" && $0.reason == .valueLost }, "\(doubtful)")
        #expect(LabTable.rows(in: "Referanseområder:\nALAT U/L 10–70\nKreatinin µmol/L 60–105").isEmpty)
    }

    @Test func flagsThatDisagreeWithTheirRange() {
        let rows = LabTable.rows(in: """
            Natrium 141 H mmol/L 137 - 145
            Kalium 4,0 L mmol/L 3,5 - 4,4
            Hemoglobin 18,9 g/dL 11,7 - 15,3
            eGFR 52 H mL/min/1,73m² > 60
            CRP 3 L mg/L < 5
            Trombocytter 12 x10^9/L 145 - 390
            """)
        #expect(rows.map(\.doubtful) == [true, true, true, true, true, true])
        #expect(rows[0].doubt == [.flagDisagrees])
        #expect(rows[1].doubt == [.flagDisagrees])
        #expect(rows[2].doubt == [.missingFlag])
        #expect(rows[5].doubt.contains(.missingFlag))
    }

    /// A table that prints no flags at all: a value a little outside its range is not in doubt,
    /// one far outside is.
    @Test func tablesWithoutFlags() {
        let rows = LabTable.rows(in: """
            Natrium 147 mmol/L 137 - 145
            Kalium 44 mmol/L 3,5 - 4,4
            """)
        #expect(!rows[0].doubtful)
        #expect(rows[1].doubt.contains(.outsideSpan))
        #expect(rows[1].doubt.contains(.missingFlag))
        #expect(rows[1].doubt.contains(.commaLost))
    }

    /// A lost decimal comma is put back where the range and the flag leave it one place, and the
    /// row stays in doubt; where the place is not sure, or the result as read agrees with its
    /// flag, the result stays as read.
    @Test func aLostDecimalCommaIsPutBackWhereOnlyOnePlaceFits() {
        let rows = LabTable.rows(in: """
            Totalkolesterol 52 mmol/L 3,3 - 6,9
            Leukocytter 32L x10^9/L 3,5 - 10,0
            Kalium 40 mmol/L 3,5 - 4,4
            TSH 127 H mIE/L 0,50 - 4,10
            TSH 127 mIE/L 0,50 - 4,10
            Hemoglobin 13,1 g/dL 11,7 - 15,3
            CRP 52 mg/L < 5
            """)
        #expect(rows.count == 7)
        #expect(rows.map(\.value) == ["5,2", "3,2", "4,0", "127", "1,27", "13,1", "52"])
        #expect(rows[0].doubt.contains(.commaLost))
        #expect(rows[1].doubt.contains(.commaLost))
        #expect(rows[1].doubt.contains(.flagDisagrees))
        #expect(rows[2].doubtful)
        #expect(!rows[3].doubt.contains(.commaLost))
        #expect(rows[4].doubt.contains(.commaLost))
        #expect(!rows[5].doubtful)
        // "< 5" has no decimals: no comma to put back.
        #expect(!rows[6].doubt.contains(.commaLost))
    }

    /// A result OCR mixed with letters keeps its row, unreadable and in doubt, so the value is
    /// not lost; a name that holds digits ("Fritt T4", "Vitamin B12") stays a name.
    @Test func aResultMixedWithLettersKeepsItsRow() {
        let rows = LabTable.rows(in: """
            Leukocytter L7E x10^9/L 3,5 - 10,0
            Fritt T4 14 pmol/L 12–22
            Vitamin B12 350 pmol/L 150 - 650
            """)
        #expect(rows.map(\.analysis) == ["Leukocytter", "Fritt T4", "Vitamin B12"])
        #expect(rows[0].value == "L7E")
        #expect(rows[0].doubt.contains(.valueUnreadable))
        #expect(!rows[1].doubtful)
        #expect(rows[2].value == "350")
    }

    /// A name one letter off a known analysis's is taken for it when the row prints that
    /// analysis's unit and no other analysis as near is reported in it; the row stays in doubt.
    @Test func aNameOneLetterOffIsTakenByItsUnit() {
        let rows = LabTable.rows(in: """
            eGEFR 64 mL/min/1,73m? > 60
            TSM 1,54 mIE/L 0,50 - 4,10
            CRAP 30 H mg/L < 5
            Kallum 4,1 mmol/L 3,5 - 4,4
            """)
        #expect(rows.map(\.analysis) == ["eGFR", "TSH", "CRP", "Kalium"])
        #expect(rows[0].unit == "mL/min/1,73m²")
        #expect(rows[0].doubt.contains(.nameMisread))
        #expect(rows[1].doubt.contains(.nameMisread))
        #expect(rows[2].doubt.contains(.nameMisread))
        // A name with no unit of its near analysis stays as printed, in doubt.
        let other = LabTable.rows(in: "CRAP 30 H mmol/L < 5")
        #expect(other.first?.analysis != "CRP")
    }

    @Test func aUnitOneLetterOffTheAnalysissOwnIsItsOwn() {
        let rows = LabTable.rows(in: """
            Kreatinin 113H pmol/L 45–90
            eGFR 35 L mL/min/1,73m> > 60
            Natrium 137 mmol/L 137—-145
            Vitamin B12 300 pmol/L 150 - 650
            """)
        #expect(rows.map(\.analysis) == ["Kreatinin", "eGFR", "Natrium", "Vitamin B12"])
        #expect(rows[0].unit == "µmol/L")
        #expect(rows[0].doubt.contains(.unitMisread))
        #expect(rows[1].unit == "mL/min/1,73m²")
        #expect(rows[1].range == "> 60")
        #expect(rows[1].doubt.contains(.unitMisread))
        #expect(rows[2].value == "137")
        #expect(rows[2].doubt.isEmpty)
        // A unit the analysis is reported in stays, sure.
        #expect(rows[3].unit == "pmol/L")
        #expect(rows[3].doubt.isEmpty)
    }

    @Test func damagedValuesAndRanges() {
        let rows = LabTable.rows(in: """
            Hemoglobin 1O,5 g/dL 11,7 - 15,3
            Kreatinin 88 µmol/L 105 - 60
            Kalium 3,9 mg/L 3,5 - 4,4
            """)
        #expect(rows.count == 3)
        #expect(rows[0].doubt == [.valueUnreadable])
        #expect(rows[0].value == "1O,5")
        #expect(rows[1].doubt.contains(.rangeUnreadable))
        #expect(rows[2].doubt.contains(.unexpectedUnit))
    }

    @Test func analysisNamesFindTheirCanonicalName() {
        #expect(LabAnalyses.analysis(named: "Glykert hemoglobin")?.name == "HbA1c")
        #expect(LabAnalyses.analysis(named: "HbA1c")?.name == "HbA1c")
        #expect(LabAnalyses.analysis(named: "fS-Kolesterol")?.name == "Totalkolesterol")
        #expect(LabAnalyses.analysis(named: "Kreatlnin")?.name == "Kreatinin")
        #expect(LabAnalyses.analysis(named: "Kalsium")?.name == "Kalsium")
        #expect(LabAnalyses.analysis(named: "Kalium")?.name == "Kalium")
        #expect(LabAnalyses.analysis(named: "Leukocytter (LPK)")?.name == "Leukocytter")
        #expect(LabAnalyses.analysis(named: "Blodtrykk") == nil)
    }

    // MARK: Numbers in doubt

    @Test func numbersOCRWasUnsureOfAreDoubtful() {
        let text = "Time hos lege 14.05.2025 kl. 09.45, rom 214."
        let scalars = Array(text.unicodeScalars)
        // "09.45" is where OCR was unsure.
        let at = Self.offset(of: "09.45", in: text)
        let found = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [(start: at, length: 6)])
        #expect(found.map(\.text) == ["09.45"])
        #expect(found.first?.reason == .lowConfidence)
        #expect(found.first.map { String(String.UnicodeScalarView(scalars[$0.start..<($0.start + $0.length)])) } == "09.45")
        // Nothing unsure, nothing damaged: nothing in doubt.
        #expect(NumberDoubt.doubtfulNumbers(in: text, lowConfidence: []).isEmpty)
    }

    /// Where `part` first stands in `text`, in Unicode scalars.
    static func offset(of part: String, in text: String) -> Int {
        let all = Array(text.unicodeScalars), needle = Array(part.unicodeScalars)
        return (0...(all.count - needle.count)).first { Array(all[$0..<($0 + needle.count)]) == needle } ?? -1
    }

    @Test func numbersDamagedByOCRAreDoubtful() {
        let found = NumberDoubt.doubtfulNumbers(in: "Dosen er 5O mg, l2 tabletter, verdi 1O,5 og 5,,2. HbA1c B12 T4 x10^9/L 25-OH I21.4 O24.4",
                                                lowConfidence: [])
        #expect(found.map(\.text) == ["5O", "l2", "1O,5", "5,,2"])
        #expect(found.map(\.reason) == [.letterInNumber, .letterInNumber, .letterInNumber, .doubledSeparator])
    }

    /// Letters OCR reads for digits where a number stands: a page number, a count, a house
    /// number, an analysis's name; a range that lost its dash. "I dag" and "I21.4" are not numbers.
    @Test func lettersWhereNumbersStandAreDoubtful() {
        let found = NumberDoubt.doubtfulNumbers(in: """
            Ta I tablett morgen og kveld. I dag er det bra. Diagnose I21.4.
            Storgata 7OA
            HbAlc 39 mmol/mol 20 - 42
            TSH 0,68 mIE/L 0,504,10
            Side I av I
            """, lowConfidence: [])
        #expect(found.map(\.text) == ["I", "7OA", "HbAlc", "0,504,10", "I", "I"])
    }

    @Test func damagedRowsStillReadAndAreDoubtful() {
        let text = """
            ALAT OL U/L 10–45
            Trombocytter 213 x1019/L 145 - 390
            """
        let rows = LabTable.rows(in: text)
        #expect(rows.map(\.analysis) == ["ALAT", "Trombocytter"])
        #expect(rows.map(\.doubtful) == [true, true])
        #expect(rows[0].doubt == [.valueUnreadable])
        // The unit is read as the analysis's own, and its damaged digits are in doubt, not the value.
        #expect(rows[1].unit == "x10^9/L")
        #expect(rows[1].doubt == [.unitMisread])
        let found = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [])
        #expect(found.map(\.text) == ["OL", "x1019/L"])
    }

    @Test func numbersOfDoubtfulLabRowsAreDoubtful() {
        let text = """
            Totalkolesterol 52 mmol/L 3,3 - 6,9
            CRP 20 H mg/L 5
            Kalium 4,1 mmol/L 3,5 - 4,4
            """
        let found = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [])
        // The lost "<" puts the range in doubt, not the result.
        #expect(found.map(\.text) == ["52", "3,3 - 6,9", "5"])
        #expect(found.first?.reasons.contains(.outsideSpan) == true)
        #expect(found.last?.reason == .rangeUnreadable)
    }

    @Test func aFodselsnummerInDoubtIsNeverCopiedOut() {
        let text = "Pasient: Kari Nordmann, fnr. 17114231738"
        let found = NumberDoubt.doubtfulNumbers(in: text, lowConfidence: [(start: 29, length: 11)])
        #expect(found.count == 1)
        #expect(found.first?.text == String(repeating: "•", count: 11))
    }

    @Test func classificationCarriesLabsAndDoubtfulNumbers() {
        let result = Classifier().classify(Self.spacedTable, scanDate: CalendarDate(year: 2025, month: 4, day: 1)!)
        #expect(result.labs?.count == 8)
        #expect(result.doubtfulNumbers == [])
    }

    /// A power of ten with or without the times sign is one unit: a count printed "10*9/L" is
    /// not an unexpected unit for an analysis reported in "x10^9/L".
    @Test func aTimesSignBeforeAPowerOfTenIsOptional() {
        #expect(LabUnits.same("x10^9/L", "10*9/L"))
        #expect(LabUnits.same("x10^9/L", "x10^9/L"))
        #expect(!LabUnits.same("x10^9/L", "x10^12/L"))
        #expect(!LabUnits.same("mmol/L", "µmol/L"))
        let rows = LabTable.rows(in: "Leukocytter 7,1 10*9/L 3,5–10,0")
        #expect(rows.first?.doubtful == false, "\(rows)")
    }

    /// A unit OCR split after its decimal comma is one unit: the row is read, not lost.
    @Test func aUnitSplitAfterItsCommaIsOneUnit() {
        let rows = LabTable.rows(in: "Analyse Resultat Enhet Referanse\neGFR 81 mL/min/1, 73m2 > 60\neGFR 77 mL/min/1, 73m? > 60\nKalium 4,1 mmol/L 3,5 - 4,4")
        #expect(rows.map(\.value) == ["81", "77", "4,1"])
        #expect(rows.prefix(2).allSatisfy { $0.unit == "mL/min/1,73m²" })
        #expect(rows[0].doubtful && rows[1].doubtful, "the unit's digits were read apart: the row is read, and in doubt")
        #expect(!rows[2].doubtful)
        // Split beside its slash.
        let slash = LabTable.rows(in: "Kreatinin 58 umol /L 45—90\nNatrium 140 mmol/ L 137 - 145")
        #expect(slash.map(\.value) == ["58", "140"] && slash.map(\.unit) == ["µmol/L", "mmol/L"] && slash.allSatisfy { !$0.doubtful })
        // A comma between two words of a sentence joins nothing.
        #expect(LabTable.rows(in: "Kalium og/eller, natrium må tas på nytt").isEmpty)
    }
}
