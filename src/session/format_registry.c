/* The table of input formats (one entry per format, filled in its own
 * folder: src/<fmt>/<fmt>_format.c), content detection and the
 * tk_source_open() dispatch. Below the session so a session opens any
 * input by its content; output-only formats (JSON lines, Chrome JSON,
 * folded, ...) are src/convert's. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/format_registry.h"

static const tk_format_ops *const registry[] = {
    &tk_perf_format_ops, &tk_ctf_format_ops,  &tk_cpel_format_ops,
    &tk_elog_format_ops, &tk_dcpi_format_ops, &tk_tklog_format_ops,
};
#define N_FORMATS (sizeof registry / sizeof registry[0])

const tk_format_ops *tk_format_ops_for(tk_format fmt)
{
	for (size_t i = 0; i < N_FORMATS; i++)
		if (registry[i]->format == fmt)
			return registry[i];
	return NULL;
}

tk_format tk_detect_path(const char *path, tk_error *err)
{
	tk_error_set_file(err, path);
	if (strcmp(path, "-") == 0) {
		/* stdin cannot be peeked without consuming it: only perf pipe
		 * mode is streamed from stdin. */
		return TK_FORMAT_PERF;
	}
	struct stat sb;
	if (stat(path, &sb) != 0) {
		tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open: %s", strerror(errno));
		return TK_FORMAT_UNKNOWN;
	}
	if (S_ISDIR(sb.st_mode)) {
		for (size_t i = 0; i < N_FORMATS; i++)
			if (registry[i]->detect_dir && registry[i]->detect_dir(path))
				return registry[i]->format;
		tk_error_set(
		    err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
		    "directory holds no trace tracekit knows (no CTF metadata, no perf data)");
		return TK_FORMAT_UNKNOWN;
	}
	uint8_t head[4096];
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, head, sizeof head);
		close(fd);
	}
	if (fd < 0 || n < 0) {
		tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot read: %s", strerror(errno));
		return TK_FORMAT_UNKNOWN;
	}
	for (size_t i = 0; i < N_FORMATS; i++)
		if (registry[i]->detect_file && registry[i]->detect_file(head, (size_t)n))
			return registry[i]->format;
	/* A path to a CTF metadata file names its trace directory. */
	for (size_t i = 0; i < N_FORMATS; i++)
		if (registry[i]->detect_dir && registry[i]->detect_dir(path))
			return registry[i]->format;
	if (n < 4) {
		tk_error_set(err, TK_ERR_TRUNCATED, 0,
			     "unknown file format: the file holds only %zd bytes", n);
		return TK_FORMAT_UNKNOWN;
	}
	tk_error_set(err, TK_ERR_UNSUPPORTED, 0,
		     "unknown file format (magic bytes %02x %02x %02x %02x)", head[0], head[1],
		     head[2], head[3]);
	return TK_FORMAT_UNKNOWN;
}

tk_format tk_detect_format(const char *path, tk_error *err)
{
	return tk_detect_path(path, err);
}

tk_status tk_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			 tk_error *err)
{
	*out = NULL;
	tk_format fmt = opt && opt->format ? opt->format : tk_detect_path(path, err);
	if (fmt == TK_FORMAT_UNKNOWN)
		return err ? err->status : TK_ERR_UNSUPPORTED;
	const tk_format_ops *ops = tk_format_ops_for(fmt);
	if (!ops || !ops->source_open)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "no reader for format %s", tk_format_name(fmt));
	return ops->source_open(path, opt, out, err);
}
