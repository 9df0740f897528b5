/* The FTS5 tokenizer "norwegian": unicode61 splits and lower-cases, Snowball Norwegian stems. */
#include <sqlite3.h>
#include <libstemmer.h>
#include <stdlib.h>
#include <string.h>

#include "arkivator_fts.h"

/* One per FTS5 table (and per arkivator_fts_norwegian_terms call); used by one thread at a time,
 * as its connection is, so the stemmer needs no lock. */
typedef struct Norwegian {
    fts5_tokenizer unicode61;  /* unicode61's methods */
    Fts5Tokenizer *inner;      /* our unicode61 instance */
    struct sb_stemmer *stemmer;
} Norwegian;

static void norwegian_delete(Fts5Tokenizer *tokenizer) {
    Norwegian *self = (Norwegian *)tokenizer;
    if (self == NULL) return;
    if (self->inner != NULL) self->unicode61.xDelete(self->inner);
    if (self->stemmer != NULL) sb_stemmer_delete(self->stemmer);
    sqlite3_free(self);
}

/* `context` is the connection's fts5_api, given at registration. */
static int norwegian_create(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = context;
    *out = NULL;
    if (count < 0) count = 0;
    Norwegian *self = sqlite3_malloc(sizeof *self);
    if (self == NULL) return SQLITE_NOMEM;
    memset(self, 0, sizeof *self);

    void *unicode61Context = NULL;
    int rc = api->xFindTokenizer(api, "unicode61", &unicode61Context, &self->unicode61);
    if (rc == SQLITE_OK) {
        /* Ours go last: unicode61 reads its options in order, so remove_diacritics 0 always wins
         * (folding å to a would make "åre" and "are" one word). */
        const char **all = sqlite3_malloc64(sizeof *all * ((sqlite3_uint64)count + 2));
        if (all == NULL) {
            rc = SQLITE_NOMEM;
        } else {
            if (count > 0) memcpy(all, arguments, sizeof *all * (size_t)count);
            all[count] = "remove_diacritics";
            all[count + 1] = "0";
            rc = self->unicode61.xCreate(unicode61Context, all, count + 2, &self->inner);
            sqlite3_free(all);  /* unicode61 keeps no pointers into its arguments */
            if (rc != SQLITE_OK) self->inner = NULL;  /* undefined after a failure */
        }
    }
    if (rc == SQLITE_OK) {
        self->stemmer = sb_stemmer_new("norwegian", "UTF_8");
        if (self->stemmer == NULL) rc = SQLITE_NOMEM;  /* the algorithm exists: only memory can fail */
    }
    if (rc != SQLITE_OK) {
        norwegian_delete((Fts5Tokenizer *)self);
        return rc;
    }
    *out = (Fts5Tokenizer *)self;
    return SQLITE_OK;
}

typedef int (*TokenCallback)(void *context, int flags, const char *token, int length, int start, int end);

typedef struct Pass {
    Norwegian *self;
    void *context;
    TokenCallback token;
    int count;      /* tokens seen so far */
    int unstemmed;  /* index of the one token left as it is (the prefix), or -1 */
} Pass;

static int has_digit(const char *token, int length) {
    for (int i = 0; i < length; i++) {
        if (token[i] >= '0' && token[i] <= '9') return 1;
    }
    return 0;
}

static int stem_token(void *context, int flags, const char *token, int length, int start, int end) {
    Pass *pass = context;
    int index = pass->count++;
    /* Numbers, dates and codes ("12a", "2024") are not words: the stemmer would only damage them. */
    if (index == pass->unstemmed || length <= 0 || has_digit(token, length)) {
        return pass->token(pass->context, flags, token, length, start, end);
    }
    struct sb_stemmer *stemmer = pass->self->stemmer;
    const sb_symbol *stem = sb_stemmer_stem(stemmer, (const sb_symbol *)token, length);
    if (stem == NULL) return SQLITE_NOMEM;
    /* The stem lives in the stemmer until its next call, which comes after this callback returns. */
    return pass->token(pass->context, flags, (const char *)stem, sb_stemmer_length(stemmer), start, end);
}

static int count_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags; (void)token; (void)length; (void)start; (void)end;
    ((Pass *)context)->count++;
    return SQLITE_OK;
}

static int norwegian_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int length,
                              TokenCallback token) {
    Norwegian *self = (Norwegian *)tokenizer;
    Pass pass = { self, context, token, 0, -1 };
    if ((flags & FTS5_TOKENIZE_QUERY) && length > 0 && text[0] == ARKIVATOR_FTS_TERM_MARKER) {
        /* An index term written by the search itself (an expansion from the vocabulary): taken as
         * it is, since stemming a stem again can change it ("brystsmert" → "brystsmer"). */
        return self->unicode61.xTokenize(self->inner, context, flags, text + 1, length - 1, token);
    }
    if (flags & FTS5_TOKENIZE_PREFIX) {
        /* FTS5 treats only the last token of "a b"* as a prefix, and a prefix must stay a prefix
         * ("ortoped"* must not become "ortop"*); the others are whole words and are stemmed as in
         * documents. Count first to know which one is last: queries are short. */
        int rc = self->unicode61.xTokenize(self->inner, &pass, flags, text, length, count_token);
        if (rc != SQLITE_OK) return rc;
        pass.unstemmed = pass.count - 1;
        pass.count = 0;
    }
    return self->unicode61.xTokenize(self->inner, &pass, flags, text, length, stem_token);
}

/* The connection's fts5_api, the documented way; NULL when SQLite lacks FTS5. */
static int find_fts5_api(sqlite3 *db, fts5_api **api) {
    *api = NULL;
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_bind_pointer(statement, 1, (void *)api, "fts5_api_ptr", NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(statement);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    int finalized = sqlite3_finalize(statement);
    if (rc == SQLITE_OK) rc = finalized;
    if (rc == SQLITE_OK && *api == NULL) rc = SQLITE_ERROR;
    return rc;
}

int arkivator_fts_register_norwegian(sqlite3 *db) {
    fts5_api *api = NULL;
    int rc = find_fts5_api(db, &api);
    if (rc != SQLITE_OK) return rc;
    fts5_tokenizer methods = { norwegian_create, norwegian_delete, norwegian_tokenize };
    /* The api lives as long as the connection, so it can be the tokenizer's context. */
    return api->xCreateTokenizer(api, "norwegian", api, &methods, NULL);
}

typedef struct Terms {
    void *context;
    int (*term)(void *context, const char *token, int tokenLength, int start, int end);
} Terms;

static int forward_term(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags;
    Terms *terms = context;
    return terms->term(terms->context, token, length, start, end);
}

/* A "norwegian" tokenizer made once and used for many texts (search makes snippets for every
 * hit: looking up the api and making a tokenizer each time cost more than tokenizing). */
struct ArkivatorTokenizer {
    fts5_tokenizer methods;
    Fts5Tokenizer *tokenizer;
};

int arkivator_fts_tokenizer_open(sqlite3 *db, ArkivatorTokenizer **out) {
    if (out == NULL) return SQLITE_MISUSE;
    *out = NULL;
    fts5_api *api = NULL;
    int rc = find_fts5_api(db, &api);
    if (rc != SQLITE_OK) return rc;
    ArkivatorTokenizer *self = sqlite3_malloc(sizeof *self);
    if (self == NULL) return SQLITE_NOMEM;
    memset(self, 0, sizeof *self);
    /* The registered tokenizer itself, so these terms are the index's terms by construction. */
    void *userData = NULL;
    rc = api->xFindTokenizer(api, "norwegian", &userData, &self->methods);
    if (rc == SQLITE_OK) rc = self->methods.xCreate(userData, NULL, 0, &self->tokenizer);
    if (rc != SQLITE_OK) {
        sqlite3_free(self);
        return rc;
    }
    *out = self;
    return SQLITE_OK;
}

/* A text and its length as the tokenizer takes them: NULL is the empty text, a negative length
 * means up to the first NUL (at most 2 GB). */
static int text_length(const char **text, int *length) {
    if (*text == NULL) {
        *text = "";
        *length = 0;
    } else if (*length < 0) {
        size_t size = strlen(*text);
        if (size > 0x7fffffff) return SQLITE_TOOBIG;
        *length = (int)size;
    }
    return SQLITE_OK;
}

int arkivator_fts_tokenizer_run(ArkivatorTokenizer *self, const char *text, int length, void *context,
                                int (*term)(void *context, const char *token, int tokenLength, int start, int end)) {
    if (self == NULL || term == NULL) return SQLITE_MISUSE;
    int rc = text_length(&text, &length);
    if (rc != SQLITE_OK) return rc;
    Terms terms = { context, term };
    return self->methods.xTokenize(self->tokenizer, &terms, FTS5_TOKENIZE_DOCUMENT, text, length, forward_term);
}

/* The wanted terms of arkivator_fts_tokenizer_find, and a bitset of the bytes they start with. */
typedef struct Find {
    Norwegian *self;
    const char *terms;
    int termsLength;
    const char *prefixes;
    int prefixesLength;
    unsigned char first[32];
    void *context;
    int (*token)(void *context, const char *term, int termLength, int start, int end);
} Find;

/* True when one of `strings` (NUL-terminated, back to back in `length` bytes) starts `text`, or
 * with `exact` is `text`. */
static int any_starts(const char *strings, int length, const char *text, int textLength, int exact) {
    const char *cursor = strings, *end = strings + length;
    while (cursor < end) {
        const char *stop = memchr(cursor, '\0', (size_t)(end - cursor));
        int size = (int)((stop != NULL ? stop : end) - cursor);
        if (size > 0 && (exact ? size == textLength : size <= textLength) && memcmp(cursor, text, (size_t)size) == 0) {
            return 1;
        }
        cursor += size + 1;
    }
    return 0;
}

static void mark_first_bytes(unsigned char first[32], const char *strings, int length) {
    const char *cursor = strings, *end = strings + length;
    while (cursor < end) {
        const char *stop = memchr(cursor, '\0', (size_t)(end - cursor));
        int size = (int)((stop != NULL ? stop : end) - cursor);
        if (size > 0) first[(unsigned char)cursor[0] >> 3] |= (unsigned char)(1u << ((unsigned char)cursor[0] & 7));
        cursor += size + 1;
    }
}

static int find_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags;
    Find *find = context;
    /* The token as unicode61 gives it: lower-cased, not yet stemmed. */
    int candidate = length > 0 && (find->first[(unsigned char)token[0] >> 3] & (1u << ((unsigned char)token[0] & 7)))
        && (any_starts(find->terms, find->termsLength, token, length, 0)
            || any_starts(find->prefixes, find->prefixesLength, token, length, 0));
    if (!candidate) return find->token(find->context, NULL, 0, start, end);
    const char *term = token;
    int termLength = length;
    if (!has_digit(token, length)) {  /* as stem_token does */
        struct sb_stemmer *stemmer = find->self->stemmer;
        const sb_symbol *stem = sb_stemmer_stem(stemmer, (const sb_symbol *)token, length);
        if (stem == NULL) return SQLITE_NOMEM;
        term = (const char *)stem;
        termLength = sb_stemmer_length(stemmer);
    }
    if (any_starts(find->terms, find->termsLength, term, termLength, 1)
        || any_starts(find->prefixes, find->prefixesLength, term, termLength, 0)) {
        return find->token(find->context, term, termLength, start, end);
    }
    return find->token(find->context, NULL, 0, start, end);
}

int arkivator_fts_tokenizer_find(ArkivatorTokenizer *self, const char *text, int length,
                                 const char *terms, int termsLength, const char *prefixes, int prefixesLength,
                                 void *context,
                                 int (*token)(void *context, const char *term, int termLength, int start, int end)) {
    if (self == NULL || token == NULL || termsLength < 0 || prefixesLength < 0
        || (terms == NULL && termsLength > 0) || (prefixes == NULL && prefixesLength > 0)) {
        return SQLITE_MISUSE;
    }
    int lengthCode = text_length(&text, &length);
    if (lengthCode != SQLITE_OK) return lengthCode;
    /* The tokenizer that arkivator_fts_tokenizer_open made is the registered "norwegian" one,
     * norwegian_create's Norwegian: its unicode61 gives the tokens before they are stemmed. */
    if (self->methods.xTokenize != norwegian_tokenize || self->tokenizer == NULL) return SQLITE_MISUSE;
    Find find = { (Norwegian *)self->tokenizer, terms, termsLength, prefixes, prefixesLength, {0}, context, token };
    mark_first_bytes(find.first, terms, termsLength);
    mark_first_bytes(find.first, prefixes, prefixesLength);
    Norwegian *norwegian = find.self;
    return norwegian->unicode61.xTokenize(norwegian->inner, &find, FTS5_TOKENIZE_DOCUMENT, text, length, find_token);
}

void arkivator_fts_tokenizer_close(ArkivatorTokenizer *self) {
    if (self == NULL) return;
    if (self->tokenizer != NULL) self->methods.xDelete(self->tokenizer);
    sqlite3_free(self);
}

int arkivator_fts_norwegian_terms(sqlite3 *db, const char *text, int length, void *context,
                                  int (*term)(void *context, const char *token, int tokenLength, int start, int end)) {
    if (term == NULL) return SQLITE_MISUSE;
    ArkivatorTokenizer *tokenizer = NULL;
    int rc = arkivator_fts_tokenizer_open(db, &tokenizer);
    if (rc != SQLITE_OK) return rc;
    rc = arkivator_fts_tokenizer_run(tokenizer, text, length, context, term);
    arkivator_fts_tokenizer_close(tokenizer);
    return rc;
}

/*
 * arkivator_rank(documents_fts, w_1 … w_C, 'idf group;idf group;…' [, best]): bm25 as FTS5's own
 * bm25() computes it (k1 = 1.2, b = 0.75, column weights w, document length over all columns), with
 * two changes. The inverse document frequency of each phrase comes from the caller, in phrase order:
 * FTS5's bm25() counts the documents of every phrase on each search by reading each phrase's whole
 * posting list, which for common words costs more than the rest of the search together. And the
 * phrases of one group (a word and its inflections and compounds) count once, by the best of them,
 * so a word with many forms in a letter does not outweigh the other words. Missing weights count 1;
 * phrases without a spec are groups of their own with idf 1.
 *
 * A phrase may carry a third number, 1 when it is another spelling of the word typed (without æ, ø
 * or å, or with one typing error): then every group a row holds by a phrase as typed (or one of its
 * forms) counts EXACT_GROUP more, so a row that holds the words as typed always ranks above one that
 * holds them only as spelled otherwise. Without such phrases the scores are bm25's alone.
 *
 * With `best` (a caller that keeps only the `best` best rows of the statement), a row that cannot
 * be among the `best` best of the rows scored so far gets NULL instead of its score: its score
 * with the shortest length its positions allow is already below theirs. Such a row's length (a
 * lookup in the docsize table, most of the cost of a score) is never read.
 */
/* Far above any bm25 part (idf is at most ln(2n) ≈ 15 at a million rows, times k1 + 1). */
#define EXACT_GROUP 1000.0

typedef struct RankSpec {
    double averageLength;  /* tokens per row, all columns */
    int phrases;
    double *idf;           /* per phrase */
    int *group;            /* per phrase: 0 … groups-1 */
    int *fuzzy;            /* per phrase: 1 for another spelling of the word typed */
    int anyFuzzy;
    int groups;
    int columns;
    double *weight;        /* per column */
    int *extent;           /* per column, per row: one past the last position seen */
    int best;              /* rows kept by the caller; 0: every row is scored (also when an idf is negative) */
    int kept;              /* scores in `heap` */
    double *heap;          /* the `kept` best scores so far (bm25, higher is better), least first */
} RankSpec;

static void rank_spec_free(void *pointer) {
    RankSpec *spec = pointer;
    if (spec == NULL) return;
    sqlite3_free(spec->idf);
    sqlite3_free(spec->group);
    sqlite3_free(spec->fuzzy);
    sqlite3_free(spec->weight);
    sqlite3_free(spec->extent);
    sqlite3_free(spec->heap);
    sqlite3_free(spec);
}

/* Reads "idf group;idf group;…" for `phrases` phrases; missing entries get idf 1 and a group of their own. */
static RankSpec *rank_spec_make(const Fts5ExtensionApi *api, Fts5Context *fts, const char *text, int phrases) {
    RankSpec *spec = sqlite3_malloc(sizeof *spec);
    if (spec == NULL) return NULL;
    memset(spec, 0, sizeof *spec);
    spec->phrases = phrases;
    spec->idf = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)(phrases + 1));
    spec->group = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(phrases + 1));
    spec->fuzzy = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(phrases + 1));
    if (spec->idf == NULL || spec->group == NULL || spec->fuzzy == NULL) { rank_spec_free(spec); return NULL; }
    int groups = 0;
    const char *cursor = text;
    for (int i = 0; i < phrases; i++) {
        double idf = 1.0;
        int group = -1, fuzzy = 0;
        if (cursor != NULL && *cursor != '\0') {
            char *end = NULL;
            idf = strtod(cursor, &end);
            if (end != NULL && end != cursor) {
                group = (int)strtol(end, &end, 10);
                cursor = end;
                while (*cursor == ' ') cursor++;
                if (*cursor >= '0' && *cursor <= '9') {
                    fuzzy = strtol(cursor, &end, 10) == 1;
                    cursor = end;
                }
            }
            while (cursor != NULL && *cursor != '\0' && *cursor != ';') cursor++;
            if (cursor != NULL && *cursor == ';') cursor++;
        }
        if (group < 0 || group >= phrases) group = phrases + i;  /* its own */
        spec->idf[i] = idf;
        spec->group[i] = group;
        spec->fuzzy[i] = fuzzy;
        if (fuzzy) spec->anyFuzzy = 1;
    }
    /* Renumber groups 0 … groups-1 in order of first use. */
    int *seen = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(2 * phrases + 1));
    if (seen == NULL) { rank_spec_free(spec); return NULL; }
    for (int i = 0; i < 2 * phrases + 1; i++) seen[i] = -1;
    for (int i = 0; i < phrases; i++) {
        int g = spec->group[i];
        if (seen[g] < 0) seen[g] = groups++;
        spec->group[i] = seen[g];
    }
    sqlite3_free(seen);
    spec->groups = groups;
    sqlite3_int64 rows = 0, tokens = 0;
    if (api->xRowCount(fts, &rows) != SQLITE_OK || api->xColumnTotalSize(fts, -1, &tokens) != SQLITE_OK) {
        rank_spec_free(spec);
        return NULL;
    }
    spec->averageLength = rows > 0 && tokens > 0 ? (double)tokens / (double)rows : 1.0;
    return spec;
}

/* The column weights, from the arguments after the table (literals in the statement, so the same
 * on every row); missing ones count 1. */
static int rank_spec_weights(RankSpec *spec, int columns, int argumentCount, sqlite3_value **arguments) {
    spec->weight = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)(columns + 1));
    spec->extent = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(columns + 1));
    if (spec->weight == NULL || spec->extent == NULL) return SQLITE_NOMEM;
    for (int column = 0; column < columns; column++) {
        spec->weight[column] = column < argumentCount ? sqlite3_value_double(arguments[column]) : 1.0;
    }
    spec->columns = columns;
    /* `best`, after the spec: at most a million rows are kept track of. */
    if (argumentCount > columns + 1 && sqlite3_value_type(arguments[columns + 1]) == SQLITE_INTEGER) {
        sqlite3_int64 best = sqlite3_value_int64(arguments[columns + 1]);
        int positive = 1;  /* a negative idf would make a longer row score more */
        for (int i = 0; i < spec->phrases; i++) if (!(spec->idf[i] >= 0)) positive = 0;
        if (positive && best > 0 && best <= 1000000) {
            spec->heap = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)best);
            if (spec->heap == NULL) return SQLITE_NOMEM;
            spec->best = (int)best;
        }
    }
    return SQLITE_OK;
}

/* Adds a score to the heap of the best ones (a min-heap: the least at 0). */
static void rank_heap_add(RankSpec *spec, double score) {
    double *heap = spec->heap;
    if (spec->kept < spec->best) {
        int i = spec->kept++;
        while (i > 0 && heap[(i - 1) / 2] > score) {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        heap[i] = score;
        return;
    }
    if (score <= heap[0]) return;
    int i = 0, n = spec->kept;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= score) break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = score;
}

/* bm25 of one row from each phrase's weighted frequency, for a document of `length` tokens. */
static double rank_score(const RankSpec *spec, const double *frequency, double *best, double length) {
    const double k1 = 1.2, b = 0.75;
    double norm = k1 * (1 - b + b * length / spec->averageLength);
    for (int g = 0; g < spec->groups; g++) best[g] = 0;
    for (int i = 0; i < spec->phrases; i++) {
        if (frequency[i] <= 0) continue;
        double part = spec->idf[i] * frequency[i] * (k1 + 1) / (frequency[i] + norm);
        if (spec->anyFuzzy && !spec->fuzzy[i]) part += EXACT_GROUP;
        int g = spec->group[i];
        if (part > best[g]) best[g] = part;
    }
    double score = 0;
    for (int g = 0; g < spec->groups; g++) score += best[g];
    return score;
}

static void rank_function(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *result,
                          int argumentCount, sqlite3_value **arguments) {
    int columns = api->xColumnCount(fts);
    int phrases = api->xPhraseCount(fts);
    RankSpec *spec = api->xGetAuxdata(fts, 0);
    if (spec == NULL) {
        const char *text = NULL;
        if (argumentCount > columns && sqlite3_value_type(arguments[columns]) == SQLITE_TEXT) {
            text = (const char *)sqlite3_value_text(arguments[columns]);
        }
        spec = rank_spec_make(api, fts, text, phrases);
        if (spec == NULL) { sqlite3_result_error_nomem(result); return; }
        int rc = rank_spec_weights(spec, columns, argumentCount, arguments);
        if (rc != SQLITE_OK) { rank_spec_free(spec); sqlite3_result_error_code(result, rc); return; }
        rc = api->xSetAuxdata(fts, spec, rank_spec_free);
        if (rc != SQLITE_OK) { sqlite3_result_error_code(result, rc); return; }  /* xSetAuxdata freed it */
    }
    /* Each phrase's own positions in this row: no merged, sorted list of every phrase's
     * instances (xInst) is made, as only the count per column matters here. */
    double buffer[128];
    double *frequency = buffer, *best = buffer + 64;
    if (spec->phrases > 64) {
        frequency = sqlite3_malloc64(sizeof(double) * 2 * (sqlite3_uint64)spec->phrases);
        if (frequency == NULL) { sqlite3_result_error_nomem(result); return; }
        best = frequency + spec->phrases;
    }
    for (int column = 0; column < spec->columns; column++) spec->extent[column] = 0;
    int rc = SQLITE_OK;
    for (int i = 0; i < spec->phrases; i++) {
        frequency[i] = 0;
        if (rc != SQLITE_OK || i >= phrases) continue;
        Fts5PhraseIter iterator;
        int column = -1, offset = 0;
        rc = api->xPhraseFirst(fts, i, &iterator, &column, &offset);
        for (; rc == SQLITE_OK && column >= 0; api->xPhraseNext(fts, &iterator, &column, &offset)) {
            if (column < spec->columns) {
                frequency[i] += spec->weight[column];
                if (offset >= spec->extent[column]) spec->extent[column] = offset + 1;
            } else {
                frequency[i] += 1.0;
            }
        }
    }
    int length = 0;
    int scored = 1;
    if (rc == SQLITE_OK && spec->best > 0 && spec->kept == spec->best) {
        /* The row is at least as long as its last positions say: the score at that length is the
         * most it can have (a longer row scores less), and below the least kept it cannot count. */
        double shortest = 0;
        for (int column = 0; column < spec->columns; column++) shortest += spec->extent[column];
        if (rank_score(spec, frequency, best, shortest) < spec->heap[0]) scored = 0;
    }
    if (rc == SQLITE_OK && scored) rc = api->xColumnSize(fts, -1, &length);
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(result, rc);
    } else if (!scored) {
        sqlite3_result_null(result);
    } else {
        double score = rank_score(spec, frequency, best, length);
        if (spec->best > 0) rank_heap_add(spec, score);
        sqlite3_result_double(result, -score);
    }
    if (frequency != buffer) sqlite3_free(frequency);
}

int arkivator_fts_register_rank(sqlite3 *db) {
    fts5_api *api = NULL;
    int rc = find_fts5_api(db, &api);
    if (rc != SQLITE_OK) return rc;
    return api->xCreateFunction(api, "arkivator_rank", NULL, rank_function, NULL);
}
