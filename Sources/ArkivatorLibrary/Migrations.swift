import ArkivatorCore

/// One step of the database schema: applied once, in its own transaction, in version order.
public struct Migration: Sendable {
    /// A positive number, larger than every earlier migration's.
    public let version: Int
    /// A few words for people reading the list.
    public let name: String
    /// The schema script (several statements separated by semicolons).
    public let sql: String
    /// A change SQL alone cannot make (it needs the library's folder), run after `sql` in the
    /// same transaction.
    let step: (@Sendable (Database, LibraryPaths) throws -> Void)?

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.step = nil
    }

    init(version: Int, name: String, sql: String = "", step: @escaping @Sendable (Database, LibraryPaths) throws -> Void) {
        self.version = version
        self.name = name
        self.sql = sql
        self.step = step
    }
}

/// The library schema, oldest first.
///
/// To change the schema, append a migration with the next version number. Never edit or reorder
/// one that has shipped: libraries that already applied it will not run it again.
public enum Migrations {
    public static let all: [Migration] = early + later

    /// Versions 1–12: the family, the documents and their index, the journal and upload queue,
    /// the web app's sign-in, text versions, originals, thumbnails and appointments.
    static let early: [Migration] = [
        Migration(version: 1, name: "family profiles", sql: """
            CREATE TABLE family (
                id          INTEGER PRIMARY KEY,
                name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
                birth_date  TEXT,                  -- YYYY-MM-DD
                fnr_sealed  BLOB,                  -- AES-GCM combined box, the name authenticated
                created_at  TEXT NOT NULL          -- UTC, ISO 8601
            );
            """),
        Migration(version: 2, name: "documents, files, full-text index", sql: """
            CREATE TABLE documents (
                id              INTEGER PRIMARY KEY,        -- also the rowid of the full-text index
                sha256          TEXT NOT NULL UNIQUE,       -- of the page files: the document's identity
                source_name     TEXT NOT NULL,
                title           TEXT NOT NULL,
                doc_type        TEXT NOT NULL,
                person          TEXT,                       -- household member if matched, else as printed
                family_member   TEXT,                       -- the archive folder; NULL = unknown person
                institution     TEXT,
                specialty       TEXT,
                document_date   TEXT NOT NULL,              -- YYYY-MM-DD
                scan_date       TEXT,
                keywords        TEXT NOT NULL DEFAULT '',   -- comma-separated
                ocr_confidence  REAL,
                needs_review    TEXT NOT NULL DEFAULT '',   -- comma-separated field names
                page_count      INTEGER NOT NULL DEFAULT 0,
                text            TEXT NOT NULL,              -- fødselsnumre masked
                fnr_sealed      BLOB,                       -- the masked numbers, AES-GCM sealed
                fnr_count       INTEGER NOT NULL DEFAULT 0,
                low_confidence  TEXT NOT NULL DEFAULT '[]', -- JSON [[start, length]] in text
                upload_status   TEXT NOT NULL DEFAULT 'pending',
                added_at        TEXT NOT NULL,
                updated_at      TEXT NOT NULL,
                trashed_at      TEXT,                       -- set while in the trash
                trash_origin    TEXT,                       -- JSON: the file paths before the trash
                -- For the index, filter words no letter text holds: both names as "pp<name>", the type
                -- as "tt<type>", the sender as "ii<word>", the year as "y<year>". A filter is then a
                -- plain term of the search, which FTS5 intersects cheaply (a column filter would read
                -- the positions of every candidate).
                people          TEXT GENERATED ALWAYS AS ('pp' || replace(replace(replace(
                                    trim(coalesce(family_member, '') || ' ' || coalesce(person, '')),
                                    '-', ' pp'), '.', ' pp'), ' ', ' pp')) VIRTUAL,
                kind            TEXT GENERATED ALWAYS AS ('tt' || replace(doc_type, '-', '')) VIRTUAL,
                sender          TEXT GENERATED ALWAYS AS ('ii' || replace(replace(replace(coalesce(institution, ''),
                                    '-', ' ii'), '.', ' ii'), ' ', ' ii')) VIRTUAL,
                period          TEXT GENERATED ALWAYS AS ('y' || substr(document_date, 1, 4)) VIRTUAL
            );
            CREATE INDEX documents_by_date ON documents(document_date, id);
            CREATE INDEX documents_by_member ON documents(family_member, document_date);
            CREATE INDEX documents_by_type ON documents(doc_type, document_date);
            CREATE INDEX documents_in_trash ON documents(trashed_at) WHERE trashed_at IS NOT NULL;

            CREATE TABLE document_files (
                document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                kind        TEXT NOT NULL,                  -- docx | image | pdf
                page        INTEGER NOT NULL DEFAULT 0,     -- 1… for page images
                path        TEXT NOT NULL UNIQUE,
                PRIMARY KEY (document_id, kind, page)
            );

            CREATE TABLE pages (
                document_id    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                number         INTEGER NOT NULL,            -- 1…
                ocr_confidence REAL,
                width          INTEGER,
                height         INTEGER,
                PRIMARY KEY (document_id, number)
            );

            -- Files about to be written or moved: a row is committed before the first file changes
            -- and removed in the transaction that records the result, so after a crash the files of
            -- an unfinished step can be found and taken back.
            CREATE TABLE filing_intents (
                id          INTEGER PRIMARY KEY,
                action      TEXT NOT NULL,                  -- file | move
                paths       TEXT NOT NULL DEFAULT '[]',     -- file: [path]; move: [[from, to]]
                created_at  TEXT NOT NULL
            );

            CREATE VIRTUAL TABLE documents_fts USING fts5(
                title, text, institution, specialty, keywords, people, kind, sender, period,
                content = 'documents', content_rowid = 'id', tokenize = 'norwegian');

            -- Every index term once, with a trigram index over the terms: a word finds the
            -- compounds it is part of ("prøvesvar" → "blodprøvesvar").
            CREATE TABLE vocabulary (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
            CREATE VIRTUAL TABLE vocabulary_trigram USING fts5(
                term, content = 'vocabulary', content_rowid = 'id', tokenize = 'trigram');
            -- How many documents in the index hold each term: the ranking's inverse document frequency.
            CREATE TABLE term_documents (term TEXT PRIMARY KEY, documents INTEGER NOT NULL) WITHOUT ROWID;

            CREATE TRIGGER vocabulary_indexed AFTER INSERT ON vocabulary BEGIN
                INSERT INTO vocabulary_trigram(rowid, term) VALUES (new.id, new.term);
            END;
            """),
        Migration(version: 3, name: "journal, upload queue, settings", sql: """
            -- Every file received by `watch`, keyed by its content, before any work on it: the stage it
            -- reached, so a restart resumes, and no document is ever filed twice.
            CREATE TABLE journal (
                sha256          TEXT PRIMARY KEY,
                source          TEXT NOT NULL,              -- the file or folder as received
                stage           TEXT NOT NULL,              -- received | cleaned | recognised | classified |
                                                            -- written | indexed | done | duplicate | failed
                attempts        INTEGER NOT NULL DEFAULT 0,
                reason          TEXT,                       -- why it failed, in the user's language
                next_attempt_at TEXT,                       -- UTC, ISO 8601: when a transient failure is retried
                document_id     INTEGER REFERENCES documents(id) ON DELETE SET NULL,
                received_at     TEXT NOT NULL,
                updated_at      TEXT NOT NULL
            );
            CREATE INDEX journal_by_stage ON journal(stage, next_attempt_at);

            -- One job per document and destination.
            CREATE TABLE upload_jobs (
                id              INTEGER PRIMARY KEY,
                document_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                destination     TEXT NOT NULL,              -- folder:PATH | webdav:URL | rclone:REMOTE:PATH
                state           TEXT NOT NULL DEFAULT 'queued', -- queued | uploading | done | error
                attempts        INTEGER NOT NULL DEFAULT 0,
                last_error      TEXT,
                next_attempt_at TEXT,
                created_at      TEXT NOT NULL,
                updated_at      TEXT NOT NULL,
                UNIQUE (document_id, destination)
            );
            CREATE INDEX upload_jobs_by_state ON upload_jobs(state, next_attempt_at);

            -- Settings made with `arkivator config set` (destination, …).
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """),
        Migration(version: 4, name: "web app sign-in", sql: """
            -- The web app's password (a bcrypt hash) and its signed-in browsers. A session is found by
            -- the SHA-256 of its cookie, so the database never holds a cookie that works.
            CREATE TABLE web_account (id INTEGER PRIMARY KEY CHECK (id = 1), password_hash TEXT NOT NULL,
                                      changed_at TEXT NOT NULL);
            CREATE TABLE web_sessions (
                token_hash TEXT PRIMARY KEY,
                csrf TEXT NOT NULL,
                created_at TEXT NOT NULL,
                last_seen TEXT NOT NULL
            );
            -- When a person looked over a document's uncertain fields (the review queue).
            ALTER TABLE documents ADD COLUMN reviewed_at TEXT;
            -- How sure the rules were of each field (JSON: field → 0…1), shown in review.
            ALTER TABLE documents ADD COLUMN field_confidence TEXT;
            -- Tokens for scripts and phone shortcuts (the API), one per device: only their SHA-256.
            CREATE TABLE api_tokens (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                created_at TEXT NOT NULL,
                last_used TEXT
            );
            """),
        Migration(version: 5, name: "library list indexes", sql: """
            -- The library's list, newest first, without the trash: walked in order from either end,
            -- with the columns its filters test (type, person, sender), so a page, a deep page
            -- (OFFSET) and a count read this index alone and no row until it is shown (a row
            -- holds the letter's text: reading 50,000 of them to skip them took 100 ms). The old
            -- indexes by member and type needed every row to see whether it was in the trash.
            -- `trashed_at` (NULL in every entry) lets SQLite see that an index covers the condition.
            DROP INDEX documents_by_member;
            DROP INDEX documents_by_type;
            CREATE INDEX documents_listed
                ON documents(document_date, id, doc_type, family_member, person, institution, trashed_at)
                WHERE trashed_at IS NULL;
            CREATE INDEX documents_listed_by_type ON documents(doc_type, document_date, id, trashed_at)
                WHERE trashed_at IS NULL;
            -- "Ukjent person" and the review queue, each its own list; their conditions are written
            -- exactly as `DocumentFilter` writes them, which is how SQLite knows to use them.
            CREATE INDEX documents_without_person ON documents(document_date, id, family_member, person, trashed_at)
                WHERE trashed_at IS NULL AND family_member IS NULL AND person IS NULL;
            CREATE INDEX documents_waiting ON documents(document_date, id)
                WHERE trashed_at IS NULL AND (needs_review != '' OR text = '' OR family_member IS NULL)
                    AND reviewed_at IS NULL;
            """),
        Migration(version: 6, name: "family ids never reused", sql: """
            -- AUTOINCREMENT: a removed member's id is never given to the next one added (a page or
            -- an undo that names the id always means that member). Existing ids are kept; nothing
            -- refers to a member by id in the database (documents name the member).
            CREATE TABLE family_ids (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
                birth_date  TEXT,                  -- YYYY-MM-DD
                fnr_sealed  BLOB,                  -- AES-GCM combined box, the name authenticated
                created_at  TEXT NOT NULL          -- UTC, ISO 8601
            );
            INSERT INTO family_ids (id, name, birth_date, fnr_sealed, created_at)
                SELECT id, name, birth_date, fnr_sealed, created_at FROM family ORDER BY id;
            DROP TABLE family;
            ALTER TABLE family_ids RENAME TO family;
            """),
        Migration(version: 7, name: "web sign-in links", sql: """
            -- One-time sign-in links that `arkivator serve --sign-in-link` prints for the owner at the
            -- machine: only their SHA-256 and when they stop working.
            CREATE TABLE web_sign_in_links (token_hash TEXT PRIMARY KEY, expires_at TEXT NOT NULL);
            """),
        // Paths inside the library folder stored relative to it, so a copied or moved library
        // finds its own files (see `LibraryPaths`, `StoredPathMigration`).
        Migration(version: 8, name: "paths relative to the library", step: { try StoredPathMigration.run($0, $1) }),
        Migration(version: 9, name: "text versions", sql: """
            -- Each reading of a letter's text: the OCR's own (kept when the text is first corrected),
            -- every correction, and the OCR's reading brought back. The text as `documents.text`
            -- holds it (fødselsnumre masked, the numbers sealed), with its low-confidence words.
            CREATE TABLE text_versions (
                id             INTEGER PRIMARY KEY,
                document_id    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                kind           TEXT NOT NULL,                  -- ocr | corrected | restored
                text           TEXT NOT NULL,
                fnr_sealed     BLOB,
                low_confidence TEXT NOT NULL DEFAULT '[]',
                created_at     TEXT NOT NULL
            );
            CREATE INDEX text_versions_by_document ON text_versions(document_id, id);
            """),
        Migration(version: 10, name: "originals and page outlines", sql: """
            -- Each document's files as received (a phone's JPEG or HEIC, a PNG, a PDF …), byte for byte,
            -- kept in the library folder (`Originaler/<id>/`), never uploaded; gone with the document.
            CREATE TABLE document_originals (
                document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                number      INTEGER NOT NULL,               -- 1… in the order received
                name        TEXT NOT NULL,                  -- the file's name as received
                format      TEXT NOT NULL,                  -- jpeg | png | tiff | webp | heic | pdf | gif | bmp
                path        TEXT NOT NULL UNIQUE,           -- relative to the library folder
                PRIMARY KEY (document_id, number)
            );
            -- Where each page came from, and the sheet's outline in it: JSON {corners: [[x, y]×4],
            -- quarterTurns, width, height, source: found | whole | user} in the original's pixels.
            ALTER TABLE pages ADD COLUMN original INTEGER;
            ALTER TABLE pages ADD COLUMN original_page INTEGER;
            ALTER TABLE pages ADD COLUMN crop TEXT;
            -- The fields a person corrected by hand (comma-separated): a page read again keeps them.
            ALTER TABLE documents ADD COLUMN corrected_fields TEXT NOT NULL DEFAULT '';
            """),
        Migration(version: 11, name: "thumbnails", sql: """
            -- A small JPEG of the first page in the library's own folder (see `DocumentStore+Thumbnails`),
            -- stored relative to the library; NULL until made, '' when there is no page to make one from.
            ALTER TABLE documents ADD COLUMN thumbnail TEXT;
            """),
        Migration(version: 12, name: "appointments", sql: """
            -- The appointments letters call to (see `CalendarStore+Appointments`). A later letter that moves
            -- or cancels one updates its row (`changed_by`) instead of adding a second; `uid` stays, so
            -- a calendar sees the same event move.
            CREATE TABLE appointments (
                id            INTEGER PRIMARY KEY,
                uid           TEXT NOT NULL UNIQUE,
                document_id   INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                changed_by    INTEGER REFERENCES documents(id) ON DELETE SET NULL,
                person        TEXT,                   -- household member if matched, else as printed
                sender        TEXT,                   -- institution
                specialty     TEXT,
                date          TEXT NOT NULL,          -- YYYY-MM-DD
                time          TEXT,                   -- HH:MM, NULL when the letter gives none
                place         TEXT,
                bring         TEXT,
                change        TEXT,
                cancelled     INTEGER NOT NULL DEFAULT 0,
                updated_at    TEXT NOT NULL
            );
            CREATE INDEX appointments_date ON appointments (date);
            CREATE INDEX appointments_document ON appointments (document_id);
            CREATE INDEX appointments_changed_by ON appointments (changed_by);
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
    public var errorCode: String { code.rawValue }
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
        // The database is `<library>/arkivator.sqlite`: its folder is the library.
        let paths = LibraryPaths(LibraryLocation(directory: url.deletingLastPathComponent()))
        var done: [Int] = []
        for migration in migrations where !applied.contains(migration.version) {
            let ran = try inTransaction { () throws -> Bool in
                let already = try firstRow("SELECT 1 FROM schema_migrations WHERE version = ?", [migration.version])
                guard already == nil else { return false }
                if !migration.sql.isEmpty { try execute(script: migration.sql) }
                try migration.step?(self, paths)
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
