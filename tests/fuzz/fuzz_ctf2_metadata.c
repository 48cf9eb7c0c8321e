/* Fuzz target: CTF 2 metadata (CTF2-SPEC-2.0 JSON text sequences): the
 * strict JSON reader, the fragments -> IR builder, field locations and the
 * decode plan compiler. The input is the metadata text; a leading 0x1E is
 * added when missing so that every input reaches the CTF 2 path (and not
 * the TSDL parser). Must never crash, hang or allocate without bound. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf2_json.h"
#include "ctf/ctf_meta.h"
#include "ctf/ctf_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 2);
	if (!text)
		return 0;
	size_t len = 0;
	if (!size || data[0] != 0x1E)
		text[len++] = 0x1E;
	if (size)
		memcpy(text + len, data, size);
	len += size;
	tk_error err;
	tk_error_clear(&err);
	/* the JSON reader alone, on the whole input */
	tk_arena a;
	tk_arena_init(&a, 4096);
	a.limit = (size_t)64 << 20;
	ctf2_json *v;
	(void)ctf2_json_parse(&a, (const char *)data, size, 0, &v, &err);
	tk_arena_free(&a);
	ctf_trace_class *tc;
	if (ctf_trace_class_parse(text, len, "fuzz", NULL, NULL, &tc, &err) == TK_OK) {
		static char buf[4096];
		for (size_t i = 0; i < tc->n_streams; i++) {
			const ctf_stream_class *sc = tc->streams[i];
			ctf_plan_dump(sc->event_header_plan, buf, sizeof buf);
			for (size_t j = 0; j < sc->n_events; j++)
				ctf_plan_dump(sc->events[j]->payload_plan, buf, sizeof buf);
		}
		ctf_trace_class_free(tc);
	}
	free(text);
	return 0;
}
