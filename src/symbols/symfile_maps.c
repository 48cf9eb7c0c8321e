/* One mapping per symbol cache file; see symfile_maps.h. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "symbols/symfile_maps.h"

typedef struct shared_map {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	void *map;
	size_t len;
	unsigned refs;
	bool checked;
} shared_map;

/* the files a run loads: a few dozen (the images a recording names),
 * searched linearly once per load */
static pthread_mutex_t maps_mu = PTHREAD_MUTEX_INITIALIZER;
static shared_map *maps;
static size_t n_maps, cap_maps;

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static shared_map *find_file(const struct stat *sb, size_t len)
{
	for (size_t i = 0; i < n_maps; i++) {
		shared_map *m = &maps[i];
		if (m->dev == sb->st_dev && m->ino == sb->st_ino && m->size == sb->st_size &&
		    m->len == len && same_time(m->mtime, sb->st_mtim) &&
		    same_time(m->ctime, sb->st_ctim))
			return m;
	}
	return NULL;
}

static shared_map *find_map(const void *map)
{
	for (size_t i = 0; i < n_maps; i++)
		if (maps[i].map == map)
			return &maps[i];
	return NULL;
}

void *tk_symfile_map(int fd, const struct stat *sb, size_t len, bool *checked)
{
	*checked = false;
	pthread_mutex_lock(&maps_mu);
	shared_map *m = find_file(sb, len);
	if (m) {
		m->refs++;
		*checked = m->checked;
		pthread_mutex_unlock(&maps_mu);
		return m->map;
	}
	if (n_maps == cap_maps) {
		size_t cap = cap_maps ? 2 * cap_maps : 16;
		shared_map *grown = realloc(maps, cap * sizeof *grown);
		if (!grown) {
			pthread_mutex_unlock(&maps_mu);
			return NULL;
		}
		maps = grown;
		cap_maps = cap;
	}
	/* populated: every page is read by the checksum anyway */
	void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (map != MAP_FAILED)
		maps[n_maps++] = (shared_map){
		    .dev = sb->st_dev,
		    .ino = sb->st_ino,
		    .size = sb->st_size,
		    .mtime = sb->st_mtim,
		    .ctime = sb->st_ctim,
		    .map = map,
		    .len = len,
		    .refs = 1,
		};
	pthread_mutex_unlock(&maps_mu);
	return map == MAP_FAILED ? NULL : map;
}

void tk_symfile_map_checked(const void *map)
{
	pthread_mutex_lock(&maps_mu);
	shared_map *m = find_map(map);
	if (m)
		m->checked = true;
	pthread_mutex_unlock(&maps_mu);
}

void tk_symfile_unmap(void *map, size_t len)
{
	pthread_mutex_lock(&maps_mu);
	shared_map *m = find_map(map);
	if (m && --m->refs > 0) {
		pthread_mutex_unlock(&maps_mu);
		return;
	}
	if (m)
		*m = maps[--n_maps]; /* order does not matter */
	if (n_maps == 0) {
		free(maps); /* nothing held: leak checkers see nothing left */
		maps = NULL;
		cap_maps = 0;
	}
	pthread_mutex_unlock(&maps_mu);
	munmap(map, len);
}

size_t tk_symfile_maps_held(void)
{
	pthread_mutex_lock(&maps_mu);
	size_t n = n_maps;
	pthread_mutex_unlock(&maps_mu);
	return n;
}
