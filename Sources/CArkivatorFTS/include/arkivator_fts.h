#ifndef ARKIVATOR_FTS_H
#define ARKIVATOR_FTS_H

/* Only a pointer is needed here, so sqlite3.h stays out of this module's interface. */
struct sqlite3;

/*
 * Registers the FTS5 tokenizer "norwegian" on `db`: unicode61 with remove_diacritics 0 (å, ø, æ
 * stay letters of their own), every token stemmed by the Snowball Norwegian stemmer. Tokens with
 * a digit and the last token of a prefix query ("epikris"*) are not stemmed. Other arguments of
 * a table's tokenize spec go to unicode61, e.g. tokenize="norwegian tokenchars '-'".
 * Returns SQLITE_OK or an SQLite error code.
 */
int arkivator_fts_register_norwegian(struct sqlite3 *db);

/*
 * A query string that starts with this byte ("\x01blodprøvesv") holds index terms as the tokenizer
 * made them: they are lower-cased but not stemmed again. Users cannot type it (the search strips
 * control characters from what they type).
 */
#define ARKIVATOR_FTS_TERM_MARKER '\x01'

/*
 * Calls `term` for each token of `text` (UTF-8, `length` bytes, or up to its NUL when `length` is
 * negative) exactly as the "norwegian" tokenizer indexes it: lower-cased and stemmed, with the
 * byte range [start, end) of the word in `text`. Needs
 * arkivator_fts_register_norwegian on `db` first. Returns SQLITE_OK, an SQLite error code, or the
 * first non-zero value `term` returned (which stops the walk).
 */
int arkivator_fts_norwegian_terms(struct sqlite3 *db, const char *text, int length, void *context,
                                  int (*term)(void *context, const char *token, int tokenLength, int start, int end));

/*
 * Registers the FTS5 function arkivator_rank(table, w_1 … w_C, 'idf group;…' [, best]): bm25 with
 * column weights w and the caller's inverse document frequency and group for each phrase, in phrase
 * order (the phrases of a group count once, by the best); with `best`, rows that cannot be among
 * the `best` best scored so far get NULL (see norwegian_tokenizer.c).
 */
int arkivator_fts_register_rank(struct sqlite3 *db);

/*
 * Registers two SQL functions for filters that the index's words cannot say exactly:
 * arkivator_rowid_set(rowid), an aggregate whose value is a blob holding the set of the rowids it
 * was given (NULLs left out), and arkivator_rowid_in(set, rowid), 1 when rowid is in such a set
 * and 0 when not (an error when `set` is not one). A set is read once from an index and then
 * tested for each match without reading a row.
 */
int arkivator_fts_register_rowid_sets(struct sqlite3 *db);

/*
 * The same as one tokenizer made once and kept: open it after registering, run it on any number
 * of texts (one thread at a time, like its connection), close it before closing the connection.
 */
typedef struct ArkivatorTokenizer ArkivatorTokenizer;
int arkivator_fts_tokenizer_open(struct sqlite3 *db, ArkivatorTokenizer **out);
int arkivator_fts_tokenizer_run(ArkivatorTokenizer *tokenizer, const char *text, int length, void *context,
                                int (*term)(void *context, const char *token, int tokenLength, int start, int end));
void arkivator_fts_tokenizer_close(ArkivatorTokenizer *tokenizer);

/*
 * For a search's snippets: calls `token` for every token of `text` in order, with its byte range,
 * and with its index term when that is one of `terms` or starts with one of `prefixes` (each a run
 * of NUL-terminated strings, `termsLength` and `prefixesLength` bytes in all); other tokens come
 * with a NULL term and 0. Only tokens that one of those strings starts are stemmed: the Snowball
 * Norwegian stemmer only takes endings off, so a term always starts the lower-cased token it
 * comes from. Returns SQLITE_OK, an SQLite error code, or the first non-zero value of `token`.
 */
int arkivator_fts_tokenizer_find(ArkivatorTokenizer *tokenizer, const char *text, int length,
                                 const char *terms, int termsLength, const char *prefixes, int prefixesLength,
                                 void *context,
                                 int (*token)(void *context, const char *term, int termLength, int start, int end));

#endif
