/* Line-oriented helpers shared by the text symbol loaders (kallsyms,
 * perf-PID.map): reading a whole small text file and parsing hex fields. */
#ifndef TK_SYMTEXT_H
#define TK_SYMTEXT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

/* Reads path into a malloc'd buffer (procfs files report size 0, so this
 * reads until EOF), at most `limit` bytes. */
tk_status tk_symtext_read(const char *path, size_t limit, char **text, size_t *len, tk_error *err);
/* The same, stopping with TK_ERR_INTERRUPTED (nothing returned) once
 * *stop is set (checked before every read; NULL: never). */
tk_status tk_symtext_read_until(const char *path, size_t limit, const atomic_bool *stop,
				char **text, size_t *len, tk_error *err);
/* Parses hex digits (optional 0x) at s[*i..n); false when there are none
 * or more than 16. */
bool tk_symtext_hex(const char *s, size_t n, size_t *i, uint64_t *out);

#endif
