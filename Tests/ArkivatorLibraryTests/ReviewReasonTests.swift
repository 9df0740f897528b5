import ArkivatorCore
import ArkivatorLibrary
import Testing

/// Why a letter waits, derived from what the library stores.
@Suite struct ReviewReasonTests {
    func letter(text: String = "Innkalling til time 12. mars 2024.", member: String? = "Kari", needsReview: [String] = [],
                low: [LibraryDocument.TextRange] = [], dateConfidence: Double? = nil) -> LibraryDocument {
        var document = LibraryDocument(sha256: String(repeating: "c3", count: 32), sourceName: "brev.jpg",
                                       title: "2024-03-12 Innkalling", docType: .innkalling, person: member,
                                       familyMember: member, documentDate: "2024-03-12", scanDate: "2024-04-01",
                                       needsReview: needsReview, text: text, lowConfidence: low)
        document.fieldConfidence = dateConfidence.map { ["documentDate": $0] }
        return document
    }

    @Test func aLetterWithoutDoubtHasNoReason() {
        #expect(letter().reviewReasons.isEmpty)
    }

    @Test func noTextSaysOnlyThatAndWho() {
        let reasons = letter(text: "", member: nil, needsReview: ["docType", "documentDate", "person", "title"]).reviewReasons
        #expect(reasons == [.noText, .noHouseholdMember])
        #expect(ReviewReason.noText.message.norwegian.hasPrefix("Ingen tekst funnet — skriv inn selv eller ta bildet på nytt"))
    }

    @Test func theScanDateStandingInIsNoLetterDateAndTheOtherFieldsAreNamed() {
        let reasons = letter(needsReview: ["documentDate", "institution", "title", "person"], dateConfidence: 0.1).reviewReasons
        #expect(reasons == [.noLetterDate, .uncertainFields(["person", "institution"])])
        #expect(reasons[1].message.norwegian == "Usikkert: person og avsender. Se over og rett om det trengs.")
        // A date found but unsure is an uncertain field, not a missing one.
        let unsure = letter(needsReview: ["documentDate", "docType"], dateConfidence: 0.5).reviewReasons
        #expect(unsure == [.uncertainFields(["docType", "documentDate"])])
        #expect(unsure[0].message.norwegian.contains("type og brevdato"))
    }

    @Test func lowConfidenceListsTheWordsOnceInReadingOrder() {
        // "Innkalling til time 12. mars 2024.": "time" at 15, "mars" at 24, "Time" again.
        let text = "Innkalling til time 12. mars 2024. Time"
        let low = [LibraryDocument.TextRange(start: 24, length: 4), LibraryDocument.TextRange(start: 15, length: 4),
                   LibraryDocument.TextRange(start: 35, length: 4), LibraryDocument.TextRange(start: 400, length: 2)]
        #expect(letter(text: text, low: low).reviewReasons == [.lowConfidence(words: ["time", "mars"], total: 2)])
        let many = (0..<20).map { LibraryDocument.TextRange(start: $0 * 3, length: 2) }
        let long = letter(text: (0..<20).map { String(format: "%02d", $0) }.joined(separator: " "), low: many).reviewReasons
        #expect(long == [.lowConfidence(words: (0..<12).map { String(format: "%02d", $0) }, total: 20)])
        #expect(long[0].message.norwegian.hasPrefix("20 ord var vanskelige å lese"))
    }

    @Test func theHardWordsAreWordsNotDashesBracketsOrLoneLetters() {
        let text = "Opåragelse, —- a (7) (, og vwæret."
        let low = ["Opåragelse,", "—-", "a", "(7)", "(,", "vwæret."].map { word in
            LibraryDocument.TextRange(start: text.unicodeScalars.count - text.components(separatedBy: word)[1].unicodeScalars.count
                                      - word.unicodeScalars.count, length: word.unicodeScalars.count)
        }
        #expect(letter(text: text, low: low).reviewReasons == [.lowConfidence(words: ["Opåragelse", "vwæret"], total: 2)])
    }

    /// Numbers in doubt are named first, by «Usikkert tall», and not again among the hard words.
    @Test func numbersInDoubtAreNamedAsUncertainNumbers() {
        // "Totalkolesterol 52 mmol/L (2,9-6,1) Kommentar": "52" at 16, "Kommentar" at 36.
        let text = "Totalkolesterol 52 mmol/L (2,9-6,1) Kommentar"
        let low = [LibraryDocument.TextRange(start: 16, length: 2), LibraryDocument.TextRange(start: 36, length: 9)]
        let reasons = letter(text: text, needsReview: [ReviewReason.numbersField], low: low).reviewReasons
        #expect(reasons == [.uncertainNumbers(["52"]), .lowConfidence(words: ["Kommentar"], total: 1)])
        #expect(reasons[0].message.norwegian.hasPrefix("Usikkert tall: 52. Sammenlign med sidebildet"))
        #expect(reasons[0].message.english.hasPrefix("Uncertain number: 52."))
        // Without the pipeline's mark, a hard number is only a hard word.
        #expect(letter(text: text, low: low).reviewReasons == [.lowConfidence(words: ["52", "Kommentar"], total: 2)])
    }
}
