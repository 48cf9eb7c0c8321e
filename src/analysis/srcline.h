/* file:line of an address in an image, from its DWARF line table with
 * elfutils' libdw (what perf gets from addr2line for --sort srcline and
 * -F +srcline): one Dwfl per image file (separate debug files found
 * through debuglink and build ids, as the unwinder finds them), results
 * cached per (image, address). Without libdw at build time the lookup
 * gives NULL. */
#ifndef TK_ANALYSIS_SRCLINE_H
#define TK_ANALYSIS_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tk_srcline tk_srcline;

/* NULL when out of memory. */
tk_srcline *tk_srcline_new(void);
void tk_srcline_free(tk_srcline *s);

/* perf report's rule on top of addr2line's answers: an image whose first
 * 123 lookups all fail is not asked again (its later lookups fail). Off
 * unless asked for. */
void tk_srcline_fail_limit(tk_srcline *s, bool on);

/* The line holding the byte at file offset `off` of the ELF file `path`
 * (the sample's ip - map start + map pgoff), as perf reads binutils'
 * addr2line: "file:line" (the file's base name unless full_path);
 * "file:0" where addr2line says "file:?" (no line table there, the
 * function symbol's file), "??:0" for "??:?" (a function symbol without
 * a file); NULL where addr2line finds nothing (its "??:0": perf then
 * shows sym+off or image[address]), in the PLT, or when the file cannot
 * be read. The text lives as long as s. */
const char *tk_srcline_get(tk_srcline *s, const char *path, uint64_t off, bool full_path);

/* perf's build-id cache (~/.debug): an image recorded with a build id
 * whose copy there has a .symtab is read from that copy, as perf does. */
void tk_srcline_debug_dir(tk_srcline *s, const char *dir);
/* tk_srcline_get for an image with that build id (id_len 0: none). */
const char *tk_srcline_get_id(tk_srcline *s, const char *path, const uint8_t *id, size_t id_len,
			      uint64_t off, bool full_path);

#endif
