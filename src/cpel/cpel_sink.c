/* CPEL as a model sink; see cpel_adapters.h. */
#include "cpel/cpel_adapters.h"

tk_status tk_cpel_sink_open(const char *path, const tk_trace_info *info, const tk_sink_options *opt,
			    tk_sink **out, tk_error *err)
{
	(void)path;
	(void)info;
	(void)opt;
	*out = NULL;
	return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "not yet");
}
