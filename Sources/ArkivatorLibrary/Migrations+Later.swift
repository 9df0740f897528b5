extension Migrations {
    /// Versions 13 on: calendar feeds, share links, explanations, the timeline, the numbers in
    /// doubt, the destination as a mirror of the archive. New migrations are appended here.
    static let later: [Migration] = [
        Migration(version: 13, name: "calendar feeds", sql: """
            -- A calendar feed per household member (see `CalendarStore+Feeds`): a phone subscribes to
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
            -- Read-only links to chosen letters for a doctor (see `ShareStore+Links`): only the
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
            -- A letter explained in plain words by a language model (see `ExplanationStore+Letters`): the
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
            -- there, with the content it sent (see `UploadStore+Mirror`). No foreign key: a purged letter's
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
        Migration(version: 21, name: "accounts for the people who help the family, and the audit log", sql: """
            -- The people the owner invites: a name, a role (family: read, correct and upload; reader:
            -- read) and the household members they see. The owner is the web app's own password
            -- (web_account), no row here. A password is set when the invite is taken.
            CREATE TABLE accounts (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
                role          TEXT NOT NULL CHECK (role IN ('family', 'reader')),
                password_hash TEXT,
                created_at    TEXT NOT NULL
            );
            -- By the member's id, which is never given to another: a renamed member stays seen.
            CREATE TABLE account_members (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                member_id  INTEGER NOT NULL,
                PRIMARY KEY (account_id, member_id)
            ) WITHOUT ROWID;
            -- An invite works once, until it expires: only its SHA-256 is kept.
            CREATE TABLE account_invites (
                token_hash TEXT PRIMARY KEY,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                expires_at TEXT NOT NULL
            );
            -- Whose session and whose device token (NULL: the owner's); an account removed takes
            -- its sessions and tokens with it, so it is signed out everywhere at once.
            ALTER TABLE web_sessions ADD COLUMN account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE;
            ALTER TABLE web_sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
            ALTER TABLE api_tokens ADD COLUMN account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE;
            -- An account's letters are one member's or a few: read from an index of their own.
            -- Only letters filed to someone: the lists of letters filed to no one keep their own index.
            CREATE INDEX documents_by_member ON documents(family_member, document_date, id, trashed_at)
                WHERE trashed_at IS NULL AND family_member IS NOT NULL;

            -- Who did what, when, from which kind of device: never an address or a letter's text.
            -- Nothing changes a line, and none is removed before it is two years old.
            CREATE TABLE audit_log (
                id         INTEGER PRIMARY KEY,
                at         TEXT NOT NULL,          -- UTC, ISO 8601
                account_id INTEGER,                -- NULL: the owner
                account    TEXT NOT NULL,          -- the name, kept when the account is removed
                action     TEXT NOT NULL,
                document   TEXT,                   -- the letter's short id
                member     TEXT,                   -- the household member the letter is filed to
                detail     TEXT NOT NULL DEFAULT '',
                device     TEXT NOT NULL DEFAULT ''
            );
            CREATE INDEX audit_log_by_time ON audit_log(at);
            CREATE TRIGGER audit_log_unchanged BEFORE UPDATE ON audit_log BEGIN
                SELECT RAISE(ABORT, 'the audit log is not changed');
            END;
            CREATE TRIGGER audit_log_kept_two_years BEFORE DELETE ON audit_log
                WHEN OLD.at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-2 years') BEGIN
                SELECT RAISE(ABORT, 'the audit log keeps two years');
            END;
            """),
        Migration(version: 22, name: "a code from an app as the owner's second step, remembered devices, passkeys", sql: """
            -- The owner's TOTP secret (RFC 6238), sealed with the library key; the one being set up
            -- until its first code is typed; and the last time step a code was taken for (a code
            -- works once).
            ALTER TABLE web_account ADD COLUMN totp_sealed BLOB;
            ALTER TABLE web_account ADD COLUMN totp_pending BLOB;
            ALTER TABLE web_account ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;
            -- A browser remembered for 30 days: the app lock does not end its session before then.
            ALTER TABLE web_sessions ADD COLUMN remember_until TEXT;
            -- Passkeys (WebAuthn): the credential's id and public key (P-256, uncompressed), whose
            -- (NULL: the owner's), and the authenticator's signature count.
            CREATE TABLE passkeys (
                id            INTEGER PRIMARY KEY,
                account_id    INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
                credential_id BLOB NOT NULL UNIQUE,
                public_key    BLOB NOT NULL,
                sign_count    INTEGER NOT NULL DEFAULT 0,
                device        TEXT NOT NULL DEFAULT '',
                created_at    TEXT NOT NULL,
                last_used     TEXT
            );
            """),
        Migration(version: 23, name: "«Ukjent person» is every letter filed to no household member; an appointment's changes counted", sql: """
            -- The letters in `Ukjent person/`: no household member, whether or not a name is
            -- printed in them. Written as `DocumentFilter` writes the condition.
            DROP INDEX documents_without_person;
            CREATE INDEX documents_not_filed ON documents(document_date, id, family_member, trashed_at)
                WHERE trashed_at IS NULL AND family_member IS NULL;
            -- How many times an appointment was changed (moved by a later letter, corrected by
            -- hand): a calendar takes the event with the highest SEQUENCE (RFC 5545).
            ALTER TABLE appointments ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
            UPDATE appointments SET sequence = 1 WHERE changed_by IS NOT NULL;
            """),
        Migration(version: 24, name: "search by any spelling", sql: """
            -- Every index term also as a keyboard without æ, ø and å writes it («blodprøv» as
            -- «blodprov», «påsk» as «pask»): a word typed so finds its terms (`SearchSpelling`).
            ALTER TABLE vocabulary ADD COLUMN folded TEXT GENERATED ALWAYS AS (\(SearchSpelling.foldSQL("term"))) VIRTUAL;
            CREATE INDEX vocabulary_folded ON vocabulary(folded);
            """),
        Migration(version: 25, name: "saved searches", sql: """
            -- A search or a filtered list the owner keeps on the library page: its name and its
            -- address in the app (`/search?q=…`, `/?person=…`).
            CREATE TABLE saved_searches (
                id          INTEGER PRIMARY KEY,
                name        TEXT NOT NULL,
                address     TEXT NOT NULL,
                created_at  TEXT NOT NULL
            );
            """),
        Migration(version: 26, name: "lab values as data", sql: """
            -- Each row of a lab table a letter prints (``LabEntry``): the analysis under one name,
            -- the value as printed and as a number, unit, range, H/L, whether a number in it is in
            -- doubt, the day the sample was taken, where the value stands in the text and on the
            -- page, and whether a person confirmed it. Read again from the text when it changes.
            CREATE TABLE lab_values (
                id           INTEGER PRIMARY KEY,
                document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                position     INTEGER NOT NULL,
                analysis     TEXT NOT NULL,
                printed      TEXT NOT NULL,
                value        TEXT NOT NULL,
                unit         TEXT,
                range        TEXT,
                flag         TEXT,
                doubtful     INTEGER NOT NULL DEFAULT 0,
                confirmed    INTEGER NOT NULL DEFAULT 0,
                sampled      TEXT,
                page         INTEGER,
                box          TEXT,
                start        INTEGER NOT NULL,
                length       INTEGER NOT NULL
            );
            CREATE INDEX lab_values_document ON lab_values(document_id);
            CREATE INDEX lab_values_analysis ON lab_values(analysis, sampled);
            -- The letters filed before this version whose values are still to be read from their
            -- text (``Household/fillLabs()``, once).
            CREATE TABLE lab_values_pending (document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE);
            INSERT INTO lab_values_pending (document_id) SELECT id FROM documents WHERE doc_type IN ('lab-svar', 'epikrise');
            """),
        Migration(version: 27, name: "the lab rules the values were read by", sql: """
            -- The version of the rules that read the stored lab values (``LabTable/rulesVersion``):
            -- when the rules change, every lab letter's values are read again (boxes and a person's
            -- confirmations kept).
            CREATE TABLE lab_rules (version INTEGER NOT NULL);
            """),
    ]
}
