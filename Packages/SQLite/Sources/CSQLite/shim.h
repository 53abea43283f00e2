#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; these typed wrappers bind with it so SQLite copies the bytes.
static inline int jqc_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 length) {
    return sqlite3_bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static inline int jqc_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 length) {
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}
