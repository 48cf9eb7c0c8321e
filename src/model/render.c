/* tk_render_options -> tk_filter. */
#include "model/render.h"

tk_filter tk_render_filter(const tk_render_options *opt)
{
	return (tk_filter){
	    .has_begin = opt->has_begin,
	    .has_end = opt->has_end,
	    .begin_ns = opt->begin_ns,
	    .end_ns = opt->end_ns,
	    .events = opt->events,
	    .pid = opt->pid,
	    .tid = opt->tid,
	    .cpu = opt->cpu,
	};
}
