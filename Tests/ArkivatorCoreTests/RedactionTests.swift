import ArkivatorCore
import Testing

/// One fødselsnummer detector, one way of hiding it.
@Suite struct RedactionTests {
    /// 17097243859 is a valid number (the fixtures' patient).
    static let number = "17097243859"

    @Test func everyNumberFoundIsMaskedTheSameWay() throws {
        let parsed = try Fodselsnummer(Self.number)
        #expect(Redaction.mask(parsed) == "170972 •••••")
        #expect(parsed.masked == Redaction.mask(parsed) && parsed.description == parsed.masked)
        // As printed, as OCR spaces it out, twice in one text: each is found and each is hidden.
        for printed in [Self.number, "170972 43859", "170972   43859"] {
            let text = "Pasient: Kari Nordmann, f.nr. \(printed).\nVedr. \(printed)"
            #expect(Fodselsnummer.matches(in: text).count == 2, "\(printed)")
            #expect(Fodselsnummer.numbers(in: text) == [parsed])
            let redacted = Redaction.redact(text)
            #expect(!redacted.contains("43859"), "\(redacted)")
            #expect(redacted == "Pasient: Kari Nordmann, f.nr. 170972 •••••.\nVedr. 170972 •••••")
        }
    }

    /// Every way a number is written is found by the one detector and masked the one way:
    /// the date and the personal number apart by spaces, a dash or a dot; the date in groups;
    /// the number broken by a line break anywhere.
    @Test func everyWrittenFormIsFound() throws {
        let parsed = try Fodselsnummer(Self.number)
        let forms = ["170972 43859", "170972-43859", "170972.43859", "170972 – 43859", "17 09 72 43859",
                     "17.09.72 43859", "17.09.72-43859", "17. 09. 72 43859", "170972\u{A0}43859",
                     "170972\n43859", "170972\r\n43859", "1709724\n3859", "1\n7097243859", "1709724385\n9",
                     "1709724-\n3859", "170972 \n 43859", "17.09.72\n43859", "1709724\n\n3859", "170972 \n \n 43859"]
        for printed in forms {
            let text = "Pasient: Kari Nordmann, f.nr. \(printed), Oslo"
            #expect(Fodselsnummer.numbers(in: text) == [parsed], "\(printed.debugDescription)")
            let redacted = Redaction.redact(text)
            #expect(redacted == "Pasient: Kari Nordmann, f.nr. 170972 •••••, Oslo", "\(printed.debugDescription): \(redacted)")
        }
        #expect(try Fodselsnummer("170972-43859") == parsed)
        // Two numbers on two lines stay two numbers.
        let two = "D-nummer: 57097240029\n17097243859\n170972 43859 2"
        #expect(Fodselsnummer.matches(in: two).map(\.number.digits) == ["57097240029", "17097243859", "17097243859"])
    }

    @Test func otherDigitsStay() {
        for text in ["Tlf. 22 33 44 55", "Ref. 170972438591", "Konto 1709.72.43859", "17097243858", "170972\n43858",
                     "1709 7243859", "17 0972 43859", "1709724-3859", "Beløp 12.170972 43859", "170972 43859.5",
                     "Dato 17.09.1972 43859", "Tlf. 22 33 44 55 66 77 88", "17.09.72\n\n\n43859", "170972 - - 43859"] {
            #expect(Fodselsnummer.matches(in: text).isEmpty, "\(text)")
            #expect(Redaction.redact(text) == text)
        }
    }

    /// OCR spaces a number out where the print has none ("170 972 43859"): after a label that
    /// says a fødselsnummer follows, it is found wherever the spaces fall; without one it stays
    /// (see ``otherDigitsStay()``), and a label does not make other numbers one.
    @Test func aLabelledNumberIsFoundHoweverOCRSpacedIt() throws {
        let parsed = try Fodselsnummer(Self.number)
        for label in ["f.nr.", "F.nr", "Fødselsnr.:", "fødselsnummer", "Fødselsnummer:    ", "Personnummer", "f. nr.", "D-nummer:"] {
            for printed in ["170 972 43859", "1709 7243859", "17 0972 43859", "1 709724 3 859"] {
                let text = "Pasient: Kari Nordmann, \(label) \(printed), Oslo"
                #expect(Fodselsnummer.numbers(in: text) == [parsed], "\(text)")
                #expect(Redaction.redact(text) == "Pasient: Kari Nordmann, \(label) 170972 •••••, Oslo", "\(text)")
            }
        }
        for text in ["Ordnr. 170 972 43859", "Konto: 1709 72 43859", "f.nr. 1709724-3859", "f.nr.\n170 972 43859",
                     "f.nr. 170 972 43858", "Fødselsnr.: 1 7 0 9 7 2 4 3 8 5 9", "Tlf. 170 972 43859"] {
            #expect(Fodselsnummer.matches(in: text).isEmpty, "\(text)")
        }
    }

    @Test func aKnownNumberIsHiddenHoweverOCRSplitIt() {
        let known: Set<String> = [Self.number]
        for printed in ["1709 7243859", "17.09.72 438 59", "1709724 3859", "170 972 43859"] {
            // Without a label before it (with one the detector finds it: see aLabelledNumberIsFound…).
            let redacted = Redaction.redact("Pasient: Kari Nordmann, \(printed) (mor)", known: known)
            #expect(!redacted.filter(\.isNumber).contains("43859") && redacted.contains("Kari Nordmann, •"), "\(redacted)")
            #expect(redacted.filter { $0 == "•" }.count == 11, "\(redacted)")
        }
        // A number the detector finds is masked as always; other digits, and an unknown split number, stay.
        #expect(Redaction.redact("f.nr. \(Self.number)", known: known) == "f.nr. 170972 •••••")
        for text in ["Tlf. 22 33 44 55", "1709 7243858", "17097\n243858"] {
            #expect(Redaction.redact(text, known: known) == text, "\(text)")
        }
    }
}
