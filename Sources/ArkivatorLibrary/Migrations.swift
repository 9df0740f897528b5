import ArkivatorCore

/// One step of the database schema: applied once, in its own transaction, in version order.
public struct Migration: Sendable {
    /// A positive number, larger than every earlier migration's.
    public let version: Int
    /// A few words for people reading the list.
    public let name: String
    /// The schema script (several statements separated by semicolons).
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// The library schema, oldest first.
///
/// To change the schema, append a migration with the next version number. Never edit or reorder
/// one that has shipped: libraries that already applied it will not run it again.
public enum Migrations {
    public static let all: [Migration] = [
        Migration(version: 1, name: "family profiles", sql: """
            CREATE TABLE family (
                id          INTEGER PRIMARY KEY,
                name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
                birth_date  TEXT,                  -- YYYY-MM-DD
                fnr_sealed  BLOB,                  -- AES-GCM combined box, the name authenticated
                created_at  TEXT NOT NULL          -- UTC, ISO 8601
            );
            """),
    ]
}

/// A schema that this program cannot use.
public struct MigrationError: UserFacingError, Sendable, Equatable {
    public enum Code: String, Sendable {
        /// The library was last opened by a newer arkivator (it has migrations this one lacks).
        case newerLibrary
        /// The migration list itself is out of order (a programming mistake).
        case invalidList
    }

    public let code: Code
    public let userMessage: UserMessage
}

extension Database {
    /// The versions already applied to this database, ascending.
    public func appliedMigrations() throws(DatabaseError) -> [Int] {
        try execute(script: """
            CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT)
            """)
        return try rows("SELECT version FROM schema_migrations ORDER BY version").compactMap { $0[0].int }
    }

    /// Applies the migrations this database lacks, each in its own transaction, and returns the
    /// versions applied now (empty when the schema is current). Safe to call on every open, and
    /// from two processes at once: each migration is re-checked after the write lock is taken.
    @discardableResult
    public func migrate(_ migrations: [Migration] = Migrations.all) throws -> [Int] {
        let versions = migrations.map(\.version)
        guard versions.allSatisfy({ $0 > 0 }), zip(versions, versions.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw MigrationError(code: .invalidList, userMessage: UserMessage(
                nb: "Listen over databaseendringer er ikke i stigende rekkefølge. Dette er en feil i arkivator; meld fra.",
                en: "The list of database changes is not in ascending order. This is a bug in arkivator; please report it."))
        }
        let applied = try appliedMigrations()
        if let newest = applied.last, newest > (versions.last ?? 0) {
            throw MigrationError(code: .newerLibrary, userMessage: UserMessage(
                nb: "Biblioteket ble sist brukt av en nyere arkivator (databaseversjon \(newest)). Oppdater arkivator før du bruker det.",
                en: "The library was last used by a newer arkivator (database version \(newest)). Update arkivator before using it."))
        }
        var done: [Int] = []
        for migration in migrations where !applied.contains(migration.version) {
            let ran = try inTransaction { () throws -> Bool in
                let already = try firstRow("SELECT 1 FROM schema_migrations WHERE version = ?", [migration.version])
                guard already == nil else { return false }
                try execute(script: migration.sql)
                try execute("""
                    INSERT INTO schema_migrations (version, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                    """, [migration.version])
                return true
            }
            if ran { done.append(migration.version) }
        }
        return done
    }
}
