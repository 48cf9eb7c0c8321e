/* perf.data's native renderers (info, stats, print styles), for the
 * renderer table (render_table.c); the format entry is src/perf/perf_format.c. */
#include "output/render_ops.h"
#include "output/perf_render.h"

const tk_render_ops tk_perf_render_ops = {
    .format = TK_FORMAT_PERF,
    .info = tk_perf_render_info,
    .stats = tk_perf_render_stats,
    .print = tk_perf_render_print,
};
