/* What the model context adds to an event's JSON line (JSON lines output,
 * print --format json): the thread's and process's names, and the stack
 * symbolized as `perf data convert --to-json` writes it ("callchain":
 * [{"ip": "0x...", "symbol": ..., "dso": ...}], leaf first; "symbol" and
 * "dso" only when known, as perf), with the offset into the symbol
 * ("sym_off") and into the image ("dso_off", hex) that perf's JSON leaves
 * out. Nothing without a context. */
#include <string.h>

#include "output/context_json.h"

void tk_context_json_names(tk_writer *w, const tk_event *ev)
{
	tk_context *ctx = tk_context_of(ev);
	tk_ctx_thread th;
	if (!ctx || !(tk_context_flags(ctx) & TK_CTX_THREADS) ||
	    !tk_context_event_thread(ctx, ev, &th))
		return;
	if (ev->tid == TK_PID_NONE && th.tid >= 0) {
		/* the context knows the thread (LTTng context, running on the cpu) */
		tk_put_str(w, ",\"ctx_tid\":");
		tk_put_json_i64(w, th.tid);
	}
	if (th.comm_len) {
		tk_put_str(w, ",\"comm\":");
		tk_put_json_str(w, th.comm, th.comm_len);
	}
	const char *pname = tk_context_process_name(ctx, ev->pid != TK_PID_NONE ? ev->pid : th.pid);
	if (pname[0]) {
		tk_put_str(w, ",\"process\":");
		tk_put_json_str(w, pname, strlen(pname));
	}
}

void tk_context_json_stack(tk_writer *w, const tk_event *ev)
{
	tk_context *ctx = tk_context_of(ev);
	if (!ctx || !(tk_context_flags(ctx) & TK_CTX_SYMBOLS))
		return;
	tk_frame fr[TK_CONTEXT_JSON_FRAMES];
	size_t n = tk_context_stack(ctx, ev, fr, TK_CONTEXT_JSON_FRAMES);
	if (n > TK_CONTEXT_JSON_FRAMES)
		n = TK_CONTEXT_JSON_FRAMES;
	if (!n)
		return;
	tk_put_str(w, ",\"callchain\":[");
	for (size_t i = 0; i < n; i++) {
		tk_put_str(w, i ? ",{\"ip\":" : "{\"ip\":");
		tk_put_json_hex(w, fr[i].ip);
		if (fr[i].sym) {
			tk_put_str(w, ",\"symbol\":");
			tk_put_json_str(w, fr[i].sym, fr[i].sym_len);
			tk_put_str(w, ",\"sym_off\":");
			tk_put_json_u64(w, fr[i].sym_off);
		}
		if (fr[i].dso) {
			tk_put_str(w, ",\"dso\":");
			tk_put_json_str(w, fr[i].dso, strlen(fr[i].dso));
			tk_put_str(w, ",\"dso_off\":");
			tk_put_json_hex(w, fr[i].dso_off);
		}
		tk_put_char(w, '}');
	}
	tk_put_char(w, ']');
}

void tk_context_json_event(tk_writer *w, const tk_event *ev)
{
	static const tk_json_extra extra = {tk_context_json_names, tk_context_json_stack};
	tk_event_write_json_with(w, ev, tk_context_of(ev) ? &extra : NULL);
}
