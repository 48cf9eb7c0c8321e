/* The persistent symbol cache's file format: one finished symbol table
 * (kallsyms or ELF, after perf's fix-ups) in a form that is used in place
 * through mmap, so a warm run neither re-parses text nor rebuilds tables.
 *
 * Layout (host byte order; the cache never leaves the machine): a fixed
 * header, then sections at 8-aligned offsets the header lists (key, starts,
 * sizes, name offsets, module offsets, types, the no-overlap flags, the
 * lookup index, the table-order symbols and late PLT symbols perf's tree
 * is built from, PT_LOAD segments, a string pool ending in NUL).
 * A file is trusted only after every check: magic, version, byte order,
 * header size, file size, a checksum over everything past the checksum
 * field, each section inside the file with the size its count implies,
 * every string offset inside the pool, and the key the caller expects
 * (what the table was built from) byte for byte.
 *
 * Internal to src/symbols. Not thread-safe (as the tables). */
#ifndef TK_SYMCACHE_FILE_H
#define TK_SYMCACHE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

#define TK_SYMFILE_MAGIC   "TKSYMTB\n"
#define TK_SYMFILE_VERSION 1u

enum { TK_SYMFILE_KALLSYMS = 1, TK_SYMFILE_ELF = 2 };

/* Serializes t, a table just loaded (no lookup yet: an ELF table must
 * still hold its table-order symbols), with key[0..key_len) into a
 * malloc'd buffer *out of *out_len bytes. false: out of memory, or t is not
 * a table this format keeps (mapped already, tree built, perf map). */
bool tk_symfile_encode(const tk_symtab *t, const void *key, size_t key_len, void **out,
		       size_t *out_len);

/* The same bytes written to fd, a new empty file, through a small
 * buffer (no copy of the whole file in memory); the checksum is written
 * last, so a file cut short never checks. false: as above, or a write
 * failed. */
bool tk_symfile_encode_fd(const tk_symtab *t, const void *key, size_t key_len, int fd);

/* buf[0..n) written at offset at of fd, whole (short writes and EINTR
 * retried). */
bool tk_symfile_pwrite(int fd, const void *buf, size_t n, uint64_t at);

/* A private view of what tk_symfile_encode() reads from t, so t can be
 * encoded in another thread while this one looks symbols up in it: a
 * lookup may build t's tree, which frees its table-order symbols, so
 * those are copied; the rest (symbols, names, segments) is shared. t must
 * outlive the view and must not be changed otherwise meanwhile. NULL when
 * out of memory or t cannot be encoded. */
tk_symtab *tk_symfile_snapshot(const tk_symtab *t);
void tk_symfile_snapshot_free(tk_symtab *s);

/* A table over data[0..len), which must be 8-byte aligned, stay unchanged
 * and outlive the table (the caller may hand a tk_symfile_map mapping
 * over: set map_base and map_len on the result). check_sum false skips
 * only the checksum (fuzzing reaches the structural checks that way; a
 * mapping whose bytes another table's decode checked). TK_ERR_FORMAT with
 * the byte offset of the first bad field, TK_ERR_NOT_FOUND when the file
 * is sound but made for another key, TK_ERR_NOMEM. */
tk_status tk_symfile_decode(const void *data, size_t len, const void *key, size_t key_len,
			    bool check_sum, tk_symtab **out, tk_error *err);

/* The checksum the format uses (64-bit, four multiply-rotate lanes). */
uint64_t tk_symfile_checksum(const void *data, size_t len);

#endif
