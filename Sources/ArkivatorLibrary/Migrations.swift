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
            -- A small JPEG of the first page in the library's own folder (see `Library+Thumbnails`),
            -- stored relative to the library; NULL until made, '' when there is no page to make one from.
            ALTER TABLE documents ADD COLUMN thumbnail TEXT;
            """),
        Migration(version: 12, name: "appointments", sql: """
            -- The appointments letters call to (see `Library+Appointments`). A later letter that moves
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
        Migration(version: 13, name: "calendar feeds", sql: """
            -- A calendar feed per household member (see `Library+CalendarFeeds`): a phone subscribes to
            -- its secret address. Only the secret's SHA-256 is kept, as for sign-in; a new address
            -- replaces the old one, and revoking deletes the row. `member_id` is the family row's id
            -- (never reused); a removed member's feed answers nothing until the member is back.
            CREATE TABLE calendar_feeds (
                member_id     INTEGER PRIMARY KEY,
                token_hash    TEXT NOT NULL UNIQUE,
                created_at    TEXT NOT NULL,
                last_fetched  TEXT
            );
            """),
        Migration(version: 14, name: "share links", sql: """
            -- Read-only links to chosen letters for a doctor (see `Library+ShareLinks`): only the
            -- SHA-256 of the link's secret is kept, so the database never holds a link that works.
            CREATE TABLE share_links (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                token_hash  TEXT NOT NULL UNIQUE,
                created_at  TEXT NOT NULL,          -- UTC, ISO 8601
                expires_at  TEXT NOT NULL,          -- UTC, ISO 8601
                revoked_at  TEXT                    -- UTC, ISO 8601; NULL while it works
            );
            -- The letters of a link, in the order chosen; gone with the letter when it is purged.
            CREATE TABLE share_link_documents (
                link_id     INTEGER NOT NULL REFERENCES share_links(id) ON DELETE CASCADE,
                position    INTEGER NOT NULL,
                document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                PRIMARY KEY (link_id, position)
            );
            CREATE INDEX share_link_documents_by_document ON share_link_documents (document_id);
            -- Every opening of a link: when, what (the page or the PDF), and a coarse hint of the
            -- client ("Mobil · Safari"), never its address.
            CREATE TABLE share_link_openings (
                id          INTEGER PRIMARY KEY,
                link_id     INTEGER NOT NULL REFERENCES share_links(id) ON DELETE CASCADE,
                opened_at   TEXT NOT NULL,
                what        TEXT NOT NULL,          -- page | pdf
                client      TEXT NOT NULL
            );
            CREATE INDEX share_link_openings_by_link ON share_link_openings (link_id, id);
            """),
        Migration(version: 15, name: "letter explanations", sql: """
            -- A letter explained in plain words by a language model (see `Library+Explanations`): the
            -- newest one per letter, fødselsnumre masked. `text_sha256` is the SHA-256 of the letter's
            -- stored text it was made from: when the text is corrected later, the page says so.
            CREATE TABLE explanations (
                document_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
                what          TEXT NOT NULL,
                steps         TEXT NOT NULL DEFAULT '[]',   -- JSON list of texts
                deadline      TEXT,                         -- YYYY-MM-DD
                model         TEXT NOT NULL,
                text_sha256   TEXT NOT NULL,
                created_at    TEXT NOT NULL                 -- UTC, ISO 8601
            );
            """),
        Migration(version: 16, name: "each member's timeline", sql: """
            -- A household member's letters, newest first, with what their episodes are made of
            -- (type, specialty, sender): the timeline reads this index alone, never a row (a row
            -- holds the letter's text). `trashed_at` lets SQLite see that it covers the condition.
            CREATE INDEX documents_timeline
                ON documents(family_member, document_date, id, doc_type, specialty, institution, trashed_at)
                WHERE trashed_at IS NULL AND family_member IS NOT NULL;
            """),
        Migration(version: 17, name: "a stamp of the letters' changes", sql: """
            -- One row whose `stamp` is a new random number every time a letter is added or deleted, or
            -- a column the timeline reads changes, in any process (see `Library.lettersStamp()`): what
            -- the web app keeps a member's episodes by. Random rather than counted, so a database put
            -- back from a backup never shows a stamp already seen with other letters.
            CREATE TABLE letters_changed (
                id      INTEGER PRIMARY KEY CHECK (id = 1),
                stamp   INTEGER NOT NULL
            );
            INSERT INTO letters_changed (id, stamp) VALUES (1, random());
            CREATE TRIGGER letters_changed_insert AFTER INSERT ON documents BEGIN
                UPDATE letters_changed SET stamp = random();
            END;
            CREATE TRIGGER letters_changed_delete AFTER DELETE ON documents BEGIN
                UPDATE letters_changed SET stamp = random();
            END;
            CREATE TRIGGER letters_changed_update
                AFTER UPDATE OF id, family_member, document_date, doc_type, specialty, institution, trashed_at ON documents BEGIN
                UPDATE letters_changed SET stamp = random();
            END;
            """),
        Migration(version: 18, name: "where the numbers in doubt stand on the pages", sql: """
            -- Each number OCR may have misread, where it stands on its page (see `NumberMark`): JSON
            -- [{page, box: [x, y, width, height] in the page image's pixels, text, start, length}],
            -- outlined over the page image on the review and document pages. The first reading's
            -- marks are kept with it, so bringing back the OCR's text brings them back too.
            ALTER TABLE documents ADD COLUMN number_marks TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE text_versions ADD COLUMN number_marks TEXT NOT NULL DEFAULT '[]';
            """),
        Migration(version: 19, name: "the destination is a mirror of the archive", sql: """
            -- What the destination holds of Arkivator's, as far as the library knows: each file it put
            -- there, with the content it sent (see `Library+Mirror`). No foreign key: a purged letter's
            -- rows stay until its copies are removed. Nothing else at the destination is ever touched.
            CREATE TABLE remote_files (
                destination TEXT NOT NULL,
                path        TEXT NOT NULL,                  -- below the destination: Person/Dokumenter/x.docx
                document_id INTEGER NOT NULL,
                sha256      TEXT NOT NULL,
                size        INTEGER NOT NULL,
                copied_at   TEXT NOT NULL,
                PRIMARY KEY (destination, path)
            );
            CREATE INDEX remote_files_by_document ON remote_files(document_id, destination);

            -- A job is now "bring this letter's copy in line": `generation` counts the letter's changes,
            -- so a change during a copy sends the job round again; `failing_since` is the first failed
            -- try in a row (the household is told when it is over an hour old).
            ALTER TABLE upload_jobs ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE upload_jobs ADD COLUMN failing_since TEXT;

            -- Only the destination set now is kept in line; every letter is checked against it once,
            -- so letters filed before it was set, and changes made since their copy, reach it.
            DELETE FROM upload_jobs WHERE destination NOT IN (SELECT value FROM settings WHERE key = 'destination');
            UPDATE upload_jobs SET state = 'queued', attempts = 0, last_error = NULL, next_attempt_at = NULL;
            INSERT INTO upload_jobs (document_id, destination, state, created_at, updated_at)
                SELECT d.id, s.value, 'queued', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                FROM documents AS d, settings AS s WHERE s.key = 'destination' AND s.value != ''
                ON CONFLICT (document_id, destination) DO NOTHING;

            -- `upload_status` is the letter's copy as the household sees it (see `CopyStatus`):
            -- none | waiting | stale | copied | failed, kept by the job's state.
            UPDATE documents SET upload_status = CASE
                WHEN EXISTS (SELECT 1 FROM upload_jobs AS j WHERE j.document_id = documents.id) THEN 'waiting' ELSE 'none' END;
            CREATE TRIGGER copy_status_insert AFTER INSERT ON upload_jobs BEGIN
                UPDATE documents SET upload_status = 'waiting' WHERE id = NEW.document_id;
            END;
            CREATE TRIGGER copy_status_delete AFTER DELETE ON upload_jobs BEGIN
                UPDATE documents SET upload_status = 'none' WHERE id = OLD.document_id;
            END;
            CREATE TRIGGER copy_status_update AFTER UPDATE OF state ON upload_jobs BEGIN
                UPDATE documents SET upload_status = CASE
                    WHEN NEW.state = 'error' THEN 'failed'
                    WHEN NEW.state = 'done' THEN 'copied'
                    WHEN EXISTS (SELECT 1 FROM remote_files AS r
                                 WHERE r.document_id = NEW.document_id AND r.destination = NEW.destination) THEN 'stale'
                    ELSE 'waiting' END
                WHERE id = NEW.document_id;
            END;

            -- Any change to what a letter's files hold, or where they lie, queues its copy again.
            CREATE TRIGGER copy_after_letter_change
                AFTER UPDATE OF title, doc_type, person, family_member, institution, specialty, document_date, keywords,
                    page_count, text, fnr_count, trashed_at, corrected_fields, number_marks ON documents BEGIN
                UPDATE upload_jobs SET generation = generation + 1,
                    state = CASE WHEN state IN ('done', 'error') THEN 'queued' ELSE state END,
                    attempts = CASE WHEN state = 'error' THEN 0 ELSE attempts END
                WHERE document_id = NEW.id;
            END;
            CREATE TRIGGER copy_after_file_insert AFTER INSERT ON document_files BEGIN
                UPDATE upload_jobs SET generation = generation + 1,
                    state = CASE WHEN state IN ('done', 'error') THEN 'queued' ELSE state END
                WHERE document_id = NEW.document_id;
            END;
            CREATE TRIGGER copy_after_file_update AFTER UPDATE ON document_files BEGIN
                UPDATE upload_jobs SET generation = generation + 1,
                    state = CASE WHEN state IN ('done', 'error') THEN 'queued' ELSE state END
                WHERE document_id = NEW.document_id;
            END;
            CREATE TRIGGER copy_after_file_delete AFTER DELETE ON document_files BEGIN
                UPDATE upload_jobs SET generation = generation + 1,
                    state = CASE WHEN state IN ('done', 'error') THEN 'queued' ELSE state END
                WHERE document_id = OLD.document_id;
            END;
            """),
        Migration(version: 20, name: "what the archive files hold, known without reading them again", sql: """
            -- An archive file's SHA-256 and size, valid while its stamp (device, inode, size, change
            -- and modification times) is the same: the copy to the destination compares contents
            -- without reading every file again (see `Library+FileDigests`). Kept by the path as stored.
            CREATE TABLE file_digests (
                path   TEXT PRIMARY KEY,
                stamp  TEXT NOT NULL,
                sha256 TEXT NOT NULL,
                size   INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TRIGGER file_digest_after_delete AFTER DELETE ON document_files BEGIN
                DELETE FROM file_digests WHERE path = OLD.path;
            END;
            CREATE TRIGGER file_digest_after_move AFTER UPDATE OF path ON document_files BEGIN
                DELETE FROM file_digests WHERE path = OLD.path;
            END;

            -- A letter's copy status is written only when it changes (taking a job, or finishing it
            -- with the same status, no longer rewrites the letter's row and its text).
            DROP TRIGGER copy_status_update;
            CREATE TRIGGER copy_status_update AFTER UPDATE OF state ON upload_jobs WHEN NEW.state IS NOT OLD.state BEGIN
                UPDATE documents SET upload_status = s.status FROM (SELECT CASE
                    WHEN NEW.state = 'error' THEN 'failed'
                    WHEN NEW.state = 'done' THEN 'copied'
                    WHEN EXISTS (SELECT 1 FROM remote_files AS r
                                 WHERE r.document_id = NEW.document_id AND r.destination = NEW.destination) THEN 'stale'
                    ELSE 'waiting' END AS status) AS s
                WHERE documents.id = NEW.document_id AND documents.upload_status IS NOT s.status;
            END;
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
