@testable import ArkivatorClassify
import Testing

/// Numbers judged by what stands around them: telephone numbers, page numbers, letters read for
/// digits beside a number, and lab rows whose result was read as letters or whose name lost a part.
@Suite struct NumberContextTests {
    private func doubtful(_ text: String, lowConfidence: [(start: Int, length: Int)] = []) -> [String] {
        NumberDoubt.doubtfulNumbers(in: text, lowConfidence: lowConfidence).map(\.text)
    }

    @Test func aTelephoneNumberWithoutEightDigitsIsInDoubt() {
        let found = NumberDoubt.doubtfulNumbers(in: "Sentralbord: 55 97 50 og\nwww.helse-bergen.no", lowConfidence: [])
        #expect(found.map(\.text) == ["55 97 50 og"])
        #expect(found.first?.reason == .phoneDigits)
        // Two digits cut to one at a line's end, and a stray point at the next line's start.
        #expect(doubtful("ber vi deg ringe oss på 3\n\n. 07 30 00 så snart som mulig.") == ["3\n\n. 07 30 00"])
        #expect(doubtful("Tlf. 7 30 00") == ["7 30 00"])
        #expect(doubtful("Telefon i 10 50 00") == ["i 10 50 00"])
        // Its spaces read as digits: "Tlf. 51 51 80 00" as one group of 11.
        #expect(doubtful("Foretaksnr.\n\nTlf 51051180000") == ["51051180000"])
        #expect(doubtful("Tlf. 51518000").isEmpty)
        // A group read as a lone letter between the groups of a labelled number.
        #expect(doubtful("Telefon\n2 E 80 00\nwww.helse-stavanger.no") == ["2 E 80 00"])
        #expect(doubtful("Tlf. 113 i 22 11 00 00").isEmpty)
    }

    @Test func aLetterReadForACountIsInDoubt() {
        #expect(doubtful("1–2 tabletter inntil å ganger daglig ved behov.") == ["å"])
        #expect(doubtful("Husk å ta med medisinlisten.").isEmpty)
    }

    @Test func wholeTelephoneNumbersAreNotInDoubt() {
        #expect(doubtful("""
            Tlf. 55 97 50 00
            Telefon 7352 1040 (hverdager 08-15)
            ring oss på telefon 55
            97 50 00 før timen.
            eller på telefon 73 52 10
            40 senest to dager før.
            Nødnummer: tlf. 113. Sentralbord +47 22 11 77 00
            Org.nr. 994 018 233, kontonummer 1503 12 34567
            """).isEmpty)
    }

    @Test func doubtOfOneGroupIsDoubtOfTheWholeNumber() {
        let text = "Tlf. 7352 1040\nwww.ladelegesenter.no"
        // OCR was unsure of "7352" only.
        #expect(doubtful(text, lowConfidence: [(start: 5, length: 4)]) == ["7352 1040"])
    }

    @Test func aPageNumberThatIsNotThePagesIsInDoubt() {
        let found = NumberDoubt.doubtfulNumbers(in: "Med vennlig hilsen\nKari Lege\n\n11", lowConfidence: [])
        #expect(found.map(\.text) == ["11"])
        #expect(found.first?.reason == .pageNumber)
        #expect(doubtful("Org.nr. 994 018 233\nSide V/1") == ["V/1"])
        #expect(doubtful("Første side\n1/2\u{0C}Andre side\n1/2") == ["1/2"])
        #expect(doubtful("Første side\n1/2\u{0C}Andre side\nSide 2/2").isEmpty)
        #expect(doubtful("Brevet\n1").isEmpty)
        #expect(doubtful("Brevet\nSide 1 av 1").isEmpty)
        #expect(doubtful("Brevet\nSide 2 av 1") == ["2", "1"])
        // Between "Side" and "av" only a number stands: a small letter there is a misread digit.
        #expect(doubtful("Brevet\nSide f av 1") == ["f", "1"])
        #expect(doubtful("Brevet\nSide om saken").isEmpty)
        // "k av n" run together: confirmed when it is the page's number, in doubt when it is not.
        #expect(doubtful("Brevet\nSide lav2") == ["lav2"])
        #expect(doubtful("Brevet\nSide 1 av2").isEmpty)
        #expect(doubtful("Brevet\nSide 1av 1").isEmpty)
        #expect(doubtful("Brevet\nSide 2av1") == ["2av1"])
        #expect(doubtful("Brevet\nSide avtalen").isEmpty)
        // Page 1 of a letter of which only the first page was scanned.
        #expect(doubtful("Side 1 av 2\nBrevet").isEmpty)
    }

    /// OCR's doubt of digits that what stands around them confirms is no doubt of a number: a
    /// unit read as the analysis's own, and a page number that is its page's.
    @Test func digitsConfirmedByWhatStandsAroundThemAreNotInDoubt() {
        let text = "Leukocytter 7,1 x10^9/L 3,5–10,0\nSide 1 av 1"
        let unsure = [(start: 17, length: 7), (start: 38, length: 1), (start: 43, length: 1)]
        #expect(doubtful(text, lowConfidence: unsure).isEmpty)
        // The result itself stays in doubt.
        #expect(doubtful(text, lowConfidence: [(start: 12, length: 3)]) == ["7,1"])
    }

    @Test func aLetterReadForADigitBesideANumberIsInDoubt() {
        #expect(doubtful("Timen blir fakturert med et gebyr på I 500 kr.") == ["I"])
        #expect(doubtful("Dosering: 5000 IE, I sprøyte hver uke") == ["I"])
        #expect(doubtful("Prevenar 13 (pneumokokk) 2. dose XT808 I\n25.06.2017") == ["XT808 I"])
        // A sum's thousands read as a letter, before the rest of the sum with its øre.
        #expect(doubtful("Egenandel 375,00\nSum I 125,00") == ["I"])
        #expect(doubtful("Du har betalt 125,00 kr i egenandel.").isEmpty)
        // A street's number read as a letter.
        #expect(doubtful("Karin Myklebust\nKløverveien I\n1606 FREDRIKSTAD") == ["I"])
        #expect(doubtful("Storgata 12\n1606 FREDRIKSTAD").isEmpty)
        // A building's, entrance's or room's number read as a letter; a sentence ending at the word is not.
        #expect(doubtful("Hvor: Drammen sykehus, bygg I\nMøt opp: 45 minutter før") == ["I"])
        #expect(doubtful("Oppmøte i Sentralbygg l, inngang O") == ["l", "O"])
        #expect(doubtful("Vi holder til i nytt bygg. I morgen flytter vi.").isEmpty)
        #expect(doubtful("Møt i inngang C, rom 214").isEmpty)
        // A house number read as letters at the end of an address line, above the postcode and place.
        #expect(doubtful("Sebastian Arnesen\nMarienlyst I I\n4608 KRISTIANSAND S") == ["I", "I"])
        #expect(doubtful("Vennlig hilsen\nKari Nordmann\n4608 KRISTIANSAND S").isEmpty)
        // A telephone number with a mark among its digits is in doubt as a whole; one ending a sentence is not.
        #expect(doubtful("Tlf. 22.45 13.00\nwww.kreftregisteret.no") == ["22.45 13.00"])
        #expect(NumberDoubt.doubtfulNumbers(in: "Tlf. 22.45 13.00", lowConfidence: []).first?.reasons == [.markInNumber])
        // A date with a colon read for one of its points; a time and a range of dates are not.
        #expect(doubtful("Stønad for perioden 01:07.2024 til 30.09.2024.") == ["01:07.2024"])
        #expect(doubtful("Møt kl. 10:30. Prøven tas 12.03.2024.").isEmpty)
        #expect(doubtful("Ring oss på telefon 22 45 13 00.").isEmpty)
        // A range that lost its end; a compound's shared part and a range read whole are not.
        #expect(doubtful("Ta 1— tablett ved behov, høyst 3 ganger i døgnet.") == ["1—"])
        #expect(NumberDoubt.doubtfulNumbers(in: "Ta 1- tablett", lowConfidence: []).first?.reasons == [.rangeCut])
        #expect(doubtful("Ta 1–2 tabletter. Gjelder 1- og 2-roms leiligheter, 3- eller 4-årige barn.").isEmpty)
        #expect(doubtful("TSH 0,50- 4,10").isEmpty)
        // A day read as a letter before its month; "I mars" in a sentence is not.
        #expect(doubtful("Gastromedisinsk avdeling\nI. mars 2024\nFastlege Emma Haugland") == ["I"])
        #expect(doubtful("I mars 2024 fikk du svar.").isEmpty)
        // A sentence's first word, and a line's, are words.
        #expect(doubtful("Vi så deg sist i fjor. I 2024 fikk du to doser.\nI 2023 fikk du en.").isEmpty)
    }

    @Test func aResultReadAsLettersBeforeItsUnitIsInDoubt() {
        let rows = LabTable.rows(in: "CRP 4 mg/L < 5\nFritt T4 TOL pmol/L 12–22")
        #expect(rows.map(\.analysis) == ["CRP", "Fritt T4"])
        #expect(rows.last?.doubt == [.valueUnreadable])
        #expect(doubtful("Fritt T4 TOL pmol/L 12–22") == ["TOL"])
        #expect(doubtful("TSH GIH 0,50 - 4,10") == ["GIH"])
        // Before the analysis's own unit, damaged as it may be.
        #expect(doubtful("Leukocytter LIL x10\"94. 3,5 -10,0") == ["LIL"])
        #expect(doubtful("Kreatinin serum µmol/L 60–105").isEmpty)
        // A range that lost its dash and commas is one range in doubt.
        #expect(doubtful("Hemoglobin 13,4 g/dL 117 153") == ["117 153"])
        // A name's own last word is no result.
        let hdl = LabTable.rows(in: "Kolesterol HDL 1,2 mmol/L > 1,0")
        #expect(hdl.first?.value == "1,2")
    }

    @Test func aRowWhoseNameLostItsLastPartIsInDoubt() {
        let rows = LabTable.rows(in: "Fritt 14 pmol/L 12 - 22\nKreatinin 76 µmol/L 60–105")
        #expect(rows.first?.doubt == [.nameCut])
        #expect(rows.last?.doubtful == false)
        #expect(doubtful("Fritt 14 pmol/L 12 - 22") == ["14"])
    }

    /// A short name one letter off a known analysis's is not taken for it, but its row is in doubt.
    @Test func aRowUnderANameOneLetterOffAKnownOneIsInDoubt() {
        let rows = LabTable.rows(in: "CRAP 0 mg/L < 5\nCRP 3 mg/L < 5\nKalium 4,0 mmol/L 3,5–4,4")
        #expect(rows.count == 3)
        #expect(rows.first?.doubt == [.nameMisread])
        #expect(rows.dropFirst().allSatisfy { !$0.doubtful })
    }

    /// A post box number is one group of digits: two after the label are one number in doubt.
    @Test func aPostBoxNumberSplitInTwoIsInDoubt() {
        let found = NumberDoubt.doubtfulNumbers(in: "Helfo · Postboks 241 5, 3104 Tønsberg\nPostboks 1000, 1478 Lørenskog\nPb. 7 9, Oslo",
                                                lowConfidence: [])
        #expect(found.map(\.text) == ["241 5", "7 9"])
        #expect(found.allSatisfy { $0.reason == .numberSplit })
    }

    @Test func aDateThatCannotBeIsInDoubt() {
        let found = NumberDoubt.doubtfulNumbers(in: "Trondheim, 30.0.\nTimen er 12.13.2024, eller 31.12.2024 kl. 10.30. Den varer til 11.45.", lowConfidence: [])
        #expect(found.map(\.text) == ["30.0", "12.13.2024"])
        #expect(found.first?.reason == .impossibleDate)
        // A decimal written with a point is no date.
        #expect(doubtful("Temperatur 38.0 grader, 30.0 mg").isEmpty)
    }

    @Test func aMonthReadAsLettersIsInDoubtWithItsDate() {
        let found = NumberDoubt.doubtfulNumbers(in: "Kari Nordmann, født 13. OG. 1974, blir vurdert.", lowConfidence: [])
        #expect(found.map(\.text) == ["13. OG. 1974"])
        #expect(found.first?.reason == .letterInNumber)
        #expect(doubtful("Gjelder 1. og 2. klasse i 2024.").isEmpty)
        #expect(doubtful("Møtet 13. og 14. 2024 er flyttet.").isEmpty)
    }

    @Test func aPostcodeThatIsNotItsPlacesIsInDoubt() {
        let found = NumberDoubt.doubtfulNumbers(in: "Fastlege Jenny Amundsen\nNonnegata 12\n1014 Trondheim\n\nVår referanse: 24/21134-14",
                                                lowConfidence: [])
        #expect(found.map(\.text) == ["1014"])
        #expect(found.first?.reason == .postcodePlace)
        #expect(doubtful("Postadresse: Hagegata 22, 8653 Oslo | Sentralbord: 22 67 04 90") == ["8653"])
        // Postcodes of their place, in every part of the country, and places the table does not know.
        #expect(doubtful("""
            Nonnegata 12
            7014 Trondheim
            Postboks 1480, 8092 Bodø
            Marienlyst 11
            4608 KRISTIANSAND S
            Postboks 6165, 9299 Tromsø
            Hagegata 22, 0653 Oslo
            Kjerringvik 3, 1605 Lundemo
            I 2024 Oslo kommune betalte alt.
            Budsjettet for
            2024 Oslo kommune vedtok, og
            2025 Bergen kommune.
            """).isEmpty)
        #expect(doubtful("Postboks 800, 1004 Drammen – Sentralbord 03525\nMarienlyst 11\n1608 KRISTIANSAND S") == ["1004", "1608"])
    }

    @Test func aPlaceWhosePostcodeWasLostIsInDoubt() {
        let letter = "Bragernes legesenter\nStorgate 12\nDrammen\nTlf. 32 21 45 60\n\nRoar Halvorsen\nLoftsgata 4\n8092 Bodø"
        let found = NumberDoubt.doubtfulNumbers(in: letter, lowConfidence: [])
        #expect(found.map(\.text) == ["Drammen"])
        #expect(found.first?.reason == .postcodeLost)
        #expect(doubtful("Storgate 12\n3015 Drammen\nDrammen, 23. juni 2025").isEmpty)
        // Under a post box, its label read damaged.
        #expect(doubtful("Stavanger universitetssjukehuss:s Joks 8100\nStavanger\nTelefon 51 51 80 00\n\nHilsen\nPostboks 8100, 4068 Stavanger")
                == ["Stavanger"])
        // A letter from before postcodes writes none.
        #expect(doubtful("Herr maskinarbeider Einar Lund\nTøyengata 31\nOslo\n\nOslo, den 16. mars 1948").isEmpty)
    }

    @Test func anAddressWrittenTwiceWithAnotherNumberIsInDoubt() {
        let letter = "Nordlandssykehuset HF\nPostboks 148\n8092 Bodø\n\nHilsen\nPostadresse Postboks 1480, 8092 Bodø – Sentralbord 75 53 40 00"
        let found = NumberDoubt.doubtfulNumbers(in: letter, lowConfidence: [])
        #expect(found.map(\.text) == ["148", "1480"])
        #expect(found.first?.reason == .addressDisagrees)
        #expect(doubtful("Postboks 1480\n8092 Bodø\n\nPostboks 1480, 8092 Bodø").isEmpty)
        // Two houses of one street.
        #expect(doubtful("Lyngveien 27\n2609 LILLEHAMMER\n\nLyngveien 12\n2609 LILLEHAMMER").isEmpty)
        #expect(doubtful("Storgata 12\n3015 Drammen\nFra: Storgata 13, 3015 Drammen") == ["12", "13"])
    }

    @Test func aHouseNumberWithItsEntranceLetterReadAsLettersIsInDoubt() {
        #expect(doubtful("Henrik Odd Martinsen\nMøllenberggata IB\n1337 SANDVIKA") == ["IB"])
        #expect(doubtful("Møllenberggata 1B\n1337 SANDVIKA").isEmpty)
    }

    @Test func aSignReadForADigitIsInDoubt() {
        #expect(doubtful("Ramipril § mg kapsel 1 kapsel daglig\nParacet $00 mg tablett") == ["§", "$00"])
        #expect(doubtful("jf. pasient- og brukerrettighetsloven § 2-1 og §12").isEmpty)
    }

    /// An organisation number reads as nine digits, in one group or three; one whose first group
    /// was read as signs ("WE)") holds no digit any other rule would question.
    @Test func anOrganisationNumberThatIsNotNineDigitsIsInDoubt() {
        let footer = "Sentralbord 77 62 60 00 – Org. me WE) 974 19%"
        let found = NumberDoubt.doubtfulNumbers(in: footer, lowConfidence: [])
        #expect(found.map(\.text) == ["WE) 974 19%"])
        #expect(found.first?.reason == .organisationNumber)
        for right in ["Sentralbord 77 62 60 00 – Org. nr. 983 974 899", "Org.nr. 983974899 MVA", "Org.nr.: NO 983 974 899 MVA",
                      "Organisasjonsnummer: 983 974 899", "Org. nr.\n983 974 899", "Org. Hverdag", "Foretaksnummer 983 974 899"] {
            #expect(doubtful(right).isEmpty, "\(right)")
        }
        #expect(doubtful("Org.nr. 983 97 899 MVA") == ["983 97 899"])
    }

    @Test func aCodeWithDigitsWhereTheColumnHasLettersIsInDoubt() {
        let card = """
            Dato Vaksine Dose Batchnr.
            26.01.2011 Rotarix (rotavirus) 1. dose CN3662
            27.02.2011 Hexyon (DTP-IPV-Hib-HepB) 1. dose 556450
            28.02.2011 Prevenar 13 (pneumokokk) 1. dose TS5000
            30.04.2011 Hexyon (DTP-IPV-Hib-HepB) 2. dose BS2299
            """
        let found = NumberDoubt.doubtfulNumbers(in: card, lowConfidence: [])
        #expect(found.map(\.text) == ["556450"])
        #expect(found.first?.reason == .codeShape)
        #expect(doubtful(card.replacingOccurrences(of: "556450", with: "SS6450")).isEmpty)
        // Digits a letter cannot be read as, and columns of numbers, are not in doubt.
        #expect(doubtful(card.replacingOccurrences(of: "556450", with: "346450")).isEmpty)
        #expect(doubtful("Kontonummer 150312\nKundenummer 556450\nOrdre 998877").isEmpty)
    }
}
