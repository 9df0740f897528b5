import ArkivatorCore

/// Why a share pack or a text bundle was not made, in plain words (Bokmål and English).
public struct SharePackFailure: UserFacingError, Sendable, Equatable {
    /// A stable code for scripts and tests.
    public enum Code: String, Sendable {
        case noLetters, unreadable, notFoundAgain, numberLeft, linkChanged
    }

    public let code: Code
    public var errorCode: String { "share." + code.rawValue }
    public let userMessage: UserMessage

    init(_ code: Code, nb: String, en: String) {
        self.code = code
        self.userMessage = UserMessage(nb: nb, en: en)
    }

    /// No letter was chosen.
    static let noLetters = SharePackFailure(.noLetters,
        nb: "Ingen brev er valgt. Velg minst ett brev å dele.",
        en: "No letter is chosen. Choose at least one letter to share.")

    /// A letter's pages could not be read again, so its numbers could not be hidden.
    static func unreadable(_ title: String, id: String) -> SharePackFailure {
        .init(.unreadable,
              nb: "Sidene i «\(title)» (\(id)) kunne ikke leses på nytt, så fødselsnummeret kunne ikke skjules. Ingen fil ble laget. Ta brevet ut av utvalget, eller skann det på nytt.",
              en: "The pages of “\(title)” (\(id)) could not be read again, so the national ID number could not be hidden. No file was made. Leave the letter out, or scan it again.")
    }

    /// A number the letter's text holds was not found again on a page read again.
    static func notFoundAgain(_ title: String, id: String, page: Int) -> SharePackFailure {
        .init(.notFoundAgain,
              nb: "Fødselsnummeret på side \(page) i «\(title)» (\(id)) ble ikke funnet igjen da siden ble lest på nytt, så det kunne ikke dekkes. Ingen fil ble laget. Ta brevet ut av utvalget, eller skann siden på nytt.",
              en: "The national ID number on page \(page) of “\(title)” (\(id)) was not found again when the page was read again, so it could not be covered. No file was made. Leave the letter out, or scan the page again.")
    }

    /// The link was revoked, or one of its letters deleted for good, while its PDF was made.
    static let linkChanged = SharePackFailure(.linkChanged,
        nb: "Lenken ble trukket tilbake, eller et av brevene slettet for godt, mens PDF-en ble laget, så den ble ikke tatt vare på. Åpne lenken på nytt.",
        en: "The link was revoked, or one of its letters deleted for good, while the PDF was being made, so it was not kept. Open the link again.")

    /// The last check found a number in what was made: nothing is written.
    static let numberLeft = SharePackFailure(.numberLeft,
        nb: "Et fødselsnummer sto fortsatt i teksten som skulle deles, så ingen fil ble laget. Dette er en feil i Arkivator; meld fra.",
        en: "A national ID number still stood in the text to be shared, so no file was made. This is a bug in Arkivator; please report it.")
}
