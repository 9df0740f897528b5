import ArkivatorCore
import Foundation

/// One family member as a list shows them: never the fødselsnummer's digits.
public struct FamilyMemberSummary: Sendable, Equatable, Codable {
    public let id: Int
    public let name: String
    /// `YYYY-MM-DD`, if known.
    public let birthDate: String?
    /// `DDMMYY •••••`, or nil when no fødselsnummer is stored.
    public let maskedFnr: String?

    public init(id: Int, name: String, birthDate: String?, maskedFnr: String?) {
        self.id = id
        self.name = name
        self.birthDate = birthDate
        self.maskedFnr = maskedFnr
    }

    private enum CodingKeys: String, CodingKey { case id, name, birthDate, maskedFnr }

    /// Every key always present (`null` when unknown), so the JSON shape never changes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(birthDate, forKey: .birthDate)
        try container.encode(maskedFnr, forKey: .maskedFnr)
    }
}

/// What an import did.
public struct FamilyImportResult: Sendable, Equatable {
    /// Members that were new.
    public var added = 0
    /// Existing members (matched by name) whose birth date or fødselsnummer changed.
    public var updated = 0
    /// Existing members the file said nothing new about.
    public var unchanged = 0

    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// The household's members in the library database.
///
/// A fødselsnummer is stored only sealed with AES-GCM under the ``LibraryKey`` (the combined
/// nonce + ciphertext + tag), with the member's name as authenticated data, so a sealed number
/// cannot be moved to another member. It is opened only in memory, by ``profiles()`` and for
/// masking in ``list()``. Like its ``Database``, used from one thread at a time.
public final class FamilyStore {
    private let database: Database
    private let key: LibraryKey

    /// The longest name accepted, in characters.
    public static let nameLimit = StoredField.memberName.limit
    /// The largest import file read, in bytes.
    public static let importLimit = 1 << 20

    public init(database: Database, key: LibraryKey) {
        self.database = database
        self.key = key
    }

    /// The family of a library: opens (and migrates) its database and loads its key.
    public static func open(library: LibraryLocation,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> FamilyStore {
        let database = try Database.open(library: library)
        return FamilyStore(database: database, key: try LibraryKey.load(
            library: library, environment: environment, sealed: { try SealedInventory.read(database) }))
    }

    // MARK: Add, list, remove

    /// Adds a member. The fødselsnummer is validated (control digits, date); the birth date,
    /// `YYYY-MM-DD`, is taken from it when not given and must agree with it when given.
    @discardableResult
    public func add(name: String, birthDate: String? = nil, fodselsnummer: String? = nil) throws -> FamilyMemberSummary {
        let member = try FamilyMemberRow(name: name, birthDate: birthDate, fodselsnummer: fodselsnummer)
        return try database.inTransaction {
            if let existing = try find(name: member.name) {
                throw FamilyError.duplicate(existing.name, id: existing.id)
            }
            let id = try insert(member)
            return FamilyMemberSummary(id: id, name: member.name, birthDate: member.birthDate,
                                       maskedFnr: member.fodselsnummer?.masked)
        }
    }

    /// Corrects a member's birth date and fødselsnummer (what is not given stays). The name is
    /// not changed here: the member's letters are filed in a folder by that name.
    @discardableResult
    public func update(id: Int, birthDate: String? = nil, fodselsnummer: String? = nil) throws -> FamilyMemberSummary {
        try database.inTransaction {
            guard let existing = try rows(where: "id = ?", [id]).first else { throw FamilyError.notFound(String(id)) }
            let member = try FamilyMemberRow(name: existing.name, birthDate: birthDate, fodselsnummer: fodselsnummer)
            let storedNumber = try existing.sealed.map { try open($0, name: existing.name) }
            let number = member.fodselsnummer ?? storedNumber
            let givenDate = birthDate.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            let birth = (givenDate == nil ? nil : member.birthDate) ?? number?.birthDateISO ?? existing.birthDate
            if let number, let birth, birth != number.birthDateISO {
                throw FamilyError.mismatch(birthDate: birth, fromNumber: number.birthDateISO)
            }
            let sealed = try number.map { try seal($0, name: existing.name) }
            try database.execute("UPDATE family SET birth_date = ?, fnr_sealed = ? WHERE id = ?", [birth, sealed, id])
            return FamilyMemberSummary(id: id, name: existing.name, birthDate: birth, maskedFnr: number?.masked)
        }
    }

    /// Every member, by name. Opens each sealed number to show its first six digits.
    public func list() throws -> [FamilyMemberSummary] {
        try rows().map { row in
            FamilyMemberSummary(id: row.id, name: row.name, birthDate: row.birthDate,
                                maskedFnr: try row.sealed.map { try open($0, name: row.name).masked })
        }
    }

    /// Removes a member by id (all digits) or by name (case-insensitive). Returns what
    /// ``restore(_:)`` needs to undo it.
    @discardableResult
    public func remove(nameOrID: String) throws -> RemovedFamilyMember {
        try database.inTransaction {
            let text = nameOrID.trimmingCharacters(in: .whitespaces)
            var target: StoredMember?
            if let id = Int(text) {
                target = try rows(where: "id = ?", [id]).first
            }
            if target == nil {
                target = try find(name: FamilyMemberRow.normalise(text))
            }
            guard let target else { throw FamilyError.notFound(nameOrID) }
            let created = try database.firstRow("SELECT created_at FROM family WHERE id = ?", [target.id])?[0].string
            try database.execute("DELETE FROM family WHERE id = ?", [target.id])
            return RemovedFamilyMember(id: target.id, name: target.name, birthDate: target.birthDate,
                                       sealedNumber: target.sealed, createdAt: created)
        }
    }

    /// Puts a removed member back as they were: same id, name, birth date and fødselsnummer
    /// (the undo of ``remove(nameOrID:)``).
    /// - Throws: ``FamilyError`` `.duplicateName` when a member of that name was added since,
    ///   `.wrongKey` when the library's key cannot open the stored number.
    @discardableResult
    public func restore(_ removed: RemovedFamilyMember) throws -> FamilyMemberSummary {
        let number = try removed.sealedNumber.map { try open($0, name: removed.name) }
        return try database.inTransaction {
            if let existing = try find(name: removed.name) ?? rows(where: "id = ?", [removed.id]).first {
                throw FamilyError.duplicate(existing.name, id: existing.id)
            }
            try database.execute("""
                INSERT INTO family (id, name, birth_date, fnr_sealed, created_at)
                VALUES (?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))
                """, [removed.id, removed.name, removed.birthDate, removed.sealedNumber, removed.createdAt])
            return FamilyMemberSummary(id: removed.id, name: removed.name, birthDate: removed.birthDate,
                                       maskedFnr: number?.masked)
        }
    }

    /// The members with their fødselsnumre opened, for matching letters to people.
    public func profiles() throws -> [FamilyProfile] {
        try rows().map { row in
            FamilyProfile(name: row.name, birthDate: row.birthDate,
                          fodselsnummer: try row.sealed.map { try open($0, name: row.name) })
        }
    }

    // MARK: Import

    /// Imports a `family.json`: `{"members": [{"name": …, "birthDate": "YYYY-MM-DD",
    /// "personnummer": "11 digits"}]}` (other keys, such as `address`, are ignored). New names are
    /// added; existing ones (matched by name, case-insensitive) get the birth date and number the
    /// file gives, keeping what it leaves out. All or nothing: one bad member refuses the file.
    public func importFile(_ url: URL) throws -> FamilyImportResult {
        let label = FamilyError.safe(url.lastPathComponent)
        let members = try Self.parse(try Self.read(url), label: label)
        return try database.inTransaction {
            var result = FamilyImportResult()
            for (index, member) in members.enumerated() {
                do {
                    try merge(member, into: &result)
                } catch let error as FamilyError {
                    throw error.inImport(file: label, member: index, name: member.name)
                }
            }
            return result
        }
    }

    private func merge(_ member: FamilyMemberRow, into result: inout FamilyImportResult) throws {
        guard let existing = try find(name: member.name) else {
            _ = try insert(member)
            result.added += 1
            return
        }
        let storedNumber = try existing.sealed.map { try open($0, name: existing.name) }
        let number = member.fodselsnummer ?? storedNumber
        let birthDate = member.birthDate ?? existing.birthDate
        if let number, let birthDate, birthDate != number.birthDateISO {
            throw FamilyError.mismatch(birthDate: birthDate, fromNumber: number.birthDateISO)
        }
        guard number != storedNumber || birthDate != existing.birthDate else {
            result.unchanged += 1
            return
        }
        let sealed = try number.map { try seal($0, name: existing.name) }
        try database.execute("UPDATE family SET birth_date = ?, fnr_sealed = ? WHERE id = ?",
                             [birthDate, sealed, existing.id])
        result.updated += 1
    }

    private static func read(_ url: URL) throws(FamilyError) -> Data {
        let path = FamilyError.safe(url.path)
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path)
                ? UserMessage(nb: "ingen lesetilgang", en: "not readable") : UserMessage(nb: "finnes ikke", en: "no such file")
            throw FamilyError.unreadable(path, reason: reason.text())
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: importLimit + 1) ?? Data()
            guard data.count <= importLimit else {
                throw FamilyError.importInvalid(path, nb: "Filen er for stor til å være en familieliste.",
                                                en: "The file is too large to be a family list.")
            }
            return data
        } catch let error as FamilyError {
            throw error
        } catch {
            throw FamilyError.unreadable(path, reason: UserMessage(nb: "lesefeil", en: "read error").text())
        }
    }

    /// The members of a family file, each validated; nothing is stored yet.
    private static func parse(_ data: Data, label: String) throws(FamilyError) -> [FamilyMemberRow] {
        func invalid(_ nb: String, _ en: String) -> FamilyError { .importInvalid(label, nb: nb, en: en) }
        guard let root = try? JSONSerialization.jsonObject(with: data) else {
            throw invalid("Filen er ikke gyldig JSON.", "The file is not valid JSON.")
        }
        guard let object = root as? [String: Any], let list = object["members"] as? [Any] else {
            throw invalid("Fant ingen «members»-liste.", "Found no 'members' list.")
        }
        var members: [FamilyMemberRow] = []
        var seen: [String: Int] = [:]
        for (index, entry) in list.enumerated() {
            guard let fields = entry as? [String: Any], let name = fields["name"] as? String else {
                throw invalid("Medlem nr. \(index + 1) mangler «name».", "Member no. \(index + 1) has no 'name'.")
            }
            func text(_ key: String) throws(FamilyError) -> String? {
                switch fields[key] {
                case nil, is NSNull: return nil
                case let text as String: return text
                default: throw FamilyError(.importInvalid, nb: "«\(key)» må være tekst i anførselstegn.",
                                           en: "'\(key)' must be text in quotes.")
                }
            }
            let member: FamilyMemberRow
            do {
                member = try FamilyMemberRow(name: name, birthDate: try text("birthDate"), fodselsnummer: try text("personnummer"))
            } catch {
                throw error.inImport(file: label, member: index, name: name)
            }
            let folded = member.name.lowercased()
            if let first = seen[folded] {
                throw invalid("«\(FamilyError.safe(member.name))» står der to ganger (nr. \(first + 1) og \(index + 1)).",
                              "'\(FamilyError.safe(member.name))' is listed twice (no. \(first + 1) and \(index + 1)).")
            }
            seen[folded] = index
            members.append(member)
        }
        return members
    }

    // MARK: Storage

    /// A member row as stored: the number still sealed.
    private struct StoredMember {
        var id: Int
        var name: String
        var birthDate: String?
        var sealed: Data?
    }

    private func rows(where condition: String = "1", _ arguments: [any DatabaseValueConvertible] = []) throws -> [StoredMember] {
        try database.rows("""
            SELECT id, name, birth_date, fnr_sealed FROM family WHERE \(condition) ORDER BY name COLLATE NOCASE, id
            """, arguments).compactMap { row in
            guard let id = row[0].int, let name = row[1].string else { return nil }
            return StoredMember(id: id, name: name, birthDate: row[2].string, sealed: row[3].data)
        }
    }

    private func find(name: String) throws -> StoredMember? {
        try rows(where: "name = ?", [name]).first
    }

    private func insert(_ member: FamilyMemberRow) throws -> Int {
        try checkKeyMatchesStoredNumbers(member)
        let sealed = try member.fodselsnummer.map { try seal($0, name: member.name) }
        do {
            try database.execute("""
                INSERT INTO family (name, birth_date, fnr_sealed, created_at)
                VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                """, [member.name, member.birthDate, sealed])
        } catch {
            // Another process added the same name since `find` looked.
            guard error.isUniqueConstraintViolation else { throw error }
            let existing = try find(name: member.name)
            throw FamilyError.duplicate(existing?.name ?? member.name, id: existing?.id ?? 0)
        }
        return database.lastInsertedRowID
    }

    /// Refuses to seal a new number under a key that cannot open the numbers already stored,
    /// which would leave the library with numbers under two keys.
    private func checkKeyMatchesStoredNumbers(_ member: FamilyMemberRow) throws {
        guard member.fodselsnummer != nil,
              let row = try database.firstRow("SELECT name, fnr_sealed FROM family WHERE fnr_sealed IS NOT NULL LIMIT 1"),
              let name = row[0].string, let sealed = row[1].data else { return }
        _ = try open(sealed, name: name)
    }

    // MARK: Sealing

    /// The authenticated data: binds a sealed number to the member it belongs to.
    private static func associatedData(_ name: String) -> Data {
        Data("arkivator.family.fnr.v1\u{0}\(name)".utf8)
    }

    private func seal(_ number: Fodselsnummer, name: String) throws(FamilyError) -> Data {
        guard let sealed = key.seal(Data(number.digits.utf8), context: Self.associatedData(name)) else {
            throw FamilyError.wrongKey(name)
        }
        return sealed
    }

    private func open(_ sealed: Data, name: String) throws(FamilyError) -> Fodselsnummer {
        guard let plain = key.unseal(sealed, context: Self.associatedData(name)),
              let number = try? Fodselsnummer(String(decoding: plain, as: UTF8.self)) else {
            throw FamilyError.wrongKey(name)
        }
        return number
    }
}
