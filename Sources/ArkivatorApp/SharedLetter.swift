import ArkivatorCore
import ArkivatorLibrary

/// A letter chosen for sharing: the document (its numbers revealed, in memory only), the numbers
/// to hide on its pages, and whom it concerns.
struct SharedLetter {
    let document: LibraryDocument
    /// The 11 digits of every number the letter holds, and of every household member's.
    let known: Set<String>
    let person: SharePackCover.Person

    init(_ document: LibraryDocument, family: [FamilyProfile]) {
        self.document = document
        known = document.heldNumbers.union(family.compactMap { $0.fodselsnummer?.digits })
        let name = ShownPerson.name(familyMember: document.familyMember, person: document.person)
        let member = document.familyMember.flatMap { name in family.first { $0.name == name } }
        // Without a household member's profile, the birth date is the letter's own number's, when it holds only one.
        let held = document.heldNumbers
        let birthDate = member?.birthDate ?? (held.count == 1 ? held.first.flatMap { Fodselsnummer.numbers(in: $0).first?.birthDateISO } : nil)
        person = SharePackCover.Person(name: name, birthDate: birthDate)
    }

    /// How many pages the pack reads again for this letter.
    var pagesToRead: Int {
        document.files.images.isEmpty ? max(1, document.pageCount) : document.files.images.count
    }

    /// The first page (1…) on which the letter's text, as the library keeps it, shows more
    /// numbers than the page read again does: there the number's words were not found, and a
    /// box would be missing. Nil when every page's numbers were found again.
    func pageMissingANumber(_ readings: [String]) -> Int? {
        let kept = document.text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init)
        for (index, reading) in readings.enumerated() where index < kept.count {
            if Self.numbersShown(kept[index], known: known) > Self.numbersShown(reading, known: known) { return index + 1 }
        }
        return nil
    }

    /// How many fødselsnumre `text` shows: those the detector finds, and each of `known` that
    /// stands there split.
    static func numbersShown(_ text: String, known: Set<String>) -> Int {
        let masked = Redaction.redact(text)
        let hidden = Redaction.redact(masked, known: known)
        let dots = { (text: String) in text.unicodeScalars.filter { $0 == "•" }.count }
        return Fodselsnummer.matches(in: text).count + (dots(hidden) - dots(masked)) / 11
    }

    /// Whether `text` shows a fødselsnummer, or the digits of one of `known` in a row.
    static func holdsNumber(_ text: String, known: Set<String>) -> Bool {
        Redaction.redact(text, known: known) != text
    }
}
