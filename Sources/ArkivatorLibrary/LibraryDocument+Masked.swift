import ArkivatorCore
import Foundation

extension LibraryDocument {
    /// The document with every fødselsnummer masked (`DDMMYY •••••`, see ``Redaction``) in its
    /// text and in every metadata field: what an export holds unless the numbers are asked for.
    /// Masking again what the library stored masked changes nothing; a number of a kind that was
    /// not yet recognised when the document was filed is masked here too.
    public var masked: LibraryDocument {
        var document = self
        document.sourceName = Redaction.redact(sourceName)
        document.title = Redaction.redact(title)
        document.person = person.map(Redaction.redact)
        document.familyMember = familyMember.map(Redaction.redact)
        document.institution = institution.map(Redaction.redact)
        document.specialty = specialty.map(Redaction.redact)
        document.keywords = keywords.map(Redaction.redact)
        document.text = Redaction.redact(text)
        return document
    }
}
