/* Callchain lines of perf script, cached per (address space, generation,
 * ip); see perf_script_lines.h. */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_callchain.h"
#include "output/perf_script_lines.h"

#define INITIAL_SLOTS ((size_t)1 << 14)

void tk_line_cache_init(tk_line_cache *c)
{
	memset(c, 0, sizeof *c);
}

void tk_line_cache_free(tk_line_cache *c)
{
	free(c->slots);
	free(c->text);
	memset(c, 0, sizeof *c);
}

/* The longest line for a symbol name and an image name of these lengths:
 * tab, 16 address digits, space, name, "+0x", 16 offset digits, " (",
 * image, ")\n". */
static size_t line_bound(size_t name_len, size_t dso_len)
{
	return 1 + 16 + 1 + name_len + 3 + 16 + 2 + dso_len + 2;
}

/* Writes one line at p (line_bound() bytes available); returns its end.
 * The address shown is the map-relative one when a map holds ip (perf's
 * al->addr), else ip itself. */
static char *render_line(char *p, const tk_addr_loc *loc, uint64_t ip)
{
	static const char digits[] = "0123456789abcdef";
	char hex[16];
	size_t n = 0;
	uint64_t v = loc->map ? loc->addr : ip;
	*p++ = '\t';
	do {
		hex[15 - n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	memset(p, ' ', 16 - n);
	memcpy(p + 16 - n, hex + 16 - n, n);
	p += 16;
	*p++ = ' ';
	if (loc->name) {
		memcpy(p, loc->name, loc->name_len);
		p += loc->name_len;
		memcpy(p, "+0x", 3);
		p += 3;
		n = 0;
		v = loc->sym_off;
		do {
			hex[15 - n++] = digits[v & 15];
			v >>= 4;
		} while (v);
		memcpy(p, hex + 16 - n, n);
		p += n;
	} else {
		memcpy(p, "[unknown]", 9);
		p += 9;
	}
	*p++ = ' ';
	*p++ = '(';
	if (loc->map) {
		memcpy(p, loc->map->dso->name, loc->map->dso->name_len);
		p += loc->map->dso->name_len;
	} else {
		memcpy(p, "[unknown]", 9);
		p += 9;
	}
	*p++ = ')';
	*p++ = '\n';
	return p;
}

static size_t slot_of(const tk_line_cache *c, const tk_maps *maps, uint64_t gen, uint64_t ip)
{
	uint64_t h = ip ^ ((uint64_t)(uintptr_t)maps * 0xff51afd7ed558ccdull) ^ (gen << 32);
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) & c->mask;
}

/* Empties the cache (text store over its bound). */
static void clear(tk_line_cache *c)
{
	memset(c->slots, 0, (c->mask + 1) * sizeof *c->slots);
	c->n = 0;
	c->text_len = 0;
	c->epoch++;
}

/* Doubles the table (or makes the first one). false: out of memory. */
static bool grow_table(tk_line_cache *c)
{
	size_t n_slots = c->mask ? (c->mask + 1) * 2 : INITIAL_SLOTS;
	tk_line_slot *ns = calloc(n_slots, sizeof *ns);
	if (!ns)
		return false;
	tk_line_slot *old = c->slots;
	size_t old_n = c->mask ? c->mask + 1 : 0;
	c->slots = ns;
	c->mask = n_slots - 1;
	for (size_t i = 0; i < old_n; i++) {
		if (!old[i].len)
			continue;
		size_t j = slot_of(c, old[i].maps, old[i].gen, old[i].ip);
		while (ns[j].len)
			j = (j + 1) & c->mask;
		ns[j] = old[i];
	}
	free(old);
	return true;
}

/* Room for n more bytes of text. false: out of memory. */
static bool reserve_text(tk_line_cache *c, size_t n)
{
	if (c->text_cap - c->text_len >= n)
		return true;
	if (c->text_len + n > TK_LINE_CACHE_MAX_TEXT) {
		clear(c);
		if (n > TK_LINE_CACHE_MAX_TEXT)
			return false;
	}
	size_t cap = c->text_cap ? c->text_cap : (size_t)1 << 20;
	while (cap - c->text_len < n)
		cap *= 2;
	char *nt = realloc(c->text, cap);
	if (!nt)
		return false;
	c->text = nt;
	c->text_cap = cap;
	return true;
}

/* Resolves and renders a line not in the cache, stores it and writes it.
 * Without memory for the cache the line is written uncached. */
static void miss(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
		 const tk_maps *maps, uint64_t gen, uint64_t ip, tk_writer *w)
{
	tk_addr_loc loc;
	tk_threads_resolve(t, th, cpumode, ip, &loc);
	size_t bound =
	    line_bound(loc.name ? loc.name_len : 9, loc.map ? loc.map->dso->name_len : 9);
	bool cached = ((c->n + 1) * 2 <= c->mask + 1 || grow_table(c)) && reserve_text(c, bound);
	if (!cached) {
		if (tk_writer_reserve(w, bound))
			w->pos = (size_t)(render_line(w->buf + w->pos, &loc, ip) - w->buf);
		return;
	}
	char *start = c->text + c->text_len;
	size_t len = (size_t)(render_line(start, &loc, ip) - start);
	size_t j = slot_of(c, maps, gen, ip);
	while (c->slots[j].len)
		j = (j + 1) & c->mask;
	c->slots[j] = (tk_line_slot){
	    .ip = ip, .maps = maps, .gen = gen, .off = (uint32_t)c->text_len, .len = (uint32_t)len};
	c->n++;
	c->text_len += len;
	tk_put_mem(w, start, len);
}

/* perf's add_callchain_ip(): a context marker sets the cpumode; false for
 * an unknown one. */
static bool context_mode(uint64_t ip, unsigned *cpumode)
{
	switch (ip) {
	case TK_PERF_CONTEXT_HV: *cpumode = TK_CPUMODE_HV; return true;
	case TK_PERF_CONTEXT_KERNEL: *cpumode = TK_CPUMODE_KERNEL; return true;
	case TK_PERF_CONTEXT_USER: *cpumode = TK_CPUMODE_USER; return true;
	case TK_PERF_CONTEXT_GUEST_KERNEL: *cpumode = TK_CPUMODE_GUEST_KERNEL; return true;
	case TK_PERF_CONTEXT_GUEST_USER: *cpumode = TK_CPUMODE_GUEST_USER; return true;
	default: return false;
	}
}

/* One frame of the chain being written. */
typedef struct frame {
	uint64_t ip;
	const tk_maps *maps; /* the address space tk_threads_resolve() searches */
	uint64_t gen;
	unsigned cpumode;
	size_t slot;       /* where its probe starts */
	uint32_t off, len; /* the cached line; len 0 = not cached */
} frame;

void tk_line_cache_put_callchain(tk_line_cache *c, tk_threads *t, const tk_thread *th,
				 const tk_perf_sample *s, tk_writer *w)
{
	if (!(s->sample_type & TK_PERF_SAMPLE_CALLCHAIN))
		return;
	/* Pass 1: the frames and their address spaces, with perf's rules;
	 * perf resets the whole chain on an unknown marker, so that is found
	 * before anything is written. The slots are prefetched here: the
	 * misses of one chain then overlap instead of queueing. */
	frame fr[TK_CALLCHAIN_MAX];
	size_t n = 0;
	unsigned cpumode = TK_CPUMODE_USER;
	for (uint64_t i = 0; i < s->callchain_nr && n < TK_CALLCHAIN_MAX; i++) {
		uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)i, s->swap);
		if (ip >= TK_PERF_CONTEXT_MAX) {
			if (!context_mode(ip, &cpumode))
				return;
			continue;
		}
		frame *f = &fr[n++];
		f->ip = ip;
		f->cpumode = cpumode;
		f->maps = NULL;
		if (cpumode == TK_CPUMODE_KERNEL)
			f->maps = &t->kernel;
		else if (cpumode == TK_CPUMODE_USER && th)
			f->maps = th->maps;
		f->gen = f->maps ? f->maps->gen : 0;
		f->len = 0;
		if (c->mask) {
			f->slot = slot_of(c, f->maps, f->gen, ip);
			__builtin_prefetch(&c->slots[f->slot]);
		}
	}
	/* Pass 2: probe; prefetch the text of the hits. */
	if (c->mask) {
		for (size_t k = 0; k < n; k++) {
			frame *f = &fr[k];
			for (size_t j = f->slot;; j = (j + 1) & c->mask) {
				const tk_line_slot *sl = &c->slots[j];
				if (!sl->len)
					break;
				if (sl->ip == f->ip && sl->maps == f->maps && sl->gen == f->gen) {
					f->off = sl->off;
					f->len = sl->len;
					__builtin_prefetch(c->text + sl->off);
					break;
				}
			}
		}
	}
	/* Pass 3: write; misses are resolved and cached. A miss may empty
	 * the cache (text store full): the hits found before are then
	 * stale and looked up again. */
	uint64_t epoch = c->epoch;
	for (size_t k = 0; k < n; k++) {
		frame *f = &fr[k];
		if (f->len && c->epoch == epoch) {
			tk_put_mem(w, c->text + f->off, f->len);
			continue;
		}
		if (c->epoch != epoch && c->mask) {
			const tk_line_slot *hit = NULL;
			for (size_t j = slot_of(c, f->maps, f->gen, f->ip);;
			     j = (j + 1) & c->mask) {
				const tk_line_slot *sl = &c->slots[j];
				if (!sl->len)
					break;
				if (sl->ip == f->ip && sl->maps == f->maps && sl->gen == f->gen) {
					hit = sl;
					break;
				}
			}
			if (hit) {
				tk_put_mem(w, c->text + hit->off, hit->len);
				continue;
			}
		}
		miss(c, t, th, f->cpumode, f->maps, f->gen, f->ip, w);
	}
}
