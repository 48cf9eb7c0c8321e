/* Registry entry for tracekit logger files (tk_log_open_file(), see
 * include/tracekit/log.h): a file left by a running, exited or killed
 * process. The rings are checked and merged into elog bytes in memory
 * (src/log/log_recover.c), which the elog reader then serves. In cpel/
 * because it is read as an elog; src/log is below the formats. Native
 * renderers: src/output/tklog_cli.c. */
#include <stdlib.h>
#include <string.h>

#include "base/input.h"
#include "cpel/cpel_adapters.h"
#include "cpel/elog_reader.h"
#include "log/log_impl.h"
#include "model/format_ops.h"

static bool tklog_detect(const uint8_t *head, size_t n)
{
	return n >= 8 && memcmp(head, LG_MAGIC, 8) == 0;
}

tk_status tk_tklog_open_input(const char *path, tk_input **in, tk_error *err)
{
	tk_status st = tk_input_open(path, in, err);
	if (st != TK_OK)
		return st;
	if (tk_input_is_stream(*in)) {
		tk_input_close(*in);
		*in = NULL;
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "a tracekit log must be a regular file");
	}
	return TK_OK;
}

tk_status tk_tklog_open_elog(const char *path, tk_elog_file **out, tk_error *err)
{
	*out = NULL;
	tk_input *in;
	tk_status st = tk_tklog_open_input(path, &in, err);
	if (st != TK_OK)
		return st;
	uint8_t *bytes;
	size_t n;
	const char *why;
	uint64_t at;
	bool ok = tk_lg_recover_elog(tk_input_data(in), tk_input_size(in), &bytes, &n, &why, &at);
	tk_input_close(in);
	tk_error_set_file(err, path);
	if (!ok)
		return tk_error_set(
		    err, strcmp(why, "out of memory") == 0 ? TK_ERR_NOMEM : TK_ERR_FORMAT,
		    strcmp(why, "out of memory") == 0 ? TK_NO_OFFSET : at, "%s", why);
	return tk_elog_open_owned(bytes, n, path, out, err);
}

static tk_status tklog_source_open(const char *path, const tk_open_options *opt, tk_source **out,
				   tk_error *err)
{
	(void)opt;
	*out = NULL;
	tk_elog_file *f;
	tk_status st = tk_tklog_open_elog(path, &f, err);
	if (st != TK_OK)
		return st;
	return tk_elog_source_wrap(f, path, TK_FORMAT_TKLOG, out, err);
}

const tk_format_ops tk_tklog_format_ops = {
    .format = TK_FORMAT_TKLOG,
    .name = "tklog",
    .detect_file = tklog_detect,
    .source_open = tklog_source_open,
};
