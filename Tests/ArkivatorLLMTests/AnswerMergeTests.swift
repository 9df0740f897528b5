import ArkivatorClassify
import ArkivatorCore
import ArkivatorLLM
import Testing

/// The checks and the merge, on our own letter texts: what the model may change and what not.
@Suite struct AnswerMergeTests {
    static let letter = """
        Fjellby sykehus
        Kirurgisk poliklinikk
        Postboks 40, 7001 Fjellby
        Kari Nordmann
        Bjørkeveien 3
        7020 Fjellby
        Fjellby, 14. mars 2025
        INNKALLING TIL TIME
        Pasient: Kari Nordmann
        Du får time ved Kirurgisk poliklinikk tirsdag 8. april 2025 kl. 09.30.
        Ta med medisinliste. Meld fra om forfall senest 24 timer før.
        Med vennlig hilsen
        Fjellby sykehus
        """
    static let today = CalendarDate(year: 2026, month: 11, day: 22)!

    func rules(_ text: String = letter) -> Classification {
        Classifier(family: [FamilyProfile(name: "Kari Nordmann")]).classify(text, scanDate: CalendarDate(year: 2025, month: 5, day: 1)!)
    }

    func merge(_ json: String, text: String = letter) throws -> AnswerMerge.Outcome {
        let answer = try #require(LetterAnswer(content: json))
        return AnswerMerge(family: ["Kari Nordmann"], today: Self.today).merge(rules: rules(text), answer: answer, text: text)
    }

    @Test func agreementRaisesConfidence() throws {
        let base = rules()
        #expect(base.docType == .innkalling)
        let outcome = try merge("""
            {"docType":"innkalling","documentDate":"2025-03-14","institution":"Fjellby sykehus","specialty":"Kirurgisk poliklinikk",
             "person":"Kari Nordmann","keywords":["medisinliste"],"title":"Innkalling kirurgisk poliklinikk"}
            """)
        #expect(outcome.rejected.isEmpty)
        #expect(outcome.disagreed.isEmpty)
        #expect(outcome.classification.docType == .innkalling)
        #expect(outcome.classification.documentDate == "2025-03-14")
        #expect((outcome.classification.confidence["docType"] ?? 0) >= (base.confidence["docType"] ?? 0))
        #expect(outcome.classification.keywords.contains("medisinliste"))
        #expect(outcome.classification.title.hasPrefix("2025-03-14 Innkalling"))
    }

    @Test func typesOutsideTheTaxonomyAreRefused() throws {
        let outcome = try merge(#"{"docType":"hacked","documentDate":"","institution":"","specialty":"","person":"","keywords":[],"title":""}"#)
        #expect(outcome.rejected.contains("docType"))
        #expect(outcome.classification.docType == .innkalling)
    }

    @Test func disagreementIsListedForReviewAndTheRulesKeepASureType() throws {
        let outcome = try merge(#"{"docType":"vedtak","documentDate":"2025-03-14","institution":"Fjellby sykehus","specialty":"","person":"","keywords":[],"title":""}"#)
        #expect(outcome.disagreed == ["docType"])
        #expect(outcome.classification.docType == .innkalling)
        #expect(outcome.classification.needsReview.contains("docType"))
    }

    @Test(arguments: [
        "2027-01-01",  // the future
        "2025-02-30",  // no such day
        "2025-04-08",  // printed, but it is the appointment: kept out by disagreement, not refused
        "2024-12-24",  // not in the text
        "2026-11-22",  // today, not in the text
        "14.03.2025",  // not ISO
    ])
    func badDatesAreRefused(date: String) throws {
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"\#(date)","institution":"","specialty":"","person":"","keywords":[],"title":""}"#)
        if date == "2025-04-08" {
            // The appointment date is in the text, so it is not refused, but the rules' letter date stays.
            #expect(outcome.disagreed.contains("documentDate"))
        } else {
            #expect(outcome.rejected.contains("documentDate"), "\(date)")
        }
        #expect(outcome.classification.documentDate == "2025-03-14")
    }

    @Test func aDateOCRDamagedIsTakenWhenTheRulesFoundNone() throws {
        // "mrs": too short a word for the rules to take it for a month, but one letter from "mars".
        let damaged = Self.letter.replacingOccurrences(of: "Fjellby, 14. mars 2025", with: "Fjellby, 14. mrs 2025")
            .replacingOccurrences(of: "tirsdag 8. april 2025", with: "tirsdag neste uke")
        let base = rules(damaged)
        #expect(base.documentDateSource == "scan")
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"2025-03-14","institution":"","specialty":"","person":"","keywords":[],"title":""}"#,
                                text: damaged)
        #expect(outcome.classification.documentDate == "2025-03-14")
        #expect(outcome.classification.documentDateSource == "llm")
        #expect(outcome.classification.title.hasPrefix("2025-03-14 "))
        #expect(outcome.classification.needsReview.contains("documentDate"))
    }

    @Test func theModelsPrintedDateWinsWhenTheRulesWereUnsure() throws {
        // The date line is OCR-damaged, so the rules fall back to the appointment date, unsure.
        let damaged = Self.letter.replacingOccurrences(of: "Fjellby, 14. mars 2025", with: "Fjellby, 14. mrs 2025")
        let base = rules(damaged)
        #expect(base.documentDate == "2025-04-08")
        #expect((base.confidence["documentDate"] ?? 1) < 0.6)
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"2025-03-14","institution":"","specialty":"","person":"","keywords":[],"title":""}"#,
                                text: damaged)
        #expect(outcome.classification.documentDate == "2025-03-14")
        #expect(outcome.classification.documentDateSource == "llm")
        #expect(outcome.disagreed == ["documentDate"])
        #expect(outcome.classification.needsReview.contains("documentDate"))
    }

    @Test func noDateIsNeverToday() throws {
        let undated = Self.letter.replacingOccurrences(of: "Fjellby, 14. mars 2025\n", with: "")
            .replacingOccurrences(of: "tirsdag 8. april 2025", with: "tirsdag neste uke")
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"2026-11-22","institution":"","specialty":"","person":"","keywords":[],"title":""}"#,
                                text: undated)
        #expect(outcome.rejected.contains("documentDate"))
        #expect(outcome.classification.documentDate == "2025-05-01")
        #expect(outcome.classification.documentDateSource == "scan")
    }

    @Test func sendersAndNamesMustStandInTheText() throws {
        let outcome = try merge("""
            {"docType":"innkalling","documentDate":"2025-03-14","institution":"Oslo universitetssykehus","specialty":"Nevrologi",
             "person":"Ola Hansen","keywords":["kreft"],"title":"Innkalling"}
            """)
        #expect(Set(outcome.rejected).isSuperset(of: ["institution", "specialty", "person", "keywords"]))
        #expect(outcome.classification.institution == rules().institution)
        #expect(outcome.classification.person == "Kari Nordmann")
        #expect(!outcome.classification.keywords.contains("kreft"))
    }

    @Test func aHiddenNumberIsNeverAFieldValue() throws {
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"","institution":"","specialty":"","person":"[FNR-1]","keywords":["[FNR-1]"],"title":"Innkalling [FNR-1]"}"#)
        #expect(outcome.rejected.contains("person"))
        #expect(outcome.classification.person == "Kari Nordmann")
        #expect(!outcome.classification.title.contains("FNR"))
    }

    static let decision = """
        NAV
        Postboks 123
        0105 Oslo
        Kari Nordmann
        Bjørkeveien 3
        7020 Fjellby
        Dato: 12.03.2024
        VEDTAK
        Du har søkt om grunnstønad. Vi har innvilget søknaden om grunnstønad fra 1. april 2024.
        Du har rett til å klage innen seks uker.
        Med vennlig hilsen
        NAV Arbeid og ytelser
        """

    @Test func theModelsSubjectFollowsTheTypeWhereTheRulesNamedNoDepartment() throws {
        let base = rules(Self.decision)
        #expect(base.docType == .vedtak)
        #expect(base.specialty == nil)
        let outcome = try merge(#"{"docType":"vedtak","documentDate":"2024-03-12","institution":"NAV","specialty":"NAV Arbeid og ytelser","person":"Kari Nordmann","keywords":["grunnstønad"],"title":"Vedtak om grunnstønad"}"#,
                                text: Self.decision)
        #expect(outcome.classification.title == "2024-03-12 Vedtak om grunnstønad NAV", "\(outcome.classification.title)")
        // An office is not a department.
        #expect(outcome.classification.specialty == nil)
        #expect(outcome.rejected.contains("specialty"))
        let capitalised = try merge(#"{"docType":"vedtak","documentDate":"","institution":"","specialty":"","person":"","keywords":[],"title":"Søknaden om GRUNNSTØNAD"}"#,
                                    text: Self.decision)
        #expect(capitalised.classification.title == "2024-03-12 Vedtak søknaden om grunnstønad NAV", "\(capitalised.classification.title)")
    }

    @Test(arguments: ["Vedtak om arbeidsavklaringspenger", "Innkalling til MR av kne St. Olavs hospital", "Vedtak 2024 om grunnstønad", "Vedtak"])
    func aSubjectTheLetterDoesNotBackIsLeftOut(title: String) throws {
        let outcome = try merge(#"{"docType":"vedtak","documentDate":"2024-03-12","institution":"","specialty":"","person":"","keywords":[],"title":"\#(title)"}"#,
                                text: Self.decision)
        #expect(outcome.classification.title == rules(Self.decision).title)
        #expect(outcome.rejected.contains("title"))
    }

    @Test func aDepartmentOnlyTheModelFoundJoinsTheTitle() throws {
        let text = Self.letter.replacingOccurrences(of: "Kirurgisk poliklinikk", with: "Poliklinikk Sør")
        let base = rules(text)
        try #require(base.specialty == nil, "the rules know no such department")
        let outcome = try merge(#"{"docType":"innkalling","documentDate":"2025-03-14","institution":"Fjellby sykehus","specialty":"Poliklinikk Sør","person":"","keywords":[],"title":""}"#,
                                text: text)
        #expect(outcome.classification.specialty == "Poliklinikk Sør")
        #expect(outcome.classification.title == "2025-03-14 Innkalling poliklinikk sør Fjellby sykehus", "\(outcome.classification.title)")
    }

    @Test func wrongJSONTypesAreRefusedFieldByField() throws {
        let answer = try #require(LetterAnswer(content: #"{"docType":"innkalling","documentDate":20250314,"keywords":"ikke en liste","title":["x"]}"#))
        #expect(Set(answer.badFields) == ["documentDate", "keywords", "title"])
        #expect(answer.docType == "innkalling")
    }

    @Test func markdownFencesAreTakenOffAndProseIsNoAnswer() throws {
        let fenced = try #require(LetterAnswer(content: "```json\n{\"docType\": \"resept\"}\n```"))
        #expect(fenced.docType == "resept")
        #expect(LetterAnswer(content: "Dette er en innkalling.") == nil)
        #expect(LetterAnswer(content: "[1, 2]") == nil)
    }
}
