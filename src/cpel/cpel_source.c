/* CPEL and elog as model sources; see cpel_adapters.h. */
#include "cpel/cpel_adapters.h"

tk_status tk_cpel_source_open(const char *path, const tk_open_options *opt, tk_source **out, tk_error *err)
{
	(void)path;
	(void)opt;
	*out = NULL;
	return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "not yet");
}

tk_status tk_elog_source_open(const char *path, const tk_open_options *opt, tk_source **out, tk_error *err)
{
	(void)path;
	(void)opt;
	*out = NULL;
	return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "not yet");
}
