import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct DatabaseTests {
    @Test func migrationsAreAppliedOnceAndReopeningChangesNothing() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            do {
                let database = try Database.open(library: library)
                #expect(try database.appliedMigrations() == Migrations.all.map(\.version))
                let tables = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                    .compactMap { $0[0].string }
                #expect(tables.contains("family") && tables.contains("schema_migrations"))
                let stamp = try #require(try database.firstRow("SELECT applied_at FROM schema_migrations WHERE version = 1")?[0].string)
                #expect(stamp.hasSuffix("Z") && stamp.count == 20)
                try database.execute("INSERT INTO family (name, created_at) VALUES (?, ?)", ["Kari", "2024-01-01T00:00:00Z"])
            }
            let again = try Database.open(library: library)
            #expect(try again.migrate() == [])
            #expect(try again.firstRow("SELECT count(*) FROM schema_migrations")?[0].int == Migrations.all.count)
            #expect(try again.firstRow("SELECT count(*) FROM family")?[0].int == 1, "reopening keeps the data")
        }
    }

    @Test func aLaterMigrationIsAppliedOnTheNextOpen() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir)
            _ = try Database.open(library: library)
            let nextVersion = (Migrations.all.last?.version ?? 0) + 1
            let next = Migrations.all + [Migration(version: nextVersion, name: "notes", sql: """
                CREATE TABLE note (id INTEGER PRIMARY KEY, family_id INTEGER REFERENCES family(id), text TEXT);
                CREATE INDEX note_family ON note(family_id);
                """)]
            let database = try Database(url: dir.appendingPathComponent(Database.fileName))
            #expect(try database.migrate(next) == [nextVersion])
            #expect(try database.migrate(next) == [])
            #expect(try database.appliedMigrations() == next.map(\.version))
            // This program knows only the versions before: a library from a newer one is refused.
            let error = #expect(throws: MigrationError.self) { try database.migrate(Migrations.all) }
            #expect(error?.code == .newerLibrary)
        }
    }

    @Test func aFailingMigrationLeavesNoTrace() throws {
        try withTemporaryDirectory { dir in
            let database = try Database(url: dir.appendingPathComponent(Database.fileName))
            let nextVersion = (Migrations.all.last?.version ?? 0) + 1
            let broken = Migrations.all + [Migration(version: nextVersion, name: "broken", sql: """
                CREATE TABLE half (id INTEGER); THIS IS NOT SQL;
                """)]
            #expect(throws: DatabaseError.self) { try database.migrate(broken) }
            #expect(try database.appliedMigrations() == Migrations.all.map(\.version))
            #expect(try database.firstRow("SELECT count(*) FROM sqlite_master WHERE name = 'half'")?[0].int == 0)
            let unordered = [Migration(version: 2, name: "b", sql: ""), Migration(version: 1, name: "a", sql: "")]
            let error = #expect(throws: MigrationError.self) { try database.migrate(unordered) }
            #expect(error?.code == .invalidList)
        }
    }

    @Test func opensInWALModeWithForeignKeysAndABusyTimeout() throws {
        try withTemporaryDirectory { dir in
            let database = try Database.open(library: LibraryLocation(directory: dir))
            #expect(try database.journalMode() == "wal")
            #expect(try database.firstRow("PRAGMA foreign_keys")?[0].int == 1)
            #expect(try database.firstRow("PRAGMA busy_timeout")?[0].int == 5000)
            try database.execute(script: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent(id));
                """)
            let error = #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO child VALUES (?)", [42]) }
            #expect(error?.resultCode == 19, "SQLITE_CONSTRAINT: foreign keys are enforced")
        }
    }

    /// Another program (Python's sqlite3) holds a new file's write lock for a second, as a second
    /// arkivator does while it creates the same library: opening it waits, then switches it to WAL.
    @Test func aNewFileAnotherProgramHoldsIsWaitedFor() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("arkivator.sqlite")
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            holder.arguments = ["python3", "-c", """
                import sqlite3, sys, time
                connection = sqlite3.connect(sys.argv[1], isolation_level=None)
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("CREATE TABLE other (x)")
                print("held", flush=True)
                time.sleep(1)
                connection.execute("COMMIT")
                """, file.path]
            let output = Pipe()
            holder.standardOutput = output
            try holder.run()
            defer { holder.waitUntilExit() }
            let held = output.fileHandleForReading.readData(ofLength: 5)
            #expect(String(decoding: held, as: UTF8.self) == "held\n")
            let database = try Database(url: file)
            #expect(try database.journalMode() == "wal")
            #expect(try database.firstRow("SELECT count(*) FROM other")?[0].int == 0, "the other program's table is there")
        }
    }

    @Test func filesAreForTheOwnerOnly() throws {
        try withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("ny/bibliotek")
            let database = try Database.open(library: LibraryLocation(directory: folder))
            try database.execute("INSERT INTO family (name, created_at) VALUES (?, ?)", ["Kari", "2024-01-01T00:00:00Z"])
            let file = folder.appendingPathComponent("arkivator.sqlite")
            #expect(try posixMode(folder) == 0o700)
            #expect(try posixMode(file) == 0o600)
            for suffix in ["-wal", "-shm"] {
                let companion = URL(fileURLWithPath: file.path + suffix)
                #expect(FileManager.default.fileExists(atPath: companion.path), "\(suffix) exists while open")
                #expect(try posixMode(companion) == 0o600, "\(suffix)")
            }
        }
    }

    @Test func anExistingOpenFileIsMadePrivate() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent(Database.fileName)
            _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o644])
            #expect(try posixMode(file) == 0o644)
            _ = try Database(url: file)
            #expect(try posixMode(file) == 0o600)
        }
    }

    @Test func bindsAndReadsEveryType() throws {
        try withTemporaryDirectory { dir in
            let database = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try database.execute(script: "CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n)")
            let bytes: [UInt8] = [0, 1, 2, 255]
            let cases: [[any DatabaseValueConvertible]] = [
                [Int.max, 2.5, "Blåbærsyltetøy ✓", Data([0, 0xFF, 0]), DatabaseValue.null],
                [Int.min, -0.0, "", Data(), Optional<String>.none],
                [0, Double.greatestFiniteMagnitude, "a\u{0}b", bytes, Optional<Int>.some(7)],
            ]
            for arguments in cases { try database.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments) }
            let rows = try database.rows("SELECT i, d, s, b, n FROM t ORDER BY rowid")
            #expect(rows.count == 3)
            #expect(rows[0]["i"].int == Int.max && rows[0].get("d", as: Double.self) == 2.5)
            #expect(rows[0].get("s", as: String.self) == "Blåbærsyltetøy ✓")
            #expect(rows[0]["b"] == .blob(Data([0, 0xFF, 0])) && rows[0]["n"].isNull)
            #expect(rows[1]["i"].int == Int.min && rows[1]["s"] == .text("") && rows[1]["b"] == .blob(Data()))
            #expect(rows[1].get("n", as: String?.self) == .some(nil))
            #expect(rows[2]["s"].string == "a\u{0}b", "embedded NUL survives")
            #expect(rows[2].get("b", as: [UInt8].self) == bytes && rows[2]["n"].int == 7)
            #expect(rows[2]["d"].double == Double.greatestFiniteMagnitude)
            #expect(rows[0]["missing"].isNull && rows[0][99].isNull)
        }
    }

    @Test func statementsCanBeReused() throws {
        try withTemporaryDirectory { dir in
            let database = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try database.execute(script: "CREATE TABLE t (x INTEGER)")
            let insert = try database.prepare("INSERT INTO t VALUES (?)")
            for x in 1...5 {
                try insert.bind([x])
                try insert.step()
            }
            #expect(database.lastInsertedRowID == 5)
            let select = try database.prepare("SELECT sum(x) FROM t WHERE x > ?")
            try select.bind([2])
            #expect(try select.rows().first?[0].int == 12)
            try select.bind([4])
            #expect(try select.rows().first?[0].int == 5)
        }
    }

    @Test func transactionsCommitOrRollBack() throws {
        struct Stop: Error {}
        try withTemporaryDirectory { dir in
            let database = try Database(url: dir.appendingPathComponent("t.sqlite"))
            try database.execute(script: "CREATE TABLE t (x INTEGER)")
            let count = { () throws -> Int? in try database.firstRow("SELECT count(*) FROM t")?[0].int }

            let value = try database.inTransaction { () throws -> Int in
                try database.execute("INSERT INTO t VALUES (1)")
                return 42
            }
            #expect(value == 42)
            #expect(try count() == 1)
            #expect(throws: Stop.self) {
                try database.inTransaction {
                    try database.execute("INSERT INTO t VALUES (2)")
                    throw Stop()
                }
            }
            #expect(try count() == 1 && !database.isInTransaction)
            // Nested: the inner failure undoes only the inner part.
            try database.inTransaction {
                try database.execute("INSERT INTO t VALUES (3)")
                _ = try? database.inTransaction {
                    try database.execute("INSERT INTO t VALUES (4)")
                    throw Stop()
                }
            }
            #expect(try database.rows("SELECT x FROM t ORDER BY x").compactMap { $0[0].int } == [1, 3])
        }
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        try withTemporaryDirectory { dir in
            let database = try Database(url: dir.appendingPathComponent("t.sqlite"))
            let syntax = #expect(throws: DatabaseError.self) { try database.execute("SELEKT 1") }
            #expect(syntax?.resultCode == 1 && syntax?.sql == "SELEKT 1")
            #expect(syntax?.message.contains("syntax error") == true)
            #expect(syntax?.userMessage.norwegian.contains("SQLite") == true)

            try database.execute(script: "CREATE TABLE u (name TEXT UNIQUE)")
            try database.execute("INSERT INTO u VALUES (?)", ["a"])
            let unique = #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO u VALUES (?)", ["a"]) }
            #expect(unique?.isUniqueConstraintViolation == true)
            #expect(unique?.extendedResultCode == 2067, "SQLITE_CONSTRAINT_UNIQUE")

            let count = #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO u VALUES (?)", ["a", "b"]) }
            #expect(count?.resultCode == 25, "SQLITE_RANGE")

            let notADatabase = dir.appendingPathComponent("tekst.sqlite")
            try Data(repeating: 0x41, count: 4096).write(to: notADatabase)
            let refused = #expect(throws: DatabaseError.self) { _ = try Database(url: notADatabase) }
            #expect(refused?.resultCode == 26, "SQLITE_NOTADB")
            #expect(refused?.userMessage.english.contains("Restore a backup") == true)
        }
    }

    @Test func aSecondConnectionSeesCommittedRows() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir)
            let writer = try Database.open(library: library)
            let reader = try Database.open(library: library)
            try writer.execute("INSERT INTO family (name, created_at) VALUES (?, ?)", ["Kari", "2024-01-01T00:00:00Z"])
            #expect(try reader.firstRow("SELECT name FROM family")?[0].string == "Kari")
        }
    }
}
