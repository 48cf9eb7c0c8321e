/* One callchain entry of print --format json on perf.data, rendered once
 * per distinct address by the line cache (perf_script_lines.h). The keys
 * are those of convert --to json's callchain (context_json.c), so both
 * JSON outputs of a recording describe a frame the same way. */
#include <stdint.h>
#include <string.h>

#include "output/perf_json_frame.h"

/* A byte of x is below 0x20, at or above 0x80, '"' or '\\' (the classic
 * has-zero / has-less-than word tests; exact as to whether one is). */
static int needs_escape8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	return (((x - ones * 0x20) & ~x) | x | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

/* A JSON string: names of symbols and images need no escaping nearly
 * always, and are then copied whole (tk_put_json_str looks at each byte:
 * a fifth of a frame's rendering). */
static void put_name(tk_writer *w, const char *s, size_t n)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		if (needs_escape8(x))
			break;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
			break;
	}
	if (i < n || !tk_writer_reserve(w, n + 2)) {
		tk_put_json_str(w, s, n);
		return;
	}
	char *d = w->buf + w->pos;
	d[0] = '"';
	memcpy(d + 1, s, n);
	d[n + 1] = '"';
	w->pos += n + 2;
}

void tk_json_frame_render(tk_writer *w, const tk_addr_loc *loc, uint64_t ip, const char *name,
			  size_t name_len, bool inlined)
{
	tk_put_lit(w, "{\"ip\":");
	tk_put_json_hex(w, ip);
	if (name) {
		tk_put_lit(w, ",\"symbol\":");
		put_name(w, name, name_len);
		tk_put_lit(w, ",\"sym_off\":");
		tk_put_json_u64(w, loc->sym_off);
	}
	if (inlined)
		tk_put_lit(w, ",\"inlined\":true");
	if (loc->map) {
		tk_put_lit(w, ",\"dso\":");
		const tk_dso *d = loc->map->dso;
		put_name(w, d->short_name, strlen(d->short_name));
		tk_put_lit(w, ",\"dso_off\":");
		tk_put_json_hex(w, loc->addr);
	}
	tk_put_lit(w, "},");
}
