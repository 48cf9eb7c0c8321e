/* tk_sink_open(): the sinks of output-only formats (JSON lines, Chrome
 * JSON: convert_outputs.c) and the writers of the input formats' entries
 * (session/format_registry.c). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert/formats.h"
#include "convert/convert_outputs.h"

tk_status tk_sink_open(const char *path, tk_format fmt, const tk_trace_info *info,
		       const tk_sink_options *opt, tk_sink **out, tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	/* Output-only formats have no reader, hence no format entry: their
	 * line in the output table (convert_outputs.c) names their sink. */
	const tk_output_entry *oe = tk_output_entry_for(fmt);
	if (oe && oe->sink_open)
		return oe->sink_open(path, info, opt, out, err);
	const tk_format_ops *ops = tk_format_ops_for(fmt);
	if (!ops || !ops->sink_open)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "no writer for format %s", tk_format_name(fmt));
	return ops->sink_open(path, info, opt, out, err);
}
