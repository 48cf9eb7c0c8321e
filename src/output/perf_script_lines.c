/* Callchain lines of perf script, cached per (address space, generation,
 * ip); see perf_script_lines.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/perf_callchain.h"
#include "analysis/perf_unwind.h"
#include "output/perf_script_lines.h"
#include "base/hugemem.h"

#define HUGE_PAGE ((size_t)2 << 20)
/* The table's first size: one huge page, which its first write zeroes
 * whole anyway (tk_huge_alloc); smaller first tables cost a fresh
 * zeroed huge page and a rehash at every doubling up to this size. */
#define INITIAL_SLOTS (HUGE_PAGE / sizeof(tk_line_slot))
/* Readable bytes kept past the last line, for put_cached()'s block copy. */
#define TEXT_SLACK 32

void tk_line_cache_init(tk_line_cache *c)
{
	memset(c, 0, sizeof *c);
	c->n_spaces = 2; /* 0: empty slot, 1: no address space */
	tk_chain_cache_init(&c->chains);
}

bool tk_line_cache_init_json(tk_line_cache *c)
{
	tk_line_cache_init(c);
	c->json = true;
	return tk_writer_open_memory(&c->scratch, NULL) == TK_OK;
}

void tk_line_cache_free(tk_line_cache *c)
{
	tk_writer_abort(c->scratch);
	tk_huge_free(c->slots, c->slots_size);
	free(c->hot);
	tk_huge_free(c->text, c->text_cap);
	free(c->holes);
	tk_chain_cache_free(&c->chains);
	memset(c, 0, sizeof *c);
}

/* The longest line for a symbol name and an image name of these lengths:
 * tab, 16 address digits, space, name, "+0x", 16 offset digits, " (",
 * image, ")\n". */
static size_t line_bound(size_t name_len, size_t dso_len)
{
	return 1 + 16 + 1 + name_len + 3 + 16 + 2 + dso_len + 2;
}

char *tk_script_sym_dso(char *p, const tk_addr_loc *loc)
{
	if (loc->name) {
		memcpy(p, loc->name, loc->name_len);
		p += loc->name_len;
		memcpy(p, "+0x", 3);
		p += 3;
		char hex[16];
		size_t n = 0;
		uint64_t v = loc->sym_off;
		do {
			hex[15 - n++] = "0123456789abcdef"[v & 15];
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
	return p;
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
	p = tk_script_sym_dso(p, loc);
	*p++ = '\n';
	return p;
}

static uint64_t key_hash(uint32_t space, uint64_t ip)
{
	return (ip ^ (uint64_t)space * 0xff51afd7ed558ccdull) * 0x9e3779b97f4a7c15ull;
}

static size_t slot_of(const tk_line_cache *c, uint32_t space, uint64_t ip)
{
	return (size_t)(key_hash(space, ip) >> 32) & c->mask;
}

/* The hot table's entry for a key (other hash bits than slot_of). */
static size_t hot_of(uint64_t h)
{
	return (size_t)(h >> 12) & (TK_LINE_HOT - 1);
}

/* Empties the table and the text store (text store over its bound). */
static void clear(tk_line_cache *c)
{
	if (c->slots)
		memset(c->slots, 0, (c->mask + 1) * sizeof *c->slots);
	if (c->hot)
		memset(c->hot, 0, TK_LINE_HOT * sizeof *c->hot);
	c->n = 0;
	c->text_len = 0;
	c->epoch++;
}

/* Forgets every space id too (ids running out). */
static void clear_spaces(tk_line_cache *c)
{
	clear(c);
	c->n_spaces = 2;
	c->space_epoch++;                 /* every maps' tag is stale */
	tk_chain_cache_clear(&c->chains); /* its keys name the old ids */
}

/* The space id of maps at its current generation (1 for none); 0 when
 * out of memory (the frame is then written uncached). */
static uint32_t space_id(tk_line_cache *c, tk_maps *m)
{
	if (!m)
		return 1;
	/* the maps' tag is scratch space for this cache (threads_model.h) */
	if (m->tag_owner == c && m->tag_epoch == c->space_epoch && m->tag_gen == m->gen)
		return m->tag;
	m->tag_owner = c;
	m->tag_epoch = c->space_epoch;
	m->tag_gen = m->gen;
	m->tag = c->n_spaces++;
	return m->tag;
}

/* Doubles the table (or makes the first one), or empties the cache at its
 * bound (the caller sees the epoch change). false: out of memory. */
static bool grow_table(tk_line_cache *c)
{
	if (!c->hot && !(c->hot = calloc(TK_LINE_HOT, sizeof *c->hot)))
		return false;
	if (c->mask + 1 >= TK_LINE_CACHE_MAX_SLOTS) {
		clear(c); /* bounded memory: start over rather than grow */
		return true;
	}
	size_t n_slots = c->mask ? (c->mask + 1) * 2 : INITIAL_SLOTS;
	size_t size = n_slots * sizeof(tk_line_slot);
	tk_line_slot *ns = tk_huge_alloc(&size);
	if (!ns)
		return false;
	tk_line_slot *old = c->slots;
	size_t old_n = c->mask ? c->mask + 1 : 0, old_size = c->slots_size;
	c->slots = ns;
	c->slots_size = size;
	c->mask = n_slots - 1;
	for (size_t i = 0; i < old_n; i++) {
		if (!old[i].space)
			continue;
		size_t j = slot_of(c, old[i].space, old[i].ip);
		while (ns[j].space)
			j = (j + 1) & c->mask;
		ns[j] = old[i];
	}
	tk_huge_free(old, old_size);
	return true;
}

/* Room for n more bytes of text. false: out of memory. The store is
 * mapped at its bound on first use (pages are backed only once written):
 * it never moves, where doubling it copied the text into fresh huge
 * pages, which cost most on a VM (bench/README, session 39). */
static bool reserve_text(tk_line_cache *c, size_t n)
{
	if (c->text_cap - c->text_len >= n)
		return true;
	if (!c->text) {
		size_t cap = TK_LINE_CACHE_MAX_TEXT;
		if (!(c->text = tk_huge_alloc(&cap)))
			return false;
		c->text_cap = cap;
	} else {
		clear(c); /* full: bounded memory, start over */
	}
	return c->text_cap - c->text_len >= n;
}

/* Writes a line without the cache. */
static void put_uncached(tk_writer *w, const tk_addr_loc *loc, uint64_t ip, size_t bound)
{
	if (tk_writer_reserve(w, bound))
		w->pos = (size_t)(render_line(w->buf + w->pos, loc, ip) - w->buf);
}

/* Stores the text rendered at start + 2 (len bytes) under (space, key),
 * its length first, and writes it. */
static void store(tk_line_cache *c, uint32_t space, uint64_t key, char *start, uint16_t len,
		  tk_writer *w)
{
	memcpy(start, &len, 2);
	size_t j = slot_of(c, space, key);
	while (c->slots[j].space)
		j = (j + 1) & c->mask;
	c->slots[j] = (tk_line_slot){.ip = key, .space = space, .off = (uint32_t)c->text_len};
	c->hot[hot_of(key_hash(space, key))] = c->slots[j];
	c->n++;
	c->text_len += 2 + (size_t)len;
	tk_put_mem(w, start + 2, len);
}

/* Stores the text in c->scratch under (space, key) (unless space is 0 or
 * there is no room: then it is only written) and writes it. */
static void store_scratch(tk_line_cache *c, uint32_t space, uint64_t key, tk_writer *w)
{
	size_t len = c->scratch->pos;
	uint64_t epoch = c->epoch;
	bool cached = space && len <= UINT16_MAX &&
		      ((c->n + 1) * 10 <= (c->mask + 1) * 7 || grow_table(c)) &&
		      reserve_text(c, len + 2 + TEXT_SLACK);
	if (!cached || c->epoch != epoch || c->scratch->error) {
		tk_put_mem(w, c->scratch->buf, len);
		return;
	}
	char *start = c->text + c->text_len;
	memcpy(start + 2, c->scratch->buf, len);
	store(c, space, key, start, (uint16_t)len, w);
}

/* Resolves and renders a line not in the cache, stores it under (space,
 * key) (unless space is 0: no id) and writes it. */
static void miss_key(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
		     uint32_t space, uint64_t key, uint64_t ip, tk_writer *w)
{
	tk_addr_loc loc;
	tk_threads_resolve(t, th, cpumode, ip, &loc);
	if (c->json) {
		c->scratch->pos = 0;
		tk_json_frame_render(c->scratch, &loc, ip, loc.name, loc.name_len, false);
		store_scratch(c, space, key, w);
		return;
	}
	size_t bound =
	    line_bound(loc.name ? loc.name_len : 9, loc.map ? loc.map->dso->name_len : 9);
	uint64_t epoch = c->epoch;
	bool cached = space && bound <= UINT16_MAX &&
		      ((c->n + 1) * 10 <= (c->mask + 1) * 7 || grow_table(c)) &&
		      reserve_text(c, bound + 2 + TEXT_SLACK);
	if (!cached || c->epoch != epoch) {
		/* no room, or the cache was just emptied (space ids stay valid,
		 * but keep it simple: this one line goes uncached) */
		put_uncached(w, &loc, ip, bound);
		return;
	}
	char *start = c->text + c->text_len;
	store(c, space, key, start, (uint16_t)(render_line(start + 2, &loc, ip) - (start + 2)), w);
}

static void miss(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
		 uint32_t space, uint64_t ip, tk_writer *w)
{
	miss_key(c, t, th, cpumode, space, ip, ip, w);
}

/* Unwound frames are cached apart from other frames of the same space:
 * their text also holds perf's inline frames (unwind_entry() calls
 * append_inlines(); add_callchain_ip() does not). User addresses never
 * have the top bit set. */
#define UNWOUND_KEY (1ull << 63)

/* An inline frame's line: "sym+0xoff (inlined)" at loc's offset. */
static char *render_inline_line(char *p, const tk_addr_loc *loc, uint64_t ip,
				const tk_perf_inline_frame *fr)
{
	tk_addr_loc l = *loc;
	l.name = fr->name;
	l.name_len = fr->name_len;
	p = render_line(p, &l, ip);
	if (!fr->inlined)
		return p;
	/* " (dso)\n" becomes " (inlined)\n" */
	p -= 2 + loc->map->dso->name_len + 2;
	memcpy(p, " (inlined)\n", 11);
	return p + 11;
}

/* An unwound frame not in the cache: resolved, expanded into its inline
 * frames, stored under ip | UNWOUND_KEY (unless space is 0) and written. */
static void miss_unwound(tk_line_cache *c, tk_threads *t, const tk_thread *th, uint32_t space,
			 uint64_t ip, tk_writer *w)
{
	tk_addr_loc loc;
	tk_threads_resolve(t, th, TK_CPUMODE_USER, ip, &loc);
	tk_perf_inline_frame inl[TK_PERF_INLINE_MAX];
	size_t n = tk_perf_unwind_inlines(t, th, &loc, ip, inl, TK_PERF_INLINE_MAX);
	if (!n) {
		miss_key(c, t, th, TK_CPUMODE_USER, space, ip | UNWOUND_KEY, ip, w);
		return;
	}
	if (c->json) {
		c->scratch->pos = 0;
		for (size_t i = 0; i < n; i++)
			tk_json_frame_render(c->scratch, &loc, ip, inl[i].name, inl[i].name_len,
					     inl[i].inlined);
		store_scratch(c, space, ip | UNWOUND_KEY, w);
		return;
	}
	size_t bound = 0;
	for (size_t i = 0; i < n; i++)
		bound += line_bound(inl[i].name_len, loc.map->dso->name_len + 10);
	uint64_t epoch = c->epoch;
	bool cached = space && bound <= UINT16_MAX &&
		      ((c->n + 1) * 10 <= (c->mask + 1) * 7 || grow_table(c)) &&
		      reserve_text(c, bound + 2 + TEXT_SLACK);
	if (!cached || c->epoch != epoch) {
		if (!tk_writer_reserve(w, bound))
			return;
		char *p = w->buf + w->pos;
		for (size_t i = 0; i < n; i++)
			p = render_inline_line(p, &loc, ip, &inl[i]);
		w->pos = (size_t)(p - w->buf);
		return;
	}
	char *start = c->text + c->text_len, *p = start + 2;
	for (size_t i = 0; i < n; i++)
		p = render_inline_line(p, &loc, ip, &inl[i]);
	uint16_t len = (uint16_t)(p - (start + 2));
	store(c, space, ip | UNWOUND_KEY, start, len, w);
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

/* Copies a cached line (length first) to the writer. Lines and the
 * writer both have TEXT_SLACK bytes of room past the end, so the copy
 * goes in whole 32-byte blocks: no call, no size dispatch. */
/* Inlined into the frame loop (the hot path of a -g profile); a second
 * caller (LBR frames) must not make the compiler outline it. */
static inline __attribute__((always_inline)) void put_cached(tk_writer *w, const char *line)
{
	uint16_t len;
	memcpy(&len, line, 2);
	if (!tk_writer_reserve(w, (size_t)len + TEXT_SLACK))
		return;
	char *dst = w->buf + w->pos;
	const char *src = line + 2;
	for (size_t i = 0; i < len; i += 32)
		memcpy(dst + i, src + i, 32);
	w->pos += len;
}

/* The cached line for (space, ip), or NULL; found in the big table, it is
 * copied to the hot one. */
static inline __attribute__((always_inline)) const char *lookup(tk_line_cache *c, uint32_t space,
								uint64_t ip)
{
	uint64_t h = key_hash(space, ip);
	tk_line_slot *hs = &c->hot[hot_of(h)];
	if (hs->ip == ip && hs->space == space)
		return c->text + hs->off;
	for (size_t j = (size_t)(h >> 32) & c->mask;; j = (j + 1) & c->mask) {
		const tk_line_slot *sl = &c->slots[j];
		if (!sl->space)
			return NULL;
		if (sl->ip == ip && sl->space == space) {
			*hs = *sl;
			return c->text + sl->off;
		}
	}
}

/* Notes a deferred kernel frame at w's position. false: out of memory (the
 * frame is then resolved at once, waiting for the table). */
static bool add_hole(tk_line_cache *c, uint64_t ip, const tk_writer *w)
{
	if (c->n_holes == c->cap_holes) {
		size_t cap = c->cap_holes ? c->cap_holes * 2 : 4096;
		tk_line_hole *h = realloc(c->holes, cap * sizeof *h);
		if (!h)
			return false;
		c->holes = h;
		c->cap_holes = cap;
	}
	c->holes[c->n_holes++] = (tk_line_hole){.off = w->pos, .ip = ip};
	return true;
}

/* A frame not in the cache: resolved, or a hole while kernel frames are
 * deferred. */
static void miss_or_hole(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
			 uint32_t space, uint64_t ip, tk_writer *w)
{
	if (!(c->defer_kernel && cpumode == TK_CPUMODE_KERNEL && add_hole(c, ip, w)))
		miss(c, t, th, cpumode, space, ip, w);
	else if (c->json)
		tk_put_char(w, ','); /* the frame's comma now: the printer ends the list with it */
}

/* The address space a frame of this cpumode is looked up in
 * (tk_threads_resolve()'s choice; none for the other cpumodes). */
static tk_maps *frame_maps(tk_threads *t, const tk_thread *th, unsigned cpumode)
{
	if (cpumode == TK_CPUMODE_KERNEL)
		return &t->kernel;
	if (cpumode == TK_CPUMODE_USER && th)
		return th->maps;
	return NULL;
}

/* Asks for the hot-table entry and the first table slot of every frame
 * of the chain before any is read: a chain the chain cache does not hold
 * misses the CPU caches three times a frame (hot entry, slot, line), and
 * the frame loop's branches keep the CPU from overlapping those misses by
 * itself. The spaces are recomputed by the loop (a miss may move the
 * kernel map); a prefetch with a stale one only wastes itself. */
static void prefetch_frames(tk_line_cache *c, tk_threads *t, const tk_thread *th,
			    const tk_perf_sample *s, uint64_t end)
{
	unsigned cpumode = TK_CPUMODE_USER;
	uint32_t space = space_id(c, frame_maps(t, th, cpumode));
	for (uint64_t i = 0; i < end; i++) {
		uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)i, s->swap);
		if (ip >= TK_PERF_CONTEXT_MAX) {
			context_mode(ip, &cpumode);
			space = space_id(c, frame_maps(t, th, cpumode));
			continue;
		}
		uint64_t h = key_hash(space, ip);
		__builtin_prefetch(&c->hot[hot_of(h)]);
		__builtin_prefetch(&c->slots[(size_t)(h >> 32) & c->mask]);
	}
}

/* The chain's lines, frame by frame (through the line cache). */
static void put_frames(tk_line_cache *c, tk_threads *t, const tk_thread *th,
		       const tk_perf_sample *s, bool lbr_callstack, const uint64_t *unwound,
		       size_t n_unwound, tk_writer *w)
{
	/* perf resets the whole chain on an unknown context marker: look for
	 * one before anything is written (markers are few, frames many) */
	uint64_t nr = s->callchain_nr, end = nr;
	unsigned cpumode = TK_CPUMODE_USER;
	if (nr <= TK_CALLCHAIN_MAX) {
		/* the usual chain: shorter than the frame limit */
		for (uint64_t i = 0; i < nr; i++) {
			uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)i, s->swap);
			if (ip >= TK_PERF_CONTEXT_MAX && !context_mode(ip, &cpumode))
				return;
		}
	} else {
		/* stop after TK_CALLCHAIN_MAX frames, as perf does */
		size_t frames = 0;
		for (end = 0; end < nr && frames < TK_CALLCHAIN_MAX; end++) {
			uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)end, s->swap);
			if (ip < TK_PERF_CONTEXT_MAX)
				frames++;
			else if (!context_mode(ip, &cpumode))
				return;
		}
	}
	/* resolve_lbr_callchain_sample(): with LBR call stacks, the chain up
	 * to its user marker, then the branch stack's first target and every
	 * branch source stand for the user part */
	bool lbr = false;
	if (lbr_callstack && s->branches && s->branch_nr > 0) {
		for (uint64_t i = 0; i < end; i++)
			if (tk_perf_u64_at(s->callchain, (size_t)i, s->swap) ==
			    TK_PERF_CONTEXT_USER) {
				end = i + 1;
				lbr = true;
				break;
			}
	}
	if (c->mask)
		prefetch_frames(c, t, th, s, end);
	/* callee first; the address space is looked up once per context */
	cpumode = TK_CPUMODE_USER;
	uint32_t space = 0;
	bool space_known = false;
	for (uint64_t i = 0; i < end; i++) {
		uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)i, s->swap);
		if (ip >= TK_PERF_CONTEXT_MAX) {
			context_mode(ip, &cpumode);
			space_known = false;
			continue;
		}
		if (!space_known) {
			space = space_id(c, frame_maps(t, th, cpumode));
			space_known = true;
		}
		const char *line = c->mask && space ? lookup(c, space, ip) : NULL;
		if (line)
			put_cached(w, line);
		else
			miss_or_hole(c, t, th, cpumode, space, ip, w);
	}
	if (lbr) {
		uint32_t user = space_id(c, th ? th->maps : NULL);
		for (uint64_t k = 0; k <= s->branch_nr; k++) {
			/* entries[0].to, then entries[k].from */
			uint64_t ip =
			    k == 0 ? tk_perf_u64_at(s->branches, 1, s->swap)
				   : tk_perf_u64_at(s->branches, (size_t)(3 * (k - 1)), s->swap);
			const char *line = c->mask && user ? lookup(c, user, ip) : NULL;
			if (line)
				put_cached(w, line);
			else
				miss(c, t, th, TK_CPUMODE_USER, user, ip, w);
		}
	}
	if (n_unwound) {
		/* DWARF-unwound user frames (perf skips a zero entry) */
		uint32_t user = space_id(c, th ? th->maps : NULL);
		for (size_t k = 0; k < n_unwound; k++) {
			uint64_t ip = unwound[k];
			if (!ip)
				continue;
			const char *line =
			    c->mask && user ? lookup(c, user, ip | UNWOUND_KEY) : NULL;
			if (line)
				put_cached(w, line);
			else
				miss_unwound(c, t, th, user, ip, w);
		}
	}
}

void tk_line_cache_put_callchain(tk_line_cache *c, tk_threads *t, const tk_thread *th,
				 const tk_perf_sample *s, bool lbr_callstack,
				 const uint64_t *unwound, size_t n_unwound, tk_writer *w)
{
	if (!(s->sample_type & TK_PERF_SAMPLE_CALLCHAIN))
		return;
	if (c->n_spaces > UINT32_MAX - 16)
		clear_spaces(c);
	/* Whole chains are cached only when the block is a function of the
	 * raw entries and the two spaces: not with holes for deferred kernel
	 * frames, unwound user frames or an LBR call stack (other inputs). */
	if (c->defer_kernel || n_unwound || s->callchain_nr == 0 ||
	    (lbr_callstack && s->branches && s->branch_nr > 0)) {
		put_frames(c, t, th, s, lbr_callstack, unwound, n_unwound, w);
		return;
	}
	tk_chain_key k = {
	    .user = space_id(c, th ? th->maps : NULL),
	    .kernel = space_id(c, &t->kernel),
	    .nr = s->callchain_nr > TK_CHAIN_CACHE_MAX_NR ? UINT32_MAX : (uint32_t)s->callchain_nr,
	    .entries = s->callchain,
	};
	bool store = false;
	if (k.nr <= TK_CHAIN_CACHE_MAX_NR) {
		tk_chain_key_hash(&k);
		size_t len;
		const char *block = tk_chain_cache_find(&c->chains, &k, &len, &store);
		if (block) {
			tk_put_mem(w, block, len);
			return;
		}
	}
	size_t pos = w->pos;
	uint64_t at = tk_writer_tell(w);
	uint32_t space_epoch = c->space_epoch;
	put_frames(c, t, th, s, lbr_callstack, unwound, n_unwound, w);
	/* stored only as one piece of the buffer (no flush in between), whole
	 * (no write error) and rendered in the spaces of its key (resolving
	 * a kernel frame can move the kernel map: a new generation) */
	if (store && !w->error && tk_writer_tell(w) - at == w->pos - pos &&
	    c->space_epoch == space_epoch && k.user == space_id(c, th ? th->maps : NULL) &&
	    k.kernel == space_id(c, &t->kernel))
		tk_chain_cache_put(&c->chains, &k, w->buf + pos, w->pos - pos);
}

void tk_line_cache_put_ip(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
			  uint64_t ip, tk_writer *w)
{
	if (c->n_spaces > UINT32_MAX - 16)
		clear_spaces(c);
	uint32_t space = space_id(c, frame_maps(t, th, cpumode));
	const char *line = c->mask && space ? lookup(c, space, ip) : NULL;
	if (line)
		put_cached(w, line);
	else
		miss_or_hole(c, t, th, cpumode, space, ip, w);
}

void tk_line_cache_defer_kernel(tk_line_cache *c, bool on)
{
	c->defer_kernel = on;
}

/* buf[0..n) in pieces, so a file writer flushes rather than grows. */
static void put_pieces(tk_writer *out, const char *buf, size_t n)
{
	while (n > 0) {
		size_t k = n < ((size_t)256 << 10) ? n : (size_t)256 << 10;
		tk_put_mem(out, buf, k);
		buf += k;
		n -= k;
	}
}

void tk_line_cache_fill_holes(tk_line_cache *c, tk_threads *t, const char *buf, size_t len,
			      tk_writer *out)
{
	bool was = c->defer_kernel;
	c->defer_kernel = false;
	/* the test hook of kernel_syms.h says how many frames waited, so a
	 * test sees the deferral happen (stderr, with the hook only) */
	const char *hook = getenv("TRACEKIT_KERNEL_DEFER");
	if (hook && strcmp(hook, "always") == 0 && c->n_holes)
		fprintf(stderr, "tracekit: %zu kernel frames were deferred\n", c->n_holes);
	size_t at = 0;
	tk_writer *frame = NULL;
	if (c->json && c->n_holes && tk_writer_open_memory(&frame, NULL) != TK_OK)
		frame = NULL;
	for (size_t i = 0; i < c->n_holes; i++) {
		const tk_line_hole *h = &c->holes[i];
		put_pieces(out, buf + at, h->off - at);
		at = h->off;
		/* the kernel's space as it is now: resolving its first address
		 * may move the kernel map (and start a new space), as it would
		 * have in place */
		if (!c->json) {
			tk_line_cache_put_ip(c, t, NULL, TK_CPUMODE_KERNEL, h->ip, out);
			continue;
		}
		/* a JSON frame without its comma, which is in buf already */
		if (!frame) {
			out->error = ENOMEM;
			continue;
		}
		frame->pos = 0;
		tk_line_cache_put_ip(c, t, NULL, TK_CPUMODE_KERNEL, h->ip, frame);
		put_pieces(out, frame->buf, frame->pos ? frame->pos - 1 : 0);
	}
	tk_writer_abort(frame);
	put_pieces(out, buf + at, len - at);
	c->n_holes = 0;
	c->defer_kernel = was;
}
