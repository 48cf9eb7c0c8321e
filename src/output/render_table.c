/* The table of native renderers; see render_table.h. */
#include "output/render_table.h"

static const tk_render_ops *const renderers[] = {
    &tk_perf_render_ops, &tk_ctf_render_ops,  &tk_cpel_render_ops,
    &tk_elog_render_ops, &tk_dcpi_render_ops, &tk_tklog_render_ops,
};

const tk_render_ops *tk_render_ops_for(tk_format fmt)
{
	for (size_t i = 0; i < sizeof renderers / sizeof renderers[0]; i++)
		if (renderers[i]->format == fmt)
			return renderers[i];
	return NULL;
}
