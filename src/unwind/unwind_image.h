/* The DWARF of one image, for the inline frames (unwind_inline.c): one
 * Dwarf per image file and build id, shared by every address space that
 * maps it (the Dwfl of a space would read it again per space), opened
 * with only the sections a scope lookup reads, and loaded ahead by a
 * background thread for the images the caller names.
 *
 * Why: decompressing glibc's compressed debug file was ~50% of tracekit's
 * time on a python3 recording. libdw inflates every compressed .debug_*
 * section when the Dwarf is made; .debug_line and .debug_loclists (a
 * quarter of that work) are never read by dwarf_getscopes, so they are
 * hidden from libdw (SHT_NOBITS in the in-memory section header), and
 * the rest is inflated on the second core while the first one reads
 * and unwinds.
 *
 * Which file: what libdwfl's dwfl_module_getdwarf() would take in the
 * cases handled here, the image itself when it has DWARF sections, else
 * the build-id debug file under /usr/lib/debug (its build id checked).
 * An image with neither (no build id, debuglink only, debuginfod) is not
 * handled: tk_unwind_image_dwarf() says so and the caller keeps
 * libdwfl's own lookup.
 *
 * Thread-safety: the functions are called from the unwinder's thread;
 * the worker thread only touches images queued by tk_unwind_images_start()
 * and hands each over under a mutex. */
#ifndef TK_UNWIND_UNWIND_IMAGE_H
#define TK_UNWIND_UNWIND_IMAGE_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tk_unwind_images tk_unwind_images;

/* NULL when out of memory. */
tk_unwind_images *tk_unwind_images_new(void);
/* Joins the worker, frees every Dwarf. NULL is fine. */
void tk_unwind_images_free(tk_unwind_images *im);

/* Queues an image (path, build id) to load; nothing happens until
 * tk_unwind_images_start(). Unknown or unreadable images cost a failed
 * open in the worker, no error. */
void tk_unwind_images_add(tk_unwind_images *im, const char *path, const uint8_t *build_id,
			  size_t build_id_len);
/* Starts the worker thread on the queued images (none started: the
 * images load on first use, in the caller's thread). */
void tk_unwind_images_start(tk_unwind_images *im);

typedef enum tk_unwind_image_result {
	TK_UNWIND_IMAGE_DWARF, /* *dw (and *bias) set */
	TK_UNWIND_IMAGE_NONE,  /* the file libdwfl would take has no usable DWARF */
	TK_UNWIND_IMAGE_DEFER, /* not handled here: use libdwfl's own Dwarf */
} tk_unwind_image_result;

/* The Dwarf of mod's image, waiting for the worker if it is loading it;
 * *bias turns an address of mod into one of the Dwarf. */
tk_unwind_image_result tk_unwind_image_dwarf(tk_unwind_images *im, Dwfl_Module *mod, Dwarf **dw,
					     Dwarf_Addr *bias);

/* For the Dwfl's find_debuginfo callback (its file_name and
 * debuglink_file): true when the image of mod is handled here (a build-id
 * debug file) and that file has no .debug_frame, so libdwfl would get no
 * CFI from it either: the Dwfl need not open (and inflate) it; true also
 * when no file exists that libdwfl's search could find (and
 * DEBUGINFOD_URLS is unset). */
bool tk_unwind_image_skip_debuginfo(Dwfl_Module *mod, const char *file_name,
				    const char *debuglink_file);

#endif
