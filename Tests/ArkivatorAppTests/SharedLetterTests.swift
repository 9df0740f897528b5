import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorApp
import ArkivatorPipeline
import Testing

/// What the share pack knows of each letter before its pages are read again, and the text for an
/// assistant (no OCR here: `SharePackCLITests` reads real pages).
@Suite struct SharedLetterTests {
    static let number = "17097243859"
    /// Ola's: 26 January 1987.
    static let other: String = {
        let nine = [2, 6, 0, 1, 8, 7, 0, 4, 4]
        guard let (k1, k2) = Fodselsnummer.controlDigits(nine) else { return "" }
        return (nine + [k1, k2]).map(String.init).joined()
    }()

    static func document(_ text: String, member: String? = nil, person: String? = nil, date: String = "2025-02-04") -> LibraryDocument {
        LibraryDocument(sha256: String(repeating: "b", count: 64), sourceName: "brev.jpg", title: "\(date) Epikrise ortopedi",
                        docType: .epikrise, person: person, familyMember: member, institution: "Østre Lia sykehus",
                        documentDate: date, text: text)
    }

    static let family = [FamilyProfile(name: "Kari Nordmann", fodselsnummer: try? Fodselsnummer(number)),
                         FamilyProfile(name: "Ola Nordmann", fodselsnummer: try? Fodselsnummer(other))]

    @Test func theHouseholdsNumbersAreKnownAndTheBirthDateComesFromTheProfile() {
        let letter = SharedLetter(Self.document("Pasient: Kari Nordmann, f.nr. \(Self.number)", member: "Kari Nordmann"), family: Self.family)
        #expect(letter.known == [Self.number, Self.other])
        #expect(letter.person == SharePackCover.Person(name: "Kari Nordmann", birthDate: "1972-09-17"))
        // Nobody of the household: the letter's own number gives the birth date.
        let stranger = SharedLetter(Self.document("Pasient: Per Hansen, f.nr. \(Self.other)", person: "Per Hansen"), family: [])
        #expect(stranger.person == SharePackCover.Person(name: "Per Hansen", birthDate: "1987-01-26"))
    }

    @Test func aPageWhoseNumberWasNotFoundAgainIsNamed() {
        let letter = SharedLetter(Self.document("Side en uten nummer\u{0C}Pasient: Kari Nordmann, f.nr. \(Self.number)"), family: Self.family)
        #expect(letter.pageMissingANumber(["Side en uten nummer", "Pasient: Kari Nordmann, f.nr. \(Self.number)"]) == nil)
        // Read again split as OCR may split it: still found.
        #expect(letter.pageMissingANumber(["Side en", "f.nr. 1709 7243859"]) == nil)
        #expect(letter.pageMissingANumber(["Side en", "Pasient: Kari Nordmann, f.nr. 1709724385g"]) == 2)
    }

    @Test func theTextForAnAssistantHasNoNameOrNumberAndKeepsTheLetter() {
        let letters = [
            Self.document("Pasient: Kari Nordmann, f.nr. \(Self.number)\n• Ta med legitimasjon\u{0C}Mor: Kari, f.nr. 1709 7243859",
                          member: "Kari Nordmann"),
            Self.document("Pasient: Ola Nordmann, f.nr. 260187 •••••\nKari Nordmann er pårørende.", member: "Ola Nordmann",
                          date: "2025-03-01"),
        ]
        let text = ShareTextBundle(letters: letters, names: Self.family.map(\.name), known: [Self.number, Self.other]).text
        for word in ["Kari", "Ola", "Nordmann", "260187", "170972", "43859", "7243859"] {
            #expect(!text.contains(word), "\(word) in \(text)")
        }
        #expect(text.contains("=== Brev 2 av 2 ===") && text.contains("Avsender: Østre Lia sykehus") && text.contains("Type: Epikrise"))
        #expect(text.contains("• Ta med legitimasjon"), "a bullet stays")
        #expect(text.contains("[FNR]") && text.contains("[FNR-1]"), "\(text)")
        // Kari is the same placeholder in both letters.
        let kari = text.components(separatedBy: "Pasient: ").dropFirst().first?.prefix(8) ?? ""
        #expect(text.components(separatedBy: String(kari)).count > 2, "\(text)")
    }
}
