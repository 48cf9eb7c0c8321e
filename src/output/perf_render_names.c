/* Names shared by the perf renderers (sample_type bits, record types). */
#include "output/perf_render.h"

void tk_perf_put_sample_type(tk_writer *w, uint64_t sample_type)
{
	bool first = true;
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(sample_type >> bit & 1))
			continue;
		if (!first)
			tk_put_char(w, '|');
		first = false;
		const char *name = tk_perf_sample_bit_name(bit);
		if (name) {
			tk_put_str(w, name);
		} else {
			tk_put_str(w, "BIT");
			tk_put_u64(w, bit);
		}
	}
	if (first)
		tk_put_char(w, '0');
}

void tk_perf_put_record_type(tk_writer *w, uint32_t type)
{
	const char *name = tk_perf_record_type_name(type);
	if (name) {
		tk_put_str(w, name);
	} else {
		tk_put_str(w, "UNKNOWN(");
		tk_put_u64(w, type);
		tk_put_char(w, ')');
	}
}
