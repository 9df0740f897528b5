import ArkivatorCore
import Foundation

/// How many sealed fødselsnumre a library database holds: the values that open only with the
/// ``LibraryKey`` the database was made with. A library holding any must never be given a new
/// key in silence (the numbers would be lost for good), and a restore checks that the key at
/// hand opens them.
public struct SealedInventory: Sendable, Equatable {
    /// Documents whose text had numbers (sealed with the document).
    public var documents: Int
    /// Household members with a stored fødselsnummer.
    public var members: Int

    public init(documents: Int = 0, members: Int = 0) {
        self.documents = documents
        self.members = members
    }

    public var isEmpty: Bool { documents == 0 && members == 0 }

    /// Counts what `database` holds (a library's, or a backup's).
    public static func read(_ database: Database) throws -> SealedInventory {
        let documents = try database.firstRow("SELECT count(*) FROM documents WHERE fnr_sealed IS NOT NULL")?[0].int ?? 0
        let members = try database.firstRow("SELECT count(*) FROM family WHERE fnr_sealed IS NOT NULL")?[0].int ?? 0
        return SealedInventory(documents: documents, members: members)
    }

    /// Whether `key` opens one sealed value of each kind in `database` (true when there are none).
    static func opens(_ database: Database, with key: LibraryKey) throws -> Bool {
        if let row = try database.firstRow("SELECT sha256, fnr_sealed FROM documents WHERE fnr_sealed IS NOT NULL LIMIT 1"),
           let sha = row[0].string, let sealed = row[1].data {
            guard (try? SealedText(masked: "", sealed: sealed, count: 0).open(document: sha, key: key)) != nil else {
                return false
            }
        }
        if try database.firstRow("SELECT 1 FROM family WHERE fnr_sealed IS NOT NULL LIMIT 1") != nil {
            guard (try? FamilyStore(database: database, key: key).list()) != nil else { return false }
        }
        return true
    }

    /// The numbers, in words: «3 dokumenter og 2 familiemedlemmer».
    var described: UserMessage {
        var nb: [String] = [], en: [String] = []
        if documents > 0 {
            nb.append("\(documents) dokument\(documents == 1 ? "" : "er")")
            en.append("\(documents) document\(documents == 1 ? "" : "s")")
        }
        if members > 0 {
            nb.append("\(members) familiemedlem\(members == 1 ? "" : "mer")")
            en.append("\(members) household member\(members == 1 ? "" : "s")")
        }
        return UserMessage(nb: nb.joined(separator: " og "), en: en.joined(separator: " and "))
    }
}
