/* perf.data native API: exact, zero-copy view of perf.data files (file
 * mode, pipe mode, both byte orders, compressed records, --threads dirs).
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * Ownership and lifetime: everything returned is owned by the tk_perf_file.
 * Attrs, features and tracepoint formats live until tk_perf_close(). A
 * record returned by tk_perf_next() (and anything parsed from it) stays
 * valid until the next tk_perf_next() or tk_perf_close().
 * Byte order: scalar fields of the structs below are in host order. Arrays
 * that point into the file (callchain, branch stack, regs, read values) are
 * in file order: read them with tk_perf_u64_at(), which swaps when needed.
 * Not thread-safe; one tk_perf_file per thread. */
#ifndef TRACEKIT_PERF_H
#define TRACEKIT_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "source.h"
#include "status.h"

/* ---- constants from include/uapi/linux/perf_event.h ---- */
enum {
	TK_PERF_SAMPLE_IP = 1U << 0,
	TK_PERF_SAMPLE_TID = 1U << 1,
	TK_PERF_SAMPLE_TIME = 1U << 2,
	TK_PERF_SAMPLE_ADDR = 1U << 3,
	TK_PERF_SAMPLE_READ = 1U << 4,
	TK_PERF_SAMPLE_CALLCHAIN = 1U << 5,
	TK_PERF_SAMPLE_ID = 1U << 6,
	TK_PERF_SAMPLE_CPU = 1U << 7,
	TK_PERF_SAMPLE_PERIOD = 1U << 8,
	TK_PERF_SAMPLE_STREAM_ID = 1U << 9,
	TK_PERF_SAMPLE_RAW = 1U << 10,
	TK_PERF_SAMPLE_BRANCH_STACK = 1U << 11,
	TK_PERF_SAMPLE_REGS_USER = 1U << 12,
	TK_PERF_SAMPLE_STACK_USER = 1U << 13,
	TK_PERF_SAMPLE_WEIGHT = 1U << 14,
	TK_PERF_SAMPLE_DATA_SRC = 1U << 15,
	TK_PERF_SAMPLE_IDENTIFIER = 1U << 16,
	TK_PERF_SAMPLE_TRANSACTION = 1U << 17,
	TK_PERF_SAMPLE_REGS_INTR = 1U << 18,
	TK_PERF_SAMPLE_PHYS_ADDR = 1U << 19,
	TK_PERF_SAMPLE_AUX = 1U << 20,
	TK_PERF_SAMPLE_CGROUP = 1U << 21,
	TK_PERF_SAMPLE_DATA_PAGE_SIZE = 1U << 22,
	TK_PERF_SAMPLE_CODE_PAGE_SIZE = 1U << 23,
	TK_PERF_SAMPLE_WEIGHT_STRUCT = 1U << 24,
};

enum {
	TK_PERF_FORMAT_TOTAL_TIME_ENABLED = 1U << 0,
	TK_PERF_FORMAT_TOTAL_TIME_RUNNING = 1U << 1,
	TK_PERF_FORMAT_ID = 1U << 2,
	TK_PERF_FORMAT_GROUP = 1U << 3,
	TK_PERF_FORMAT_LOST = 1U << 4,
};

enum {
	TK_PERF_TYPE_HARDWARE = 0,
	TK_PERF_TYPE_SOFTWARE = 1,
	TK_PERF_TYPE_TRACEPOINT = 2,
	TK_PERF_TYPE_HW_CACHE = 3,
	TK_PERF_TYPE_RAW = 4,
	TK_PERF_TYPE_BREAKPOINT = 5,
};

/* Record types: kernel 1..22, perf's user records 64..86. */
enum {
	TK_PERF_RECORD_MMAP = 1,
	TK_PERF_RECORD_LOST = 2,
	TK_PERF_RECORD_COMM = 3,
	TK_PERF_RECORD_EXIT = 4,
	TK_PERF_RECORD_THROTTLE = 5,
	TK_PERF_RECORD_UNTHROTTLE = 6,
	TK_PERF_RECORD_FORK = 7,
	TK_PERF_RECORD_READ = 8,
	TK_PERF_RECORD_SAMPLE = 9,
	TK_PERF_RECORD_MMAP2 = 10,
	TK_PERF_RECORD_AUX = 11,
	TK_PERF_RECORD_ITRACE_START = 12,
	TK_PERF_RECORD_LOST_SAMPLES = 13,
	TK_PERF_RECORD_SWITCH = 14,
	TK_PERF_RECORD_SWITCH_CPU_WIDE = 15,
	TK_PERF_RECORD_NAMESPACES = 16,
	TK_PERF_RECORD_KSYMBOL = 17,
	TK_PERF_RECORD_BPF_EVENT = 18,
	TK_PERF_RECORD_CGROUP = 19,
	TK_PERF_RECORD_TEXT_POKE = 20,
	TK_PERF_RECORD_AUX_OUTPUT_HW_ID = 21,
	TK_PERF_RECORD_CALLCHAIN_DEFERRED = 22,
	TK_PERF_RECORD_HEADER_ATTR = 64,
	TK_PERF_RECORD_HEADER_EVENT_TYPE = 65,
	TK_PERF_RECORD_HEADER_TRACING_DATA = 66,
	TK_PERF_RECORD_HEADER_BUILD_ID = 67,
	TK_PERF_RECORD_FINISHED_ROUND = 68,
	TK_PERF_RECORD_ID_INDEX = 69,
	TK_PERF_RECORD_AUXTRACE_INFO = 70,
	TK_PERF_RECORD_AUXTRACE = 71,
	TK_PERF_RECORD_AUXTRACE_ERROR = 72,
	TK_PERF_RECORD_THREAD_MAP = 73,
	TK_PERF_RECORD_CPU_MAP = 74,
	TK_PERF_RECORD_STAT_CONFIG = 75,
	TK_PERF_RECORD_STAT = 76,
	TK_PERF_RECORD_STAT_ROUND = 77,
	TK_PERF_RECORD_EVENT_UPDATE = 78,
	TK_PERF_RECORD_TIME_CONV = 79,
	TK_PERF_RECORD_HEADER_FEATURE = 80,
	TK_PERF_RECORD_COMPRESSED = 81,
	TK_PERF_RECORD_FINISHED_INIT = 82,
	TK_PERF_RECORD_COMPRESSED2 = 83,
	TK_PERF_RECORD_BPF_METADATA = 84,
	TK_PERF_RECORD_SCHEDSTAT_CPU = 85,
	TK_PERF_RECORD_SCHEDSTAT_DOMAIN = 86,
};

/* Feature ids (bits of the header's feature bitmap). */
enum {
	TK_PERF_FEAT_TRACING_DATA = 1,
	TK_PERF_FEAT_BUILD_ID = 2,
	TK_PERF_FEAT_HOSTNAME = 3,
	TK_PERF_FEAT_OSRELEASE = 4,
	TK_PERF_FEAT_VERSION = 5,
	TK_PERF_FEAT_ARCH = 6,
	TK_PERF_FEAT_NRCPUS = 7,
	TK_PERF_FEAT_CPUDESC = 8,
	TK_PERF_FEAT_CPUID = 9,
	TK_PERF_FEAT_TOTAL_MEM = 10,
	TK_PERF_FEAT_CMDLINE = 11,
	TK_PERF_FEAT_EVENT_DESC = 12,
	TK_PERF_FEAT_CPU_TOPOLOGY = 13,
	TK_PERF_FEAT_NUMA_TOPOLOGY = 14,
	TK_PERF_FEAT_BRANCH_STACK = 15,
	TK_PERF_FEAT_PMU_MAPPINGS = 16,
	TK_PERF_FEAT_GROUP_DESC = 17,
	TK_PERF_FEAT_AUXTRACE = 18,
	TK_PERF_FEAT_STAT = 19,
	TK_PERF_FEAT_CACHE = 20,
	TK_PERF_FEAT_SAMPLE_TIME = 21,
	TK_PERF_FEAT_MEM_TOPOLOGY = 22,
	TK_PERF_FEAT_CLOCKID = 23,
	TK_PERF_FEAT_DIR_FORMAT = 24,
	TK_PERF_FEAT_BPF_PROG_INFO = 25,
	TK_PERF_FEAT_BPF_BTF = 26,
	TK_PERF_FEAT_COMPRESSED = 27,
	TK_PERF_FEAT_CPU_PMU_CAPS = 28,
	TK_PERF_FEAT_CLOCK_DATA = 29,
	TK_PERF_FEAT_HYBRID_TOPOLOGY = 30,
	TK_PERF_FEAT_PMU_CAPS = 31,
	TK_PERF_FEAT_CPU_DOMAIN_INFO = 32,
	TK_PERF_FEAT_MAX = 256,
};

/* Callchain context markers (values >= (u64)-4095). */
#define TK_PERF_CONTEXT_HV           ((uint64_t)-32)
#define TK_PERF_CONTEXT_KERNEL       ((uint64_t)-128)
#define TK_PERF_CONTEXT_USER         ((uint64_t)-512)
#define TK_PERF_CONTEXT_GUEST        ((uint64_t)-2048)
#define TK_PERF_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define TK_PERF_CONTEXT_GUEST_USER   ((uint64_t)-2560)
#define TK_PERF_CONTEXT_MAX          ((uint64_t)-4095)

/* Reads element i of a file-order u64 array. */
static inline uint64_t tk_perf_u64_at(const uint8_t *p, size_t i, bool swap)
{
	uint64_t v;
	memcpy(&v, p + i * 8, 8);
	return swap ? __builtin_bswap64(v) : v;
}

typedef struct tk_perf_file tk_perf_file;

/* ---- header ---- */
typedef struct tk_perf_header {
	bool pipe_mode;
	bool swap;         /* file is in the other byte order (2ELIFREP) */
	bool big_endian;   /* byte order of the file */
	bool is_directory; /* perf record --threads */
	uint64_t header_size;
	uint64_t attr_size; /* size of one attrs-section entry */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t event_types_offset, event_types_size;
	uint64_t features[4]; /* the 256-bit feature bitmap */
	uint64_t file_size;   /* UINT64_MAX for pipes */
} tk_perf_header;

/* ---- attributes (perf_event_attr, decoded) ---- */
typedef struct tk_perf_attr {
	uint32_t type;
	uint32_t size; /* as stored (0 = VER0, 64) */
	uint64_t config;
	uint64_t sample_period; /* sample_freq when freq is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* the bitfield word, in host bit order */
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1, config2, config3;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	/* from the ids section / HEADER_ATTR / ID_INDEX */
	const uint64_t *ids; /* host order */
	size_t n_ids;
	/* event name: EVENT_DESC, else the tracepoint's system:name, else
	 * perf's name for type/config ("cpu-clock"), else "raw 0x<config>" */
	const char *name;
	size_t index; /* position in tk_perf_attrs() */
} tk_perf_attr;

/* Bits of tk_perf_attr.flags (perf_event_attr's bitfield). */
enum {
	TK_PERF_ATTR_DISABLED = 0,
	TK_PERF_ATTR_INHERIT = 1,
	TK_PERF_ATTR_PINNED = 2,
	TK_PERF_ATTR_EXCLUSIVE = 3,
	TK_PERF_ATTR_EXCLUDE_USER = 4,
	TK_PERF_ATTR_EXCLUDE_KERNEL = 5,
	TK_PERF_ATTR_EXCLUDE_HV = 6,
	TK_PERF_ATTR_EXCLUDE_IDLE = 7,
	TK_PERF_ATTR_MMAP = 8,
	TK_PERF_ATTR_COMM = 9,
	TK_PERF_ATTR_FREQ = 10,
	TK_PERF_ATTR_INHERIT_STAT = 11,
	TK_PERF_ATTR_ENABLE_ON_EXEC = 12,
	TK_PERF_ATTR_TASK = 13,
	TK_PERF_ATTR_WATERMARK = 14,
	TK_PERF_ATTR_PRECISE_IP = 15, /* 2 bits */
	TK_PERF_ATTR_MMAP_DATA = 17,
	TK_PERF_ATTR_SAMPLE_ID_ALL = 18,
	TK_PERF_ATTR_EXCLUDE_HOST = 19,
	TK_PERF_ATTR_EXCLUDE_GUEST = 20,
	TK_PERF_ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21,
	TK_PERF_ATTR_EXCLUDE_CALLCHAIN_USER = 22,
	TK_PERF_ATTR_MMAP2 = 23,
	TK_PERF_ATTR_COMM_EXEC = 24,
	TK_PERF_ATTR_USE_CLOCKID = 25,
	TK_PERF_ATTR_CONTEXT_SWITCH = 26,
	TK_PERF_ATTR_WRITE_BACKWARD = 27,
	TK_PERF_ATTR_NAMESPACES = 28,
	TK_PERF_ATTR_KSYMBOL = 29,
	TK_PERF_ATTR_BPF_EVENT = 30,
	TK_PERF_ATTR_AUX_OUTPUT = 31,
	TK_PERF_ATTR_CGROUP = 32,
	TK_PERF_ATTR_TEXT_POKE = 33,
	TK_PERF_ATTR_BUILD_ID = 34,
	TK_PERF_ATTR_INHERIT_THREAD = 35,
	TK_PERF_ATTR_REMOVE_ON_EXEC = 36,
	TK_PERF_ATTR_SIGTRAP = 37,
};

static inline bool tk_perf_attr_flag(const tk_perf_attr *a, unsigned bit)
{
	return (a->flags >> bit) & 1;
}

/* ---- features ---- */
typedef struct tk_perf_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size; /* bytes of id used (20 for sha1) */
	uint8_t id[20];
	const char *filename;
} tk_perf_build_id;

typedef struct tk_perf_name_value {
	const char *name;
	const char *value;
	uint32_t num;
} tk_perf_name_value;

typedef struct tk_perf_group_desc {
	const char *name;
	uint32_t leader_idx;
	uint32_t nr_members;
} tk_perf_group_desc;

typedef struct tk_perf_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	const char *cpus;
} tk_perf_numa_node;

typedef struct tk_perf_cache_level {
	uint32_t level, line_size, sets, ways;
	const char *type, *size, *map;
} tk_perf_cache_level;

typedef struct tk_perf_cpu_id {
	uint32_t core_id, socket_id, die_id;
} tk_perf_cpu_id;

typedef struct tk_perf_pmu_caps {
	const char *pmu;                /* NULL for CPU_PMU_CAPS */
	const tk_perf_name_value *caps; /* name = value strings */
	size_t n_caps;
} tk_perf_pmu_caps;

typedef struct tk_perf_raw_feature {
	unsigned id;
	const uint8_t *data;
	uint64_t size;
	uint64_t offset; /* file offset, or UINT64_MAX for pipe mode */
} tk_perf_raw_feature;

typedef struct tk_perf_features {
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem_kb;
	const char *const *cmdline; /* argv */
	size_t n_cmdline;
	const tk_perf_build_id *build_ids;
	size_t n_build_ids;
	/* CPU_TOPOLOGY */
	const char *const *core_siblings;
	size_t n_core_siblings;
	const char *const *thread_siblings;
	size_t n_thread_siblings;
	const tk_perf_cpu_id *cpu_ids; /* one per available cpu, when present */
	size_t n_cpu_ids;
	const char *const *die_siblings;
	size_t n_die_siblings;
	const tk_perf_numa_node *numa_nodes;
	size_t n_numa_nodes;
	const tk_perf_name_value *pmu_mappings; /* num = type, name */
	size_t n_pmu_mappings;
	const tk_perf_group_desc *groups;
	size_t n_groups;
	const tk_perf_cache_level *caches;
	size_t n_caches;
	uint64_t sample_time_first, sample_time_last; /* SAMPLE_TIME */
	uint64_t mem_block_size;                      /* MEM_TOPOLOGY */
	uint64_t mem_nr_nodes;
	uint64_t clockid_res_ns;     /* CLOCKID */
	uint64_t dir_format_version; /* DIR_FORMAT */
	/* COMPRESSED */
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* CLOCK_DATA */
	uint32_t clock_data_version, clock_data_clockid;
	uint64_t clock_wall_ns, clock_clockid_ns;
	const tk_perf_pmu_caps *pmu_caps; /* CPU_PMU_CAPS (pmu NULL) and PMU_CAPS */
	size_t n_pmu_caps;
	const tk_perf_name_value *hybrid_nodes; /* HYBRID_TOPOLOGY: name = pmu, value = cpus */
	size_t n_hybrid_nodes;
	/* every feature section as stored, decoded or not (unknown ones only here) */
	const tk_perf_raw_feature *raw;
	size_t n_raw;
} tk_perf_features;

/* ---- records ---- */

/* The sample_id fields found in a record: a sample's own fields, or a
 * non-sample record's sample_id trailer. `present` holds SAMPLE_* bits. */
typedef struct tk_perf_sample_id {
	uint64_t present;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t identifier;
} tk_perf_sample_id;

typedef struct tk_perf_record {
	uint32_t type;
	uint16_t misc;
	uint32_t size;       /* whole record, header included */
	const uint8_t *data; /* whole record as stored (file byte order) */
	uint64_t offset;     /* file offset; for records inside compressed
			      * data, the offset of the compressed record */
	bool from_compressed;
	/* payload that follows the record: AUXTRACE data, pipe TRACING_DATA */
	const uint8_t *extra;
	uint64_t extra_size;
	const tk_perf_attr *attr; /* attr the record belongs to, or NULL */
	tk_perf_sample_id sid;    /* parsed sample fields / trailer */
	bool has_time;            /* sid.time valid */
} tk_perf_record;

/* A sample (PERF_RECORD_SAMPLE) decoded per its attr's sample_type. */
typedef struct tk_perf_sample {
	uint64_t sample_type;
	uint64_t read_format;
	bool swap; /* arrays below are in file order */
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	/* READ: without GROUP one entry; with GROUP nr entries */
	uint64_t read_nr, read_time_enabled, read_time_running;
	const uint8_t *read_values; /* read_nr entries of read_stride u64s: value, [id], [lost] */
	size_t read_stride;
	uint64_t callchain_nr;
	const uint8_t *callchain; /* callchain_nr u64s */
	uint32_t raw_size;
	const uint8_t *raw;
	uint64_t branch_nr;
	bool has_branch_hw_idx;
	uint64_t branch_hw_idx;
	const uint8_t *branches;        /* branch_nr x {from, to, flags} u64s */
	const uint8_t *branch_counters; /* branch_nr u64s or NULL */
	uint64_t regs_user_abi;
	const uint8_t *regs_user; /* popcount(sample_regs_user) u64s */
	size_t regs_user_n;
	uint64_t stack_user_size, stack_user_dyn_size;
	const uint8_t *stack_user;
	uint64_t weight; /* WEIGHT, or WEIGHT_STRUCT as stored */
	uint64_t data_src, transaction;
	uint64_t regs_intr_abi;
	const uint8_t *regs_intr;
	size_t regs_intr_n;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	const uint8_t *aux;
	/* READ without GROUP: value, [id], [lost] gathered here (file byte
	 * order); read_values then points here, so do not copy the struct
	 * and keep using read_values of the copy. */
	uint8_t read_buf[24];
} tk_perf_sample;

/* A non-sample record decoded into its fields (strings point into the
 * record; they are NUL-terminated inside it, or cut at its end). */
typedef struct tk_perf_event {
	uint32_t type;
	union {
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			const char *filename;
		} mmap;
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
			uint8_t build_id_size; /* misc & MMAP_BUILD_ID */
			const uint8_t *build_id;
			const char *filename;
		} mmap2;
		struct {
			uint64_t id, lost;
		} lost;
		struct {
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} fork; /* FORK and EXIT */
		struct {
			uint64_t time, id, stream_id;
		} throttle; /* and UNTHROTTLE */
		struct {
			uint32_t pid, tid;
			uint64_t value, time_enabled, time_running, id, lost;
		} read;
		struct {
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {
			uint32_t pid, tid;
		} itrace_start;
		struct {
			uint64_t lost;
		} lost_samples;
		struct {
			uint32_t next_prev_pid, next_prev_tid;
		} switch_cpu_wide;
		struct {
			uint32_t pid, tid;
			uint64_t nr;
			const uint8_t *entries; /* {dev, ino} */
		} namespaces;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint16_t type, flags;
			uint32_t id;
			const uint8_t *tag; /* 8 bytes */
		} bpf_event;
		struct {
			uint64_t id;
			const char *path;
		} cgroup;
		struct {
			uint64_t addr;
			uint16_t old_len, new_len;
			const uint8_t *bytes;
		} text_poke;
		struct {
			uint64_t hw_id;
		} aux_output_hw_id;
		struct {
			uint64_t cookie, nr;
			const uint8_t *ips;
		} callchain_deferred;
		struct {
			int32_t pid;
			uint16_t size;
			const uint8_t *build_id;
			const char *filename;
		} build_id;
		struct {
			uint64_t nr;
			const uint8_t *entries; /* {id, idx, cpu, tid} */
		} id_index;
		struct {
			uint64_t size, offset, reference;
			uint32_t idx, tid, cpu;
		} auxtrace;
		struct {
			uint32_t type;
		} auxtrace_info;
		struct {
			uint32_t type, code, cpu, pid, tid, fmt;
			uint64_t ip, time;
			const char *msg;
		} auxtrace_error;
		struct {
			uint64_t nr;
		} thread_map; /* and CPU_MAP */
		struct {
			uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
			bool cap_user_time_zero, cap_user_time_short;
		} time_conv;
		struct {
			uint64_t feat_id;
			const uint8_t *data;
			uint64_t size;
		} header_feature;
		struct {
			uint64_t type, id;
		} event_update;
		struct {
			uint64_t data_size;
		} compressed;
	} u;
} tk_perf_event;

/* ---- tracepoints (HEADER_TRACING_DATA) ---- */
typedef struct tk_perf_tp_field {
	const char *name;
	const char *type; /* as written in the format file, e.g. "char comm[16]" */
	uint32_t offset, size;
	bool is_signed;
	bool is_common;   /* common_* fields */
	bool is_data_loc; /* __data_loc: u32 (len << 16 | offset) */
	bool is_dynamic;  /* __rel_loc */
	bool is_array;    /* fixed array */
	bool is_string;   /* char arrays and __data_loc char[] */
	bool is_pointer;
	uint32_t array_len;
	uint32_t elem_size;
} tk_perf_tp_field;

typedef struct tk_perf_tp_format {
	uint64_t id;
	const char *system;
	const char *name;
	const tk_perf_tp_field *fields; /* common fields first */
	size_t n_fields;
	size_t n_common;
	const char *print_fmt;
	const char *text; /* the whole format file */
	size_t text_len;
	const tk_field_class *payload; /* model struct class of the non-common fields */
} tk_perf_tp_format;

typedef struct tk_perf_tracing tk_perf_tracing;

/* Parses HEADER_TRACING_DATA bytes. The result is self-contained (copies
 * what it keeps) and freed with tk_perf_tracing_free(). */
tk_status tk_perf_tracing_parse(const uint8_t *data, size_t size, uint64_t base_offset,
				tk_perf_tracing **out, tk_error *err);
void tk_perf_tracing_free(tk_perf_tracing *tr);
const tk_perf_tp_format *tk_perf_tracing_format(const tk_perf_tracing *tr, uint64_t id);
size_t tk_perf_tracing_count(const tk_perf_tracing *tr);
const tk_perf_tp_format *tk_perf_tracing_format_at(const tk_perf_tracing *tr, size_t i);
bool tk_perf_tracing_big_endian(const tk_perf_tracing *tr);
uint32_t tk_perf_tracing_long_size(const tk_perf_tracing *tr);
/* kallsyms / printk formats / saved cmdlines texts as stored (may be empty). */
const char *tk_perf_tracing_kallsyms(const tk_perf_tracing *tr, size_t *len);
const char *tk_perf_tracing_printk(const tk_perf_tracing *tr, size_t *len);
const char *tk_perf_tracing_cmdlines(const tk_perf_tracing *tr, size_t *len);

/* Decodes a RAW payload into values[n_fields] (all fields, common first).
 * Strings and arrays point into raw or are allocated in `arena` (an opaque
 * tk_arena*). Out-of-bounds __data_loc gives an error, never a read past
 * raw_size; err->offset is then relative to raw[0] (add the payload's file
 * offset). Event payload = struct value {cls = fmt->payload, items =
 * values + fmt->n_common, n = fmt->n_fields - fmt->n_common}. */
tk_status tk_perf_tp_decode(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			    const uint8_t *raw, uint32_t raw_size, void *arena, tk_value *values,
			    tk_error *err);

/* Renders a RAW payload through the format's print fmt, exactly as
 * `perf script` prints it after "system:name: " (libtraceevent's
 * tep_print_event with TEP_PRINT_INFO). Writes at most cap-1 bytes and a
 * NUL to buf; *len (may be NULL) gets the full length, as snprintf, so
 * *len >= cap means truncated. raw is bounds-checked first and its
 * common_type must be fmt->id. TK_ERR_UNSUPPORTED when built without
 * libtraceevent. Lazily builds a libtraceevent handle inside tr on first
 * call (not thread-safe, like the rest of tr). */
tk_status tk_perf_tp_render(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			    const uint8_t *raw, uint32_t raw_size, int cpu, char *buf, size_t cap,
			    size_t *len, tk_error *err);

/* Kernel symbol lookup for the renderer's %pS / %ps / %pF: returns the
 * name of the symbol holding addr (kept alive by the caller while tr is
 * used) and sets *start to its address, or returns NULL. perf resolves
 * these through its kernel map; without a resolver (or for unknown
 * addresses) they print as hex, as libtraceevent does. Set it before or
 * between renders; fn NULL removes it. */
typedef const char *(*tk_perf_ksym_fn)(void *user, uint64_t addr, uint64_t *start);
void tk_perf_tracing_set_ksym_resolver(tk_perf_tracing *tr, tk_perf_ksym_fn fn, void *user);

/* ---- the reader ---- */
typedef struct tk_perf_open_options {
	bool raw_order; /* file order instead of perf's time order */
	tk_log_fn log;
	void *log_user;
} tk_perf_open_options;

/* path: a file, "-" for stdin, or a perf record --threads directory. */
tk_status tk_perf_open(const char *path, const tk_perf_open_options *opt, tk_perf_file **out,
		       tk_error *err);
/* Reads from memory the caller keeps alive (fuzzers, tests). */
tk_status tk_perf_open_memory(const void *data, size_t size, const char *name,
			      const tk_perf_open_options *opt, tk_perf_file **out, tk_error *err);
void tk_perf_close(tk_perf_file *f); /* NULL is fine */

const tk_perf_header *tk_perf_get_header(const tk_perf_file *f);
/* The records of type (TK_PERF_RECORD_COMPRESSED or _COMPRESSED2; 0 for
 * any other) read so far: the reader hands out the records inside them,
 * never them (perf report --stats counts both). */
uint64_t tk_perf_compressed_records(const tk_perf_file *f, uint32_t type);
/* Attrs known so far (pipe mode adds them as HEADER_ATTR records arrive). */
size_t tk_perf_attr_count(const tk_perf_file *f);
const tk_perf_attr *tk_perf_attr_at(const tk_perf_file *f, size_t i);
/* Features known so far (pipe mode: filled as HEADER_FEATURE records arrive). */
const tk_perf_features *tk_perf_get_features(const tk_perf_file *f);
/* The event's name as perf prints it (evsel__name): a name the file gives
 * (EVENT_DESC) as it is; one made from the attr with evsel__add_modifiers()'s
 * suffix ("cpu-clock:u"). In buf, or a->name itself. */
const char *tk_perf_event_name(const tk_perf_file *f, const tk_perf_attr *a, char *buf,
			       size_t size);
/* The name perf gives the event when it never reads the file's names
 * (EVENT_DESC): made from the attr, with the modifiers. perf report --stats
 * on a pipe-mode file names its events so: its stats mode skips every
 * HEADER_FEATURE record. */
const char *tk_perf_event_attr_name(const tk_perf_file *f, const tk_perf_attr *a, char *buf,
				    size_t size);
/* Tracepoint formats, or NULL when the file has no tracing data (yet). */
const tk_perf_tracing *tk_perf_get_tracing(const tk_perf_file *f);

/* Next record, in time order (perf's FINISHED_ROUND rule) unless raw_order.
 * Every record comes out, user records included; COMPRESSED records are
 * replaced by the records they hold. Unknown types come out raw.
 * TK_END at the end. */
tk_status tk_perf_next(tk_perf_file *f, const tk_perf_record **out, tk_error *err);

tk_status tk_perf_parse_sample(const tk_perf_file *f, const tk_perf_record *rec,
			       tk_perf_sample *out, tk_error *err);
/* Decodes a non-sample record; TK_ERR_UNSUPPORTED for types with no typed view. */
tk_status tk_perf_parse_event(const tk_perf_file *f, const tk_perf_record *rec, tk_perf_event *out,
			      tk_error *err);

/* "MMAP", "SAMPLE", "FINISHED_ROUND", ...; NULL for unknown types. */
const char *tk_perf_record_type_name(uint32_t type);
/* "hostname", "build_id", ...; NULL for unknown ids. */
const char *tk_perf_feature_name(unsigned id);
/* perf's name for a sample_type bit ("IP", "TID", ...), NULL if unknown. */
const char *tk_perf_sample_bit_name(unsigned bit);

/* Adapter: model events shaped as perf data convert --to-ctf shapes them
 * (samples; with opt->all_records also comm, exit, fork, mmap, mmap2). */
tk_status tk_perf_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err);

#endif
