/* speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile, one sample per distinct folded stack (frame
 * indexes root first) weighted by its period sum, so speedscope's totals
 * are folded's. */
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "output/folded_stacks.h"

bool tk_speedscope_put(tk_writer *w, const tk_folded_stacks *s, const char *title)
{
	tk_intern frames;
	tk_intern_init(&frames, 0);
	size_t *idx = calloc(s->max_depth ? s->max_depth : 1, sizeof *idx);
	tk_put_str(w, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		      "\"exporter\":\"tracekit\",\"name\":");
	tk_put_json_str(w, title, strlen(title));
	tk_put_str(w, ",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\",\"name\":");
	tk_put_json_str(w, s->event, strlen(s->event));
	/* periods of the clock events are nanoseconds; others are counts */
	tk_put_str(w, s->nanoseconds ? ",\"unit\":\"nanoseconds\"" : ",\"unit\":\"none\"");
	tk_put_str(w, ",\"startValue\":0,\"endValue\":");
	tk_put_u64(w, s->total);
	tk_put_str(w, ",\"samples\":[");
	bool ok = idx != NULL;
	for (size_t i = 0; ok && i < s->n; i++) {
		tk_put_str(w, i ? ",[" : "[");
		for (size_t k = 0; ok && k < s->v[i].n; k++) {
			const char *f = s->v[i].frames[k];
			ok = tk_intern_get(&frames, f, strlen(f), &idx[k], NULL);
			if (k)
				tk_put_char(w, ',');
			tk_put_u64(w, idx[k]);
		}
		tk_put_char(w, ']');
	}
	tk_put_str(w, "],\"weights\":[");
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			tk_put_char(w, ',');
		tk_put_u64(w, s->v[i].weight);
	}
	tk_put_str(w, "]}],\"shared\":{\"frames\":[");
	for (size_t i = 0; i < frames.n; i++) {
		tk_put_str(w, i ? ",{\"name\":" : "{\"name\":");
		tk_put_json_str(w, frames.v[i].key, frames.v[i].len);
		tk_put_char(w, '}');
	}
	tk_put_str(w, "]}}\n");
	free(idx);
	tk_intern_free(&frames);
	return ok;
}
