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

/* The line holding the byte at file offset `off` of the ELF file `path`
 * (the sample's ip - map start + map pgoff), as "file:line": the file's
 * base name unless full_path; "??:0" (as addr2line says) when the file
 * is read but no line covers it; NULL when the file cannot be read. The
 * text lives as long as s. */
const char *tk_srcline_get(tk_srcline *s, const char *path, uint64_t off, bool full_path);

#endif
