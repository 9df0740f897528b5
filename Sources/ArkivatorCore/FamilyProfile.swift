/// One member of the household, as the classifier sees it: the fødselsnummer in memory only.
public struct FamilyProfile: Sendable, Equatable {
    public var name: String
    /// ISO date `YYYY-MM-DD`, if known.
    public var birthDate: String?
    public var fodselsnummer: Fodselsnummer?

    public init(name: String, birthDate: String? = nil, fodselsnummer: Fodselsnummer? = nil) {
        self.name = name
        self.birthDate = birthDate ?? fodselsnummer?.birthDateISO
        self.fodselsnummer = fodselsnummer
    }
}
