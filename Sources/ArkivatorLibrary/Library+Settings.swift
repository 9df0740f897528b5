import Foundation

extension Library {
    /// The names of the settings `arkivator config` knows.
    public enum Setting: String, Sendable, CaseIterable {
        /// Where filed documents are uploaded: `folder:PATH`, `webdav:URL` or `rclone:REMOTE:PATH`.
        case destination
        /// A command run (with the message as its argument) when an upload gives up.
        case notify
    }

    /// A setting's value, nil when not set.
    public func setting(_ key: Setting) throws -> String? {
        try withDatabase { database in
            try database.firstRow("SELECT value FROM settings WHERE key = ?", [key.rawValue])?[0].string
        }
    }

    /// Sets (or with nil, removes) a setting.
    public func setSetting(_ key: Setting, _ value: String?) throws {
        try withDatabase { database in
            if let value {
                try database.execute("""
                    INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, [key.rawValue, value])
            } else {
                try database.execute("DELETE FROM settings WHERE key = ?", [key.rawValue])
            }
        }
    }

    /// Queues the upload of a document just recorded, when a destination is set (in the caller's
    /// transaction, so a filed document always has its job).
    func enqueueUpload(document id: Int, in database: Database) throws {
        guard let destination = try database.firstRow("SELECT value FROM settings WHERE key = 'destination'")?[0].string,
              !destination.isEmpty else {
            try database.execute("UPDATE documents SET upload_status = 'none' WHERE id = ?", [id])
            return
        }
        let now = Self.now()
        try database.execute("""
            INSERT INTO upload_jobs (document_id, destination, state, created_at, updated_at) VALUES (?, ?, 'queued', ?, ?)
            ON CONFLICT (document_id, destination) DO NOTHING
            """, [id, destination, now, now])
        try database.execute("UPDATE documents SET upload_status = 'queued' WHERE id = ?", [id])
    }
}
