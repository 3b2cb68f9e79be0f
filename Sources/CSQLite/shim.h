#ifndef LUCID_CSQLITE_SHIM_H
#define LUCID_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
/// It tells SQLite to copy bound text and blobs before the bind call returns.
static inline sqlite3_destructor_type lucid_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// SQLITE_CONSTRAINT_UNIQUE is a computed macro, which Swift does not import.
static inline int lucid_sqlite_constraint_unique(void) {
    return SQLITE_CONSTRAINT_UNIQUE;
}

#endif
