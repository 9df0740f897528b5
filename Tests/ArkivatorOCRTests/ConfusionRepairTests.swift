@testable import ArkivatorOCR
import Testing

/// Words Tesseract's Norwegian model misreads in the same way every time are put right against
/// the word lists; names, codes, numbers and words already right stay as read.
@Suite struct ConfusionRepairTests {
    private let lexicon = Lexicon.shared

    @Test func theWordListsAreRead() throws {
        let lexicon = try #require(lexicon, "Debian's wnorwegian and wdanish (make test installs them)")
        for word in ["forordning", "Blodprøve", "INNKALLING", "være", "Æresord", "været"] {
            #expect(lexicon.contains(word), "\(word)")
        }
        #expect(!lexicon.contains("Fororåning"))
    }

    @Test func knownMisreadingsArePutRight() throws {
        try #require(lexicon != nil)
        let cases = ["Fororåning": "Forordning", "Fororåninz,": "Forordning,", "årives": "drives",
                     "Statsborzere": "Statsborgere", "Forordnine": "Forordning", "Afvwæbning": "Afvæbning",
                     "vwæret": "været", "Opåragelse": "Opdragelse", "Inåtryk": "Indtryk",
                     "Foretasender,": "Foretagender,", "sodkendes": "godkendes", "Behandlinr": "Behandling",
                     "Bekendtøørelse": "Bekendtgørelse", "Bedsteforzlåre,": "Bedsteforældre,", "Warts": "Marts",
                     "Winisteriet": "Ministeriet", "feneralkommissæren": "Generalkommissæren",
                     "erhvervsmzssict": "erhvervsmæssigt", "Frhvervelsen": "Erhvervelsen", "Astefæller": "Ægtefæller",
                     "Menighea": "Menighed", "Fororaningerne": "Forordningerne"]
        for (read, right) in cases {
            #expect(ConfusionRepair.repaired(read) == right, "\(read)")
        }
    }

    @Test func wordsNamesAndNumbersStay() throws {
        try #require(lexicon != nil)
        for token in ["på", "både", "måned", "Bråten", "Håkonsen", "12,5", "5O", "HbA1c", "mmol/L", "Indenrissministe-",
                      "Nordmann", "pizza", "Kjelsås", "caput", "femoris", "Wenche", "Sørli", "Hassan", "Fossum",
                      "Frode", "Fredrik", "Asbjørn", "Atle", "Cecilie", "Marcus", "Victoria", "Clara", "cava", "musculus", "fractura",
                      // Old Danish "aa", a capital A, and "a" with another step ("folat" is no "Goldt").
                      "saaledes", "faaet", "raader", "Tana", "Aune", "folat"] {
            #expect(ConfusionRepair.repaired(token) == nil, "\(token)")
        }
    }

    @Test func typewriterSignsAreRead() {
        #expect(Typography.typewriterSigns("Hushold=") == "Hushold-")
        #expect(Typography.typewriterSigns("jødi=-") == "jødi-")
        #expect(Typography.typewriterSigns("($") == "(§")
        #expect(Typography.typewriterSigns("=") == "=")
        #expect(Typography.typewriterSigns("a=b") == "a=b")
    }

    @Test func aListsNumberReadAsALetterIsTheNumber() {
        #expect(Typography.listNumeral("l.", after: "Pkt.") == "1.")
        #expect(Typography.listNumeral("l.,", after: nil) == "1.,")
        #expect(Typography.listNumeral("l.)", after: "jfr.") == "1.)")
        #expect(Typography.listNumeral("l.", after: "2") == "l.")
        #expect(Typography.listNumeral("l.", after: "0,5") == "l.")
        #expect(Typography.listNumeral("kl.", after: nil) == "kl.")
        #expect(Typography.listNumeral("l.a.", after: nil) == "l.a.")
    }
}
