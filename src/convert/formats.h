/* The format registry as the CLI and converters see it: input formats
 * (session/format_registry.h), their native renderers
 * (output/render_table.h), tk_sink_open() for every output format. */
#ifndef TK_CONVERT_FORMATS_H
#define TK_CONVERT_FORMATS_H

#include "model/format_ops.h"
#include "output/render_table.h"
#include "session/format_registry.h"

/* Old names, kept while branches written against them are merged:
 * the options are the library's neutral tk_render_options now. */
typedef tk_render_options tk_cli_options;
static inline tk_filter tk_cli_filter(const tk_render_options *opt)
{
	return tk_render_filter(opt);
}

#endif
