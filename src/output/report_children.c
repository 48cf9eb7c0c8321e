/* perf report --children (see report_children.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/perf_callchain.h"
#include "analysis/perf_samples.h"
#include "analysis/perf_unwind.h"
#include "analysis/srcline.h"
#include "base/arena.h"
#include "model/filter.h"
#include "output/report_children.h"
#include "symbols/kernel_syms.h"
#include "output/report_perf.h"
#include "output/report_sort.h"

/* sort__sym_cmp's identity of a hist entry */
enum { KEY_SYM, KEY_INLINE, KEY_ADDR };
typedef struct row_key {
	uint8_t kind;
	const void *dso;     /* KEY_SYM, KEY_INLINE */
	uint64_t a, b;       /* SYM: start, end; INLINE: the function's start; ADDR: address */
	const char *name;    /* KEY_INLINE */
	bool graph_only;     /* a call-graph node's symbol, no hist entry */
	int32_t tid;         /* --sort pid */
	const char *comm;    /* --sort comm (compared by text) */
	const char *srcline; /* --sort srcline (compared by text) */
} row_key;

typedef struct row {
	row_key key;
	const char *name; /* as printed, without "[.] " */
	size_t name_len;
	char level; /* '.' user, 'k' kernel */
	bool inlined;
	bool no_sym;     /* the sample that made it had no symbol (perf's he->ms.sym) */
	bool chain_made; /* made by a chain's frame, no sample of its own yet */
	uint64_t self, children;
	uint32_t graph;          /* root of its call-graph trie + 1, 0 = none */
	uint32_t max_depth;      /* longest chain added under it (perf's callchain max_depth) */
	const tk_thread *thread; /* of the sample that made it (perf's he->thread) */
	const void *dso;         /* its image (NULL: none) */
	const char *comm;        /* the comm of that sample (arena) */
	const char *srcline;     /* --sort srcline: its text */
} row;

/* A call-graph trie node: one row reached along a chain. */
typedef struct gnode {
	uint32_t row;
	uint64_t ip;             /* the frame's address: an unresolved one is shown by it */
	uint32_t child, sibling; /* node index + 1, 0 = none */
	uint64_t period;
} gnode;

typedef struct table {
	char *event;
	const tk_thread *thread; /* --per-thread: the thread of this table */
	uint64_t total, samples;
	row *rows;
	size_t n_rows, cap_rows;
	uint32_t *slots; /* row index + 1, open addressing */
	size_t mask;
	gnode *nodes;
	size_t n_nodes, cap_nodes;
	bool over_limit; /* GRAPH_MAX_NODES reached */
} table;

typedef struct state {
	const tk_report_children_options *opt;
	tk_rsort sort;
	tk_srcline *lines;  /* --sort srcline */
	bool lines_dir_set; /* lines knows the build-id cache */
	tk_arena names;
	table *tables;
	size_t n_tables;
	tk_context *ctx; /* the shared model context the samples come through */
	tk_threads *th;  /* its perf model (names and images of the rows) */
	tk_callchain chain;
	uint32_t order_rows[TK_CALLCHAIN_CAP + 1];
	uint64_t order_ips[TK_CALLCHAIN_CAP + 1];
	uint32_t node_rows[TK_CALLCHAIN_CAP + 1];
} state;

/* row_of()'s mask for a call-graph node (a symbol) that is no row */
#define GRAPH_ONLY (1u << 31 | 1u << TK_RSORT_SYM)

static uint64_t hash_key(const row_key *k)
{
	uint64_t h = 1469598103934665603ull ^ k->kind;
	h = (h ^ (uint64_t)(uintptr_t)k->dso) * 1099511628211ull;
	h = (h ^ k->a) * 1099511628211ull;
	h = (h ^ k->b) * 1099511628211ull;
	for (const char *p = k->name; p && *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	h = (h ^ (uint32_t)k->tid ^ ((uint64_t)k->graph_only << 32)) * 1099511628211ull;
	for (const char *p = k->comm; p && *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	for (const char *p = k->srcline; p && *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return h ^ (h >> 29);
}

static bool same_key(const row_key *x, const row_key *y)
{
	return x->kind == y->kind && x->dso == y->dso && x->a == y->a && x->b == y->b &&
	       (x->kind != KEY_INLINE || strcmp(x->name, y->name) == 0) && x->tid == y->tid &&
	       x->graph_only == y->graph_only &&
	       (x->comm == y->comm || (x->comm && y->comm && strcmp(x->comm, y->comm) == 0)) &&
	       (x->srcline == y->srcline ||
		(x->srcline && y->srcline && strcmp(x->srcline, y->srcline) == 0));
}

static bool grow_slots(table *t)
{
	size_t n = t->mask ? (t->mask + 1) * 2 : 1024;
	uint32_t *ns = calloc(n, sizeof *ns);
	if (!ns)
		return false;
	for (size_t i = 0; i < t->n_rows; i++) {
		size_t j = hash_key(&t->rows[i].key) & (n - 1);
		while (ns[j])
			j = (j + 1) & (n - 1);
		ns[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = ns;
	t->mask = n - 1;
	return true;
}

/* perf's hist_entry__srcline(): "file:line" from the image's DWARF,
 * else "sym+offset" (decimal) or "image[address]" (hex), "??:0" without
 * a map. buf holds the fallbacks; the result lives until the next call. */
static const char *srcline_of(state *s, const tk_addr_loc *loc, uint64_t ip, char *buf, size_t size)
{
	if (!loc->map)
		return "??:0";
	const tk_dso *d = loc->map->dso;
	const char *line = NULL;
	if (!s->lines_dir_set) {
		/* the build-id cache the model's symbols come from */
		tk_srcline_debug_dir(s->lines, tk_symcache_debug_dir(s->th->symbols));
		s->lines_dir_set = true;
	}
	if (d->kind == TK_DSO_FILE && d->name[0] == '/')
		line = tk_srcline_get_id(s->lines, d->name, d->build_id, d->build_id_len,
					 ip - loc->map->start + loc->map->pgoff, false);
	if (line)
		return line;
	if (loc->sym && loc->name)
		snprintf(buf, size, "%.*s+%llu",
			 (int)(loc->name_len < size / 2 ? loc->name_len : size / 2), loc->name,
			 (unsigned long long)loc->sym_off);
	else
		snprintf(buf, size, "%.*s[%llx]", (int)(size / 2), d->short_name,
			 (unsigned long long)loc->addr);
	return buf;
}

/* Fills what row r takes from the frame that makes it (perf's hist entry
 * keeps its first sample's thread, level, map and symbol). */
static bool fill_row(state *s, row *r, const row_key *k, char level, const tk_thread *th,
		     const tk_dso *dso, const tk_addr_loc *loc, const char *comm,
		     const char *inl_name, size_t inl_len)
{
	r->level = level;
	r->thread = th;
	r->dso = dso;
	r->no_sym = !loc->sym;
	r->inlined = false;
	r->comm = tk_arena_strdup(&s->names, comm);
	if (!r->comm)
		return false;
	char buf[24];
	const char *name;
	size_t len;
	if (inl_name && loc->sym) {
		name = inl_name;
		len = inl_len;
		r->inlined = true;
	} else if (loc->sym) {
		name = loc->name;
		len = loc->name_len;
	} else {
		/* "%-#.*llx": no 0x for zero */
		len = (size_t)snprintf(buf, sizeof buf, "%#018llx", (unsigned long long)k->a);
		if (!k->a)
			len = (size_t)snprintf(buf, sizeof buf, "%016llx", 0ull);
		name = buf;
	}
	/* inline names are libdw's and do not outlive the next unwind */
	r->name = tk_arena_strndup(&s->names, name, len);
	r->name_len = len;
	if (!r->name)
		return false;
	return true;
}

/* The row of a frame resolved to loc (fr_name: an inline frame's name),
 * made when new; UINT32_MAX when out of memory. */
static uint32_t row_of(state *s, table *t, unsigned mask, const tk_thread *th,
		       const tk_addr_loc *loc, bool self_entry, char *level, uint64_t ip,
		       const char *inl_name, size_t inl_len)
{
	row_key k = {0};
	const tk_dso *dso = loc->map ? loc->map->dso : NULL;
	if (inl_name && loc->sym) {
		k = (row_key){
		    .kind = KEY_INLINE, .dso = dso, .a = loc->sym->start, .name = inl_name};
	} else if (loc->sym) {
		k = (row_key){
		    .kind = KEY_SYM, .dso = dso, .a = loc->sym->start, .b = loc->sym->size};
	} else {
		/* a kernel module's al->addr is relative to its map (perf maps
		 * modules with pgoff 0), as report_perf.c keys it */
		uint64_t rel = !loc->map                              ? ip
			       : loc->map->dso->kind == TK_DSO_MODULE ? ip - loc->map->start
								      : loc->addr;
		k = (row_key){.kind = KEY_ADDR, .a = self_entry ? rel : ip};
	}
	/* the hist entry's identity is the --sort keys' (sort__sym_cmp
	 * compares the image too; the others their own field) */
	if (!(mask & (1u << TK_RSORT_SYM)))
		k = (row_key){.dso = mask & (1u << TK_RSORT_DSO) ? dso : NULL};
	else if (mask & (1u << TK_RSORT_DSO))
		k.dso = dso;
	if (mask & (1u << TK_RSORT_PID))
		k.tid = th ? th->tid : -1;
	/* a thread without a COMM record is ":<tid>", as perf names it */
	const char *comm = th ? th->comm : "[unknown]";
	if (mask & (1u << TK_RSORT_COMM))
		k.comm = comm;
	k.graph_only = mask == GRAPH_ONLY;
	char sl_buf[256];
	if (mask & (1u << TK_RSORT_SRCLINE) && !k.graph_only)
		k.srcline = srcline_of(s, loc, ip, sl_buf, sizeof sl_buf);
	/* fill_callchain_info() sets the level only for a frame with a map;
	 * without one the entry keeps the one before it (perf reuses its
	 * addr_location), the sample's own entry its cpumode's */
	if (dso)
		*level = dso->kind == TK_DSO_KERNEL || dso->kind == TK_DSO_MODULE ? 'k' : '.';
	if ((t->n_rows + 1) * 2 > t->mask && !grow_slots(t))
		return UINT32_MAX;
	size_t j = hash_key(&k) & t->mask;
	for (; t->slots[j]; j = (j + 1) & t->mask)
		if (same_key(&t->rows[t->slots[j] - 1].key, &k)) {
			row *r = &t->rows[t->slots[j] - 1];
			if (self_entry && r->chain_made) {
				if (!fill_row(s, r, &k, *level, th, dso, loc, comm, inl_name,
					      inl_len))
					return UINT32_MAX;
				r->chain_made = false;
			}
			return t->slots[j] - 1;
		}
	if (t->n_rows == t->cap_rows) {
		size_t cap = t->cap_rows ? t->cap_rows * 2 : 256;
		row *nr = realloc(t->rows, cap * sizeof *nr);
		if (!nr)
			return UINT32_MAX;
		t->rows = nr;
		t->cap_rows = cap;
	}
	row *r = &t->rows[t->n_rows];
	memset(r, 0, sizeof *r);
	if (!fill_row(s, r, &k, *level, th, dso, loc, comm, inl_name, inl_len))
		return UINT32_MAX;
	/* without --children perf makes entries of samples only, never of
	 * their chains' frames: such a row takes the fields of the first
	 * sample of its own when one comes */
	r->chain_made = !self_entry && !s->opt->children && !k.graph_only;
	if (k.kind == KEY_INLINE)
		k.name = r->name;
	if (k.comm)
		k.comm = r->comm;
	if (k.srcline && !(k.srcline = r->srcline = tk_arena_strdup(&s->names, k.srcline)))
		return UINT32_MAX;
	r->key = k;
	t->slots[j] = (uint32_t)t->n_rows + 1;
	return (uint32_t)t->n_rows++;
}

static table *table_for(state *s, const char *event, const tk_thread *th)
{
	if (!s->opt->per_thread)
		th = NULL;
	for (size_t i = 0; i < s->n_tables; i++)
		if (strcmp(s->tables[i].event, event) == 0 && s->tables[i].thread == th)
			return &s->tables[i];
	table *nt = realloc(s->tables, (s->n_tables + 1) * sizeof *nt);
	if (!nt)
		return NULL;
	s->tables = nt;
	table *t = &nt[s->n_tables];
	memset(t, 0, sizeof *t);
	t->thread = th;
	if (!(t->event = strdup(event)))
		return NULL;
	s->n_tables++;
	return t;
}

/* Call-graph nodes of one table at most (32 bytes each: 256 MiB); a
 * recording with more distinct paths is refused rather than exhausting
 * memory (perf report would need as much). */
#define GRAPH_MAX_NODES ((size_t)8 << 20)

static uint32_t new_node(table *t, uint32_t row_idx, uint64_t ip)
{
	if (t->n_nodes >= GRAPH_MAX_NODES) {
		t->over_limit = true;
		return 0;
	}
	if (t->n_nodes == t->cap_nodes) {
		size_t cap = t->cap_nodes ? t->cap_nodes * 2 : 1024;
		gnode *nn = realloc(t->nodes, cap * sizeof *nn);
		if (!nn)
			return 0;
		t->nodes = nn;
		t->cap_nodes = cap;
	}
	t->nodes[t->n_nodes] = (gnode){.row = row_idx, .ip = ip};
	return (uint32_t)++t->n_nodes;
}

/* Adds one chain (rows[from..to-1], in the graph's order) to row r's trie. */
static bool graph_add(table *t, uint32_t r, const uint32_t *rows, const uint64_t *ips, size_t from,
		      size_t to, uint64_t period)
{
	if (!t->rows[r].graph && !(t->rows[r].graph = new_node(t, r, 0)))
		return false;
	if (to > from && to - from > t->rows[r].max_depth)
		t->rows[r].max_depth = (uint32_t)(to - from);
	uint32_t node = t->rows[r].graph;
	t->nodes[node - 1].period += period;
	for (size_t i = from; i < to; i++) {
		uint32_t c = t->nodes[node - 1].child, prev = 0;
		while (c && t->nodes[c - 1].row != rows[i]) {
			prev = c;
			c = t->nodes[c - 1].sibling;
		}
		if (!c) {
			if (!(c = new_node(t, rows[i], ips[i])))
				return false;
			if (prev)
				t->nodes[prev - 1].sibling = c;
			else
				t->nodes[node - 1].child = c;
		}
		t->nodes[c - 1].period += period;
		node = c;
	}
	return true;
}

/* One sample: its self row, then every other row of its chain once. */
static bool add_sample(state *s, table *t, const tk_perf_record *rec, const tk_perf_sample *smp,
		       tk_thread *th)
{
	uint64_t period = tk_perf_sample_weight(rec->attr, smp);
	tk_callchain *ch = &s->chain;
	ch->n = 0;
	if (smp->sample_type & TK_PERF_SAMPLE_CALLCHAIN)
		tk_callchain_resolve(s->th, th, smp, ch);
	tk_callchain_append_unwound(s->th, th, rec->attr, smp, ch);
	tk_addr_loc loc = {0};
	if (smp->sample_type & TK_PERF_SAMPLE_IP)
		tk_threads_resolve(s->th, th, rec->misc & 7u, smp->ip, &loc);
	char level = (rec->misc & 7u) == TK_CPUMODE_KERNEL ? 'k' : '.';
	unsigned mask = s->sort.mask;
	uint32_t self = row_of(s, t, mask, th, &loc, true, &level, smp->ip, NULL, 0);
	if (self == UINT32_MAX)
		return false;
	t->total += period;
	t->samples++;
	t->rows[self].self += period;
	t->rows[self].children += period;
	/* rows of the chain, callee first; without a chain, the sample's own */
	bool graph = s->opt->graph != TK_REPORT_GRAPH_NONE;
	/* perf report's default order is caller (graph,0.5,caller), -g none too */
	bool caller = s->opt->graph != TK_REPORT_GRAPH_CALLEE;
	/* perf walks the cursor in the graph's order (caller: root first):
	 * the self entry gets the whole chain, each new entry the chain from
	 * its own position (callchain_cursor_snapshot) */
	uint32_t *ord = s->order_rows;
	uint64_t *ips = s->order_ips;
	/* the trees' nodes are symbols (perf's match_chain), which the
	 * rows are not when sym is no sort key */
	bool own_nodes = graph && !(mask & (1u << TK_RSORT_SYM));
	uint32_t *nodes = own_nodes ? s->node_rows : ord;
	size_t n = ch->n;
	for (size_t i = 0; i < n; i++) {
		const tk_callchain_frame *fr = &ch->frames[caller ? n - 1 - i : i];
		const char *inl = fr->inlined ? fr->loc.name : NULL;
		char node_level = level;
		ord[i] =
		    row_of(s, t, mask, th, &fr->loc, false, &level, fr->ip, inl, fr->loc.name_len);
		if (own_nodes)
			nodes[i] = row_of(s, t, GRAPH_ONLY, th, &fr->loc, false, &node_level,
					  fr->ip, inl, fr->loc.name_len);
		ips[i] = fr->ip;
		if (ord[i] == UINT32_MAX || nodes[i] == UINT32_MAX)
			return false;
	}
	if (!n) {
		ord[n] = self;
		if (own_nodes && (nodes[n] = row_of(s, t, GRAPH_ONLY, th, &loc, true, &level,
						    smp->ip, NULL, 0)) == UINT32_MAX)
			return false;
		ips[n++] = smp->ip;
	}
	if (graph && !graph_add(t, self, nodes, ips, 0, n, period))
		return false;
	/* he_cache: a row counts once per sample (recursion, the ip repeated
	 * as the chain's first entry) */
	for (size_t k = 0; k < n; k++) {
		bool seen = ord[k] == self;
		for (size_t j = 0; j < k && !seen; j++)
			seen = ord[j] == ord[k];
		if (seen || !s->opt->children)
			continue;
		t->rows[ord[k]].children += period;
		if (graph && !graph_add(t, ord[k], nodes, ips, k, n, period))
			return false;
	}
	return true;
}

static const table *sort_table;
static const tk_report_children_options *sort_opt;
static const state *sort_state;

static const char *dso_short(const row *r)
{
	return r->dso ? ((const tk_dso *)r->dso)->short_name : NULL;
}

/* One --sort key of two rows, ascending as perf prints them. */
static int cmp_key(uint8_t key, const row *a, const row *b)
{
	switch (key) {
	case TK_RSORT_PID: return a->key.tid < b->key.tid ? -1 : a->key.tid > b->key.tid;
	case TK_RSORT_COMM: return strcmp(a->comm, b->comm);
	case TK_RSORT_SRCLINE:
		return strcmp(a->srcline ? a->srcline : "", b->srcline ? b->srcline : "");
	case TK_RSORT_DSO: {
		/* _sort__dso_cmp: rows without an image after (cmp_null) */
		const char *da = dso_short(a), *db = dso_short(b);
		if (!da || !db)
			return da ? -1 : db ? 1 : 0;
		return strcmp(da, db);
	}
	case TK_RSORT_SYM: {
		/* sort__sym_sort: by name, rows without a symbol after (cmp_null) */
		bool ua = a->key.kind == KEY_ADDR, ub = b->key.kind == KEY_ADDR;
		if (ua != ub)
			return ua ? 1 : -1;
		if (ua) {
			/* perf leaves them in its collapsed tree's order,
			 * _sort__addr_cmp's signed difference of the ips */
			int64_t d = (int64_t)(b->key.a - a->key.a);
			return d > 0 ? -1 : d < 0;
		}
		return strcmp(a->name, b->name);
	}
	default: return 0;
	}
}

static int cmp_rows(const void *pa, const void *pb)
{
	const row *a = &sort_table->rows[*(const uint32_t *)pa];
	const row *b = &sort_table->rows[*(const uint32_t *)pb];
	uint64_t ka = sort_opt->children ? a->children : a->self;
	uint64_t kb = sort_opt->children ? b->children : b->self;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	/* __hpp__sort_acc: with call graphs, equal Children of one thread
	 * put the caller first (its chain is the deeper one in caller order,
	 * the shallower in callee order) */
	if (sort_opt->children && sort_opt->graph != TK_REPORT_GRAPH_NONE &&
	    a->thread == b->thread && a->max_depth != b->max_depth) {
		bool deeper_first = sort_opt->graph == TK_REPORT_GRAPH_CALLER;
		return (a->max_depth > b->max_depth) == deeper_first ? -1 : 1;
	}
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	/* then the --sort keys in their order, each as perf's se_sort */
	for (size_t i = 0; i < sort_state->sort.n; i++) {
		int c = cmp_key(sort_state->sort.keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

static const table *sort_nodes_table;

static int cmp_nodes(const void *pa, const void *pb)
{
	const gnode *a = &sort_nodes_table->nodes[*(const uint32_t *)pa - 1];
	const gnode *b = &sort_nodes_table->nodes[*(const uint32_t *)pb - 1];
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	/* equal periods keep perf's input-tree order: match_chain()'s key,
	 * larger first (the image, then the symbol's start, an inline frame's
	 * name, or the address) */
	const row *ra = &sort_nodes_table->rows[a->row], *rb = &sort_nodes_table->rows[b->row];
	bool syms = ra->key.kind != KEY_ADDR && rb->key.kind != KEY_ADDR;
	if (syms && (ra->key.kind == KEY_INLINE || rb->key.kind == KEY_INLINE)) {
		int c = strcmp(ra->name, rb->name);
		if (c)
			return c > 0 ? -1 : 1;
	}
	if (ra->dso != rb->dso)
		return (uintptr_t)ra->dso > (uintptr_t)rb->dso ? -1 : 1;
	uint64_t ka = syms ? ra->key.a : a->ip, kb = syms ? rb->key.a : b->ip;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return 0;
}

static void put_node_name(tk_writer *w, const table *t, const gnode *g)
{
	const row *r = &t->rows[g->row];
	if (r->key.kind == KEY_ADDR)
		tk_put_fmt(w, "%#llx", (unsigned long long)g->ip); /* callchain_list__sym_name */
	else
		tk_put_mem(w, r->name, r->name_len);
	if (r->inlined)
		tk_put_lit(w, " (inlined)");
	tk_put_char(w, '\n');
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* perf's __callchain__fprintf_graph: a node continues on the next line
 * while it has one child that all its period goes through; otherwise
 * every child (above the limit) is a branch "|--P%--name". depth bounds
 * the recursion by the chain length. */
static void print_branches(tk_writer *w, const table *t, uint32_t node, char *prefix,
			   size_t prefix_len, double limit, uint64_t total, bool first_separated)
{
	uint32_t kids[256];
	size_t n = 0;
	for (uint32_t c = t->nodes[node - 1].child; c && n < 256; c = t->nodes[c - 1].sibling)
		if (pct(t->nodes[c - 1].period, total) >= limit)
			kids[n++] = c;
	sort_nodes_table = t;
	qsort(kids, n, sizeof *kids, cmp_nodes);
	for (size_t i = 0; i < n; i++) {
		bool last = i + 1 == n;
		uint32_t c = kids[i];
		if (i || !first_separated) {
			tk_put_mem(w, prefix, prefix_len);
			tk_put_lit(w, "|          \n");
		}
		tk_put_mem(w, prefix, prefix_len);
		tk_put_fmt(w, "%s%.2f%%--", last ? " --" : "|--",
			   pct(t->nodes[c - 1].period, total));
		put_node_name(w, t, &t->nodes[c - 1]);
		/* the prefix of what hangs below this branch */
		if (prefix_len + 11 >= 4096)
			continue;
		memcpy(prefix + prefix_len, last ? "           " : "|          ", 11);
		uint32_t cur = c;
		for (;;) {
			uint32_t only = t->nodes[cur - 1].child;
			if (!only || t->nodes[only - 1].sibling ||
			    t->nodes[only - 1].period != t->nodes[cur - 1].period)
				break;
			tk_put_mem(w, prefix, prefix_len + 11);
			put_node_name(w, t, &t->nodes[only - 1]);
			cur = only;
		}
		if (t->nodes[cur - 1].child)
			print_branches(w, t, cur, prefix, prefix_len + 11, limit, total, false);
	}
}

static void print_graph(tk_writer *w, const table *t, const row *r, double limit)
{
	if (!r->graph || !t->nodes[r->graph - 1].child)
		return;
	uint32_t root = r->graph;
	/* perf drops callchain nodes under --percent-limit of the total
	 * (min_percent), the row's whole tree when it is under it */
	if (pct(t->nodes[root - 1].period, t->total) < limit)
		return;
	/* nothing to show past the skipped entry (or only branches under
	 * the limit): no graph at all */
	uint32_t first = t->nodes[root - 1].child;
	bool skip_first = sort_state->sort.keys[0] == TK_RSORT_SYM;
	if (skip_first && !t->nodes[first - 1].sibling &&
	    t->nodes[first - 1].period == t->nodes[root - 1].period) {
		bool any = false;
		for (uint32_t c = t->nodes[first - 1].child; c && !any; c = t->nodes[c - 1].sibling)
			any = t->nodes[c - 1].period == t->nodes[first - 1].period ||
			      pct(t->nodes[c - 1].period, t->total) >= limit;
		if (!any)
			return;
	}
	if (!skip_first) {
		/* perf prints nothing (not even the "|") when the tree has
		 * no shared chain and no branch over the limit */
		uint32_t end = root;
		size_t shared = 0;
		for (uint32_t only;
		     (only = t->nodes[end - 1].child) && !t->nodes[only - 1].sibling &&
		     t->nodes[only - 1].period == t->nodes[end - 1].period;
		     end = only)
			shared++;
		bool any = shared > 0;
		for (uint32_t c = t->nodes[end - 1].child; c && !any; c = t->nodes[c - 1].sibling)
			any = pct(t->nodes[c - 1].period, t->total) >= limit;
		if (!any)
			return;
	}
	tk_put_lit(w, "            |\n");
	/* callchain__fprintf_graph: the chain all paths share is printed
	 * after "---", less its first entry (with --sort sym it is the row's
	 * own symbol, perf says, and skips it whatever it is) */
	uint32_t cur = root;
	/* perf skips it only when the sort order starts with sym */
	bool printed = false, skipped = !skip_first;
	for (;;) {
		uint32_t only = t->nodes[cur - 1].child;
		if (!only || t->nodes[only - 1].sibling ||
		    t->nodes[only - 1].period != t->nodes[cur - 1].period)
			break;
		cur = only;
		if (!skipped) {
			skipped = true;
			continue;
		}
		tk_put_lit(w, "            ");
		tk_put_mem(w, printed ? "   " : "---", 3);
		put_node_name(w, t, &t->nodes[cur - 1]);
		printed = true;
	}
	if (t->nodes[cur - 1].child) {
		/* branches: under the "|" line at its column, or under the chain */
		char prefix[4096];
		size_t len = printed ? 15 : 12;
		memset(prefix, ' ', len);
		print_branches(w, t, cur, prefix, len, limit, t->total, !printed);
	}
	tk_put_char(w, '\n');
}

static void cells_of(const row *r, tk_rsort_cells *c)
{
	const tk_thread *th = r->thread;
	*c = (tk_rsort_cells){
	    .tid = r->key.tid,
	    .thread_comm = th ? th->comm : r->comm,
	    .comm = r->comm,
	    .dso = dso_short(r),
	    .level = r->level,
	    .sym = r->name,
	    .sym_len = r->name_len,
	    .inlined = r->inlined,
	    /* perf's hist entry keeps the symbol of the sample that made it,
	     * whatever the --sort keys: without one (or without an image) it
	     * widens the dso column to 16 */
	    .unresolved = r->no_sym || !r->dso,
	    .srcline = r->srcline,
	};
}

static void print_table(tk_writer *w, const state *s, const table *t)
{
	const tk_report_children_options *o = s->opt;
	uint32_t *order = malloc((t->n_rows + 1) * sizeof *order);
	if (!order)
		return;
	size_t n = 0;
	for (size_t i = 0; i < t->n_rows; i++)
		if (!t->rows[i].key.graph_only)
			order[n++] = (uint32_t)i;
	sort_table = t;
	sort_opt = o;
	sort_state = s;
	qsort(order, n, sizeof *order, cmp_rows);
	/* without Children, rows met only in chains are no entries (perf
	 * adds hist entries for sample ips only): they sort last */
	while (!o->children && n && !t->rows[order[n - 1]].self)
		n--;
	if (o->base && o->base->top && o->base->top < n)
		n = (size_t)o->base->top;
	/* column widths: the header's, or the widest cell (perf's
	 * hists__calc_col_len over the entries shown) */
	const tk_rsort *so = &s->sort;
	size_t width[TK_RSORT_MAX];
	for (size_t k = 0; k < so->n; k++)
		width[k] = strlen(tk_rsort_header((tk_rsort_key)so->keys[k]));
	for (size_t i = 0; i < n; i++) {
		tk_rsort_cells c;
		cells_of(&t->rows[order[i]], &c);
		for (size_t k = 0; k < so->n; k++) {
			size_t len = tk_rsort_width((tk_rsort_key)so->keys[k], &c);
			if (len > width[k])
				width[k] = len;
		}
	}
	if (t->thread)
		tk_put_fmt(w, "# Thread: %s %d/%d\n#\n", t->thread->comm, (int)t->thread->pid,
			   (int)t->thread->tid);
	/* perf's convert_unit(): "2K", "156 " */
	unsigned long long nr = t->samples;
	char unit = ' ';
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	tk_put_fmt(w, "# Samples: %llu%c of event '%s'\n", nr, unit, t->event);
	tk_put_fmt(w, "# Event count (approx.): %llu\n#\n", (unsigned long long)t->total);
	tk_put_fmt(w, "# %s", o->children ? "Children      Self" : "Overhead");
	for (size_t k = 0; k < so->n; k++)
		tk_put_fmt(w, "  %-*s", (int)width[k], tk_rsort_header((tk_rsort_key)so->keys[k]));
	tk_put_fmt(w, "\n# %s", o->children ? "........  ........" : "........");
	for (size_t k = 0; k < so->n; k++) {
		tk_put_lit(w, "  ");
		for (size_t i = 0; i < width[k]; i++)
			tk_put_char(w, '.');
	}
	tk_put_lit(w, "\n#\n");
	for (size_t i = 0; i < n; i++) {
		const row *r = &t->rows[order[i]];
		if (o->children)
			tk_put_fmt(w, "%9.2f%%%9.2f%%", pct(r->children, t->total),
				   pct(r->self, t->total));
		else
			tk_put_fmt(w, "%9.2f%%", pct(r->self, t->total));
		tk_rsort_cells c;
		cells_of(r, &c);
		for (size_t k = 0; k < so->n; k++) {
			tk_put_lit(w, "  ");
			tk_rsort_put_cell(w, (tk_rsort_key)so->keys[k], &c, width[k],
					  k + 1 == so->n);
		}
		tk_put_char(w, '\n');
		if (o->graph != TK_REPORT_GRAPH_NONE)
			print_graph(w, t, r, o->percent_limit);
	}
	tk_put_lit(w, "\n\n");
	free(order);
}

/* tk_perf_samples_run's callback: one kept sample into its event's table. */
static tk_status take_sample(void *user, tk_threads *model, const tk_perf_record *rec,
			     const char *event, const tk_perf_sample *smp, tk_error *err)
{
	state *s = user;
	s->th = model;
	tk_thread *th = tk_perf_sample_thread(model, smp);
	table *t = table_for(s, event, th);
	if (!t || !add_sample(s, t, rec, smp, th)) {
		if (t && t->over_limit)
			return tk_error_set(err, TK_ERR_LIMIT, rec->offset,
					    "call graphs: more than %zu tree nodes for event %s",
					    GRAPH_MAX_NODES, t->event);
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	}
	return TK_OK;
}

static void state_free(state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_tables; i++) {
		table *t = &s->tables[i];
		free(t->event);
		free(t->rows);
		free(t->slots);
		free(t->nodes);
	}
	free(s->tables);
	tk_arena_free(&s->names);
	tk_context_free(s->ctx);
	tk_srcline_free(s->lines);
	free(s);
}

/* Reads the file into per-event tables of rows (and trees). */
static tk_status state_load(const char *path, const tk_report_children_options *opt, state **out,
			    tk_error *err)
{
	*out = NULL;
	state *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	s->opt = opt;
	tk_arena_init(&s->names, 64 * 1024);
	tk_status st = tk_perf_samples_context(&s->ctx, err);
	if (st != TK_OK) {
		state_free(s);
		return st;
	}
	if (!tk_rsort_parse(opt->sort_keys, &s->sort)) {
		state_free(s);
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown --sort list '%s' (pid, comm, dso, sym, srcline)",
				    opt->sort_keys);
	}
	if ((s->sort.mask & (1u << TK_RSORT_SRCLINE)) && !(s->lines = tk_srcline_new())) {
		state_free(s);
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	}
	tk_srcline_fail_limit(s->lines, true); /* as perf report's images */
	/* the samples report keeps: attr, event globs, decoded, filters */
	tk_perf_samples_options so = {
	    .filter = opt->base ? opt->base->filter : NULL,
	    .context = s->ctx,
	    .log = opt->base ? opt->base->log : NULL,
	    .log_user = opt->base ? opt->base->log_user : NULL,
	};
	st = tk_perf_samples_run(path, &so, take_sample, s, err);
	if (st != TK_OK) {
		state_free(s);
		return st;
	}
	*out = s;
	return TK_OK;
}

tk_status tk_perf_report_children(const char *path, const tk_report_children_options *opt,
				  tk_writer *out, tk_error *err)
{
	state *s;
	tk_status st = state_load(path, opt, &s, err);
	if (st != TK_OK)
		return st;
	for (size_t i = 0; i < s->n_tables; i++)
		print_table(out, s, &s->tables[i]);
	state_free(s);
	return TK_OK;
}

tk_status tk_perf_report_rows(const char *path, const tk_report_children_options *opt,
			      tk_report_rows *out, tk_error *err)
{
	memset(out, 0, sizeof *out);
	state *s;
	tk_status st = state_load(path, opt, &s, err);
	if (st != TK_OK)
		return st;
	tk_writer *w = NULL;
	if ((st = tk_writer_open_memory(&w, err)) != TK_OK) {
		state_free(s);
		return st;
	}
	if (!(out->tables = calloc(s->n_tables + 1, sizeof *out->tables))) {
		tk_writer_abort(w);
		state_free(s);
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	}
	for (size_t i = 0; i < s->n_tables && st == TK_OK; i++) {
		const table *t = &s->tables[i];
		tk_report_rows_table *rt = &out->tables[out->n++];
		rt->event = strdup(t->event);
		rt->samples = t->samples;
		rt->total = t->total;
		rt->rows = calloc(t->n_rows + 1, sizeof *rt->rows);
		if (!rt->event || !rt->rows) {
			st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
			break;
		}
		for (size_t r = 0; r < t->n_rows; r++) {
			const row *rw = &t->rows[r];
			/* the rows print_table() shows: hist entries (without
			 * Children, those with samples of their own) */
			if (rw->key.graph_only || (!opt->children && !rw->self))
				continue;
			tk_rsort_cells c;
			cells_of(rw, &c);
			size_t start = (size_t)tk_writer_tell(w);
			for (size_t k = 0; k < s->sort.n; k++) {
				if (k)
					tk_put_char(w, '\t');
				tk_rsort_put_cell(w, (tk_rsort_key)s->sort.keys[k], &c,
						  SIZE_MAX / 2, true);
			}
			size_t len;
			const char *data = tk_writer_data(w, &len);
			tk_report_row *o = &rt->rows[rt->n++];
			o->key = strndup(data + start, len - start);
			o->self = rw->self;
			o->children = rw->children;
			o->unresolved =
			    (s->sort.mask & (1u << TK_RSORT_SYM)) && rw->key.kind == KEY_ADDR;
			o->addr = rw->key.a;
			o->no_sym = rw->no_sym || !rw->dso;
			if (!o->key) {
				st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
				break;
			}
		}
	}
	tk_writer_abort(w);
	state_free(s);
	if (st != TK_OK)
		tk_report_rows_free(out);
	return st;
}

void tk_report_rows_free(tk_report_rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < r->tables[i].n; k++)
			free(r->tables[i].rows[k].key);
		free(r->tables[i].rows);
		free(r->tables[i].event);
	}
	free(r->tables);
	memset(r, 0, sizeof *r);
}
