/* The persistent symbol cache on disk: where it lives, what a table's key
 * is, and reading/writing one file (format: symcache_file.h).
 *
 * Directory: tk_symcache_options.cache_dir, else $XDG_CACHE_HOME/tracekit
 * (an absolute XDG_CACHE_HOME), else $HOME/.cache/tracekit; none (no
 * persistent cache) when TRACEKIT_NO_SYMCACHE is set to anything but "" or
 * "0", when tk_symcache_options.no_symbol_cache is set, or when tracekit
 * has no build id of its own (the key must change with the code that
 * builds the tables).
 * One file per image: elf-<build id>.sym, kallsyms-<build id>.sym (the
 * build-id cache's copy of a recorded kernel's kallsyms), kallsyms-running
 * .sym (/proc/kallsyms), kallsyms-file-<hash>.sym (a user-given file). The
 * key inside says what it was built from; a file whose key differs is
 * rebuilt and replaced, so the directory holds at most one file per image.
 * Writers write a temporary file beside the target and rename it into
 * place: readers see a whole old file or a whole new one, never a mix, and
 * the cache may be deleted at any time.
 *
 * Internal to src/symbols. Not thread-safe. */
#ifndef TK_SYMCACHE_DISK_H
#define TK_SYMCACHE_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

typedef struct tk_symdisk tk_symdisk;

/* NULL when the persistent cache is off (or out of memory). */
tk_symdisk *tk_symdisk_open(const char *cache_dir, bool disabled);
void tk_symdisk_free(tk_symdisk *d);

/* A key under construction: text lines, each naming one input. */
typedef struct tk_symkey {
	char *buf;
	size_t n, cap;
	bool oom;
} tk_symkey;

void tk_symkey_init(tk_symkey *k, const tk_symdisk *d, const char *kind);
void tk_symkey_free(tk_symkey *k);
void tk_symkey_add(tk_symkey *k, const char *label, const char *value);
/* "label path dev ino size mtime ctime" or "label path absent". */
void tk_symkey_add_file(tk_symkey *k, const char *label, const char *path);
/* The running kernel's inputs of /proc/kallsyms: its build id, the boot
 * id, the user, kptr_restrict, /proc/modules and the BPF programs' ids. false when the kernel's
 * build id or the boot id cannot be read (then nothing is cached). */
bool tk_symkey_add_running_kernel(tk_symkey *k);
/* The same without the modules and BPF programs: the inputs of the core
 * kernel's lines (kallsyms_core.h). */
bool tk_symkey_add_running_core(tk_symkey *k);

/* The table in file `name` when it exists, is sound and has key k; NULL
 * otherwise (a damaged file is rebuilt by the caller's store). */
tk_symtab *tk_symdisk_load(tk_symdisk *d, const char *name, const tk_symkey *k);
/* Writes t (just loaded, no lookup yet) as file `name`; failures are
 * silent (the cache is an optimization). With a writer thread, t is
 * encoded there from a private copy (tk_symfile_snapshot) that still
 * points at t's names: t must stay alive and unchanged, apart from
 * lookups, until tk_symdisk_drain() (or tk_symdisk_free()) returns. */
void tk_symdisk_store(tk_symdisk *d, const char *name, const tk_symkey *k, const tk_symtab *t);

/* The full path of cache file `name`, when the directory can be written
 * (made if missing): for a file written elsewhere (kernel_prefetch.h),
 * whose tk_symfile_write_atomic() result then goes to
 * tk_symdisk_count_write(). */
bool tk_symdisk_file_path(tk_symdisk *d, const char *name, char path[4096]);
void tk_symdisk_count_write(tk_symdisk *d, int result);

/* Waits for every file queued so far (before freeing stored tables). */
void tk_symdisk_drain(tk_symdisk *d);

/* The same for a table already encoded (tk_symfile_encode with k's bytes;
 * buf is malloc'ed and taken). */
void tk_symdisk_store_encoded(tk_symdisk *d, const char *name, void *buf, size_t len);

/* Counters for tests: tables read from files, tables written. */
uint64_t tk_symdisk_hits(const tk_symdisk *d);
uint64_t tk_symdisk_writes(const tk_symdisk *d);

#endif
