import ArkivatorCore
import Foundation

/// A passkey kept for an account (or the owner), as «Enheter» lists it.
public struct StoredPasskey: Sendable, Equatable {
    public var id: Int
    public var device: String
    public var createdAt: String
    public var lastUsed: String?
}

extension AccountStore {
    /// Keeps a checked passkey for `account` (nil: the owner).
    public func addPasskey(_ registered: Passkey.Registered, account: Int?, device: String) throws {
        try library.withDatabase { database in
            try database.execute("""
                INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, device, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [account, Data(registered.credentialID), Data(registered.publicKey), Int(registered.signCount),
                      String(device.prefix(40)), Library.now()])
        }
    }

    /// The passkey with `credentialID`: its row id, whose it is, its public key and count; nil
    /// when none is kept (or its account is gone).
    public func passkey(credentialID: [UInt8]) throws -> (id: Int, access: Access, publicKey: [UInt8], signCount: UInt32)? {
        try library.withReader { database in
            guard let row = try database.firstRow("SELECT id, account_id, public_key, sign_count FROM passkeys WHERE credential_id = ?",
                                                  [Data(credentialID)]),
                  let id = row[0].int, let key = row[2].data else { return nil }
            let access = try row[1].int.map { try Self.accounts(in: database, id: $0).first?.access } ?? .owner
            guard let access else { return nil }
            return (id, access, Array(key), UInt32(clamping: row[3].int ?? 0))
        }
    }

    /// Notes a sign-in with passkey `id` and its new count.
    public func usedPasskey(_ id: Int, signCount: UInt32) throws {
        try library.withDatabase {
            try $0.execute("UPDATE passkeys SET sign_count = ?, last_used = ? WHERE id = ?", [Int(signCount), Library.now(), id])
        }
    }

    /// The passkeys of `account` (nil: the owner), newest first.
    public func passkeys(account: Int?) throws -> [StoredPasskey] {
        try library.withReader { database in
            try database.rows("SELECT id, device, created_at, last_used FROM passkeys WHERE account_id IS ? ORDER BY id DESC", [account]).map {
                StoredPasskey(id: $0[0].int ?? 0, device: $0[1].string ?? "", createdAt: $0[2].string ?? "", lastUsed: $0[3].string)
            }
        }
    }

    /// Removes one of `account`'s passkeys; false when it has none with that id.
    @discardableResult
    public func removePasskey(_ id: Int, account: Int?) throws -> Bool {
        try library.withDatabase { database in
            try database.execute("DELETE FROM passkeys WHERE id = ? AND account_id IS ?", [id, account])
            return database.changes == 1
        }
    }
}
