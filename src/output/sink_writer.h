/* Opening the writer behind a text sink: "-" is stdout, anything else an
 * atomic file (temporary beside the target, renamed on commit). */
#ifndef TK_OUTPUT_SINK_WRITER_H
#define TK_OUTPUT_SINK_WRITER_H

#include <string.h>
#include <unistd.h>

#include "base/writer.h"

static inline tk_status tk_sink_writer_open(const char *path, tk_writer **w, tk_error *err)
{
	if (strcmp(path, "-") == 0)
		return tk_writer_open_fd(STDOUT_FILENO, "stdout", w, err);
	return tk_writer_open_atomic(path, w, err);
}

#endif
