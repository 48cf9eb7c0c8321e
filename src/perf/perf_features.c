/* Feature sections (tools/perf/util/header.c write_* / process_*): decoded
 * into tk_perf_features, every section also kept raw. A malformed section
 * is a warning, never a failure: the records can still be read. */
#include <stdlib.h>
#include <string.h>

#include "perf/perf_internal.h"

/* Bounds-checked reader over one section. Once a read fails, ok stays false
 * and every later read returns 0 / NULL. */
typedef struct cursor {
	tk_perf_file *f;
	const uint8_t *p;
	uint64_t size, pos;
	bool ok;
} cursor;

static uint32_t cur_u32(cursor *c)
{
	if (!c->ok || !tk_range_ok(c->pos, 4, c->size)) {
		c->ok = false;
		return 0;
	}
	uint32_t v = tk_load_u32(c->p + c->pos, c->f->swap);
	c->pos += 4;
	return v;
}

static uint64_t cur_u64(cursor *c)
{
	if (!c->ok || !tk_range_ok(c->pos, 8, c->size)) {
		c->ok = false;
		return 0;
	}
	uint64_t v = tk_load_u64(c->p + c->pos, c->f->swap);
	c->pos += 8;
	return v;
}

/* perf string: u32 len (padded length), then len bytes holding a NUL-ended string. */
static const char *cur_str(cursor *c)
{
	uint32_t len = cur_u32(c);
	if (!c->ok || !tk_range_ok(c->pos, len, c->size)) {
		c->ok = false;
		return NULL;
	}
	const char *s = (const char *)c->p + c->pos;
	c->pos += len;
	char *copy = tk_arena_strndup(&c->f->meta, s, strnlen(s, len));
	if (!copy)
		c->ok = false;
	return copy;
}

/* Bounds a count read from the file by the bytes that remain (each item
 * needs at least min_item bytes), so a bad count cannot allocate much. */
static bool count_ok(cursor *c, uint64_t n, uint64_t min_item)
{
	if (!c->ok || (n && (c->size - c->pos) / min_item < n)) {
		c->ok = false;
		return false;
	}
	return true;
}

static void *cur_alloc(cursor *c, uint64_t n, size_t item)
{
	if (!c->ok)
		return NULL;
	if (n == 0)
		return NULL;
	void *p = tk_arena_calloc(&c->f->meta, (size_t)n, item);
	if (!p)
		c->ok = false;
	return p;
}

static const char *const *cur_strlist(cursor *c, uint32_t n, size_t *out_n)
{
	*out_n = 0;
	if (!count_ok(c, n, 4))
		return NULL;
	const char **v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++)
		v[i] = cur_str(c);
	if (c->ok)
		*out_n = n;
	return v;
}

static void add_build_id(tk_perf_file *f, const tk_perf_build_id *b)
{
	if (f->n_build_ids == f->cap_build_ids) {
		size_t cap = f->cap_build_ids ? f->cap_build_ids * 2 : 16;
		tk_perf_build_id *nb = realloc(f->build_ids, cap * sizeof *nb);
		if (!nb)
			return;
		f->build_ids = nb;
		f->cap_build_ids = cap;
	}
	f->build_ids[f->n_build_ids++] = *b;
	f->feat.build_ids = f->build_ids;
	f->feat.n_build_ids = f->n_build_ids;
}

/* One build_id record (also the pipe-mode HEADER_BUILD_ID record):
 * {header; s32 pid; u8 id[20]; u8 size; 3 pad; char filename[]}. */
bool tk_perf_build_id_record(tk_perf_file *f, const uint8_t *p, uint64_t size)
{
	if (size < 8 + 4 + 24)
		return false;
	tk_perf_build_id b;
	memset(&b, 0, sizeof b);
	b.misc = tk_load_u16(p + 4, f->swap);
	b.pid = (int32_t)tk_load_u32(p + 8, f->swap);
	memcpy(b.id, p + 12, 20);
	b.size = (b.misc & (1U << 15)) ? p[32] : 20;
	if (b.size > 20)
		b.size = 20;
	const char *fn = (const char *)p + 36;
	b.filename = tk_arena_strndup(&f->meta, fn, strnlen(fn, (size_t)(size - 36)));
	if (!b.filename)
		return false;
	add_build_id(f, &b);
	return true;
}

static void decode_build_ids(cursor *c)
{
	while (c->ok && c->pos < c->size) {
		if (!tk_range_ok(c->pos, 8, c->size)) {
			c->ok = false;
			break;
		}
		uint16_t sz = tk_load_u16(c->p + c->pos + 6, c->f->swap);
		if (sz < 36 || !tk_range_ok(c->pos, sz, c->size) ||
		    !tk_perf_build_id_record(c->f, c->p + c->pos, sz)) {
			c->ok = false;
			break;
		}
		c->pos += sz;
	}
}

static void decode_event_desc(cursor *c)
{
	tk_perf_file *f = c->f;
	f->event_desc = true;
	uint32_t nre = cur_u32(c);
	uint32_t sz = cur_u32(c);
	if (!c->ok || sz < TK_PERF_ATTR_MIN_SIZE || !count_ok(c, nre, sz))
		return;
	for (uint32_t i = 0; i < nre && c->ok; i++) {
		c->pos += sz; /* the attr itself: the attrs section has it already */
		uint32_t nr = cur_u32(c);
		const char *name = cur_str(c);
		if (!count_ok(c, nr, 8))
			return;
		const uint8_t *ids = c->p + c->pos;
		c->pos += (uint64_t)nr * 8;
		tk_perf_attr *a = NULL;
		if (nr) {
			uint64_t *idx = tk_hashmap_get(&f->id_to_attr, tk_load_u64(ids, f->swap));
			if (idx)
				a = f->attrs[*idx - 1];
		} else if (i < f->n_attrs) {
			a = f->attrs[i];
		}
		if (a && !a->name && name)
			a->name = name;
	}
}

static void decode_cpu_topology(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	ft->core_siblings = cur_strlist(c, cur_u32(c), &ft->n_core_siblings);
	ft->thread_siblings = cur_strlist(c, cur_u32(c), &ft->n_thread_siblings);
	if (!c->ok || c->pos >= c->size)
		return;
	/* Newer perf: core/socket ids for every available cpu, then dies. */
	uint32_t n = ft->nr_cpus_avail;
	if (!n || !count_ok(c, n, 8))
		return;
	tk_perf_cpu_id *ids = cur_alloc(c, n, sizeof *ids);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		ids[i].core_id = cur_u32(c);
		ids[i].socket_id = cur_u32(c);
	}
	if (!c->ok)
		return;
	ft->cpu_ids = ids;
	ft->n_cpu_ids = n;
	if (c->pos >= c->size)
		return;
	ft->die_siblings = cur_strlist(c, cur_u32(c), &ft->n_die_siblings);
	if (!count_ok(c, n, 4))
		return;
	for (uint32_t i = 0; i < n && c->ok; i++)
		ids[i].die_id = cur_u32(c);
}

static void decode_numa(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t n = cur_u32(c);
	if (!count_ok(c, n, 24))
		return;
	tk_perf_numa_node *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].node = cur_u32(c);
		v[i].mem_total = cur_u64(c);
		v[i].mem_free = cur_u64(c);
		v[i].cpus = cur_str(c);
	}
	if (c->ok) {
		ft->numa_nodes = v;
		ft->n_numa_nodes = n;
	}
}

static void decode_pmu_mappings(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t n = cur_u32(c);
	if (!count_ok(c, n, 8))
		return;
	tk_perf_name_value *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].num = cur_u32(c);
		v[i].name = cur_str(c);
	}
	if (c->ok) {
		ft->pmu_mappings = v;
		ft->n_pmu_mappings = n;
	}
}

static void decode_group_desc(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t n = cur_u32(c);
	if (!count_ok(c, n, 12))
		return;
	tk_perf_group_desc *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].name = cur_str(c);
		v[i].leader_idx = cur_u32(c);
		v[i].nr_members = cur_u32(c);
	}
	if (c->ok) {
		ft->groups = v;
		ft->n_groups = n;
	}
}

static void decode_cache(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t version = cur_u32(c);
	uint32_t n = cur_u32(c);
	if (version != 1 || !count_ok(c, n, 28))
		return;
	tk_perf_cache_level *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].level = cur_u32(c);
		v[i].line_size = cur_u32(c);
		v[i].sets = cur_u32(c);
		v[i].ways = cur_u32(c);
		v[i].type = cur_str(c);
		v[i].size = cur_str(c);
		v[i].map = cur_str(c);
	}
	if (c->ok) {
		ft->caches = v;
		ft->n_caches = n;
	}
}

/* One PMU's caps: u32 nr; nr x {name, value}; [pmu name]. */
static void decode_pmu_caps_one(cursor *c, bool with_pmu)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t n = cur_u32(c);
	if (!count_ok(c, n, 8))
		return;
	tk_perf_name_value *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].name = cur_str(c);
		v[i].value = cur_str(c);
	}
	const char *pmu = with_pmu ? cur_str(c) : NULL;
	if (!c->ok)
		return;
	tk_perf_pmu_caps *all = tk_arena_alloc(&c->f->meta, (ft->n_pmu_caps + 1) * sizeof *all);
	if (!all) {
		c->ok = false;
		return;
	}
	if (ft->n_pmu_caps)
		memcpy(all, ft->pmu_caps, ft->n_pmu_caps * sizeof *all);
	all[ft->n_pmu_caps] = (tk_perf_pmu_caps){.pmu = pmu, .caps = v, .n_caps = n};
	ft->pmu_caps = all;
	ft->n_pmu_caps++;
}

static void decode_hybrid(cursor *c)
{
	tk_perf_features *ft = &c->f->feat;
	uint32_t n = cur_u32(c);
	if (!count_ok(c, n, 8))
		return;
	tk_perf_name_value *v = cur_alloc(c, n, sizeof *v);
	for (uint32_t i = 0; i < n && c->ok; i++) {
		v[i].name = cur_str(c);
		v[i].value = cur_str(c);
	}
	if (c->ok) {
		ft->hybrid_nodes = v;
		ft->n_hybrid_nodes = n;
	}
}

static tk_status keep_raw(tk_perf_file *f, unsigned id, const uint8_t *data, uint64_t size,
			  uint64_t offset, tk_error *err)
{
	if (f->n_raw_feats == f->cap_raw_feats) {
		size_t cap = f->cap_raw_feats ? f->cap_raw_feats * 2 : 32;
		tk_perf_raw_feature *nr = realloc(f->raw_feats, cap * sizeof *nr);
		if (!nr)
			return tk_error_set(err, TK_ERR_NOMEM, offset,
					    "out of memory for features");
		f->raw_feats = nr;
		f->cap_raw_feats = cap;
	}
	f->raw_feats[f->n_raw_feats++] = (tk_perf_raw_feature){id, data, size, offset};
	f->feat.raw = f->raw_feats;
	f->feat.n_raw = f->n_raw_feats;
	return TK_OK;
}

tk_status tk_perf_feature_decode(tk_perf_file *f, unsigned id, const uint8_t *data, uint64_t size,
				 uint64_t offset, tk_error *err)
{
	tk_perf_features *ft = &f->feat;
	if (offset == UINT64_MAX) {
		/* pipe mode: the record memory goes away; keep a copy */
		uint8_t *copy = size ? tk_arena_alloc(&f->meta, (size_t)size) : NULL;
		if (size && !copy)
			return tk_error_set(err, TK_ERR_NOMEM, offset,
					    "out of memory for features");
		if (size)
			memcpy(copy, data, (size_t)size);
		data = copy;
	}
	tk_status st = keep_raw(f, id, data, size, offset, err);
	if (st != TK_OK)
		return st;
	cursor c = {f, data, size, 0, true};
	switch (id) {
	case TK_PERF_FEAT_TRACING_DATA:
		if (!f->tracing) {
			tk_error terr;
			tk_error_clear(&terr);
			if (tk_perf_tracing_parse(data, (size_t)size,
						  offset == UINT64_MAX ? 0 : offset, &f->tracing,
						  &terr) != TK_OK) {
				f->tracing = NULL;
				tk_perf_warn(f, "tracing data: %s", terr.message);
			}
		}
		return TK_OK;
	case TK_PERF_FEAT_BUILD_ID: decode_build_ids(&c); break;
	case TK_PERF_FEAT_HOSTNAME: ft->hostname = cur_str(&c); break;
	case TK_PERF_FEAT_OSRELEASE: ft->osrelease = cur_str(&c); break;
	case TK_PERF_FEAT_VERSION: ft->version = cur_str(&c); break;
	case TK_PERF_FEAT_ARCH: ft->arch = cur_str(&c); break;
	case TK_PERF_FEAT_CPUDESC: ft->cpudesc = cur_str(&c); break;
	case TK_PERF_FEAT_CPUID: ft->cpuid = cur_str(&c); break;
	case TK_PERF_FEAT_NRCPUS:
		ft->nr_cpus_avail = cur_u32(&c);
		ft->nr_cpus_online = cur_u32(&c);
		break;
	case TK_PERF_FEAT_TOTAL_MEM: ft->total_mem_kb = cur_u64(&c); break;
	case TK_PERF_FEAT_CMDLINE:
		ft->cmdline = cur_strlist(&c, cur_u32(&c), &ft->n_cmdline);
		break;
	case TK_PERF_FEAT_EVENT_DESC: decode_event_desc(&c); break;
	case TK_PERF_FEAT_CPU_TOPOLOGY: decode_cpu_topology(&c); break;
	case TK_PERF_FEAT_NUMA_TOPOLOGY: decode_numa(&c); break;
	case TK_PERF_FEAT_PMU_MAPPINGS: decode_pmu_mappings(&c); break;
	case TK_PERF_FEAT_GROUP_DESC: decode_group_desc(&c); break;
	case TK_PERF_FEAT_CACHE: decode_cache(&c); break;
	case TK_PERF_FEAT_SAMPLE_TIME:
		ft->sample_time_first = cur_u64(&c);
		ft->sample_time_last = cur_u64(&c);
		break;
	case TK_PERF_FEAT_MEM_TOPOLOGY:
		cur_u64(&c); /* version */
		ft->mem_block_size = cur_u64(&c);
		ft->mem_nr_nodes = cur_u64(&c);
		break;
	case TK_PERF_FEAT_CLOCKID: ft->clockid_res_ns = cur_u64(&c); break;
	case TK_PERF_FEAT_DIR_FORMAT: ft->dir_format_version = cur_u64(&c); break;
	case TK_PERF_FEAT_COMPRESSED:
		ft->comp_version = cur_u32(&c);
		ft->comp_type = cur_u32(&c);
		ft->comp_level = cur_u32(&c);
		ft->comp_ratio = cur_u32(&c);
		ft->comp_mmap_len = cur_u32(&c);
		break;
	case TK_PERF_FEAT_CPU_PMU_CAPS: decode_pmu_caps_one(&c, false); break;
	case TK_PERF_FEAT_CLOCK_DATA:
		ft->clock_data_version = cur_u32(&c);
		ft->clock_data_clockid = cur_u32(&c);
		ft->clock_wall_ns = cur_u64(&c);
		ft->clock_clockid_ns = cur_u64(&c);
		break;
	case TK_PERF_FEAT_HYBRID_TOPOLOGY: decode_hybrid(&c); break;
	case TK_PERF_FEAT_PMU_CAPS: {
		uint32_t n = cur_u32(&c);
		for (uint32_t i = 0; i < n && c.ok; i++)
			decode_pmu_caps_one(&c, true);
		break;
	}
	default: return TK_OK; /* raw only */
	}
	if (!c.ok)
		tk_perf_warn(f, "feature %s at offset 0x%llx is malformed; decoded in part",
			     tk_perf_feature_name(id), (unsigned long long)offset);
	return TK_OK;
}

tk_status tk_perf_read_features(tk_perf_file *f, tk_error *err)
{
	const tk_perf_header *h = &f->hdr;
	const uint8_t *map = f->inputs[0].map;
	uint64_t fsize = h->file_size;
	uint64_t table = h->data_offset + h->data_size;
	unsigned n = 0;
	for (int i = 0; i < 4; i++)
		n += (unsigned)__builtin_popcountll(h->features[i]);
	if (n == 0)
		return TK_OK;
	if (!tk_range_ok(table, (uint64_t)n * 16, fsize)) {
		tk_perf_warn(f,
			     "feature section table at 0x%llx runs past the end of the file; "
			     "features ignored",
			     (unsigned long long)table);
		return TK_OK;
	}
	unsigned k = 0;
	/* Bit order = table order. EVENT_DESC names attrs: decode it before
	 * TRACING_DATA naming happens (naming runs after all features). */
	for (unsigned bit = 0; bit < TK_PERF_FEAT_MAX; bit++) {
		if (!((h->features[bit / 64] >> (bit % 64)) & 1))
			continue;
		const uint8_t *e = map + table + 16 * k++;
		uint64_t off = tk_load_u64(e, f->swap), size = tk_load_u64(e + 8, f->swap);
		if (!tk_range_ok(off, size, fsize)) {
			tk_perf_warn(
			    f, "feature %u section [0x%llx, +%llu) lies outside the file; ignored",
			    bit, (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		tk_status st = tk_perf_feature_decode(f, bit, map + off, size, off, err);
		if (st != TK_OK)
			return st;
	}
	return TK_OK;
}
