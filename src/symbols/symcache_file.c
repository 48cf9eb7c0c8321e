/* The persistent symbol cache's file format (symcache_file.h): encoding a
 * finished table, and checking a file before any of it is used. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symcache_file.h"
#include "symbols/symtab_internal.h"

enum {
	SEC_KEY,
	SEC_START,  /* u64 per symbol */
	SEC_SIZE,   /* u64 per symbol, after the fix-ups */
	SEC_NAME,   /* u32 string offset per symbol */
	SEC_MODULE, /* u32 string offset per symbol, NO_MODULE for none */
	SEC_TYPE,   /* u8 per symbol */
	SEC_CLEAN,  /* u8 per symbol (ELF): overlaps no other symbol */
	SEC_TOP,    /* u64 per TK_SYMTAB_BLOCK symbols: the lookup index */
	SEC_ORDER,  /* rec per symbol in ELF table order (perf's tree input) */
	SEC_LATE,   /* rec per PLT symbol added after the fix-ups */
	SEC_SEGS,   /* seg per PT_LOAD */
	SEC_STR,    /* NUL-terminated strings, the last byte NUL */
	N_SEC
};

/* rec: u64 start, u64 size, u32 name, u8 type, u8 bind, u16 0 */
#define REC_SIZE 24
/* seg: u64 vaddr, memsz, offset, filesz, exec */
#define SEG_SIZE        40
#define NO_MODULE       UINT32_MAX
#define BYTE_ORDER_MARK 0x0102030405060708ull
/* the checksum covers everything after its own field */
#define SUM_FROM 40

enum {
	F_RELOCATABLE = 1,
	F_FROM_SYMTAB = 2,
	F_HAS_TEXT = 4,
	F_REF_TEXT = 8,
	F_REF_STEXT = 16,
	F_ELF = 32,
	F_ALL = 63,
};

typedef struct symfile_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint64_t byte_order;
	uint64_t file_size;
	uint64_t checksum;
	uint32_t kind, flags;
	uint64_t n_syms, n_top, n_order, n_late, n_segs;
	uint64_t text_vaddr, text_size, text_offset, ref_text, ref_stext;
	uint32_t build_id_len, name_off;
	uint8_t build_id[TK_BUILD_ID_MAX];
	uint64_t sec[N_SEC][2]; /* offset, size in bytes */
} symfile_header;

_Static_assert(sizeof(symfile_header) == 200 + 16 * N_SEC, "no padding in the header");
_Static_assert(offsetof(symfile_header, checksum) + 8 == SUM_FROM, "checksum field");

static uint64_t ld64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t ld32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

/* ---- the checksum ---- */

/* Its four lanes over whole 32-byte blocks, so that a file written in
 * pieces (encode_fd) sums as one in memory does. */
typedef struct sum_state {
	uint64_t h0, h1, h2, h3;
} sum_state;

#define SUM_M 0x9fb21c651e98df25ull

static void sum_init(sum_state *s)
{
	*s = (sum_state){0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull,
			 0x27d4eb2f165667c5ull};
}

/* p[0..n), n a multiple of 32 */
static void sum_blocks(sum_state *s, const unsigned char *p, size_t n)
{
	/* Each lane's step is a bijection of its state (xor, rotate, odd
	 * multiply), so a change confined to one lane always shows; four
	 * independent lanes run at about a cycle per 8 bytes. */
	for (size_t i = 0; i < n; i += 32) {
		s->h0 = rotl(s->h0 ^ ld64(p + i), 29) * SUM_M;
		s->h1 = rotl(s->h1 ^ ld64(p + i + 8), 29) * SUM_M;
		s->h2 = rotl(s->h2 ^ ld64(p + i + 16), 29) * SUM_M;
		s->h3 = rotl(s->h3 ^ ld64(p + i + 24), 29) * SUM_M;
	}
}

/* The sum of total bytes whose last tail_len (< 32) are tail. */
static uint64_t sum_final(const sum_state *s, const unsigned char *tail, size_t tail_len,
			  size_t total)
{
	uint64_t h = s->h0 ^ rotl(s->h1, 17) ^ rotl(s->h2, 31) ^ rotl(s->h3, 47);
	for (size_t i = 0; i < tail_len; i++)
		h = (h ^ tail[i]) * 0x100000001b3ull;
	h ^= (uint64_t)total;
	h ^= h >> 33;
	h *= SUM_M;
	h ^= h >> 29;
	return h;
}

uint64_t tk_symfile_checksum(const void *data, size_t len)
{
	sum_state s;
	sum_init(&s);
	size_t whole = len & ~(size_t)31;
	sum_blocks(&s, data, whole);
	return sum_final(&s, (const unsigned char *)data + whole, len - whole, len);
}

/* ---- encoding ---- */

/* The string pool being laid out. Offsets are given out as strings are
 * added and the bytes copied only when the pool section is written, so
 * the kernel's ~3 MB of names are not copied twice (on a VM fresh memory
 * is what a cold run pays most for). ELF tables also keep a pointer ->
 * offset table so that their table-order and PLT symbols, which share
 * the name pointers of the sorted ones, reuse those strings. */
typedef struct pool {
	const char **strs; /* in pool order; they live as long as the table */
	size_t n_strs, cap_strs;
	size_t n;          /* bytes */
	const char **keys; /* open addressing, NULL = free */
	uint32_t *vals;
	size_t mask;
	bool oom;
} pool;

#define POOL_BAD ((uint64_t)UINT32_MAX + 1)

static uint64_t pool_append(pool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	if (p->oom || p->n + len >= UINT32_MAX)
		return POOL_BAD;
	if (p->n_strs == p->cap_strs) {
		size_t cap = p->cap_strs ? 2 * p->cap_strs : 1024;
		const char **ns = realloc(p->strs, cap * sizeof *ns);
		if (!ns) {
			p->oom = true;
			return POOL_BAD;
		}
		p->strs = ns;
		p->cap_strs = cap;
	}
	p->strs[p->n_strs++] = s;
	uint64_t off = p->n;
	p->n += len;
	return off;
}

static size_t pool_slot(const pool *p, const char *s)
{
	size_t h = (size_t)(((uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull) >> 32) & p->mask;
	while (p->keys[h] && p->keys[h] != s)
		h = (h + 1) & p->mask;
	return h;
}

/* Room for n pointers (at most half full). */
static bool pool_index_init(pool *p, size_t n)
{
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	p->keys = calloc(cap, sizeof *p->keys);
	p->vals = malloc(cap * sizeof *p->vals);
	p->mask = cap - 1;
	return p->keys && p->vals;
}

/* Appends s and, with an index, remembers where. */
static uint64_t pool_add(pool *p, const char *s)
{
	uint64_t off = pool_append(p, s);
	if (p->keys && off != POOL_BAD) {
		size_t h = pool_slot(p, s);
		p->keys[h] = s;
		p->vals[h] = (uint32_t)off;
	}
	return off;
}

/* The offset of a string pool_add() saw, else appended. */
static uint64_t pool_find(pool *p, const char *s)
{
	size_t h = pool_slot(p, s);
	return p->keys[h] ? p->vals[h] : pool_append(p, s);
}

static void pool_free(pool *p)
{
	free(p->strs);
	free(p->keys);
	free(p->vals);
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

static size_t top_count(size_t n)
{
	/* as symtab.c's build_index() */
	return n < 4 * TK_SYMTAB_BLOCK ? 0 : (n + TK_SYMTAB_BLOCK - 1) / TK_SYMTAB_BLOCK;
}

/* Where the encoded bytes past SUM_FROM go: memory holding the whole
 * file (tk_symfile_encode), or a file written through a small staging
 * buffer (tk_symfile_encode_fd: the kernel's 6 MB table is never one
 * more buffer of fresh memory), summed as it goes. */
#define STAGE_SIZE ((size_t)64 << 10) /* a multiple of the sum's 32-byte blocks */
#define ROOM_MAX   64                 /* the most room() gives at once */

typedef struct encoder_out {
	bool want_mem;      /* encode() allocates mem once it knows the size */
	unsigned char *mem; /* the file, else NULL: fd */
	int fd;
	unsigned char *stage;
	size_t staged; /* bytes in stage, not written yet */
	size_t pos;    /* bytes put so far (file offset - SUM_FROM) */
	uint64_t at;   /* the file offset stage's first byte goes to */
	sum_state sum; /* of the bytes written from stage */
	bool failed;   /* a write failed */
} encoder_out;

/* Writes the staged whole blocks; the rest (< 32 bytes) stays staged. */
static void flush_blocks(encoder_out *o)
{
	size_t whole = o->staged & ~(size_t)31;
	sum_blocks(&o->sum, o->stage, whole);
	if (!o->failed && !tk_symfile_pwrite(o->fd, o->stage, whole, o->at))
		o->failed = true;
	o->at += whole;
	memmove(o->stage, o->stage + whole, o->staged - whole);
	o->staged -= whole;
}

/* k <= ROOM_MAX bytes for the caller to fill, next in the file */
static unsigned char *room(encoder_out *o, size_t k)
{
	unsigned char *p;
	if (o->mem) {
		p = o->mem + SUM_FROM + o->pos;
	} else {
		if (o->staged + k > STAGE_SIZE)
			flush_blocks(o);
		p = o->stage + o->staged;
		o->staged += k;
	}
	o->pos += k;
	return p;
}

static void put(encoder_out *o, const void *data, size_t len)
{
	const unsigned char *s = data;
	while (len > 0) {
		size_t k = len < ROOM_MAX ? len : ROOM_MAX;
		memcpy(room(o, k), s, k);
		s += k;
		len -= k;
	}
}

/* Zeros up to file offset at. */
static void pad_to(encoder_out *o, size_t at)
{
	while (SUM_FROM + o->pos < at) {
		size_t k = at - SUM_FROM - o->pos;
		k = k < ROOM_MAX ? k : ROOM_MAX;
		memset(room(o, k), 0, k);
	}
}

static void put_rec(encoder_out *o, const tk_symbol *s, uint32_t name, uint8_t bind)
{
	unsigned char *p = room(o, REC_SIZE);
	memset(p, 0, REC_SIZE);
	memcpy(p, &s->start, 8);
	memcpy(p + 8, &s->size, 8);
	memcpy(p + 16, &name, 4);
	p[20] = (uint8_t)s->type;
	p[21] = bind;
}

/* Lays t out, with key[0..key_len), into o; *h gets the header but its
 * checksum. false: out of memory, or t is not a table this format keeps. */
static bool encode(const tk_symtab *t, const void *key, size_t key_len, encoder_out *o,
		   symfile_header *h, size_t *total_out)
{
	if (t->mapped || t->bind || t->tree_state != 0 || (t->use_tree && t->n && !t->order_syms))
		return false;
	size_t n = t->n, n_top = top_count(n);
	size_t n_order = t->use_tree ? t->order_n : 0, n_late = t->use_tree ? t->n_late : 0;
	pool p = {0};
	uint32_t *names = malloc((n ? n : 1) * sizeof *names);
	uint32_t *mods = malloc((n ? n : 1) * sizeof *mods);
	uint32_t *onames = malloc((n_order + n_late + 1) * sizeof *onames);
	bool ok = names && mods && onames && (!t->use_tree || pool_index_init(&p, n + n_late));
	uint64_t name_off = ok ? pool_append(&p, t->name ? t->name : "") : 0;
	ok = ok && name_off < UINT32_MAX;
	const char *last_mod = NULL; /* kallsyms: runs of one module pointer */
	uint64_t last_mod_off = NO_MODULE;
	for (size_t i = 0; ok && i < n; i++) {
		const tk_symbol *s = &t->syms[i];
		uint64_t a = pool_add(&p, s->name);
		uint64_t b = NO_MODULE;
		if (s->module && s->module == last_mod)
			b = last_mod_off;
		else if (s->module)
			b = last_mod_off = pool_append(&p, last_mod = s->module);
		ok = a < UINT32_MAX && b <= UINT32_MAX;
		names[i] = (uint32_t)a;
		mods[i] = (uint32_t)b;
	}
	for (size_t i = 0; ok && i < n_order + n_late; i++) {
		const tk_symbol *s = i < n_order ? &t->order_syms[i] : &t->late[i - n_order];
		uint64_t a = pool_find(&p, s->name);
		ok = a < UINT32_MAX;
		onames[i] = (uint32_t)a;
	}
	if (!ok)
		goto out;
	size_t sizes[N_SEC] = {
	    [SEC_KEY] = key_len,
	    [SEC_START] = n * 8,
	    [SEC_SIZE] = n * 8,
	    [SEC_NAME] = n * 4,
	    [SEC_MODULE] = n * 4,
	    [SEC_TYPE] = n,
	    [SEC_CLEAN] = t->use_tree ? n : 0,
	    [SEC_TOP] = n_top * 8,
	    [SEC_ORDER] = n_order * REC_SIZE,
	    [SEC_LATE] = n_late * REC_SIZE,
	    [SEC_SEGS] = t->n_segs * SEG_SIZE,
	    [SEC_STR] = p.n,
	};
	memset(h, 0, sizeof *h);
	size_t pos = sizeof *h;
	for (int s = 0; s < N_SEC; s++) {
		pos = align8(pos);
		h->sec[s][0] = pos;
		h->sec[s][1] = sizes[s];
		pos += sizes[s];
	}
	size_t total = align8(pos);
	if (o->want_mem && !(o->mem = malloc(total))) {
		ok = false;
		goto out;
	}
	memcpy(h->magic, TK_SYMFILE_MAGIC, 8);
	h->version = TK_SYMFILE_VERSION;
	h->header_size = sizeof *h;
	h->byte_order = BYTE_ORDER_MARK;
	h->file_size = total;
	h->kind = t->is_elf ? TK_SYMFILE_ELF : TK_SYMFILE_KALLSYMS;
	h->flags = (t->relocatable ? F_RELOCATABLE : 0) | (t->from_symtab ? F_FROM_SYMTAB : 0) |
		   (t->has_text ? F_HAS_TEXT : 0) | (t->has_ref_text ? F_REF_TEXT : 0) |
		   (t->has_ref_stext ? F_REF_STEXT : 0) | (t->is_elf ? F_ELF : 0);
	h->n_syms = n;
	h->n_top = n_top;
	h->n_order = n_order;
	h->n_late = n_late;
	h->n_segs = t->n_segs;
	h->text_vaddr = t->text_vaddr;
	h->text_size = t->text_size;
	h->text_offset = t->text_offset;
	h->ref_text = t->ref_text;
	h->ref_stext = t->ref_stext;
	h->build_id_len = (uint32_t)t->build_id_len;
	h->name_off = (uint32_t)name_off;
	memcpy(h->build_id, t->build_id, sizeof h->build_id);

	/* the file from SUM_FROM on, section by section in file order */
	put(o, (const unsigned char *)h + SUM_FROM, sizeof *h - SUM_FROM);
	pad_to(o, h->sec[SEC_KEY][0]);
	put(o, key, key_len);
	pad_to(o, h->sec[SEC_START][0]);
	for (size_t i = 0; i < n; i++)
		memcpy(room(o, 8), &t->syms[i].start, 8);
	pad_to(o, h->sec[SEC_SIZE][0]);
	for (size_t i = 0; i < n; i++)
		memcpy(room(o, 8), &t->syms[i].size, 8);
	pad_to(o, h->sec[SEC_NAME][0]);
	put(o, names, n * 4);
	pad_to(o, h->sec[SEC_MODULE][0]);
	put(o, mods, n * 4);
	pad_to(o, h->sec[SEC_TYPE][0]);
	for (size_t i = 0; i < n; i++)
		*room(o, 1) = (unsigned char)t->syms[i].type;
	pad_to(o, h->sec[SEC_CLEAN][0]);
	for (size_t i = 0; t->use_tree && i < n; i++)
		*room(o, 1) = t->clean ? t->clean[i] : 0;
	pad_to(o, h->sec[SEC_TOP][0]);
	for (size_t k = 0; k < n_top; k++)
		memcpy(room(o, 8), &t->syms[k * TK_SYMTAB_BLOCK].start, 8);
	pad_to(o, h->sec[SEC_ORDER][0]);
	for (size_t i = 0; i < n_order; i++)
		put_rec(o, &t->order_syms[i], onames[i], t->order_bind[i]);
	pad_to(o, h->sec[SEC_LATE][0]);
	for (size_t i = 0; i < n_late; i++)
		put_rec(o, &t->late[i], onames[n_order + i], TK_BIND_GLOBAL);
	pad_to(o, h->sec[SEC_SEGS][0]);
	for (size_t i = 0; i < t->n_segs; i++) {
		const tk_elf_segment *g = &t->segs[i];
		uint64_t v[5] = {g->vaddr, g->memsz, g->offset, g->filesz, g->exec};
		put(o, v, sizeof v);
	}
	pad_to(o, h->sec[SEC_STR][0]);
	for (size_t i = 0; i < p.n_strs; i++)
		put(o, p.strs[i], strlen(p.strs[i]) + 1);
	pad_to(o, total);
	ok = SUM_FROM + o->pos == total; /* every section the size the header says */
	*total_out = total;
out:
	free(names);
	free(mods);
	free(onames);
	pool_free(&p);
	return ok;
}

bool tk_symfile_encode(const tk_symtab *t, const void *key, size_t key_len, void **out_buf,
		       size_t *out_len)
{
	*out_buf = NULL;
	*out_len = 0;
	encoder_out o = {.want_mem = true};
	symfile_header h;
	size_t total = 0;
	if (!encode(t, key, key_len, &o, &h, &total)) {
		free(o.mem);
		return false;
	}
	h.checksum = tk_symfile_checksum(o.mem + SUM_FROM, total - SUM_FROM);
	memcpy(o.mem, &h, SUM_FROM);
	*out_buf = o.mem;
	*out_len = total;
	return true;
}

bool tk_symfile_encode_fd(const tk_symtab *t, const void *key, size_t key_len, int fd)
{
	encoder_out o = {.fd = fd, .stage = malloc(STAGE_SIZE), .at = SUM_FROM};
	if (!o.stage)
		return false;
	sum_init(&o.sum);
	symfile_header h;
	size_t total = 0;
	bool ok = encode(t, key, key_len, &o, &h, &total);
	if (ok) {
		flush_blocks(&o);
		ok = !o.failed && tk_symfile_pwrite(fd, o.stage, o.staged, o.at);
		h.checksum = sum_final(&o.sum, o.stage, o.staged, total - SUM_FROM);
		/* the header's first bytes, the checksum among them, last */
		ok = ok && tk_symfile_pwrite(fd, &h, SUM_FROM, 0);
	}
	free(o.stage);
	return ok;
}

bool tk_symfile_pwrite(int fd, const void *buf, size_t n, uint64_t at)
{
	const unsigned char *p = buf;
	while (n > 0) {
		ssize_t w = pwrite(fd, p, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
		at += (uint64_t)w;
	}
	return true;
}

static void *dup_array(const void *a, size_t n, size_t size, bool *ok)
{
	if (!a || n == 0)
		return NULL;
	void *c = malloc(n * size);
	if (c)
		memcpy(c, a, n * size);
	*ok = *ok && c;
	return c;
}

tk_symtab *tk_symfile_snapshot(const tk_symtab *t)
{
	if (t->mapped || t->bind || t->tree_state != 0 || (t->use_tree && t->n && !t->order_syms))
		return NULL;
	tk_symtab *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	/* the scalars as they are; every pointer encode does not read is
	 * cleared, those it reads are copied (or shared, for strings) */
	*s = *t;
	memset(&s->names, 0, sizeof s->names);
	memset(&s->m_made, 0, sizeof s->m_made);
	memset(&s->tree, 0, sizeof s->tree);
	s->text = NULL;
	s->top = NULL;
	s->plt = NULL;
	s->n_plt = 0;
	s->map_base = NULL;
	s->map_len = 0;
	s->unpack_order = NULL;
	/* syms, clean, late and segs stay as they are once a table is
	 * loaded (shared); the table-order symbols are freed when a lookup
	 * builds the tree (copied) */
	bool ok = true;
	size_t n_order = t->use_tree ? t->order_n : 0;
	s->order_syms = dup_array(t->order_syms, n_order, sizeof *t->order_syms, &ok);
	s->order_bind = dup_array(t->order_bind, n_order, 1, &ok);
	if (!ok) {
		tk_symfile_snapshot_free(s);
		return NULL;
	}
	return s;
}

void tk_symfile_snapshot_free(tk_symtab *s)
{
	if (!s)
		return;
	free(s->order_syms);
	free(s->order_bind);
	free(s);
}

/* ---- decoding ---- */

static bool unpack_order(tk_symtab *t);

static tk_status bad(tk_error *err, uint64_t off, const char *what)
{
	return tk_error_set(err, TK_ERR_FORMAT, off, "symbol cache file: %s", what);
}

tk_status tk_symfile_decode(const void *data, size_t len, const void *key, size_t key_len,
			    bool check_sum, tk_symtab **out, tk_error *err)
{
	*out = NULL;
	const unsigned char *d = data;
	symfile_header h;
	if (((uintptr_t)d & 7) != 0)
		return bad(err, 0, "buffer not 8-byte aligned");
	if (len < sizeof h)
		return bad(err, len, "shorter than its header");
	memcpy(&h, d, sizeof h);
	if (memcmp(h.magic, TK_SYMFILE_MAGIC, 8) != 0)
		return bad(err, 0, "bad magic");
	if (h.version != TK_SYMFILE_VERSION)
		return bad(err, offsetof(symfile_header, version), "unknown version");
	if (h.header_size != sizeof h)
		return bad(err, offsetof(symfile_header, header_size), "bad header size");
	if (h.byte_order != BYTE_ORDER_MARK)
		return bad(err, offsetof(symfile_header, byte_order), "other byte order");
	if (h.file_size != len)
		return bad(err, offsetof(symfile_header, file_size),
			   "size differs from the header's (truncated?)");
	if (check_sum && tk_symfile_checksum(d + SUM_FROM, len - SUM_FROM) != h.checksum)
		return bad(err, offsetof(symfile_header, checksum), "checksum mismatch");
	bool elf = h.kind == TK_SYMFILE_ELF;
	if ((h.kind != TK_SYMFILE_KALLSYMS && !elf) || (h.flags & ~(uint32_t)F_ALL) ||
	    elf != ((h.flags & F_ELF) != 0))
		return bad(err, offsetof(symfile_header, kind), "bad kind or flags");
	if (h.build_id_len > TK_BUILD_ID_MAX)
		return bad(err, offsetof(symfile_header, build_id_len), "bad build id length");
	for (int s = 0; s < N_SEC; s++) {
		uint64_t off = h.sec[s][0], size = h.sec[s][1];
		if (off % 8 || off < sizeof h || off > len || size > len - off)
			return bad(err, offsetof(symfile_header, sec) + 16 * (size_t)s,
				   "section outside the file");
	}
	/* counts first bounded by the file, so the products cannot wrap */
	uint64_t n = h.n_syms;
	if (n > len / 8 || h.n_order > len / REC_SIZE || h.n_late > len / REC_SIZE ||
	    h.n_segs > len / SEG_SIZE)
		return bad(err, offsetof(symfile_header, n_syms), "implausible counts");
	uint64_t want[N_SEC] = {
	    [SEC_KEY] = h.sec[SEC_KEY][1],
	    [SEC_START] = n * 8,
	    [SEC_SIZE] = n * 8,
	    [SEC_NAME] = n * 4,
	    [SEC_MODULE] = n * 4,
	    [SEC_TYPE] = n,
	    [SEC_CLEAN] = elf ? n : 0,
	    [SEC_TOP] = (uint64_t)top_count(n) * 8,
	    [SEC_ORDER] = h.n_order * REC_SIZE,
	    [SEC_LATE] = h.n_late * REC_SIZE,
	    [SEC_SEGS] = h.n_segs * SEG_SIZE,
	    [SEC_STR] = h.sec[SEC_STR][1],
	};
	for (int s = 0; s < N_SEC; s++)
		if (h.sec[s][1] != want[s])
			return bad(err, offsetof(symfile_header, sec) + 16 * (size_t)s + 8,
				   "section size does not match its count");
	if (h.n_top != top_count(n) || (!elf && (h.n_order || h.n_late || h.n_segs)))
		return bad(err, offsetof(symfile_header, n_top), "bad counts");
	const unsigned char *str = d + h.sec[SEC_STR][0];
	uint64_t str_len = h.sec[SEC_STR][1];
	if (str_len == 0 || str_len >= UINT32_MAX || str[str_len - 1] != '\0')
		return bad(err, h.sec[SEC_STR][0], "string pool not NUL-terminated");
	if (h.name_off >= str_len)
		return bad(err, offsetof(symfile_header, name_off), "name outside the pool");
	if (h.sec[SEC_KEY][1] != key_len ||
	    (key_len && memcmp(d + h.sec[SEC_KEY][0], key, key_len) != 0))
		return tk_error_set(err, TK_ERR_NOT_FOUND, h.sec[SEC_KEY][0],
				    "symbol cache file: made for other inputs");
	/* every reference checked once here, so lookups need no checks */
	const unsigned char *st = d + h.sec[SEC_START][0];
	for (uint64_t i = 0; i < n; i++) {
		uint32_t a = ld32(d + h.sec[SEC_NAME][0] + 4 * i);
		uint32_t b = ld32(d + h.sec[SEC_MODULE][0] + 4 * i);
		if (a >= str_len || (b != NO_MODULE && b >= str_len))
			return bad(err, h.sec[SEC_NAME][0] + 4 * i, "string outside the pool");
		if (i && ld64(st + 8 * i) < ld64(st + 8 * (i - 1)))
			return bad(err, h.sec[SEC_START][0] + 8 * i, "symbols not sorted");
	}
	for (uint64_t k = 0; k < h.n_top; k++)
		if (ld64(d + h.sec[SEC_TOP][0] + 8 * k) != ld64(st + 8 * k * TK_SYMTAB_BLOCK))
			return bad(err, h.sec[SEC_TOP][0] + 8 * k, "bad lookup index");
	for (uint64_t i = 0; i < h.n_order + h.n_late; i++) {
		uint64_t at = i < h.n_order ? h.sec[SEC_ORDER][0] + REC_SIZE * i
					    : h.sec[SEC_LATE][0] + REC_SIZE * (i - h.n_order);
		if (ld32(d + at + 16) >= str_len)
			return bad(err, at + 16, "string outside the pool");
	}
	tk_symtab *t = tk_symtab_new((const char *)str + h.name_off);
	tk_elf_segment *segs = t ? calloc(h.n_segs ? h.n_segs : 1, sizeof *segs) : NULL;
	if (!segs) {
		tk_symtab_free(t);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (uint64_t i = 0; i < h.n_segs; i++) {
		const unsigned char *g = d + h.sec[SEC_SEGS][0] + SEG_SIZE * i;
		segs[i] = (tk_elf_segment){ld64(g), ld64(g + 8), ld64(g + 16), ld64(g + 24),
					   ld64(g + 32) != 0};
	}
	t->n = t->cap = n;
	t->segs = segs;
	t->n_segs = h.n_segs;
	t->is_elf = elf;
	t->use_tree = elf;
	t->relocatable = h.flags & F_RELOCATABLE;
	t->from_symtab = h.flags & F_FROM_SYMTAB;
	t->has_text = h.flags & F_HAS_TEXT;
	t->has_ref_text = h.flags & F_REF_TEXT;
	t->has_ref_stext = h.flags & F_REF_STEXT;
	t->text_vaddr = h.text_vaddr;
	t->text_size = h.text_size;
	t->text_offset = h.text_offset;
	t->ref_text = h.ref_text;
	t->ref_stext = h.ref_stext;
	t->build_id_len = h.build_id_len;
	memcpy(t->build_id, h.build_id, sizeof t->build_id);
	t->mapped = true;
	t->m_start = st;
	t->m_size = d + h.sec[SEC_SIZE][0];
	t->m_name = d + h.sec[SEC_NAME][0];
	t->m_module = d + h.sec[SEC_MODULE][0];
	t->m_type = d + h.sec[SEC_TYPE][0];
	t->m_clean = elf ? d + h.sec[SEC_CLEAN][0] : NULL;
	t->m_top = h.n_top ? d + h.sec[SEC_TOP][0] : NULL;
	t->n_top = h.n_top;
	t->m_order = d + h.sec[SEC_ORDER][0];
	t->m_order_n = h.n_order;
	t->m_late = d + h.sec[SEC_LATE][0];
	t->m_late_n = h.n_late;
	t->m_str = (const char *)str;
	t->m_str_len = str_len;
	t->unpack_order = unpack_order;
	*out = t;
	return TK_OK;
}

static void get_rec(const tk_symtab *t, const unsigned char *p, tk_symbol *s, uint8_t *bind)
{
	*s = (tk_symbol){.name = t->m_str + ld32(p + 16),
			 .start = ld64(p),
			 .size = ld64(p + 8),
			 .type = (char)p[20]};
	if (bind)
		*bind = p[21];
}

/* Fills t->order_syms/order_bind/late of a mapped ELF table from the
 * file, for building perf's tree (tk_symtab.unpack_order). false: out of
 * memory. */
static bool unpack_order(tk_symtab *t)
{
	if (!t->mapped || t->order_syms || t->late)
		return true;
	size_t no = t->m_order_n, nl = t->m_late_n;
	t->order_syms = malloc((no ? no : 1) * sizeof *t->order_syms);
	t->order_bind = malloc(no ? no : 1);
	t->late = malloc((nl ? nl : 1) * sizeof *t->late);
	if (!t->order_syms || !t->order_bind || !t->late)
		return false;
	for (size_t i = 0; i < no; i++)
		get_rec(t, t->m_order + REC_SIZE * i, &t->order_syms[i], &t->order_bind[i]);
	for (size_t i = 0; i < nl; i++)
		get_rec(t, t->m_late + REC_SIZE * i, &t->late[i], NULL);
	t->order_n = no;
	t->n_late = t->cap_late = nl;
	return true;
}
