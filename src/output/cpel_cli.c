/* Registry entry for CPEL: detection, info, stats, print (cpeldump; text and
 * JSON go through the model printer with the CPEL source), copy and the
 * CPEL sink. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytes.h"
#include "output/render_ops.h"
#include "cpel/cpel_adapters.h"
#include "cpel/cpel_reader.h"
#include "cpel/safe_format.h"
#include "output/cpel_dump.h"
#include "session/session_cpel.h"

/* A native CPEL session over path. */
static tk_status open_session(const char *path, const tk_render_options *opt, tk_session **s,
			      tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_CPEL, .log = opt->log, .log_user = opt->log_user};
	return tk_session_open(path, &oo, TK_SESSION_NATIVE, s, err);
}

static tk_status cpel_print(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	if (strcmp(opt->style, "cpeldump") != 0)
		return TK_ERR_UNSUPPORTED;
	tk_session *s;
	tk_status st = open_session(path, opt, &s, err);
	if (st != TK_OK)
		return st;
	st = tk_cpel_dump_session(s, out, opt->limit, err);
	if (st != TK_OK)
		tk_error_set_file(err, path);
	tk_session_close(s);
	return st;
}

static void put_date(tk_writer *out, uint32_t date)
{
	time_t t = (time_t)date;
	struct tm tm;
	char buf[64];
	if (gmtime_r(&t, &tm) && strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm))
		tk_put_fmt(out, "%u (%s)", date, buf);
	else
		tk_put_fmt(out, "%u", date);
}

/* Each EVENT section's lowest and highest tick. */
typedef struct tick_span {
	uint64_t lo, hi;
} tick_span;

static tk_status on_span(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	if ((int)item->kind != TK_SESSION_CPEL_EVENT)
		return TK_OK;
	const tk_cpel_record *r = item->native;
	tick_span *sp = (tick_span *)user + r->section_index;
	uint64_t t = r->event.time;
	sp->lo = t < sp->lo ? t : sp->lo;
	sp->hi = t > sp->hi ? t : sp->hi;
	return TK_OK;
}

static tk_status cpel_info(const char *path, const tk_render_options *opt, tk_writer *out,
			   tk_error *err)
{
	tk_session *session;
	tk_status st = open_session(path, opt, &session, err);
	if (st != TK_OK)
		return st;
	const tk_cpel_file *f = tk_session_cpel(session);
	tick_span *spans = calloc(f->n_event_sections + 1, sizeof *spans);
	if (!spans) {
		tk_session_close(session);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < f->n_event_sections; i++)
		spans[i].lo = UINT64_MAX;
	tk_session_tool tool = {.record = on_span};
	if ((st = tk_session_run(session, &tool, spans, err)) != TK_OK) {
		free(spans);
		tk_session_close(session);
		return st;
	}
	tk_put_fmt(out, "file: %s\nformat: CPEL version %u, %s-endian\nfile date: ", path,
		   f->version, f->little_endian ? "little" : "big");
	put_date(out, f->file_date);
	tk_put_fmt(out, "\nsections: %u\n", f->nsections);
	for (size_t i = 0; i < f->n_sections; i++) {
		const tk_cpel_section *s = &f->sections[i];
		tk_put_fmt(out, "  [%zu] offset 0x%llx: type %u (%s), %u bytes", i,
			   (unsigned long long)s->offset, s->type, tk_cpel_section_name(s->type),
			   s->length);
		if (s->type >= TK_CPEL_SECTION_SYMTAB && s->type <= TK_CPEL_SECTION_EVENT &&
		    s->length >= TK_CPEL_TABLE_NAME + 4) {
			size_t n = strnlen((const char *)s->data, TK_CPEL_TABLE_NAME);
			tk_put_fmt(out, ", table '%.*s', %u entries", (int)n, (const char *)s->data,
				   tk_cpel_u32(f, s->data + TK_CPEL_TABLE_NAME));
		} else if (s->type == TK_CPEL_SECTION_STRTAB) {
			tk_put_fmt(out, ", name '%s'", (const char *)s->data);
		}
		tk_put_char(out, '\n');
	}
	size_t n_syms = 0;
	for (size_t i = 0; i < f->n_symtabs; i++)
		n_syms += f->symtabs[i].count;
	tk_put_fmt(
	    out,
	    "string tables: %zu\nsymbols: %zu\nevent definitions: %zu\ntrack definitions: %zu\n",
	    f->n_strtabs, n_syms, f->n_evtdefs, f->n_trackdefs);
	if (f->n_duplicate_defs)
		tk_put_fmt(out, "duplicate definitions (ignored): %zu\n", f->n_duplicate_defs);
	if (f->n_unknown_sections)
		tk_put_fmt(out, "unknown sections (skipped): %zu\n", f->n_unknown_sections);
	tk_put_fmt(out, "events: %llu\n", (unsigned long long)f->n_events);
	for (size_t i = 0; i < f->n_event_sections; i++) {
		const tk_cpel_events *s = &f->event_sections[i];
		tk_put_fmt(out, "event section %zu: %u events, clock %u ticks/s", i, s->count,
			   s->ticks_per_second);
		if (s->count) {
			uint64_t lo = spans[i].lo, hi = spans[i].hi;
			double span = (double)(hi - lo) / (double)s->ticks_per_second;
			tk_put_fmt(out, ", ticks %llu..%llu, time span %.9f s",
				   (unsigned long long)lo, (unsigned long long)hi, span);
		}
		tk_put_char(out, '\n');
	}
	free(spans);
	tk_session_close(session);
	return TK_OK;
}

/* Counts per event code and per track. */
typedef struct counts {
	tk_hashmap by_code, by_track;
} counts;

static tk_status on_count(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	if ((int)item->kind != TK_SESSION_CPEL_EVENT)
		return TK_OK;
	counts *n = user;
	const tk_cpel_event *e = &((const tk_cpel_record *)item->native)->event;
	uint64_t *c = tk_hashmap_get(&n->by_code, e->code);
	uint64_t *t = tk_hashmap_get(&n->by_track, e->track);
	if ((!c && !tk_hashmap_put(&n->by_code, e->code, 1)) ||
	    (!t && !tk_hashmap_put(&n->by_track, e->track, 1)))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (c)
		(*c)++;
	if (t)
		(*t)++;
	return TK_OK;
}

static tk_status cpel_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	tk_session *session;
	tk_status st = open_session(path, opt, &session, err);
	if (st != TK_OK)
		return st;
	const tk_cpel_file *f = tk_session_cpel(session);
	counts n;
	tk_hashmap_init(&n.by_code);
	tk_hashmap_init(&n.by_track);
	tk_session_tool tool = {.record = on_count};
	st = tk_session_run(session, &tool, &n, err);
	tk_hashmap by_code = n.by_code, by_track = n.by_track;
	if (st == TK_OK) {
		tk_put_fmt(out, "events: %llu\nper event code:\n", (unsigned long long)f->n_events);
		for (size_t i = 0; i < by_code.cap; i++) {
			if (!by_code.used[i])
				continue;
			const tk_cpel_evtdef *d = tk_cpel_find_evtdef(f, (uint32_t)by_code.keys[i]);
			tk_put_fmt(out, "  %10llu  %u ", (unsigned long long)by_code.vals[i],
				   (unsigned)by_code.keys[i]);
			if (d)
				tk_safe_format_u32(out, TK_FMT_VPPINFRA, d->name_format,
						   (uint32_t)by_code.keys[i]);
			else
				tk_put_str(out, "(undefined)");
			tk_put_char(out, '\n');
		}
		tk_put_str(out, "per track:\n");
		for (size_t i = 0; i < by_track.cap; i++) {
			if (!by_track.used[i])
				continue;
			const tk_cpel_trackdef *d =
			    tk_cpel_find_trackdef(f, (uint32_t)by_track.keys[i]);
			tk_put_fmt(out, "  %10llu  %u ", (unsigned long long)by_track.vals[i],
				   (unsigned)by_track.keys[i]);
			if (d)
				tk_safe_format_u32(out, TK_FMT_VPPINFRA, d->format,
						   (uint32_t)by_track.keys[i]);
			else
				tk_put_str(out, "(undefined)");
			tk_put_char(out, '\n');
		}
	}
	tk_hashmap_free(&by_code);
	tk_hashmap_free(&by_track);
	tk_session_close(session);
	return st;
}

const tk_render_ops tk_cpel_render_ops = {
    .format = TK_FORMAT_CPEL,
    .info = cpel_info,
    .stats = cpel_stats,
    .print = cpel_print,
};
