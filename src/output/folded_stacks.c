/* Folded stacks loaded as data (see folded_stacks.h). */
#include <stdlib.h>
#include <string.h>

#include "output/folded_perf.h"
#include "output/folded_stacks.h"

void tk_folded_stacks_free(tk_folded_stacks *s)
{
	free(s->v);
	free(s->text);
	free(s->frame_store);
	memset(s, 0, sizeof *s);
}

static int cmp_stack(const void *pa, const void *pb)
{
	const tk_folded_stack *a = pa, *b = pb;
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		int c = strcmp(a->frames[i], b->frames[i]);
		if (c)
			return c;
	}
	return (a->n > b->n) - (a->n < b->n);
}

tk_status tk_folded_stacks_load(const char *in, const tk_render_options *opt, tk_folded_stacks *out,
				tk_error *err)
{
	memset(out, 0, sizeof *out);
	tk_writer *w;
	tk_status st = tk_writer_open_memory(&w, err);
	if (st != TK_OK)
		return st;
	st = tk_perf_folded_to_event(in, opt, w, out->event, sizeof out->event, err);
	size_t ev_len = strcspn(out->event, ":"); /* "cpu-clock:u" too */
	out->nanoseconds = (ev_len == 9 && strncmp(out->event, "cpu-clock", 9) == 0) ||
			   (ev_len == 10 && strncmp(out->event, "task-clock", 10) == 0);
	size_t len = 0;
	const char *data = tk_writer_data(w, &len);
	if (st == TK_OK && (out->text = malloc(len + 1)) == NULL)
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (st == TK_OK) {
		memcpy(out->text, data, len);
		out->text[len] = 0;
	}
	tk_writer_abort(w);
	if (st != TK_OK)
		return st;
	/* one line per stack "f1;f2;...;fn weight"; names hold no ';' */
	size_t lines = 0, semis = 0;
	for (size_t i = 0; i < len; i++) {
		lines += out->text[i] == '\n';
		semis += out->text[i] == ';';
	}
	out->v = calloc(lines ? lines : 1, sizeof *out->v);
	out->frame_store = calloc(semis + lines + 1, sizeof *out->frame_store);
	if (!out->v || !out->frame_store) {
		tk_folded_stacks_free(out);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	const char **fp = out->frame_store;
	char *p = out->text;
	while (*p) {
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		char *sp = strrchr(p, ' ');
		if (sp) {
			*sp = 0;
			tk_folded_stack *s = &out->v[out->n++];
			s->weight = strtoull(sp + 1, NULL, 10);
			s->frames = fp;
			for (char *f = p;;) {
				char *semi = strchr(f, ';');
				*fp++ = f;
				s->n++;
				if (!semi)
					break;
				*semi = 0;
				f = semi + 1;
			}
			if (s->n > out->max_depth)
				out->max_depth = s->n;
			out->total = out->total + s->weight < out->total ? UINT64_MAX
									 : out->total + s->weight;
		}
		p = nl + 1;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, cmp_stack);
	return TK_OK;
}

tk_status tk_folded_export_write(const char *in, const char *out_path, const tk_render_options *opt,
				 bool (*put)(tk_writer *, const tk_folded_stacks *, const char *),
				 tk_error *err)
{
	tk_folded_stacks s;
	tk_status st = tk_folded_stacks_load(in, opt, &s, err);
	if (st != TK_OK)
		return st;
	if (s.n == 0) {
		tk_folded_stacks_free(&s);
		return tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "no samples%s%s",
				    opt->events ? " match --event " : "",
				    opt->events ? opt->events : "");
	}
	tk_writer *w;
	st = strcmp(out_path, "-") == 0 ? tk_writer_open_fd(1, "stdout", &w, err)
					: tk_writer_open_atomic(out_path, &w, err);
	if (st == TK_OK) {
		const char *slash = strrchr(in, '/');
		if (put(w, &s, slash ? slash + 1 : in)) {
			st = tk_writer_commit(w, err);
		} else {
			tk_writer_abort(w);
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
	}
	tk_folded_stacks_free(&s);
	return st;
}
