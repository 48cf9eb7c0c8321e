/* Names of processes and threads from the model context: each process
 * group and thread track is named by the last name its thread had
 * ("comm pid", "comm tid"), as perf and Perfetto label them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_internal.h"

static void set_name(char **slot, const char *text)
{
	char *s = strdup(text);
	if (!s)
		return; /* keep the numeric name */
	free(*slot);
	*slot = s;
}

void view_name_tracks(view_builder *b, tk_context *const *ctx)
{
	char buf[512];
	for (size_t i = 0; i < b->n_groups; i++) {
		view_group *g = &b->groups[i];
		if (g->kind != VIEW_GROUP_PROCESS || g->id < 0 || g->input >= b->n_inputs)
			continue;
		const char *comm = tk_context_process_name(ctx[g->input], (int32_t)g->id);
		tk_ctx_thread th;
		if ((!comm || !*comm) && tk_context_thread(ctx[g->input], (int32_t)g->id, &th))
			comm = th.comm;
		if (comm && *comm) {
			snprintf(buf, sizeof buf, "%s %lld", comm, (long long)g->id);
			set_name(&g->name, buf);
		}
	}
	for (size_t i = 0; i < b->n_tracks; i++) {
		view_track *t = &b->tracks[i];
		uint32_t input = b->groups[t->group].input;
		tk_ctx_thread th;
		if (t->tid < 0 || input >= b->n_inputs ||
		    !tk_context_thread(ctx[input], (int32_t)t->tid, &th) || !th.comm_len)
			continue;
		snprintf(buf, sizeof buf, "%s %lld%s%s", th.comm, (long long)t->tid,
			 t->suffix ? " " : "", t->suffix ? t->suffix : "");
		set_name(&t->name, buf);
	}
}
