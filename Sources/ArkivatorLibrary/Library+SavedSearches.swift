import ArkivatorCore

/// A search or a filtered list kept on the library page under a name.
public struct SavedSearch: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// Where it opens in the web app: `/search?q=…` or `/?person=…`.
    public var address: String
}

extension Library {
    /// The most searches kept: the library page lists them all.
    public static let savedSearchLimit = 30

    /// The saved searches, in the order they were saved.
    public func savedSearches() throws -> [SavedSearch] {
        try withReader { database in
            try database.rows("SELECT id, name, address FROM saved_searches ORDER BY id").map {
                SavedSearch(id: $0[0].int ?? 0, name: $0[1].string ?? "", address: $0[2].string ?? "/")
            }
        }
    }

    /// Keeps `address` under `name` (one line, at most 60 characters); the same address saved
    /// again gets the new name. Past ``savedSearchLimit`` the oldest goes.
    @discardableResult
    public func saveSearch(name: String, address: String) throws -> SavedSearch {
        let shown = String(StoredField.visible(name).trimmingCharacters(in: .whitespaces).prefix(60))
        let named = shown.isEmpty ? "Søk" : shown
        return try withDatabase { database in
            try database.inTransaction {
                try database.execute("DELETE FROM saved_searches WHERE address = ?", [address])
                try database.execute("INSERT INTO saved_searches (name, address, created_at) VALUES (?, ?, ?)", [named, address, Library.now()])
                let id = try database.firstRow("SELECT last_insert_rowid()")?[0].int ?? 0
                try database.execute("""
                    DELETE FROM saved_searches WHERE id NOT IN (SELECT id FROM saved_searches ORDER BY id DESC LIMIT ?)
                    """, [Self.savedSearchLimit])
                return SavedSearch(id: id, name: named, address: address)
            }
        }
    }

    /// Removes a saved search; false when there is none with `id`.
    public func removeSavedSearch(_ id: Int) throws -> Bool {
        try withDatabase { database in
            try database.execute("DELETE FROM saved_searches WHERE id = ?", [id])
            return database.changes > 0
        }
    }
}
