import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Every text field a person can store has a sane length, checked in one place
/// (``StoredField``) and refused with a plain sentence; nothing is changed by a refused edit.
@Suite struct FieldLengthTests {
    @Test func aValueOverItsFieldsLimitIsRefusedWithWords() throws {
        for field in StoredField.allCases {
            try field.check(String(repeating: "a", count: field.limit))
            #expect(throws: FieldTooLong(field: field, length: field.limit + 1)) {
                try field.check(String(repeating: "\u{00E5}", count: field.limit + 1))
            }
        }
        let refusal = FieldTooLong(field: .title, length: 3_000)
        #expect(refusal.errorCode == "tooLong")
        #expect(refusal.userMessage.norwegian == "Feltet «Tittel» har for mange tegn (3\u{00A0}000); høyst 300 tegn kan lagres. Gjør det kortere og lagre igjen.")
        #expect(refusal.userMessage.english.contains("at most 300 can be saved"))
    }

    @Test func anEditWithAnOverlongValueChangesNothing() throws {
        try withLibrary { library, _ throws in
            let filed = try Archive.file(library, Letters.epikrise)
            let long = String(repeating: "Epikrise ", count: 400)
            for changes in [DocumentChanges(title: long), DocumentChanges(person: long), DocumentChanges(institution: long),
                            DocumentChanges(specialty: long), DocumentChanges(keywords: Array(repeating: "hjerte", count: 300))] {
                #expect(throws: FieldTooLong.self) { try library.documents.edit(filed.shortID, changes, programVersion: "test") }
            }
            #expect(throws: FieldTooLong(field: .text, length: StoredField.text.limit + 1)) {
                try library.documents.correctText(filed.shortID, to: String(repeating: "a", count: StoredField.text.limit + 1), programVersion: "test")
            }
            let after = try library.documents.document(filed.shortID)
            #expect(after.title == filed.title && after.person == filed.person && after.text == filed.text)
            #expect(try library.documents.edit(filed.shortID, DocumentChanges(title: String(repeating: "a", count: 300)), programVersion: "test")
                        .title.hasSuffix(String(repeating: "a", count: 300)))
        }
    }
}
