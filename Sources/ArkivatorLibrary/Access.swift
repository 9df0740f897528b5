import ArkivatorCore

/// Who is asking, and whose letters they may see: the one home of what an account sees. The
/// owner (the web app's own password, or the machine itself) sees everything. A family account
/// or a reader sees the letters filed to the household members they were given, and nothing
/// else: a letter about no one, or about a member they were not given, is the owner's.
public struct Access: Sendable, Equatable {
    public enum Role: String, Sendable, Codable, CaseIterable {
        /// Everything: the household, settings, accounts, the audit log.
        case owner
        /// Reads and corrects the letters of the members given, and uploads.
        case family
        /// Reads the letters of the members given.
        case reader

        public var label: UserMessage {
            switch self {
            case .owner: UserMessage(nb: "eier", en: "owner")
            case .family: UserMessage(nb: "familie", en: "family")
            case .reader: UserMessage(nb: "leser", en: "reader")
            }
        }
    }

    /// The account's id; nil for the owner.
    public let account: Int?
    /// The account's name; «eier» for the owner.
    public let name: String
    public let role: Role
    /// The names of the members this account sees, as the library files letters to them (empty
    /// for the owner, who sees every letter).
    public let members: [String]

    public init(account: Int?, name: String, role: Role, members: [String]) {
        self.account = account
        self.name = name
        self.role = role
        self.members = role == .owner ? [] : members
    }

    /// The owner: every letter, every page.
    public static let owner = Access(account: nil, name: "eier", role: .owner, members: [])

    public var isOwner: Bool { role == .owner }

    /// Whether this account may correct letters and upload pages (not a reader).
    public var mayChange: Bool { role != .reader }

    /// Whether a letter filed to `member` (nil: to no one) is this account's to see.
    public func sees(member: String?) -> Bool {
        if isOwner { return true }
        guard let member else { return false }
        return members.contains { $0.caseInsensitiveCompare(member) == .orderedSame }
    }

    /// `filter` narrowed to the letters this account sees (none in the trash: it is the owner's).
    public func narrowed(_ filter: DocumentFilter) -> DocumentFilter {
        guard !isOwner else { return filter }
        var narrowed = filter
        // The trash is the owner's.
        narrowed.members = filter.trashed ? [] : members
        return narrowed
    }
}
