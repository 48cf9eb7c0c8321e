/* Fuzz target: the TSDL lexer, parser, resolve passes and decode plan
 * compiler on arbitrary metadata text (the plans are also dumped). Must
 * never crash, hang or allocate without bound. */
#include <stddef.h>
#include <stdint.h>

#include "ctf/ctf_meta.h"
#include "ctf/ctf_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_error err;
	ctf_trace_class *tc;
	tk_error_clear(&err);
	if (ctf_trace_class_parse((const char *)data, size, "fuzz", NULL, NULL, &tc, &err) != TK_OK)
		return 0;
	static char buf[4096];
	ctf_plan_dump(tc->packet_header_plan, buf, sizeof buf);
	for (size_t i = 0; i < tc->n_streams; i++) {
		const ctf_stream_class *sc = tc->streams[i];
		ctf_plan_dump(sc->packet_context_plan, buf, sizeof buf);
		ctf_plan_dump(sc->event_header_plan, buf, sizeof buf);
		ctf_plan_dump(sc->event_context_plan, buf, sizeof buf);
		for (size_t j = 0; j < sc->n_events; j++) {
			ctf_plan_dump(sc->events[j]->context_plan, buf, sizeof buf);
			ctf_plan_dump(sc->events[j]->payload_plan, buf, sizeof buf);
		}
	}
	ctf_trace_class_free(tc);
	return 0;
}
