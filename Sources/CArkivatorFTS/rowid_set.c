/* Sets of rowids for search filters the index's words cannot say exactly (a date inside a year,
 * "no person"): read once from an SQL index into a blob, then tested per match in C, so a search
 * reads no documents row to filter. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "arkivator_fts.h"

/*
 * The blob: a header of 16 bytes, then the members.
 *   byte 0:      1 = bitmap, 2 = sorted array
 *   bytes 8-15:  bitmap: the rowid of bit 0 (native int64); sorted array: unused
 *   bitmap:      bit i of byte i / 8 (least significant first) is set when base + i is a member
 *   sorted:      the members as native int64, ascending
 * A bitmap is made when it is no larger than the array would be (rowids are dense in practice).
 */
enum { HEADER = 16, BITMAP = 1, SORTED = 2 };

typedef struct Collect {
    sqlite3_int64 *ids;
    sqlite3_int64 count;
    sqlite3_int64 capacity;
    sqlite3_int64 least;
    sqlite3_int64 most;
} Collect;

static void collect_free(Collect *collect) {
    sqlite3_free(collect->ids);
    memset(collect, 0, sizeof *collect);
}

static void set_step(sqlite3_context *context, int count, sqlite3_value **values) {
    if (count != 1 || sqlite3_value_type(values[0]) != SQLITE_INTEGER) return;  /* NULL: not a member */
    Collect *collect = sqlite3_aggregate_context(context, sizeof *collect);
    if (collect == NULL) { sqlite3_result_error_nomem(context); return; }
    sqlite3_int64 id = sqlite3_value_int64(values[0]);
    if (collect->count == collect->capacity) {
        sqlite3_int64 capacity = collect->capacity > 0 ? collect->capacity * 2 : 1024;
        sqlite3_int64 *grown = sqlite3_realloc64(collect->ids, sizeof *grown * (sqlite3_uint64)capacity);
        if (grown == NULL) { sqlite3_result_error_nomem(context); return; }
        collect->ids = grown;
        collect->capacity = capacity;
    }
    if (collect->count == 0 || id < collect->least) collect->least = id;
    if (collect->count == 0 || id > collect->most) collect->most = id;
    collect->ids[collect->count++] = id;
}

static int compare_ids(const void *a, const void *b) {
    sqlite3_int64 x = *(const sqlite3_int64 *)a, y = *(const sqlite3_int64 *)b;
    return x < y ? -1 : x > y;
}

/* Called once per aggregate, also when the statement stops early: it frees what step gathered. */
static void set_final(sqlite3_context *context) {
    Collect *collect = sqlite3_aggregate_context(context, 0);
    Collect empty = { NULL, 0, 0, 0, 0 };
    if (collect == NULL) collect = &empty;  /* no rows */
    /* Both in bytes; the span of a bitmap is at most 2^64 bits, so it is counted in bytes. */
    sqlite3_uint64 span = (sqlite3_uint64)collect->most - (sqlite3_uint64)collect->least;
    sqlite3_uint64 bitmapBytes = span / 8 + 1;
    sqlite3_uint64 arrayBytes = sizeof(sqlite3_int64) * (sqlite3_uint64)collect->count;
    int bitmap = collect->count > 0 && bitmapBytes <= arrayBytes;
    sqlite3_uint64 size = HEADER + (bitmap ? bitmapBytes : arrayBytes);
    unsigned char *blob = sqlite3_malloc64(size);
    if (blob == NULL) {
        collect_free(collect);
        sqlite3_result_error_nomem(context);
        return;
    }
    memset(blob, 0, bitmap ? size : HEADER);
    blob[0] = bitmap ? BITMAP : SORTED;
    if (bitmap) {
        memcpy(blob + 8, &collect->least, sizeof collect->least);
        for (sqlite3_int64 i = 0; i < collect->count; i++) {
            sqlite3_uint64 bit = (sqlite3_uint64)collect->ids[i] - (sqlite3_uint64)collect->least;
            blob[HEADER + bit / 8] |= (unsigned char)(1u << (bit % 8));
        }
    } else if (collect->count > 0) {
        qsort(collect->ids, (size_t)collect->count, sizeof *collect->ids, compare_ids);
        memcpy(blob + HEADER, collect->ids, (size_t)arrayBytes);
    }
    collect_free(collect);
    sqlite3_result_blob64(context, blob, size, sqlite3_free);
}

/* arkivator_rowid_in(set, rowid): 1 when rowid is in the set, else 0; an error for a blob that
 * is not a set (the SQL is the search's own, so that is a bug, not user input). */
static void rowid_in(sqlite3_context *context, int count, sqlite3_value **values) {
    if (count != 2 || sqlite3_value_type(values[0]) != SQLITE_BLOB) {
        sqlite3_result_error(context, "arkivator_rowid_in: not a rowid set", -1);
        return;
    }
    const unsigned char *blob = sqlite3_value_blob(values[0]);
    int size = sqlite3_value_bytes(values[0]);
    if (blob == NULL && size > 0) { sqlite3_result_error_nomem(context); return; }
    if (blob == NULL || size < HEADER || (blob[0] != BITMAP && blob[0] != SORTED)
        || (blob[0] == SORTED && (size - HEADER) % 8 != 0)) {
        sqlite3_result_error(context, "arkivator_rowid_in: not a rowid set", -1);
        return;
    }
    if (sqlite3_value_type(values[1]) != SQLITE_INTEGER) { sqlite3_result_int(context, 0); return; }
    sqlite3_int64 id = sqlite3_value_int64(values[1]);
    int member = 0;
    if (blob[0] == BITMAP) {
        sqlite3_int64 base;
        memcpy(&base, blob + 8, sizeof base);
        if (id >= base) {
            sqlite3_uint64 bit = (sqlite3_uint64)id - (sqlite3_uint64)base;
            if (bit / 8 < (sqlite3_uint64)(size - HEADER)) member = (blob[HEADER + bit / 8] >> (bit % 8)) & 1;
        }
    } else {
        /* Binary search; the members may not be 8-byte aligned in the blob, so each is copied out. */
        size_t low = 0, high = (size_t)(size - HEADER) / 8;
        while (low < high) {
            size_t middle = low + (high - low) / 2;
            sqlite3_int64 value;
            memcpy(&value, blob + HEADER + middle * 8, sizeof value);
            if (value == id) { member = 1; break; }
            if (value < id) low = middle + 1; else high = middle;
        }
    }
    sqlite3_result_int(context, member);
}

int arkivator_fts_register_rowid_sets(sqlite3 *db) {
    int rc = sqlite3_create_function_v2(db, "arkivator_rowid_set", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                        NULL, set_step, set_final, NULL);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, "arkivator_rowid_in", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                      rowid_in, NULL, NULL, NULL);
}
