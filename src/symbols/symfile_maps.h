/* Symbol cache files mapped by this process: one mapping per file.
 *
 * Why: print's two lanes each load the same cache files (the kernel's is
 * 6 MB). Two mappings of one file counted its pages twice in peak RSS
 * (bench/README, session 40) and made each lane checksum it. A second
 * load of a file (the same device, inode, size, modification and change
 * times) takes the first's mapping; the mapping goes when the last table
 * on it is freed. Cache files are replaced by rename, never rewritten in
 * place, so a changed file is a new inode or new times, and a new mapping.
 *
 * Internal to src/symbols. Thread-safe (one lock, taken per load and
 * per free of a mapped table, never per lookup). */
#ifndef TK_SYMFILE_MAPS_H
#define TK_SYMFILE_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* The mapping of fd's file (sb: its fstat, len: its size, > 0), read-only
 * and populated; NULL when it cannot be mapped. *checked: a table was
 * decoded from it with its checksum verified (tk_symfile_map_checked), so
 * the checksum need not be computed again. Each call takes a reference:
 * give it back with tk_symfile_unmap. */
void *tk_symfile_map(int fd, const struct stat *sb, size_t len, bool *checked);

/* The mapping's bytes passed the checksum. */
void tk_symfile_map_checked(const void *map);

/* Gives back a reference tk_symfile_map took; the last one unmaps. */
void tk_symfile_unmap(void *map, size_t len);

/* Mappings held now (for tests). */
size_t tk_symfile_maps_held(void);

#endif
