@testable import ArkivatorOCR
import Testing

/// Reading order from Tesseract's blocks: columns only at a real gutter, and no line of text lost.
@Suite struct ReadingOrderTests {
    /// A line of words at `y`, each word given as (text, left x); words are 20 px per letter.
    private func line(_ y: Int, _ words: [(String, Int)], confidence: Double = 0.9) -> [PageLayout.Word] {
        words.map { PageLayout.Word(text: $0.0, confidence: confidence, box: [$0.1, y, 20 * $0.0.count, 40]) }
    }

    private func layout(_ lines: [[PageLayout.Word]], top: Int = 1500) -> PageLayout {
        var layout = PageLayout()
        layout.pageWidth = 2480
        layout.pageHeight = 3508
        layout.startBlock(box: [200, top, 2080, 60 * lines.count])
        for (index, words) in lines.enumerated() {
            if index > 0 { layout.startLine() }
            for word in words { layout.add(word) }
        }
        return layout
    }

    /// Several blocks, each given as its lines, in the order Tesseract found them.
    private func layout(blocks: [[[PageLayout.Word]]]) -> PageLayout {
        var layout = PageLayout()
        layout.pageWidth = 2480
        layout.pageHeight = 3508
        for lines in blocks {
            let words = lines.joined()
            let left = words.map { $0.box[0] }.min() ?? 0, top = words.map { $0.box[1] }.min() ?? 0
            let right = words.map { $0.box[0] + $0.box[2] }.max() ?? 0, bottom = words.map { $0.box[1] + $0.box[3] }.max() ?? 0
            layout.startBlock(box: [left, top, right - left, bottom - top])
            for (index, line) in lines.enumerated() {
                if index > 0 { layout.startLine() }
                for word in line { layout.add(word) }
            }
        }
        return layout
    }

    /// A letterhead whose telephone number stands on the name's line, and the address under the
    /// name in a block of its own: the address continues the name's column, and the telephone
    /// number is read after it, not between the name and the address.
    @Test func aLetterheadsNextLineContinuesItsColumn() {
        let page = layout(blocks: [
            [line(224, [("Lege", 285), ("Reidar", 400), ("Falck", 540), ("Telefon", 1700), ("25", 1860), ("11", 1920), ("48", 1980)])],
            [line(284, [("Storgt.", 285), ("8,", 440), ("1500", 500), ("Moss", 600)])],
        ]).page()
        #expect(page.text == "Lege Reidar Falck\nStorgt. 8, 1500 Moss\n\nTelefon 25 11 48")
    }

    /// The block under a letterhead whose right column runs two lines longer than its left: it
    /// stands right under the letterhead, but not under the left column's last line, and is read
    /// after the whole letterhead.
    @Test func aBlockUnderTheLongerColumnIsNotPartOfTheShorterOne() {
        let page = layout(blocks: [
            [line(224, [("St.", 285), ("Olavs", 360), ("hospital", 480), ("Postboks", 1700), ("3250", 1880)]),
             line(284, [("Øre-nese-hals", 285), ("7006", 1700), ("Trondheim", 1800)]),
             line(344, [("Sentralbord", 1700)]),
             line(404, [("www.stolav.no", 1700)])],
            [line(470, [("Vår", 285), ("referanse:", 360), ("PAS", 580), ("1", 660)])],
        ]).page()
        #expect(page.text == "St. Olavs hospital\nØre-nese-hals\n\nPostboks 3250\n7006 Trondheim\nSentralbord\nwww.stolav.no"
            + "\n\nVår referanse: PAS 1")
    }

    /// A letterhead of two columns, and under it, after a blank band, the recipient's address
    /// beside the references, each read by Tesseract across the gutter: the letterhead's columns
    /// are read before the band below, not its left column and then the recipient's.
    @Test func theBandUnderALetterheadIsReadAfterBothItsColumns() {
        let page = layout(blocks: [
            [line(193, [("Nordlandssykehuset", 261), ("HF", 700), ("Postboks", 1870), ("1480", 2040)]),
             line(245, [("Kvinneklinikken", 389), ("8092", 1870), ("Bodø", 1970)])],
            [line(611, [("Fastlege", 262), ("Mathias", 440), ("Gulbrandsen", 600), ("Vår", 1800), ("referanse", 1880)]),
             line(667, [("Strømmen", 262), ("legesenter", 450), ("Datert:", 1800), ("07.11.2025", 1960)])],
        ]).page()
        #expect(page.text.hasPrefix("Nordlandssykehuset HF\nKvinneklinikken\n\nPostboks 1480\n8092 Bodø\n\nFastlege"))
    }

    /// A date at the right margin over the recipient's address at the left, in one block: the
    /// lines begin on either side of an empty band, the right one wholly above, and are read top
    /// to bottom; lines beside each other in height, or on the right under a name on the left,
    /// are read column by column.
    @Test func aDateOverTheAddressIsReadFirst() {
        let date = layout(blocks: [
            [line(515, [("2025-02-05", 2020)]),
             line(610, [("Kristin", 239), ("Solberg", 400)]),
             line(670, [("Sjøgata", 239), ("7B", 420)]),
             line(730, [("8006", 239), ("BODØ", 340)])],
        ]).page()
        #expect(date.text == "2025-02-05\nKristin Solberg\nSjøgata 7B\n8006 BODØ")
        let letterhead = layout(blocks: [
            [line(224, [("Kreftregisteret", 239)]),
             line(240, [("Postboks", 1800), ("5313", 1980)]),
             line(300, [("0304", 1800), ("Oslo", 1900)])],
        ]).page()
        #expect(letterhead.text == "Kreftregisteret\n\nPostboks 5313\n0304 Oslo")
        let below = layout(blocks: [
            [line(224, [("Storlia", 239), ("sykehus", 420), ("HF", 600)]),
             line(300, [("Telefon", 1800), ("61", 1960)]),
             line(360, [("Org.nr.", 1800), ("983", 1960)])],
        ]).page()
        #expect(below.text == "Storlia sykehus HF\n\nTelefon 61\nOrg.nr. 983")
        // The right column begun on the name's line above goes on, though its next line stands
        // over the left column's next lines.
        let begun = layout(blocks: [
            [line(207, [("Storlia", 296), ("sykehus", 480), ("HF", 660), ("Telefon", 1938), ("61", 2100)])],
            [line(253, [("Org.nr.", 1938), ("983", 2100)]),
             line(294, [("Ortopedisk", 294), ("poliklinikk", 520)]),
             line(346, [("Postboks", 295), ("410", 480)])],
        ]).page()
        #expect(begun.text == "Storlia sykehus HF\nOrtopedisk poliklinikk\nPostboks 410\n\nTelefon 61\nOrg.nr. 983")
    }

    /// A date at the right margin between the clinic's name and the references under it, in one
    /// block (the words' boxes of a scanned lab letter): no line on the right stands beside a line
    /// on the left, so they are one under the other and read top to bottom. With a line beside it
    /// on the left, the right line is a column again.
    @Test func aDateBetweenLinesOnTheLeftIsReadWhereItStands() {
        func word(_ text: String, _ box: [Int]) -> PageLayout.Word { PageLayout.Word(text: text, confidence: 0.9, box: box) }
        let name = [word("Laboratorieklinikken", [461, 348, 399, 30])]
        let date = [word("26.", [1825, 419, 63, 32]), word("september", [1927, 419, 222, 41]), word("2025", [2179, 419, 95, 32])]
        let references = [[word("Vår", [268, 508, 74, 37]), word("ref.:", [375, 513, 109, 32]), word("25/23404-7", [523, 513, 246, 36])],
                          [word("Deres", [270, 566, 119, 31]), word("referanse:", [426, 565, 235, 32]), word("Rekvisisjon", [700, 565, 272, 41])]]
        let between = layout(blocks: [[name, date] + references]).page()
        #expect(between.text == "Laboratorieklinikken\n26. september 2025\nVår ref.: 25/23404-7\nDeres referanse: Rekvisisjon")
        // The name's line lowered to the date's height: the two stand side by side, as columns.
        let lowered = [word("Laboratorieklinikken", [461, 415, 399, 30])]
        let beside = layout(blocks: [[lowered, date] + references]).page()
        #expect(beside.text.hasPrefix("Laboratorieklinikken\nVår ref.: 25/23404-7\nDeres referanse: Rekvisisjon\n\n26. september 2025"), "\(beside.text)")
    }

    @Test func anAddressBesideAReferenceBlockIsReadColumnByColumn() {
        let page = layout([
            line(1500, [("Kari", 200), ("Hansen", 300), ("Vår", 1400), ("ref.:", 1480), ("25/1", 1600)]),
            line(1560, [("Storgata", 200), ("1", 380), ("Dato:", 1400), ("3.3.2025", 1520)]),
            line(1620, [("0150", 200), ("Oslo", 300)]),
            line(1720, [("Innkalling", 200), ("til", 420), ("time", 500), ("ved", 600), ("poliklinikken", 700),
                        ("neste", 1000), ("uke", 1120), ("på", 1200), ("sykehuset", 1260), ("vårt", 1460)]),
        ]).page()
        #expect(page.text == "Kari Hansen\nStorgata 1\n0150 Oslo\n\nVår ref.: 25/1\nDato: 3.3.2025\n\n"
            + "Innkalling til time ved poliklinikken neste uke på sykehuset vårt")
    }

    /// Two names signed side by side under a letter, each with a title under it, read as printed.
    @Test func namesSignedSideBySideAreReadRowByRow() {
        let page = layout([
            line(2600, [("Hanne", 200), ("Næss", 320), ("Jørgen", 1300), ("Aas", 1440)]),
            line(2660, [("overlege", 200), ("seksjonsoverlege", 1300)]),
        ], top: 2600).page()
        #expect(page.text == "Hanne Næss Jørgen Aas\noverlege seksjonsoverlege")
        // High on a second page too.
        let high = layout([
            line(440, [("Med", 200), ("vennlig", 290), ("hilsen", 450)]),
            line(500, [("Hanne", 200), ("Næss", 320), ("Jørgen", 1300), ("Aas", 1440)]),
            line(560, [("overlege", 200), ("seksjonsoverlege", 1300)]),
        ], top: 440).page()
        #expect(high.text == "Med vennlig hilsen\nHanne Næss Jørgen Aas\noverlege seksjonsoverlege")
    }

    /// Names signed side by side that Tesseract took as two blocks, below the page's first lines.
    @Test func namesSignedSideBySideInTwoBlocksAreReadRowByRow() {
        let page = layout(blocks: [
            [line(220, [("Vedr.", 287), ("Andreassen,", 400), ("Malin", 640)])],
            [line(330, [("Vennlig", 288), ("hilsen", 450)]), line(390, [("Gastromedisinsk", 288), ("avdeling", 620)])],
            [line(617, [("Håkon", 289), ("Aas", 420)]), line(680, [("lege", 289)])],
            [line(619, [("Joakim", 1267), ("Abrahamsen", 1400)]), line(682, [("LIS-lege", 1267)])],
        ]).page()
        #expect(page.text == "Vedr. Andreassen, Malin\n\nVennlig hilsen\nGastromedisinsk avdeling\n\n"
            + "Håkon Aas Joakim Abrahamsen\nlege LIS-lege")
        // A block right under the names that reaches under both is read after them, not lost.
        let copy = layout(blocks: [
            [line(220, [("Vedr.", 287), ("Andreassen,", 400), ("Malin", 640)])],
            [line(330, [("Vennlig", 288), ("hilsen", 450)])],
            [line(617, [("Håkon", 289), ("Aas", 420)]), line(680, [("lege", 289)])],
            [line(619, [("Joakim", 1267), ("Abrahamsen", 1400)]), line(682, [("LIS-lege", 1267)])],
            [line(760, [("Kopi", 289), ("til:", 390), ("fastlege", 490), ("Kari", 1267), ("Holm", 1367)])],
        ]).page()
        #expect(copy.text.hasSuffix("Håkon Aas Joakim Abrahamsen\nlege LIS-lege\n\nKopi til: fastlege Kari Holm"))
        // A letterhead's two columns, the page's first band, stay columns.
        let head = layout(blocks: [
            [line(200, [("Helse", 200), ("Bergen", 320)]), line(260, [("Hudavdelingen", 200)])],
            [line(200, [("Haukeland", 1600), ("sjukehus", 1800)]), line(260, [("Telefon", 1600)])],
        ]).page()
        #expect(head.text == "Helse Bergen\nHudavdelingen\n\nHaukeland sjukehus\nTelefon")
    }

    /// A form's labelled fields that Tesseract took as two blocks side by side, with a table
    /// under them, read as filled in.
    @Test func labelledFieldsInTwoBlocksAreReadRowByRow() {
        let page = layout(blocks: [
            [line(100, [("Legemiddelliste", 200)])],
            [line(220, [("Utskrevet", 200), ("15.01.2024", 420)]), line(280, [("Navn:", 200), ("Randi", 320), ("Ødegård", 440)]),
             line(340, [("Adresse:", 200), ("Furulundvegen", 380), ("9", 660)])],
            [line(282, [("Født:", 1300), ("27.01.1957", 1420)]), line(341, [("Fastlege:", 1300), ("Siri", 1500), ("Moen", 1600)])],
            [line(400, [("Allergier:", 200), ("Ingen", 420), ("kjente", 540)])],
        ]).page()
        #expect(page.text == "Legemiddelliste\n\nUtskrevet 15.01.2024\nNavn: Randi Ødegård Født: 27.01.1957\n"
            + "Adresse: Furulundvegen 9 Fastlege: Siri Moen\n\nAllergier: Ingen kjente")
        // An address beside a reference: no labels on the left, read column by column.
        let letter = layout(blocks: [
            [line(600, [("Kari", 200), ("Hansen", 300)]), line(660, [("Storgata", 200), ("1", 380)])],
            [line(600, [("Vår", 1400), ("ref.:", 1480), ("25/1", 1600)]), line(660, [("Dato:", 1400), ("3.3.2025", 1520)])],
        ]).page()
        #expect(letter.text == "Kari Hansen\nStorgata 1\n\nVår ref.: 25/1\nDato: 3.3.2025")
    }

    /// Justified typewriter lines: a few spaces line up over three lines, but leave no band a tenth
    /// of the page wide; the lines are read whole, in order.
    @Test func justifiedLinesWithAlignedSpacesStayWhole() {
        let page = layout([
            line(1500, [("Han", 285), ("har", 408), ("siden", 526), ("begynnelsen", 706), ("av", 1186), ("januar", 1275), ("hatt", 1488), ("smerter", 1636)]),
            line(1560, [("med", 283), ("utstråling", 409), ("til", 736), ("venstre", 854), ("ben.", 1186), ("Det", 1335), ("foreligger", 1456), ("tegn", 1789)]),
            line(1620, [("av", 286), ("mellomvirvelskive,", 373), ("og", 975), ("han", 1215), ("er", 1367), ("henvist", 1488), ("til", 1758)]),
        ]).page()
        #expect(page.text.contains("begynnelsen av januar"))
        #expect(page.text.contains("venstre ben."))
        #expect(page.text.contains("og han er henvist"))
    }

    /// A wide space in one line of a paragraph (before a right-aligned date, say) is no column.
    @Test func oneWideGapOutsideTheLetterheadIsNoColumn() {
        let page = layout([
            line(1500, [("Vi", 200), ("viser", 260), ("til", 380), ("brevet", 460)]),
            line(1560, [("Oslo,", 200), ("3.", 320), ("mars", 380), ("1987", 1700)]),
            line(1620, [("og", 200), ("sender", 260), ("svar", 400), ("nå", 500)]),
        ]).page()
        #expect(page.text == "Vi viser til brevet\nOslo, 3. mars 1987\nog sender svar nå")
    }

    /// A typewritten list's label in the margin ("B."), read doubtfully on a line of its own, is
    /// kept; a doubtful mark elsewhere is not.
    @Test func aListsLabelInTheMarginIsNoScribble() {
        let label = [PageLayout.Word(text: "B.", confidence: 0.3, box: [630, 1480, 50, 37])]
        #expect(PageLayout.isScribble(label))
        #expect(PageLayout.isListLabel(label, margin: 760, height: 37))
        // Right of the margin, far smaller than the text, or no label's shape: a mark.
        #expect(!PageLayout.isListLabel([PageLayout.Word(text: "B.", confidence: 0.3, box: [1600, 1480, 50, 37])], margin: 760, height: 37))
        #expect(!PageLayout.isListLabel([PageLayout.Word(text: "B.", confidence: 0.3, box: [630, 1480, 12, 10])], margin: 760, height: 37))
        #expect(!PageLayout.isListLabel([PageLayout.Word(text: "4", confidence: 0.3, box: [630, 1480, 14, 18])], margin: 760, height: 37))
        #expect(!PageLayout.isListLabel(label, margin: nil, height: 37))
    }

    /// A typewritten list's labels, each a block of its own in the margin beside the item it
    /// begins (boxes of a real page), are read at the start of their items' lines, kept however
    /// doubtfully read; a block in the margin that is no label stays a block of its own.
    @Test func aListsLabelsInTheMarginBeginTheirItems() {
        let items = [line(1180, [("Instruktion", 715), ("fra", 960), ("Generalsekretæren", 1040)]),
                     line(1240, [("riet", 715), ("af", 820), ("30.", 880), ("September", 960)]),
                     line(1480, [("Forordning", 715), ("Nr.", 940), ("189", 1020), ("om", 1100)]),
                     line(1540, [("22.", 715), ("Oktober", 800), ("1940.", 980)]),
                     line(1680, [("Forordning", 715), ("Nr.", 940), ("231", 1020), ("af", 1100)])]
        let labels = [PageLayout.Word(text: "A.", confidence: 0.3, box: [636, 1179, 50, 37]),
                      PageLayout.Word(text: "B.", confidence: 0.3, box: [635, 1479, 49, 37]),
                      PageLayout.Word(text: "C.", confidence: 0.4, box: [637, 1680, 46, 39])]
        let page = layout(blocks: [[items[0], items[1], items[2], items[3], items[4]]] + labels.map { [[$0]] }).page()
        #expect(page.text.contains("A. Instruktion fra Generalsekretæren"))
        #expect(page.text.contains("B. Forordning Nr. 189 om"))
        #expect(page.text.contains("C. Forordning Nr. 231 af"))
        let note = layout(blocks: [[items[0], items[1], items[2], items[3], items[4]],
                                   [[PageLayout.Word(text: "Ref", confidence: 0.9, box: [600, 1479, 60, 37])]]]).page()
        #expect(note.text.contains("\nForordning Nr. 189 om"))
    }

    @Test func tableRowsAreNeverSplit() {
        let page = layout([
            line(1500, [("Analyse", 200), ("Resultat", 900), ("Enhet", 1400), ("Referanse", 1900)]),
            line(1560, [("Hemoglobin", 200), ("13,4", 900), ("g/dL", 1400), ("11,7-15,3", 1900)]),
        ]).page()
        #expect(page.text == "Analyse Resultat Enhet Referanse\nHemoglobin 13,4 g/dL 11,7–15,3")
    }

    @Test func faintTextIsKeptAndScribblesAreCounted() {
        let page = layout([
            line(1500, [("Vi", 200), ("har", 260), ("mottatt", 360), ("søknaden", 540), ("din", 760)], confidence: 0.4),
            line(1560, [("ANVKS", 200)], confidence: 0.2),
            line(1620, [("Med", 200), ("vennlig", 300), ("hilsen", 460)]),
        ]).page()
        #expect(page.text == "Vi har mottatt søknaden din\nMed vennlig hilsen")
        #expect(page.droppedLines == 1)
    }

    /// A heading typed in the left margin beside its paragraph is read where it stands: between
    /// the lines above it and the line beside it, not before the whole paragraph.
    @Test func aSideHeadingIsReadWhereItStands() {
        let body = (0..<8).map { index in
            line(1000 + 100 * index, [("linje\(index)", 900), ("med", 1060), ("tekst", 1160), ("over", 1300), ("siden", 1420),
                                        ("og", 1560), ("mer", 1640), ("tekst", 1740), ("her", 1880)])
        }
        let page = layout(blocks: [
            [line(1300, [("Næringsforbud.", 260)])],
            body,
        ]).page()
        let lines = page.text.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.firstIndex(of: "Næringsforbud.") == 3)
        #expect(lines.first == "linje0 med tekst over siden og mer tekst her")
        #expect(lines.count == 9)
    }

    /// A heading in the margin beside the first line of its paragraph, found by Tesseract before
    /// the page's text: read right before that paragraph, as the one beside a paragraph's middle.
    @Test func aSideHeadingBesideItsParagraphsFirstLineIsReadBeforeIt() {
        // Typewriting spaced a line apart (100 px from line to line), the page's blocks as found.
        func paragraph(_ top: Int, _ count: Int, _ name: String) -> [[PageLayout.Word]] {
            (0..<count).map { index in
                line(top + 100 * index, [("\(name)\(index)", 880), ("med", 1060), ("tekst", 1160), ("over", 1300), ("siden", 1420),
                                          ("og", 1560), ("mer", 1640), ("tekst", 1740), ("her", 1880)])
            }
        }
        let page = layout(blocks: [
            [line(1734, [("Begrebet", 176), ("Jøder.", 380)])],
            [line(2917, [("Anmeldelsespligt.", 173)])],
            [line(3220, [("Kendetegn.", 201)])],
            [line(3424, [("Bevægelsesforbud.", 235)])],
            [line(622, [("J.No.", 1400), ("135.D.10.a.", 1560)])],
            paragraph(800, 2, "tittel"),
            paragraph(1229, 7, "første"),
            paragraph(1931, 4, "andre"),
            paragraph(2332, 4, "tredje"),
            paragraph(2734, 2, "fjerde"),
            paragraph(2888, 9, "femte"),
        ]).page()
        let lines = page.text.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
        let heading = lines.firstIndex(of: "Anmeldelsespligt.")
        #expect(heading != nil && lines.indices.contains((heading ?? 0) + 1) && lines[(heading ?? 0) + 1].hasPrefix("femte0 "))
        #expect(lines.firstIndex(of: "Kendetegn.").map { lines[$0 + 1].hasPrefix("femte4 ") } == true)
        #expect(lines.count == 33)
    }

    /// The address's last line taken by the block of the text under it, which reaches under the
    /// reference lines beside the address: the address is read whole, then the references, then
    /// the text (blocks of a scan of an invoice).
    @Test func aBlockReachingUnderBothColumnsGivesTheAddressItsLastLine() {
        let page = layout(blocks: [
            [line(211, [("Strømmen", 445), ("legesenter", 645)])],
            [line(650, [("Tore", 225), ("John", 325), ("Holm", 425)]), line(718, [("Lyngveien", 225), ("13B", 425)])],
            [line(649, [("Saksbehandler:", 1481), ("Ingeborg", 1781)])],
            [line(716, [("Datert:", 1480), ("9.", 1640), ("august", 1700), ("2024", 1840)])],
            [line(776, [("5700", 226), ("VOSS", 326)]), line(976, [("Regning", 225)]),
             line(1040, [("Behandlingsdato:", 225), ("25.07.2024", 580)]),
             line(1200, [("Konsultasjon", 225), ("hos", 485), ("lege,", 565), ("egenandel", 675), ("375,00", 1616)])],
        ]).page()
        let lines = page.text.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
        #expect(lines == ["Strømmen legesenter", "Tore John Holm", "Lyngveien 13B", "5700 VOSS", "Saksbehandler: Ingeborg",
                          "Datert: 9. august 2024", "Regning", "Behandlingsdato: 25.07.2024", "Konsultasjon hos lege, egenandel 375,00"])
    }

    /// A line's end that Tesseract made a block of its own, reaching over the end of the longer
    /// lines under its line (boxes as on a lab letter's photo): read at the end of its line, before
    /// the lines under it. Two word heights or more apart, it is a column and keeps its block.
    @Test func aLinesEndInABlockOfItsOwnIsReadOnItsLine() {
        func page(tail: Int) -> [String] {
            var layout = layout(blocks: [
                [line(802, [("Gamlebyen", tail), ("legesenter", tail + 220)])],
                [line(798, [("Rekvirent:", 244), ("Harald", 500), ("Berntsen,", 640)]),
                 line(858, [("Prøvetatt:", 244), ("12.08.2024", 500), ("kl.", 720), ("09:01", 790)]),
                 line(918, [("Mottatt:", 244), ("13.08.2024", 500), ("kl.", 720), ("11:34", 790)])],
                [line(978, [("Prøvemateriale:", 244), ("Serum", 560)])],
            ])
            layout.joinTornLineEnds()
            return layout.page().text.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
        }
        #expect(page(tail: 830) == ["Rekvirent: Harald Berntsen, Gamlebyen legesenter", "Prøvetatt: 12.08.2024 kl. 09:01",
                                    "Mottatt: 13.08.2024 kl. 11:34", "Prøvemateriale: Serum"])
        #expect(page(tail: 1000).first == "Rekvirent: Harald Berntsen,")
    }

    /// A letterhead's name, and under it, after an empty line, the letter's reference lines, all
    /// one block beside the sender's address, which ends above the references: the name, the
    /// address, then the references, as the eye reads them.
    @Test func referencesUnderTheLetterheadComeAfterTheAddressBesideIt() {
        let page = layout(blocks: [
            [line(200, [("Strømmen", 270), ("legesenter", 460)])],
            [line(200, [("Stasjonsveien", 1580), ("3", 1860)]),
             line(245, [("2010", 1580), ("Strømmen", 1680)]),
             line(290, [("Telefon", 1580), ("63", 1740), ("81", 1800)])],
            [line(280, [("Legesenter", 270)]),
             line(400, [("Journalnr.:", 270), ("PAS", 500), ("926227", 580)]),
             line(445, [("Deres", 270), ("referanse", 390)]),
             line(490, [("Dato", 270), ("9.1.2024", 370)])],
        ]).page()
        let lines = page.text.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines == ["Strømmen legesenter", "Legesenter", "Stasjonsveien 3", "2010 Strømmen", "Telefon 63 81",
                          "Journalnr.: PAS 926227", "Deres referanse", "Dato 9.1.2024"])
    }

    /// Lines spaced an empty line apart throughout stay one block beside a heading in the margin.
    @Test func evenlySpacedLinesBesideAHeadingAreNotCut() {
        let body = (0..<4).map { index in line(1000 + 100 * index, [("linje\(index)", 900), ("med", 1060), ("tekst", 1160)]) }
        let page = layout(blocks: [[line(1000, [("Vedtak.", 260)])], body])
        #expect(page.cuttingBelowNeighbours(page.blocks).count == 2)
    }
}
