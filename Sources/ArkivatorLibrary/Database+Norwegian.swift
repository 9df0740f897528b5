internal import CArkivatorFTS
internal import CSQLite
// Only for linking: a C target does not pass on its system library's `link "stemmer"`, a Swift import does.
internal import CStemmer

extension Database {
    /// Registers the `norwegian` FTS5 tokenizer on this connection (done by `init`), with the ranking
    /// function and the rowid sets that search filters use (`arkivator_fts.h`).
    ///
    /// The tokenizer is unicode61 with `remove_diacritics 0` (å, ø and æ stay their own letters)
    /// followed by the Snowball Norwegian stemmer; tokens with a digit and the last token of a
    /// prefix query (`"epikris"*`) are not stemmed. Tables use it as `tokenize='norwegian'`; further
    /// arguments go to unicode61 (`tokenize="norwegian tokenchars '-'"`).
    func registerNorwegianTokenizer() throws(DatabaseError) {
        try DatabaseError.check(arkivator_fts_register_norwegian(handle), connection: handle, sql: nil)
        try DatabaseError.check(arkivator_fts_register_rank(handle), connection: handle, sql: nil)
        try DatabaseError.check(arkivator_fts_register_rowid_sets(handle), connection: handle, sql: nil)
        var made: OpaquePointer?
        try DatabaseError.check(arkivator_fts_tokenizer_open(handle, &made), connection: handle, sql: nil)
        tokenizer = made
    }

    /// The index terms of `text` as the `norwegian` tokenizer makes them (lower-cased, stemmed), in order, duplicates kept.
    ///
    /// These are the terms a `tokenize='norwegian'` table stores for `text` (with no extra tokenizer
    /// arguments), so a user's word can be stemmed the way the index was.
    public func norwegianTerms(_ text: String) throws(DatabaseError) -> [String] {
        try norwegianTokens(text).map(\.term)
    }

    /// ``norwegianTerms(_:)`` with where each word stands in `text`: its range of UTF-8 bytes.
    public func norwegianTokens(_ text: String) throws(DatabaseError) -> [(term: String, bytes: Range<Int>)] {
        var text = text
        var tokens: [(term: String, bytes: Range<Int>)] = []
        // A C callback captures nothing: the array travels through the context pointer.
        let collect: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32 = {
            context, token, length, start, end in
            guard let context, start >= 0, end >= start else { return SQLITE_MISUSE }
            let bytes = UnsafeRawBufferPointer(start: token, count: token == nil ? 0 : max(0, Int(length)))
            context.assumingMemoryBound(to: [(term: String, bytes: Range<Int>)].self).pointee
                .append((String(decoding: bytes, as: UTF8.self), Int(start)..<Int(end)))
            return SQLITE_OK
        }
        let code = text.withUTF8 { utf8 -> Int32 in
            guard utf8.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            let start = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            return withUnsafeMutablePointer(to: &tokens) { pointer in
                arkivator_fts_tokenizer_run(tokenizer, start, Int32(utf8.count), pointer, collect)
            }
        }
        try DatabaseError.check(code, connection: handle, sql: nil)
        return tokens
    }
}
