import Foundation

/// A member that was removed, with all ``FamilyStore/restore(_:)`` needs to put them back
/// exactly: the same id (never given to anyone else), name, birth date, fødselsnummer (still
/// sealed: only the library's key opens it) and the time they were first added. Documents name
/// their member and are not changed by a removal, so they are theirs again after a restore.
///
/// Kept in memory by whoever offers the undo; not `Codable`, so the sealed number is not written
/// anywhere by accident.
public struct RemovedFamilyMember: Sendable, Equatable {
    public let id: Int
    public let name: String
    public let birthDate: String?
    /// True when a fødselsnummer was stored (and comes back with a restore).
    public var hadFodselsnummer: Bool { sealedNumber != nil }
    /// The fødselsnummer as stored: sealed under the library key, bound to `name`.
    let sealedNumber: Data?
    /// When the member was first added (UTC, ISO 8601).
    let createdAt: String?

    public init(id: Int, name: String) {
        self.init(id: id, name: name, birthDate: nil, sealedNumber: nil, createdAt: nil)
    }

    init(id: Int, name: String, birthDate: String?, sealedNumber: Data?, createdAt: String?) {
        self.id = id
        self.name = name
        self.birthDate = birthDate
        self.sealedNumber = sealedNumber
        self.createdAt = createdAt
    }
}
