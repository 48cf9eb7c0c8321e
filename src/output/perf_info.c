/* tracekit info for perf.data: the header and features the way
 * `perf report --header-only` shows them, then the events with their
 * sample_type and the number of records of each type. */
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "session/session_events.h"
#include "output/perf_render.h"

static void line_str(tk_writer *w, const char *key, const char *val)
{
	if (!val)
		return;
	tk_put_str(w, "# ");
	tk_put_str(w, key);
	tk_put_str(w, " : ");
	tk_put_str(w, val);
	tk_put_char(w, '\n');
}

static void line_u64(tk_writer *w, const char *key, uint64_t v, const char *unit)
{
	tk_put_str(w, "# ");
	tk_put_str(w, key);
	tk_put_str(w, " : ");
	tk_put_u64(w, v);
	if (unit)
		tk_put_str(w, unit);
	tk_put_char(w, '\n');
}

static bool has_feature(const tk_perf_header *h, unsigned id)
{
	return id < 256 && (h->features[id / 64] >> (id % 64) & 1);
}

static void put_secs(tk_writer *w, uint64_t ns, unsigned digits)
{
	tk_put_u64(w, ns / 1000000000u);
	tk_put_char(w, '.');
	uint64_t frac = ns % 1000000000u;
	for (unsigned i = digits; i < 9; i++)
		frac /= 10;
	tk_put_u64_pad(w, frac, digits, '0');
}

static void put_attr(tk_writer *w, const tk_perf_attr *a)
{
	tk_put_str(w, "# event : name = ");
	tk_put_str(w, a->name ? a->name : "?");
	tk_put_str(w, ", , id = {");
	for (size_t i = 0; i < a->n_ids; i++) {
		tk_put_str(w, i ? ", " : " ");
		tk_put_u64(w, a->ids[i]);
	}
	tk_put_str(w, a->n_ids ? " }" : "}");
	tk_put_str(w, ", type = ");
	tk_put_u64(w, a->type);
	tk_put_str(w, ", size = ");
	tk_put_u64(w, a->size);
	if (a->config) {
		tk_put_str(w, ", config = 0x");
		tk_put_hex(w, a->config);
	}
	tk_put_str(w, ", { sample_period, sample_freq } = ");
	tk_put_u64(w, a->sample_period);
	tk_put_str(w, ", sample_type = ");
	tk_perf_put_sample_type(w, a->sample_type);
	if (a->read_format) {
		static const char *const rf[] = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID",
						 "GROUP", "LOST"};
		tk_put_str(w, ", read_format = ");
		bool first = true;
		for (unsigned b = 0; b < 5; b++) {
			if (!(a->read_format >> b & 1))
				continue;
			if (!first)
				tk_put_char(w, '|');
			first = false;
			tk_put_str(w, rf[b]);
		}
	}
	static const struct {
		unsigned bit;
		const char *name;
	} flags[] = {
	    {TK_PERF_ATTR_DISABLED, "disabled"},
	    {TK_PERF_ATTR_INHERIT, "inherit"},
	    {TK_PERF_ATTR_PINNED, "pinned"},
	    {TK_PERF_ATTR_EXCLUSIVE, "exclusive"},
	    {TK_PERF_ATTR_EXCLUDE_USER, "exclude_user"},
	    {TK_PERF_ATTR_EXCLUDE_KERNEL, "exclude_kernel"},
	    {TK_PERF_ATTR_EXCLUDE_HV, "exclude_hv"},
	    {TK_PERF_ATTR_EXCLUDE_IDLE, "exclude_idle"},
	    {TK_PERF_ATTR_MMAP, "mmap"},
	    {TK_PERF_ATTR_COMM, "comm"},
	    {TK_PERF_ATTR_FREQ, "freq"},
	    {TK_PERF_ATTR_INHERIT_STAT, "inherit_stat"},
	    {TK_PERF_ATTR_ENABLE_ON_EXEC, "enable_on_exec"},
	    {TK_PERF_ATTR_TASK, "task"},
	    {TK_PERF_ATTR_WATERMARK, "watermark"},
	    {TK_PERF_ATTR_MMAP_DATA, "mmap_data"},
	    {TK_PERF_ATTR_SAMPLE_ID_ALL, "sample_id_all"},
	    {TK_PERF_ATTR_EXCLUDE_HOST, "exclude_host"},
	    {TK_PERF_ATTR_EXCLUDE_GUEST, "exclude_guest"},
	    {TK_PERF_ATTR_MMAP2, "mmap2"},
	    {TK_PERF_ATTR_COMM_EXEC, "comm_exec"},
	    {TK_PERF_ATTR_USE_CLOCKID, "use_clockid"},
	    {TK_PERF_ATTR_CONTEXT_SWITCH, "context_switch"},
	    {TK_PERF_ATTR_NAMESPACES, "namespaces"},
	    {TK_PERF_ATTR_KSYMBOL, "ksymbol"},
	    {TK_PERF_ATTR_BPF_EVENT, "bpf_event"},
	    {TK_PERF_ATTR_CGROUP, "cgroup"},
	    {TK_PERF_ATTR_TEXT_POKE, "text_poke"},
	    {TK_PERF_ATTR_BUILD_ID, "build_id"},
	};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		if (!tk_perf_attr_flag(a, flags[i].bit))
			continue;
		tk_put_str(w, ", ");
		tk_put_str(w, flags[i].name);
		tk_put_str(w, " = 1");
	}
	unsigned precise = (unsigned)(a->flags >> TK_PERF_ATTR_PRECISE_IP & 3);
	if (precise) {
		tk_put_str(w, ", precise_ip = ");
		tk_put_u64(w, precise);
	}
	tk_put_char(w, '\n');
}

static void put_features(tk_writer *w, const tk_perf_header *h, const tk_perf_features *ft)
{
	line_str(w, "hostname", ft->hostname);
	line_str(w, "os release", ft->osrelease);
	line_str(w, "perf version", ft->version);
	line_str(w, "arch", ft->arch);
	if (has_feature(h, TK_PERF_FEAT_NRCPUS) || ft->nr_cpus_online) {
		line_u64(w, "nrcpus online", ft->nr_cpus_online, NULL);
		line_u64(w, "nrcpus avail", ft->nr_cpus_avail, NULL);
	}
	line_str(w, "cpudesc", ft->cpudesc);
	line_str(w, "cpuid", ft->cpuid);
	if (ft->total_mem_kb)
		line_u64(w, "total memory", ft->total_mem_kb, " kB");
	if (ft->n_cmdline) {
		tk_put_str(w, "# cmdline : ");
		for (size_t i = 0; i < ft->n_cmdline; i++) {
			tk_put_str(w, ft->cmdline[i]);
			tk_put_char(w, ' ');
		}
		tk_put_char(w, '\n');
	}
}

static void put_topology(tk_writer *w, const tk_perf_features *ft)
{
	for (size_t i = 0; i < ft->n_core_siblings; i++) {
		tk_put_str(w, "# sibling sockets : ");
		tk_put_str(w, ft->core_siblings[i]);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_die_siblings; i++) {
		tk_put_str(w, "# sibling dies    : ");
		tk_put_str(w, ft->die_siblings[i]);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_thread_siblings; i++) {
		tk_put_str(w, "# sibling threads : ");
		tk_put_str(w, ft->thread_siblings[i]);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_cpu_ids; i++) {
		tk_put_str(w, "# CPU ");
		tk_put_u64(w, i);
		tk_put_str(w, ": Core ID ");
		tk_put_u64(w, ft->cpu_ids[i].core_id);
		tk_put_str(w, ", Die ID ");
		tk_put_u64(w, ft->cpu_ids[i].die_id);
		tk_put_str(w, ", Socket ID ");
		tk_put_u64(w, ft->cpu_ids[i].socket_id);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_numa_nodes; i++) {
		const tk_perf_numa_node *n = &ft->numa_nodes[i];
		tk_put_str(w, "# node");
		tk_put_u64(w, n->node);
		tk_put_str(w, " meminfo  : total = ");
		tk_put_u64(w, n->mem_total);
		tk_put_str(w, " kB, free = ");
		tk_put_u64(w, n->mem_free);
		tk_put_str(w, " kB\n# node");
		tk_put_u64(w, n->node);
		tk_put_str(w, " cpu list : ");
		tk_put_str(w, n->cpus ? n->cpus : "");
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_hybrid_nodes; i++) {
		tk_put_str(w, "# ");
		tk_put_str(w, ft->hybrid_nodes[i].name);
		tk_put_str(w, " cpu list : ");
		tk_put_str(w, ft->hybrid_nodes[i].value);
		tk_put_char(w, '\n');
	}
}

static void put_misc_features(tk_writer *w, const tk_perf_features *ft)
{
	if (ft->n_pmu_mappings) {
		tk_put_str(w, "# pmu mappings:");
		for (size_t i = 0; i < ft->n_pmu_mappings; i++) {
			tk_put_str(w, i ? ", " : " ");
			tk_put_str(w, ft->pmu_mappings[i].name);
			tk_put_str(w, " = ");
			tk_put_u64(w, ft->pmu_mappings[i].num);
		}
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_groups; i++) {
		tk_put_str(w, "# group: ");
		tk_put_str(w, ft->groups[i].name ? ft->groups[i].name : "{anon_group}");
		tk_put_str(w, " leader_idx = ");
		tk_put_u64(w, ft->groups[i].leader_idx);
		tk_put_str(w, ", nr_members = ");
		tk_put_u64(w, ft->groups[i].nr_members);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_caches; i++) {
		const tk_perf_cache_level *c = &ft->caches[i];
		tk_put_str(w, "# cache L");
		tk_put_u64(w, c->level);
		tk_put_char(w, ' ');
		tk_put_str(w, c->type ? c->type : "?");
		tk_put_char(w, ' ');
		tk_put_str(w, c->size ? c->size : "?");
		tk_put_str(w, " [");
		tk_put_str(w, c->map ? c->map : "");
		tk_put_str(w, "]\n");
	}
	if (ft->sample_time_first || ft->sample_time_last) {
		tk_put_str(w, "# time of first sample : ");
		put_secs(w, ft->sample_time_first, 6);
		tk_put_str(w, "\n# time of last sample : ");
		put_secs(w, ft->sample_time_last, 6);
		tk_put_str(w, "\n# sample duration : ");
		uint64_t d = ft->sample_time_last - ft->sample_time_first;
		tk_put_u64(w, d / 1000000);
		tk_put_char(w, '.');
		tk_put_u64_pad(w, d / 1000 % 1000, 3, '0');
		tk_put_str(w, " ms\n");
	}
	if (ft->mem_block_size) {
		line_u64(w, "memory block size", ft->mem_block_size, NULL);
		line_u64(w, "memory nodes", ft->mem_nr_nodes, NULL);
	}
	if (ft->clockid_res_ns)
		line_u64(w, "clockid frequency",
			 1000 / (ft->clockid_res_ns ? ft->clockid_res_ns : 1), " MHz");
	if (ft->clock_data_version) {
		line_u64(w, "clockid", ft->clock_data_clockid, NULL);
		line_u64(w, "reference time (ns)", ft->clock_wall_ns, NULL);
		line_u64(w, "clockid time (ns)", ft->clock_clockid_ns, NULL);
	}
	if (ft->comp_version) {
		tk_put_str(w, "# compressed : ");
		tk_put_str(w, ft->comp_type == 1 ? "Zstd" : "unknown");
		tk_put_str(w, ", level = ");
		tk_put_u64(w, ft->comp_level);
		tk_put_str(w, ", ratio = ");
		tk_put_u64(w, ft->comp_ratio);
		tk_put_char(w, '\n');
	}
	if (ft->dir_format_version)
		line_u64(w, "directory data version", ft->dir_format_version, NULL);
	for (size_t i = 0; i < ft->n_pmu_caps; i++) {
		const tk_perf_pmu_caps *pc = &ft->pmu_caps[i];
		tk_put_str(w, "# ");
		tk_put_str(w, pc->pmu ? pc->pmu : "cpu");
		tk_put_str(w, " pmu capabilities:");
		for (size_t j = 0; j < pc->n_caps; j++) {
			tk_put_str(w, j ? ", " : " ");
			tk_put_str(w, pc->caps[j].name);
			tk_put_char(w, '=');
			tk_put_str(w, pc->caps[j].value);
		}
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < ft->n_build_ids; i++) {
		const tk_perf_build_id *b = &ft->build_ids[i];
		tk_put_str(w, "# build id : ");
		for (unsigned j = 0; j < b->size && j < sizeof b->id; j++)
			tk_put_hex_pad(w, b->id[j], 2);
		tk_put_char(w, ' ');
		tk_put_str(w, b->filename ? b->filename : "");
		tk_put_char(w, '\n');
	}
}

static void put_feature_list(tk_writer *w, const tk_perf_features *ft)
{
	tk_put_str(w, "# features:");
	for (size_t i = 0; i < ft->n_raw; i++) {
		const char *name = tk_perf_feature_name(ft->raw[i].id);
		tk_put_char(w, ' ');
		if (name) {
			tk_put_str(w, name);
		} else {
			tk_put_str(w, "unknown(");
			tk_put_u64(w, ft->raw[i].id);
			tk_put_char(w, ')');
		}
		tk_put_char(w, '[');
		tk_put_u64(w, ft->raw[i].size);
		tk_put_char(w, ']');
	}
	tk_put_char(w, '\n');
}

/* Counts records per type in one pass over the file (file order). */
typedef struct type_count {
	uint32_t type;
	uint64_t n;
} type_count;

typedef struct record_counts {
	type_count counts[128];
	size_t n_counts;
	uint64_t total;
} record_counts;

static tk_status count_record(tk_session *s, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	record_counts *c = user;
	c->total++;
	size_t i = 0;
	while (i < c->n_counts && c->counts[i].type != rec->type)
		i++;
	if (i == c->n_counts && i < 128) {
		c->counts[i].type = rec->type;
		c->counts[i].n = 0;
		c->n_counts++;
	}
	if (i < 128)
		c->counts[i].n++;
	return TK_OK;
}

tk_status tk_perf_render_info(const char *path, const tk_render_options *opt, tk_writer *w,
			      tk_error *err)
{
	tk_session *ses;
	tk_status st = tk_session_open_perf(path, opt, true, &ses, err);
	if (st != TK_OK)
		return st;
	tk_perf_file *f = tk_session_perf(ses);
	record_counts rc = {.n_counts = 0};
	/* Count first: in pipe mode the attrs and features arrive as records. */
	tk_session_tool count = {.perf_sample = count_record, .perf_other = count_record};
	tk_status walk = tk_session_run(ses, &count, &rc, err);
	const type_count *counts = rc.counts;
	size_t n_counts = rc.n_counts;
	uint64_t total = rc.total;
	const tk_perf_header *h = tk_perf_get_header(f);
	const tk_perf_features *ft = tk_perf_get_features(f);
	tk_put_str(w, "# ========\n# format : perf.data (");
	tk_put_str(w, h->is_directory ? "directory" : h->pipe_mode ? "pipe mode" : "file mode");
	tk_put_str(w, h->big_endian ? ", big-endian" : ", little-endian");
	tk_put_str(w, h->swap ? ", foreign byte order)\n" : ")\n");
	if (!h->pipe_mode) {
		/* perf report --header-only: the file's modification time */
		struct stat sb;
		char when[64];
		time_t mtime;
		struct tm tm;
		if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
		    (mtime = sb.st_mtime, localtime_r(&mtime, &tm)) &&
		    strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm) > 0) {
			tk_put_str(w, "# captured on : ");
			tk_put_str(w, when);
			tk_put_str(w, "\n");
		}
		line_u64(w, "data offset", h->data_offset, NULL);
		line_u64(w, "data size", h->data_size, NULL);
		line_u64(w, "feat offset", h->data_offset + h->data_size, NULL);
		line_u64(w, "attr size", h->attr_size, NULL);
	}
	put_features(w, h, ft);
	for (size_t i = 0; i < tk_perf_attr_count(f); i++)
		put_attr(w, tk_perf_attr_at(f, i));
	put_topology(w, ft);
	put_misc_features(w, ft);
	const tk_perf_tracing *tr = tk_perf_get_tracing(f);
	if (tr) {
		tk_put_str(w, "# tracepoint formats : ");
		tk_put_u64(w, tk_perf_tracing_count(tr));
		tk_put_char(w, '\n');
	}
	put_feature_list(w, ft);
	tk_put_str(w, "# ========\n# records : ");
	tk_put_u64(w, total);
	tk_put_char(w, '\n');
	for (size_t i = 0; i < n_counts; i++) {
		tk_put_str(w, "#   ");
		tk_perf_put_record_type(w, counts[i].type);
		tk_put_str(w, " : ");
		tk_put_u64(w, counts[i].n);
		tk_put_char(w, '\n');
	}
	tk_session_close(ses);
	return walk;
}
