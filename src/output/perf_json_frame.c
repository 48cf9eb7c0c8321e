/* One callchain entry of print --format json on perf.data, rendered once
 * per distinct address by the line cache (perf_script_lines.h). The keys
 * are those of convert --to json's callchain (context_json.c), so both
 * JSON outputs of a recording describe a frame the same way. */
#include "output/perf_json_frame.h"

void tk_json_frame_render(tk_writer *w, const tk_addr_loc *loc, uint64_t ip, const char *name,
			  size_t name_len, bool inlined)
{
	tk_put_lit(w, "{\"ip\":");
	tk_put_json_hex(w, ip);
	if (name) {
		tk_put_lit(w, ",\"symbol\":");
		tk_put_json_str(w, name, name_len);
		tk_put_lit(w, ",\"sym_off\":");
		tk_put_json_u64(w, loc->sym_off);
	}
	if (inlined)
		tk_put_lit(w, ",\"inlined\":true");
	if (loc->map) {
		tk_put_lit(w, ",\"dso\":");
		const tk_dso *d = loc->map->dso;
		tk_put_json_str(w, d->short_name, strlen(d->short_name));
		tk_put_lit(w, ",\"dso_off\":");
		tk_put_json_hex(w, loc->addr);
	}
	tk_put_lit(w, "},");
}
