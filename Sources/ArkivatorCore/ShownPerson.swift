/// Who a document is shown as being about: the household member it is filed under, else the
/// name as printed in the letter, else «Ukjent person». The one rule every list, page and file
/// follows.
public enum ShownPerson {
    /// What is shown for a document about nobody known. In Bokmål it is also the archive folder
    /// of such documents.
    public static let unknown = UserMessage(nb: "Ukjent person", en: "Unknown person")

    /// Whether a person asked for («ukjent», «Ukjent person», "unknown") means the letters filed
    /// to no household member: the letters in the `Ukjent person/` folder.
    public static func isUnknown(_ text: String) -> Bool {
        ["ukjent", "ukjent person", "unknown", "unknown person"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The name, when there is one: the household member, else the printed name.
    public static func name(familyMember: String?, person: String?) -> String? {
        familyMember ?? person
    }

    /// The name in both languages, or «Ukjent person» / "Unknown person".
    public static func message(familyMember: String?, person: String?) -> UserMessage {
        guard let name = name(familyMember: familyMember, person: person) else { return unknown }
        return UserMessage(nb: name, en: name)
    }
}
