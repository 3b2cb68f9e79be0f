#ifndef LUCID_CPOSTGRES_SHIM_H
#define LUCID_CPOSTGRES_SHIM_H

// libpq, PostgreSQL's client library. Its API has no variadic calls, so this module is the
// header alone; the pointers stay inside LucidPostgres.
#include <libpq-fe.h>

#endif
