/* Threads, address-space maps and images of one perf.data recording, built
 * from COMM / FORK / EXIT / MMAP / MMAP2 records the way perf's
 * util/machine.c, thread.c and maps.c do, so that a sample's comm, image
 * and symbol come out as `perf script` and `perf report` show them:
 * - a thread is found by tid; an unknown one is created with comm ":<tid>"
 *   (perf's placeholder) and, when pid != tid, shares the maps of its
 *   process leader (created too when missing); tid 0 is "swapper";
 * - FORK replaces any thread with the child's tid, copies the parent's
 *   comm when the parent had one set, and clones the parent's maps when
 *   the child is a new process (pid != parent pid);
 * - MMAP/MMAP2 insert a map, trimming or splitting the maps it overlaps
 *   (maps__fixup_overlappings); kernel-mode records go to the kernel maps:
 *   "[kernel.kallsyms]*" is the kernel, anything else a module "[name]";
 * - anonymous executable memory (//anon, [heap], ...) is named
 *   "/tmp/perf-<pid>.map" with identity addresses, as perf names JIT code.
 * Images (tk_dso) are interned by name; their symbols are loaded lazily
 * through a tk_symcache (kallsyms for the kernel and modules).
 *
 * Memory: threads, maps and images are allocated when first seen (never
 * per sample for known threads); everything is freed by
 * tk_threads_free(). Not thread-safe. */
#ifndef TK_CONTEXT_THREADS_MODEL_H
#define TK_CONTEXT_THREADS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context/perf_demangle.h"
#include "base/arena.h"
#include "base/hashmap.h"
#include "tracekit/tracekit.h"

typedef enum tk_dso_kind {
	TK_DSO_FILE,    /* an ELF file (executable, library, [vdso] via build id) */
	TK_DSO_KERNEL,  /* [kernel.kallsyms] */
	TK_DSO_MODULE,  /* a kernel module: symbols from kallsyms */
	TK_DSO_PERFMAP, /* /tmp/perf-PID.map (JIT / anonymous executable memory) */
} tk_dso_kind;

typedef struct tk_dso {
	const char *name;       /* as perf prints it: path, "[kernel.kallsyms]", "[ext4]" */
	const char *short_name; /* basename */
	const char *kmod;       /* modules: the name kallsyms gives ("ath9k"), else NULL */
	size_t name_len;
	tk_dso_kind kind;
	int pid; /* TK_DSO_PERFMAP */
	uint8_t build_id[TK_BUILD_ID_MAX];
	size_t build_id_len;
	bool tried;       /* symbols looked up once (found or not) */
	int8_t elf_class; /* perf's dso__type(): -1 not checked, 0 unknown, 1 known */
	const tk_symtab *symtab;
	/* address -> symbol cache (direct mapped): a profile hits the same
	 * few thousand addresses over and over */
	struct tk_dso_cache_slot *cache;
	uint8_t cache_bits;    /* cache has 1 << cache_bits slots */
	uint32_t cache_misses; /* since the small cache was made */
} tk_dso;

#define TK_DSO_CACHE_SMALL_BITS 8  /* first cache of an image */
#define TK_DSO_CACHE_BITS       12 /* after 4 misses per small slot */

typedef struct tk_dso_cache_slot {
	uint64_t addr_plus1; /* 0 = empty */
	const tk_symbol *sym;
	uint64_t off;
	const char *name; /* sym's name as printed (demangled) */
	size_t name_len;
} tk_dso_cache_slot;

typedef struct tk_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;
	bool identity; /* map_ip(ip) = ip (anon, kernel) */
	tk_dso *dso;
} tk_map;

struct tk_maps_pool; /* maps_pool.h */

/* A sorted array of non-overlapping maps (one per process, plus the kernel's). */
typedef struct tk_maps {
	tk_map *v;
	size_t n, cap;
	struct tk_maps_pool *pool; /* where v comes from; NULL: malloc */
	/* v is shared, copy on write: a fork's copy starts with its parent's
	 * array and makes its own at its first insert (many children never
	 * insert one; copying at every fork copied ~180 000 entries, 7 MB of
	 * fresh pages, per lane on a 50 MB -a recording). *shared: how many
	 * maps hold v; NULL: v is this map's alone. */
	size_t *shared;
	uint64_t gen; /* bumped by every insert: caches of resolved addresses key on it */
	/* perf's unwind__prepare_access() registered a DWARF unwinder for
	 * this address space: a map of a readable ELF image (or, in files
	 * without an ARCH header, any map) was inserted */
	bool unwind_ready;
	/* Scratch for one cache layered on top (perf script's line cache):
	 * its id for these maps at generation tag_gen, valid for tag_owner
	 * in its tag_epoch. Saves that cache a lookup per sample. The tag
	 * names the content: a copy made at a fork inherits a fresh tag. */
	const void *tag_owner;
	uint64_t tag_gen;
	uint32_t tag_epoch, tag;
} tk_maps;

typedef struct tk_thread {
	int32_t pid, tid;
	bool comm_set;
	char comm[32];
	tk_maps *maps; /* shared by the threads of a process */
} tk_thread;

typedef struct tk_threads {
	tk_arena arena;    /* threads, map arrays headers, dso names */
	tk_hashmap by_tid; /* tid (as u32) -> index in threads */
	tk_thread **threads;
	size_t n_threads, cap_threads;
	tk_maps **all_maps;             /* every tk_maps allocated, to free them */
	struct tk_maps_pool *maps_pool; /* their arrays (maps_pool.h) */
	size_t n_all_maps, cap_all_maps;
	tk_maps kernel; /* kernel and module maps */
	tk_dso **dsos;
	size_t n_dsos, cap_dsos;
	tk_hashmap dso_by_hash; /* FNV hash of the name -> index + 1 (chained by probing names) */
	tk_dso *kernel_dso;
	tk_symcache *symbols;             /* owned */
	const tk_perf_features *features; /* build ids of the header, or NULL */
	bool oom;                         /* an allocation failed: results may be incomplete */
	/* The kernel's relocation reference from its MMAP record
	 * ("[kernel.kallsyms]_text", pgoff = _text at record time; perf's
	 * ref_reloc_sym), and what it gives once the symbols are loaded:
	 * kernel symbol = table address - kernel_delta. */
	char ref_reloc_name[32];
	uint64_t ref_reloc_addr; /* 0: none (kptr_restrict at record time) */
	uint64_t kernel_delta;
	bool kernel_chosen;           /* kernel_syms decided */
	const tk_symtab *kernel_syms; /* NULL: perf finds no kernel symbols */
	const char *kernel_notes;     /* running kernel's build id; NULL = /sys/kernel/notes */
	tk_demangler demangler;
	/* DWARF unwinder state a later layer attaches (perf_unwind.h): freed
	 * by tk_threads_free() through unwinder_free */
	void *unwinder;
	void (*unwinder_free)(void *unwinder);
} tk_threads;

/* Resolved address: map and symbol for one ip. */
typedef struct tk_addr_loc {
	const tk_map *map;    /* NULL: no map holds the address */
	const tk_symbol *sym; /* NULL: no symbol */
	uint64_t addr;        /* map-relative address (perf's al->addr) */
	uint64_t sym_off;     /* offset into sym */
	const char *name;     /* sym's name as perf prints it (demangled); NULL without sym */
	size_t name_len;
} tk_addr_loc;

/* cache_opt may be NULL (defaults: ~/.debug, /proc/kallsyms, /tmp). */
bool tk_threads_init(tk_threads *t, const tk_symcache_options *cache_opt);
void tk_threads_free(tk_threads *t);

/* Feeds one non-sample record; other types are ignored. */
tk_status tk_threads_process(tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
			     tk_error *err);

/* Starts loading the kernel's symbols in the background (the table the
 * first kernel frame will ask for: tk_symcache_prefetch_kernel) when some
 * event of f may sample the kernel. Optional: called once the file is
 * open, before its records; results are the same without it. cached_only:
 * from the persistent cache only, no thread. */
void tk_threads_prefetch_kernel(tk_threads *t, const tk_perf_file *f, bool cached_only);

/* The kernel's symbols are still loading in the background (started by
 * tk_threads_prefetch_kernel) and not asked for yet: resolving a kernel
 * address now would wait. A printer may defer kernel frames meanwhile
 * (perf_script_lines.h). */
bool tk_threads_kernel_pending(const tk_threads *t);

/* The running kernel's table (tk_symcache_kernel) when loaded or loading
 * in the background (waits for it then); NULL: none. For a second lane to
 * borrow
 * (tk_threads_adopt_kernel) while t lives. */
const tk_symtab *tk_threads_kernel_table(tk_threads *t);

/* Borrows from, another model's tk_threads_kernel_table, as this one's
 * running kernel table (kernel_syms.h tk_symcache_adopt_kernel); false:
 * not borrowed (t loads its own when asked). */
bool tk_threads_adopt_kernel(tk_threads *t, const tk_symtab *from);

/* perf's machine__findnew_thread; NULL only when out of memory. */
tk_thread *tk_threads_findnew(tk_threads *t, int32_t pid, int32_t tid);

/* cpumode: PERF_RECORD_MISC_CPUMODE (1 kernel, 2 user, ...). Fills loc
 * (map NULL when the address is in no map). */
void tk_threads_resolve(tk_threads *t, const tk_thread *th, unsigned cpumode, uint64_t ip,
			tk_addr_loc *loc);

/* A symbol's name as perf prints it (C++ names demangled, cached). */
static inline const char *tk_threads_sym_name(tk_threads *t, const tk_symbol *s)
{
	return tk_demangle(&t->demangler, s->name);
}

/* The maps lookup alone (binary search). */
const tk_map *tk_maps_find(const tk_maps *m, uint64_t addr);

/* Inserts a map, trimming or splitting the maps it overlaps. false: OOM. */
bool tk_maps_insert(tk_maps *m, const tk_map *map);

enum {
	TK_CPUMODE_UNKNOWN = 0,
	TK_CPUMODE_KERNEL = 1,
	TK_CPUMODE_USER = 2,
	TK_CPUMODE_HV = 3,
	TK_CPUMODE_GUEST_KERNEL = 4,
	TK_CPUMODE_GUEST_USER = 5,
};

#endif
