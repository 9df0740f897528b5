import ArkivatorCore
import Foundation

extension LibraryDocument {
    /// The document with every fødselsnummer masked (`DDMMYY •••••`, see ``Redaction``) in its
    /// text and in every metadata field: what an export holds unless the numbers are asked for.
    /// Masking again what the library stored masked changes nothing; a number of a kind that was
    /// not yet recognised when the document was filed is masked here too.
    public var masked: LibraryDocument { hiding(Redaction.redact) }

    /// The document masked as ``masked``, and then the digits of each of `known` (11 digits each)
    /// made `•` wherever OCR split them so the detector no longer reads them (see
    /// ``Redaction/redact(_:known:)``): what a shared letter shows.
    public func masked(known: Set<String>) -> LibraryDocument {
        hiding { Redaction.redact($0, known: known) }
    }

    /// The 11 digits of every fødselsnummer the document's text and metadata hold, as it was read
    /// (with its numbers revealed: a masked copy holds none): the numbers to hide however they are
    /// split elsewhere in it.
    public var heldNumbers: Set<String> {
        let metadata = [title, sourceName, person ?? "", familyMember ?? "", institution ?? "", specialty ?? ""]
        return Set(Fodselsnummer.numbers(in: ([text] + metadata + keywords).joined(separator: "\n")).map(\.digits))
    }

    private func hiding(_ hide: (String) -> String) -> LibraryDocument {
        var document = self
        document.sourceName = hide(sourceName)
        document.title = hide(title)
        document.person = person.map(hide)
        document.familyMember = familyMember.map(hide)
        document.institution = institution.map(hide)
        document.specialty = specialty.map(hide)
        document.keywords = keywords.map(hide)
        document.text = hide(text)
        return document
    }
}
