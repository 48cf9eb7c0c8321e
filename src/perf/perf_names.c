/* Names: record types, features, sample_type bits, and perf's own names for
 * (type, config) pairs (tools/perf/util/evsel.c *_names tables). */
#include <stdio.h>
#include <string.h>

#include "perf/perf_internal.h"

static const char *const kernel_record_names[] = {
    [1] = "MMAP",
    [2] = "LOST",
    [3] = "COMM",
    [4] = "EXIT",
    [5] = "THROTTLE",
    [6] = "UNTHROTTLE",
    [7] = "FORK",
    [8] = "READ",
    [9] = "SAMPLE",
    [10] = "MMAP2",
    [11] = "AUX",
    [12] = "ITRACE_START",
    [13] = "LOST_SAMPLES",
    [14] = "SWITCH",
    [15] = "SWITCH_CPU_WIDE",
    [16] = "NAMESPACES",
    [17] = "KSYMBOL",
    [18] = "BPF_EVENT",
    [19] = "CGROUP",
    [20] = "TEXT_POKE",
    [21] = "AUX_OUTPUT_HW_ID",
    [22] = "CALLCHAIN_DEFERRED",
};

static const char *const user_record_names[] = {
    "ATTR",           "EVENT_TYPE",    "TRACING_DATA",     "BUILD_ID",
    "FINISHED_ROUND", "ID_INDEX",      "AUXTRACE_INFO",    "AUXTRACE",
    "AUXTRACE_ERROR", "THREAD_MAP",    "CPU_MAP",          "STAT_CONFIG",
    "STAT",           "STAT_ROUND",    "EVENT_UPDATE",     "TIME_CONV",
    "FEATURE",        "COMPRESSED",    "FINISHED_INIT",    "COMPRESSED2",
    "BPF_METADATA",   "SCHEDSTAT_CPU", "SCHEDSTAT_DOMAIN",
};

const char *tk_perf_record_type_name(uint32_t type)
{
	if (type < sizeof kernel_record_names / sizeof kernel_record_names[0])
		return kernel_record_names[type];
	if (type >= 64 && type - 64 < sizeof user_record_names / sizeof user_record_names[0])
		return user_record_names[type - 64];
	return NULL;
}

static const char *const feature_names[] = {
    [1] = "tracing_data",   [2] = "build_id",         [3] = "hostname",
    [4] = "osrelease",      [5] = "version",          [6] = "arch",
    [7] = "nrcpus",         [8] = "cpudesc",          [9] = "cpuid",
    [10] = "total_mem",     [11] = "cmdline",         [12] = "event_desc",
    [13] = "cpu_topology",  [14] = "numa_topology",   [15] = "branch_stack",
    [16] = "pmu_mappings",  [17] = "group_desc",      [18] = "auxtrace",
    [19] = "stat",          [20] = "cache",           [21] = "sample_time",
    [22] = "mem_topology",  [23] = "clockid",         [24] = "dir_format",
    [25] = "bpf_prog_info", [26] = "bpf_btf",         [27] = "compressed",
    [28] = "cpu_pmu_caps",  [29] = "clock_data",      [30] = "hybrid_topology",
    [31] = "pmu_caps",      [32] = "cpu_domain_info",
};

const char *tk_perf_feature_name(unsigned id)
{
	if (id < sizeof feature_names / sizeof feature_names[0])
		return feature_names[id];
	return NULL;
}

static const char *const sample_bit_names[] = {
    "IP",
    "TID",
    "TIME",
    "ADDR",
    "READ",
    "CALLCHAIN",
    "ID",
    "CPU",
    "PERIOD",
    "STREAM_ID",
    "RAW",
    "BRANCH_STACK",
    "REGS_USER",
    "STACK_USER",
    "WEIGHT",
    "DATA_SRC",
    "IDENTIFIER",
    "TRANSACTION",
    "REGS_INTR",
    "PHYS_ADDR",
    "AUX",
    "CGROUP",
    "DATA_PAGE_SIZE",
    "CODE_PAGE_SIZE",
    "WEIGHT_STRUCT",
};

const char *tk_perf_sample_bit_name(unsigned bit)
{
	if (bit < sizeof sample_bit_names / sizeof sample_bit_names[0])
		return sample_bit_names[bit];
	return NULL;
}

static const char *const hw_names[] = {
    "cycles",
    "instructions",
    "cache-references",
    "cache-misses",
    "branches",
    "branch-misses",
    "bus-cycles",
    "stalled-cycles-frontend",
    "stalled-cycles-backend",
    "ref-cycles",
};

static const char *const sw_names[] = {
    "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
    "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches",
};

/* perf's hw cache names: L1-dcache-load-misses etc. */
static const char *const cache_names[] = {"L1-dcache", "L1-icache", "LLC", "dTLB",
					  "iTLB",      "branch",    "node"};
static const char *const cache_ops[] = {"load", "store", "prefetch"};
static const char *const cache_results[] = {"refs", "misses"};

const char *tk_perf_event_default_name(uint32_t type, uint64_t config)
{
	switch (type) {
	case TK_PERF_TYPE_HARDWARE:
		if (config < sizeof hw_names / sizeof hw_names[0])
			return hw_names[config];
		return NULL;
	case TK_PERF_TYPE_SOFTWARE:
		if (config < sizeof sw_names / sizeof sw_names[0])
			return sw_names[config];
		return NULL;
	default: return NULL;
	}
}

/* Writes "L1-dcache-load-misses" style names; returns false if unknown. */
static bool cache_name(uint64_t config, char *buf, size_t n)
{
	uint64_t c = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;
	if (c >= 7 || op >= 3 || res >= 2)
		return false;
	if (res == 0)
		snprintf(buf, n, "%s-%ss", cache_names[c], cache_ops[op]);
	else
		snprintf(buf, n, "%s-%s-%s", cache_names[c], cache_ops[op], cache_results[res]);
	return true;
}

/* The name perf makes from the attr alone (tracepoint, cache, hardware or
 * software event); NULL when a tracepoint's format is not known yet. */
static const char *derived_name(const tk_perf_file *f, const tk_perf_attr *a, char *buf,
				size_t size)
{
	if (a->type == TK_PERF_TYPE_TRACEPOINT && f->tracing) {
		const tk_perf_tp_format *fmt = tk_perf_tracing_format(f->tracing, a->config);
		if (fmt) {
			snprintf(buf, size, "%s:%s", fmt->system, fmt->name);
			return buf;
		}
	} else if (a->type == TK_PERF_TYPE_HW_CACHE && cache_name(a->config, buf, size)) {
		return buf;
	} else {
		const char *n = tk_perf_event_default_name(a->type, a->config);
		if (n)
			return n;
	}
	if (a->type == TK_PERF_TYPE_TRACEPOINT && !f->tracing)
		return NULL;
	snprintf(buf, size, "raw 0x%llx", (unsigned long long)a->config);
	return buf;
}

void tk_perf_name_attrs(tk_perf_file *f, bool final)
{
	for (size_t i = 0; i < f->n_attrs; i++) {
		tk_perf_attr *a = f->attrs[i];
		if (a->name)
			continue;
		char buf[128];
		const char *n = derived_name(f, a, buf, sizeof buf);
		if (!n) {
			if (!final)
				continue; /* tracing data may still arrive (pipe mode) */
			snprintf(buf, sizeof buf, "raw 0x%llx", (unsigned long long)a->config);
			n = buf;
		}
		a->name = tk_arena_strdup(&f->meta, n);
	}
}

/* evsel__name(): an event named from its attr (no EVENT_DESC: pipe files,
 * simpleperf) carries evsel__add_modifiers()'s suffix: the privilege
 * levels counted when some are excluded, precise_ip, and H/G when
 * exclude_host/exclude_guest differ from what those imply ("cycles:HG"). */
static const char *with_modifiers(const tk_perf_attr *a, const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);
	if (a->type == TK_PERF_TYPE_TRACEPOINT || len + 12 > size)
		return name;
	bool ex_k = tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_KERNEL);
	bool ex_u = tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_USER);
	bool ex_h = tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_HV);
	bool ex_host = tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_HOST);
	bool ex_guest = tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_GUEST);
	unsigned precise = (unsigned)((a->flags >> TK_PERF_ATTR_PRECISE_IP) & 3);
	bool guest_default = false;
	char mod[10];
	size_t m = 0;
	if (ex_k || ex_u || ex_h) {
		if (!ex_k)
			mod[m++] = 'k';
		if (!ex_u)
			mod[m++] = 'u';
		if (!ex_h)
			mod[m++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < precise; i++)
		mod[m++] = 'p';
	guest_default |= precise != 0;
	if (ex_host || ex_guest == guest_default) {
		if (!ex_host)
			mod[m++] = 'H';
		if (!ex_guest)
			mod[m++] = 'G';
	}
	if (!m)
		return name;
	memcpy(buf, name, len);
	buf[len] = ':';
	memcpy(buf + len + 1, mod, m);
	buf[len + 1 + m] = '\0';
	return buf;
}

const char *tk_perf_event_name(const tk_perf_file *f, const tk_perf_attr *a, char *buf, size_t size)
{
	const char *name = a->name ? a->name : "?";
	bool desc =
	    f->event_desc ||
	    (f->hdr.features[TK_PERF_FEAT_EVENT_DESC / 64] >> (TK_PERF_FEAT_EVENT_DESC % 64)) & 1;
	return desc ? name : with_modifiers(a, name, buf, size);
}

const char *tk_perf_event_attr_name(const tk_perf_file *f, const tk_perf_attr *a, char *buf,
				    size_t size)
{
	if (size < 24)
		return a->name ? a->name : "?";
	/* the derived name goes in the second half; the suffix is added in
	 * the first */
	size_t half = size / 2;
	const char *name = derived_name(f, a, buf + half, size - half);
	if (!name) /* perf's name for a tracepoint without its format */
		name = "unknown tracepoint";
	return with_modifiers(a, name, buf, half);
}
