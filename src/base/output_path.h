/* What an output path names, so writers never destroy what is not theirs.
 *
 * A symlink is followed to its target (chains included, relative targets
 * taken from the link's directory), and the target decides how it is
 * written: an absent path or a regular file is replaced atomically (a
 * temporary beside it, renamed on commit); a character device, FIFO or
 * socket is written through, never replaced; a directory is only ever a
 * CTF output. "-" is standard output; /dev/stdout, /dev/stderr, /dev/fd/N
 * and /proc/self/fd/N are the process's own descriptors, written to as they
 * are (following their link would replace, or overwrite from its start, a
 * file the shell opened, perhaps for appending). */
#ifndef TK_BASE_OUTPUT_PATH_H
#define TK_BASE_OUTPUT_PATH_H

#include <stdbool.h>
#include <sys/stat.h>

#include "tracekit/status.h"

typedef enum tk_output_kind {
	TK_OUTPUT_ABSENT,  /* nothing there yet: created atomically */
	TK_OUTPUT_REGULAR, /* replaced atomically */
	TK_OUTPUT_STREAM,  /* character device, FIFO, socket: written through */
	TK_OUTPUT_DIR,     /* a directory */
	TK_OUTPUT_OTHER,   /* a block device or anything else: never written */
	TK_OUTPUT_STDOUT,  /* "-", /dev/stdout, /dev/fd/N: the open descriptor `fd` */
} tk_output_kind;

typedef struct tk_output_path {
	char *path; /* malloc'd: the symlink target when path was a symlink */
	tk_output_kind kind;
	struct stat sb; /* of the target; valid unless ABSENT or STDOUT */
	int fd;         /* STDOUT: the descriptor written to (not owned) */
} tk_output_path;

/* Resolves path (NULL err is fine). On failure err names path. Free with
 * tk_output_path_free(). */
tk_status tk_output_path_resolve(const char *path, tk_output_path *out, tk_error *err);
void tk_output_path_free(tk_output_path *out);

/* Opens a write-through output (STREAM or STDOUT) for writing: sockets are
 * connected, devices and FIFOs opened without truncation. Returns the fd
 * (the caller closes it unless kind is STDOUT) or -1 with err set. */
int tk_output_path_open_stream(const tk_output_path *out, tk_error *err);

#endif
