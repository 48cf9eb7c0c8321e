/* The inputs of a connection: one per path, and the derived tables each
 * builds once (perf, model and DCPI passes) when a table first needs them. */
#ifdef TK_HAVE_SQLITE
#include <stdlib.h>
#include <string.h>

#include "sql/sql_internal.h"

tk_sql_input *tk_sql_input_get(tk_sql_ctx *ctx, const char *path)
{
	for (size_t i = 0; i < ctx->inputs.n; i++) {
		tk_sql_input *in = *TK_SQL_AT(ctx->inputs, tk_sql_input *, i);
		if (strcmp(in->path, path) == 0)
			return in;
	}
	tk_sql_input *in = calloc(1, sizeof *in);
	if (!in || !(in->path = strdup(path))) {
		free(in);
		return NULL;
	}
	tk_sql_input **slot = tk_sql_vec_push(&ctx->inputs, sizeof *slot);
	if (!slot) {
		free(in->path);
		free(in);
		return NULL;
	}
	*slot = in;
	tk_sql_derived *d = &in->d;
	tk_sql_strings_init(&d->strings);
	tk_hashmap_init(&d->frame_by_key);
	tk_hashmap_init(&d->callsite_by_key);
	tk_hashmap_init(&d->track_by_key);
	tk_hashmap_init(&d->thread_by_tid);
	tk_hashmap_init(&d->process_by_pid);
	return in;
}

void tk_sql_input_free(tk_sql_input *in)
{
	tk_sql_derived *d = &in->d;
	tk_sql_vec *vecs[] = {&d->event_names, &d->samples,   &d->frames,   &d->callsites,
			      &d->threads,     &d->processes, &d->mappings, &d->tracks,
			      &d->counters,    &d->sched,     &d->profile,  &d->thread_state};
	for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
		free(vecs[i]->v);
	tk_hashmap_free(&d->frame_by_key);
	tk_hashmap_free(&d->callsite_by_key);
	tk_hashmap_free(&d->track_by_key);
	tk_hashmap_free(&d->thread_by_tid);
	tk_hashmap_free(&d->process_by_pid);
	tk_sql_strings_free(&d->strings);
	free(in->path);
	free(in);
}

static unsigned groups_of(const tk_sql_input *in, tk_sql_kind kind)
{
	switch (kind) {
	case TK_SQL_SAMPLE: /* utid also needs THREAD (sql_tables.c asks for it) */
	case TK_SQL_STACK_FRAME:
	case TK_SQL_CALLSITE:
	case TK_SQL_MAPPING: return in->format == TK_FORMAT_PERF ? TK_SQL_GROUP_PERF : 0;
	case TK_SQL_THREAD: /* the model context's threads, every format */
	case TK_SQL_PROCESS:
	case TK_SQL_TRACK:
	case TK_SQL_COUNTER:
	case TK_SQL_SCHED:
	case TK_SQL_THREAD_STATE: return TK_SQL_GROUP_MODEL;
	case TK_SQL_PROFILE: return in->format == TK_FORMAT_DCPI ? TK_SQL_GROUP_DCPI : 0;
	default: return 0;
	}
}

tk_status tk_sql_input_build(tk_sql_ctx *ctx, tk_sql_input *in, tk_sql_kind kind, tk_error *err)
{
	if (in->failed) {
		*err = in->err;
		return err->status;
	}
	tk_error_clear(err);
	if (in->format == TK_FORMAT_UNKNOWN) {
		in->format = tk_detect_format(in->path, err);
		if (in->format == TK_FORMAT_UNKNOWN)
			goto fail;
	}
	unsigned need = groups_of(in, kind) & ~in->built;
	tk_status st = TK_OK;
	if (need & TK_SQL_GROUP_PERF) {
		if ((st = tk_sql_perf_pass(ctx, in, err)) != TK_OK)
			goto fail;
		in->built |= TK_SQL_GROUP_PERF;
	}
	if (need & TK_SQL_GROUP_MODEL) {
		if ((st = tk_sql_model_pass(ctx, in, err)) != TK_OK)
			goto fail;
		in->built |= TK_SQL_GROUP_MODEL;
	}
	if (need & TK_SQL_GROUP_DCPI) {
		if ((st = tk_sql_dcpi_pass(in, err)) != TK_OK)
			goto fail;
		in->built |= TK_SQL_GROUP_DCPI;
	}
	return TK_OK;
fail:
	if (!err->file[0])
		tk_error_set_file(err, in->path);
	in->failed = true;
	in->err = *err;
	return err->status;
}
#endif
