import Foundation

extension Library {
    /// The names of the settings `arkivator config` knows.
    public enum Setting: String, Sendable, CaseIterable {
        /// Where filed documents are uploaded: `folder:PATH`, `webdav:URL` or `rclone:REMOTE:PATH`.
        case destination
        /// A command run (with the message as its argument) when an upload gives up.
        case notify
        /// The language model's OpenAI-compatible server (`http://127.0.0.1:8080`).
        case llmURL = "llm.url"
        /// The model name sent with each request.
        case llmModel = "llm.model"
        /// `true`: ingest and watch ask the language model after the rules without `--llm`.
        case llmEnabled = "llm.enabled"
        /// `true`: a server on another machine may be used (the letter text is sent there).
        case llmAllowRemote = "llm.allowRemote"
        /// `true`: the household's names are hidden from the model too (fødselsnumre always are).
        case llmMaskNames = "llm.maskNames"
        /// Seconds one request to the model may take (default 300).
        case llmTimeout = "llm.timeout"
        /// The address the family's phones and the doctor reach the web app at
        /// (`https://arkiv.hjemme.no`): share links, calendar feeds and invites are made with it.
        case webAddress = "web.address"

        /// The setting for a key typed in any case (`llm.allowremote`).
        public init?(key: String) {
            guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == key.lowercased() }) else { return nil }
            self = found
        }

        /// Whether the value is `true` or `false`.
        public var isSwitch: Bool { [.llmEnabled, .llmAllowRemote, .llmMaskNames].contains(self) }
    }

    /// A switch setting's value: true only when set to `true`.
    public func isOn(_ key: Setting) throws -> Bool {
        try setting(key) == "true"
    }

    /// A setting's value, nil when not set.
    public func setting(_ key: Setting) throws -> String? {
        try withReader { database in
            try database.firstRow("SELECT value FROM settings WHERE key = ?", [key.rawValue])?[0].string
        }
    }

    /// Sets (or with nil, removes) a setting.
    /// A new destination queues every letter's copy for it (see ``queueWholeArchive()``); the
    /// one before is no longer kept in line (nothing there is touched).
    public func setSetting(_ key: Setting, _ value: String?) throws {
        try withDatabase { database in
            try database.inTransaction {
                let before = try database.firstRow("SELECT value FROM settings WHERE key = ?", [key.rawValue])?[0].string
                if let value {
                    try database.execute("""
                        INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                        """, [key.rawValue, value])
                } else {
                    try database.execute("DELETE FROM settings WHERE key = ?", [key.rawValue])
                }
                if key == .destination, before != value { try uploads.destinationChanged(to: value, in: database) }
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
    }
}
