#ifndef LUCID_CZLIB_SHIM_H
#define LUCID_CZLIB_SHIM_H

#include <zlib.h>

/// Starts `stream` (zeroed by the caller) on one gzip member (RFC 1952) at `level`.
///
/// `deflateInit2` is a macro that passes zlib's version and the size of `z_stream` to
/// `deflateInit2_`, which Swift cannot import. Window bits 15 + 16 ask for the gzip wrapper
/// rather than zlib's own; its header says no name and no time, so the same bytes always
/// compress to the same member. Returns Z_OK, or Z_MEM_ERROR when memory runs out.
static inline int lucid_zlib_gzip_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
