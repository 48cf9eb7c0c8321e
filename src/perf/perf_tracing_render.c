/* print-fmt rendering of tracepoint payloads, the text `perf script` shows
 * after "sched:sched_switch: ". perf itself calls libtraceevent's
 * tep_print_event(tep, s, record, "%s", TEP_PRINT_INFO), so we do the same
 * with a tep_handle set up the way perf's trace-event-read.c sets it up
 * (byte order, long and page size, header page, every format, printk
 * formats, saved cmdlines) plus, when the caller gives one, a kernel
 * symbol resolver for %pS / %ps (perf resolves them through its kernel
 * map). The handle is built on first use: parsing alone never pays for it.
 *
 * libtraceevent trusts the payload, so every payload is first checked by
 * our own bounds rules (tp_validate_raw), its common_type must be the id
 * of the format the caller named, and libtraceevent reads a zero-padded
 * copy. Without libtraceevent the renderer reports TK_ERR_UNSUPPORTED. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "perf/perf_tracing_internal.h"

#ifdef TK_HAVE_TRACEEVENT
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

struct tp_renderer {
	struct tep_handle *tep;
	struct trace_seq seq; /* reused: no allocation per event after warm-up */
	uint8_t *copy;        /* the payload, followed by RENDER_PAD zero bytes */
	size_t copy_cap;
};

/* libtraceevent prints __data_loc strings with %s, reading up to a NUL
 * that a hostile payload need not hold: it sees a copy of the payload
 * followed by zeros, so such a string stops at the payload's end. */
#define RENDER_PAD 64

/* Copy of a text with a NUL: the tep_parse_* functions want C strings or
 * writable buffers. */
static char *dup_text(const char *s, size_t n)
{
	char *p = malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* The printk formats, well-formed lines only. libtraceevent takes the text
 * after "ADDR:" plus one more character, drops a leading quote and then
 * looks 3 characters back from the end (tep_parse_printk_formats,
 * tep_register_print_string): a line without a colon or with fewer than 3
 * characters of format makes it read outside its buffer. */
static char *printk_lines(const char *s, size_t n)
{
	char *out = malloc(n + 2);
	size_t o = 0;
	for (size_t pos = 0; out && pos < n;) {
		const char *line = s + pos, *nl = memchr(line, '\n', n - pos);
		size_t len = nl ? (size_t)(nl - line) : n - pos;
		pos += len + 1;
		const char *colon = memchr(line, ':', len), *end = line + len;
		if (!colon || colon == line || memchr(line, '\0', len) || end - colon < 2)
			continue;
		const char *fmt = colon + 2;
		if (fmt < end && *fmt == '"')
			fmt++;
		if (end - fmt < 3)
			continue;
		memcpy(out + o, line, len);
		o += len;
		out[o++] = '\n';
	}
	if (out)
		out[o] = '\0';
	return out;
}

/* saved_cmdlines: "pid comm" lines, as perf's parse_saved_cmdline(). */
static void register_cmdlines(struct tep_handle *tep, const char *text, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		size_t p = pos;
		long pid = 0;
		bool digits = false;
		while (p < end && text[p] >= '0' && text[p] <= '9' && pid < 100000000) {
			pid = pid * 10 + (text[p++] - '0');
			digits = true;
		}
		if (digits && p < end && text[p] == ' ') {
			char comm[64];
			size_t n = end - p - 1;
			if (n >= sizeof comm)
				n = sizeof comm - 1;
			memcpy(comm, text + p + 1, n);
			comm[n] = '\0';
			tep_register_comm(tep, comm, (int)pid);
		}
		pos = end + 1;
	}
}

/* libtraceevent's resolver shape over the caller's tk_perf_ksym_fn. The
 * name is only read by libtraceevent, never freed. */
static char *resolve_ksym(void *priv, unsigned long long *addrp, char **modp)
{
	const tk_perf_tracing *tr = priv;
	uint64_t start = *addrp;
	const char *name = tr->ksym_fn(tr->ksym_user, *addrp, &start);
	if (!name)
		return NULL;
	*addrp = start;
	*modp = NULL;
	return (char *)(uintptr_t)name;
}

static void apply_resolver(const tk_perf_tracing *tr, struct tep_handle *tep)
{
	if (tr->ksym_fn)
		tep_set_function_resolver(tep, resolve_ksym, (void *)(uintptr_t)tr);
	else
		tep_reset_function_resolver(tep);
}

void tk_perf_tracing_set_ksym_resolver(tk_perf_tracing *tr, tk_perf_ksym_fn fn, void *user)
{
	if (!tr)
		return;
	tr->ksym_fn = fn;
	tr->ksym_user = user;
	if (tr->render)
		apply_resolver(tr, tr->render->tep);
}

static struct tp_renderer *build(const tk_perf_tracing *tr)
{
	struct tp_renderer *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	/* libtraceevent would print parse warnings to stderr; the library
	 * never prints (the setting is process-wide, and perf does the same
	 * unless asked to be verbose). */
	tep_set_loglevel(TEP_LOG_NONE);
	r->tep = tep_alloc();
	if (!r->tep) {
		free(r);
		return NULL;
	}
	struct tep_handle *tep = r->tep;
	tep_set_file_bigendian(tep, tr->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tk_host_is_le() ? TEP_LITTLE_ENDIAN : TEP_BIG_ENDIAN);
	tep_set_long_size(tep, (int)tr->long_size);
	tep_set_page_size(tep, (int)tr->page_size);
	char *hp = dup_text(tr->header_page, tr->header_page_len);
	if (hp && tr->header_page_len)
		tep_parse_header_page(tep, hp, tr->header_page_len, (int)tr->long_size);
	free(hp);
	for (size_t i = 0; i < tr->n_formats; i++) {
		const tk_perf_tp_format *f = &tr->formats[i]->pub;
		/* a format libtraceevent rejects just prints without its fields */
		tep_parse_event(tep, f->text, f->text_len, f->system);
	}
	if (tr->kallsyms_len) {
		char *k = dup_text(tr->kallsyms, tr->kallsyms_len);
		if (k)
			tep_parse_kallsyms(tep, k);
		free(k);
	}
	if (tr->printk_len) {
		char *p = printk_lines(tr->printk, tr->printk_len);
		if (p)
			tep_parse_printk_formats(tep, p);
		free(p);
	}
	register_cmdlines(tep, tr->cmdlines, tr->cmdlines_len);
	apply_resolver(tr, tep);
	trace_seq_init(&r->seq);
	return r;
}

void tp_render_free(tk_perf_tracing *tr)
{
	if (!tr->render)
		return;
	trace_seq_destroy(&tr->render->seq);
	tep_free(tr->render->tep);
	free(tr->render->copy);
	free(tr->render);
	tr->render = NULL;
}

/* common_type of raw, read per the format's own field. */
static bool raw_type(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt, const uint8_t *raw,
		     uint64_t *type)
{
	for (size_t i = 0; i < fmt->n_common; i++) {
		const tk_perf_tp_field *f = &fmt->fields[i];
		if (strcmp(f->name, "common_type") != 0)
			continue;
		if (f->size == 2)
			*type = tk_load_u16(raw + f->offset, tr->swap);
		else if (f->size == 4)
			*type = tk_load_u32(raw + f->offset, tr->swap);
		else if (f->size == 1)
			*type = raw[f->offset];
		else
			return false;
		return true;
	}
	return false;
}

tk_status tk_perf_tp_render(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			    const uint8_t *raw, uint32_t raw_size, int cpu, char *buf, size_t cap,
			    size_t *len, tk_error *err)
{
	const tp_format_impl *impl = (const tp_format_impl *)fmt;
	if (len)
		*len = 0;
	if (!tr || !fmt || impl->owner != tr || (!raw && raw_size) || (!buf && cap))
		return tk_error_set(
		    err, TK_ERR_USAGE, TK_NO_OFFSET,
		    "tk_perf_tp_render: format does not belong to this tracing data");
	tk_status st = tp_validate_raw(tr, fmt, raw, raw_size, err);
	if (st != TK_OK)
		return st;
	uint64_t type;
	if (!raw_type(tr, fmt, raw, &type) || type != fmt->id)
		return tk_error_set(err, TK_ERR_FORMAT, 0,
				    "tracepoint %s: raw data is not of this event (common_type "
				    "is not %llu)",
				    fmt->name, (unsigned long long)fmt->id);
	/* The renderer is a cache: building it does not change what the
	 * caller can observe of tr, hence the const cast. */
	tk_perf_tracing *mtr = (tk_perf_tracing *)tr;
	if (!mtr->render && !mtr->render_failed) {
		mtr->render = build(tr);
		mtr->render_failed = !mtr->render;
	}
	if (!mtr->render)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "cannot set up libtraceevent");
	struct tp_renderer *r = mtr->render;
	if ((size_t)raw_size + RENDER_PAD > r->copy_cap) {
		size_t want = (size_t)raw_size + RENDER_PAD;
		uint8_t *grown = realloc(r->copy, want);
		if (!grown)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		r->copy = grown;
		r->copy_cap = want;
	}
	if (raw_size)
		memcpy(r->copy, raw, raw_size);
	memset(r->copy + raw_size, 0, RENDER_PAD);
	struct tep_record rec;
	memset(&rec, 0, sizeof rec);
	rec.cpu = cpu;
	rec.size = (int)raw_size;
	rec.record_size = (int)raw_size;
	rec.data = r->copy;
	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	size_t n = r->seq.len;
	if (cap) {
		size_t c = n < cap ? n : cap - 1;
		memcpy(buf, r->seq.buffer, c);
		buf[c] = '\0';
	}
	if (len)
		*len = n;
	return TK_OK;
}

#else /* !TK_HAVE_TRACEEVENT */

void tk_perf_tracing_set_ksym_resolver(tk_perf_tracing *tr, tk_perf_ksym_fn fn, void *user)
{
	if (tr) {
		tr->ksym_fn = fn;
		tr->ksym_user = user;
	}
}

void tp_render_free(tk_perf_tracing *tr)
{
	(void)tr;
}

tk_status tk_perf_tp_render(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			    const uint8_t *raw, uint32_t raw_size, int cpu, char *buf, size_t cap,
			    size_t *len, tk_error *err)
{
	(void)tr, (void)fmt, (void)raw, (void)raw_size, (void)cpu;
	if (len)
		*len = 0;
	if (buf && cap)
		buf[0] = '\0';
	return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			    "tracepoint rendering needs libtraceevent (not built in)");
}

#endif
