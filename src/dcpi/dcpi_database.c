/* DCPI profile databases: DB/<epoch>/<host>/<one file per image and event>.
 * Listing walks at most three directory levels below the given path and
 * keeps only files that start like a profile, so stray files (READMEs,
 * temporaries of an interrupted write) are not mistaken for profiles. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcpi/dcpi_internal.h"

#define MAX_DEPTH 3

static bool plain_name(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	size_t n = la;
	if (n == 0 || s[n - 1] != '/')
		s[n++] = '/';
	memcpy(s + n, b, lb + 1);
	return s;
}

static tk_status mkdir_one(const char *path, tk_error *err)
{
	if (mkdir(path, 0777) == 0 || errno == EEXIST) {
		struct stat sb;
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			return TK_OK;
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "%s exists and is not a directory", path);
	}
	return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot create directory %s: %s", path,
			    strerror(errno));
}

tk_status tk_dcpi_db_mkdir(const char *db, const char *epoch, const char *host, char **dir,
			   tk_error *err)
{
	*dir = NULL;
	if (!plain_name(epoch) || !plain_name(host))
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "database epoch '%s' and host '%s' must be plain names",
				    epoch ? epoch : "", host ? host : "");
	tk_status st = mkdir_one(db, err);
	if (st != TK_OK)
		return st;
	char *e = join(db, epoch);
	char *h = e ? join(e, host) : NULL;
	if (!h) {
		free(e);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	if ((st = mkdir_one(e, err)) == TK_OK)
		st = mkdir_one(h, err);
	free(e);
	if (st != TK_OK) {
		free(h);
		return st;
	}
	*dir = h;
	return TK_OK;
}

tk_status tk_dcpi_db_write(const char *db, const char *epoch, const char *host, const char *file,
			   const tk_dcpi_fields *f, tk_dcpi_sample *samples, size_t n,
			   tk_error *err)
{
	if (!plain_name(file))
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "profile name '%s' must be a plain name", file ? file : "");
	char *dir;
	tk_status st = tk_dcpi_db_mkdir(db, epoch, host, &dir, err);
	if (st != TK_OK)
		return st;
	char *path = join(dir, file);
	free(dir);
	if (!path)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	st = tk_dcpi_write(path, f, samples, n, err);
	free(path);
	return st;
}

size_t tk_dcpi_db_file_name(const char *image, const char *event, char *buf, size_t cap)
{
	size_t n = 0;
	const char *parts[3] = {image ? image : "unknown", "_", event ? event : "event"};
	for (int p = 0; p < 3; p++)
		for (const char *s = parts[p]; *s; s++) {
			char c = *s;
			bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
			if (n + 1 < cap)
				buf[n] = ok ? c : '_';
			n++;
		}
	const char *ext = ".prof";
	for (const char *s = ext; *s; s++, n++)
		if (n + 1 < cap)
			buf[n] = *s;
	if (cap)
		buf[n < cap ? n : cap - 1] = '\0';
	return n;
}

/* A profile's first line is "version <blanks> pdb-..." */
static bool looks_like_profile(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	char head[64];
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	if (n < 12 || memcmp(head, "version", 7) != 0)
		return false;
	size_t i = 7;
	while (i < (size_t)n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	return i > 7 && i + 4 <= (size_t)n && memcmp(head + i, "pdb-", 4) == 0;
}

typedef struct list {
	char **paths;
	size_t n, cap;
	size_t limit; /* stop after this many (detection needs one) */
} list;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static tk_status walk(const char *dir, int depth, list *l, tk_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open directory %s: %s",
				    dir, strerror(errno));
	tk_status st = TK_OK;
	struct dirent *e;
	while (st == TK_OK && (!l->limit || l->n < l->limit) && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue; /* ., .., hidden and atomic-write temporaries */
		char *p = join(dir, e->d_name);
		if (!p) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		struct stat sb;
		if (stat(p, &sb) != 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			if (depth < MAX_DEPTH)
				st = walk(p, depth + 1, l, err);
			free(p);
			continue;
		}
		if (!S_ISREG(sb.st_mode) || !looks_like_profile(p)) {
			free(p);
			continue;
		}
		if (l->n == l->cap) {
			size_t ncap = l->cap ? l->cap * 2 : 32;
			char **np = realloc(l->paths, ncap * sizeof *np);
			if (!np) {
				free(p);
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
				break;
			}
			l->paths = np;
			l->cap = ncap;
		}
		l->paths[l->n++] = p;
	}
	closedir(d);
	return st;
}

tk_status tk_dcpi_db_list(const char *path, char ***paths, size_t *n, tk_error *err)
{
	*paths = NULL;
	*n = 0;
	struct stat sb;
	if (stat(path, &sb) != 0)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open %s: %s", path,
				    strerror(errno));
	list l = {0};
	tk_status st = TK_OK;
	if (!S_ISDIR(sb.st_mode)) {
		l.paths = malloc(sizeof *l.paths);
		char *p = strdup(path);
		if (!l.paths || !p) {
			free(l.paths);
			free(p);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		l.paths[l.n++] = p;
	} else {
		st = walk(path, 1, &l, err);
	}
	if (st != TK_OK) {
		tk_dcpi_db_free_list(l.paths, l.n);
		return st;
	}
	if (l.n == 0)
		return tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET,
				    "no DCPI profiles below %s (expected DB/EPOCH/HOST/profiles)",
				    path);
	qsort(l.paths, l.n, sizeof *l.paths, cmp_str);
	*paths = l.paths;
	*n = l.n;
	return TK_OK;
}

void tk_dcpi_db_free_list(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

bool tk_dcpi_db_detect(const char *path)
{
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return false;
	list l = {.limit = 1};
	tk_status st = walk(path, 1, &l, NULL);
	bool found = st == TK_OK && l.n > 0;
	tk_dcpi_db_free_list(l.paths, l.n);
	return found;
}
