/* Registry entry for VPP event logs (elog v0): detection, info, print
 * (text and JSON through the model printer; "elog" = the log's own text,
 * one event per line as `TIME: TRACK: TEXT`; "cpeldump" = what VPP's c2cpel
 * then cpeldump would print), conversion to CPEL. */
#include <string.h>

#include "output/render_ops.h"
#include "cpel/cpel_adapters.h"
#include "cpel/cpel_convert.h"
#include "cpel/cpel_reader.h"
#include "cpel/elog_reader.h"
#include "output/cpel_dump.h"
#include "output/elog_cli.h"
#include "session/session_cpel.h"

tk_status tk_elog_open_session(const char *path, tk_format fmt, tk_session **s, tk_error *err)
{
	tk_open_options oo = {.format = fmt};
	return tk_session_open(path, &oo, TK_SESSION_NATIVE, s, err);
}

static tk_status elog_info(const char *path, const tk_render_options *opt, tk_writer *out,
			   tk_error *err)
{
	(void)opt;
	tk_session *s;
	tk_status st = tk_elog_open_session(path, TK_FORMAT_ELOG, &s, err);
	if (st != TK_OK)
		return st;
	tk_elog_info_file(tk_session_elog(s), path, out);
	tk_session_close(s);
	return TK_OK;
}

void tk_elog_info_file(const tk_elog_file *f, const char *path, tk_writer *out)
{
	tk_put_fmt(out, "file: %s\nformat: VPP event log (elog v0)\nring size: %u\n", path,
		   f->ring_size);
	tk_put_fmt(out, "init time: os %llu ns, cpu %llu\nserialize time: os %llu ns, cpu %llu\n",
		   (unsigned long long)f->init_os_nsec, (unsigned long long)f->init_cpu,
		   (unsigned long long)f->serialize_os_nsec, (unsigned long long)f->serialize_cpu);
	tk_put_fmt(out, "event types: %u\n", f->n_types);
	for (uint32_t i = 0; i < f->n_types; i++)
		tk_put_fmt(out, "  [%u] \"%s\" args \"%s\"%s\n", i, f->types[i].format.s,
			   f->types[i].args.s, f->types[i].n_enum ? " (enum)" : "");
	tk_put_fmt(out, "tracks: %u\n", f->n_tracks);
	for (uint32_t i = 0; i < f->n_tracks; i++)
		tk_put_fmt(out, "  [%u] %s\n", i, f->tracks[i].s);
	tk_put_fmt(out, "string heap: %u bytes\nevents: %u\n", f->heap_len, f->n_events);
	if (f->n_events)
		tk_put_fmt(out, "time span: %.9f s\n",
			   f->events[f->n_events - 1].time - f->events[0].time);
}

/* cpeldump of what c2cpel would make of the log, built in memory. */
static tk_status elog_cpeldump(const tk_elog_file *f, const char *path,
			       const tk_render_options *opt, tk_writer *out, tk_error *err)
{
	tk_status st;
	tk_cpel_writer *cw = tk_cpel_writer_new();
	tk_writer *mem = NULL;
	tk_cpel_file *cf = NULL;
	if (!cw || tk_writer_open_memory(&mem, err) != TK_OK) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	if ((st = tk_cpel_build_from_elog(f, cw, err)) != TK_OK ||
	    (st = tk_cpel_writer_emit(cw, mem, false, 0, 1000000000u, err)) != TK_OK)
		goto out;
	size_t n;
	const char *bytes = tk_writer_data(mem, &n);
	if ((st = tk_cpel_open_memory(bytes, n, path, opt->log, opt->log_user, &cf, err)) != TK_OK)
		goto out;
	tk_session *s;
	st = tk_session_open_cpel(cf, true, path, &s, err);
	cf = NULL; /* the session's now */
	if (st == TK_OK) {
		st = tk_cpel_dump_session(s, out, opt->limit, err);
		tk_session_close(s);
	}
out:
	tk_cpel_close(cf);
	tk_writer_abort(mem);
	tk_cpel_writer_free(cw);
	return st;
}

/* "%18.9f" of the event time without printf on the per-event path (the
 * rare negative, huge or NaN times take the printf route). */
static void put_seconds(tk_writer *out, double t)
{
	if (!(t >= 0 && t < 1e9)) {
		tk_put_double(out, t, "%18.9f");
		return;
	}
	uint64_t ns = (uint64_t)(t * 1e9 + 0.5);
	char buf[24];
	size_t n = tk_fmt_u64(buf, ns / 1000000000u);
	if (n < 8)
		tk_put_spaces(out, (unsigned)(8 - n));
	tk_put_mem(out, buf, n);
	tk_put_char(out, '.');
	tk_put_u64_pad(out, ns % 1000000000u, 9, '0');
}

static tk_status elog_print(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	if (strcmp(opt->style, "cpeldump") != 0 && strcmp(opt->style, "elog") != 0)
		return TK_ERR_UNSUPPORTED;
	tk_session *s;
	tk_status st = tk_elog_open_session(path, TK_FORMAT_ELOG, &s, err);
	if (st != TK_OK)
		return st;
	st = tk_elog_print_session(s, path, opt, out, err);
	tk_session_close(s);
	return st;
}

typedef struct elog_text {
	const tk_elog_file *f;
	tk_writer *out;
	uint64_t limit;
} elog_text;

/* One event as the log's own text: `TIME: TRACK: TEXT`. */
static tk_status on_event(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	if ((int)item->kind != TK_SESSION_ELOG_EVENT)
		return TK_OK;
	elog_text *t = user;
	const tk_elog_record *r = item->native;
	if (t->limit && r->index >= t->limit)
		return TK_END;
	const tk_elog_event *e = r->event;
	put_seconds(t->out, e->time);
	tk_put_str(t->out, ": ");
	tk_put_str(t->out, t->f->tracks[e->track].s);
	tk_put_str(t->out, ": ");
	tk_elog_event_text(t->out, t->f, e);
	tk_put_char(t->out, '\n');
	return TK_OK;
}

tk_status tk_elog_print_session(tk_session *s, const char *path, const tk_render_options *opt,
				tk_writer *out, tk_error *err)
{
	const tk_elog_file *f = tk_session_elog(s);
	if (!f)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "not a native elog session");
	if (strcmp(opt->style, "cpeldump") == 0)
		return elog_cpeldump(f, path, opt, out, err);
	if (strcmp(opt->style, "elog") != 0)
		return TK_ERR_UNSUPPORTED;
	elog_text t = {.f = f, .out = out, .limit = opt->limit};
	tk_session_tool tool = {.record = on_event};
	return tk_session_run(s, &tool, &t, err);
}

const tk_render_ops tk_elog_render_ops = {
    .format = TK_FORMAT_ELOG,
    .info = elog_info,
    .print = elog_print,
};
