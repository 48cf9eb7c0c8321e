/* Dumps of the live log: to an fd or directory (async-signal-safe for elog
 * and CTF), to a path (atomically: a temporary beside it, then rename), and
 * at exit. One dump at a time: the view and merge state are static so a
 * signal handler needs no stack for them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log/log_core.h"

static atomic_flag busy = ATOMIC_FLAG_INIT;
static tk_lg_view dview;
static tk_lg_iter diter;
static tk_lg_out dout;

int tk_log_dump_fd(int fd, tk_log_format fmt)
{
	if (!tk_lg_g.base || fd < 0 || fmt < TK_LOG_DUMP_CPEL || fmt > TK_LOG_DUMP_CTF) {
		errno = EINVAL;
		return -1;
	}
	if (atomic_flag_test_and_set(&busy)) {
		errno = EBUSY;
		return -1;
	}
	/* while logging runs, this dump's own calibration pair; once stopped,
	 * the pair of the stop, so every dump of a stopped log is the same */
	if (!(atomic_load(&tk_log__gate) & 1u))
		tk_lg_take_end_pair();
	const char *why;
	uint64_t at;
	bool ok = tk_lg_view_open(&dview, tk_lg_g.base, tk_lg_g.size, &why, &at);
	if (ok) {
		if (fmt == TK_LOG_DUMP_CTF) {
			ok = tk_lg_emit_ctf(fd, &dview, &diter, &dout);
		} else {
			tk_lg_out_fd(&dout, fd);
			ok = fmt == TK_LOG_DUMP_ELOG
				 ? tk_lg_emit_elog(&dout, &dview, &diter)
				 : tk_lg_emit_cpel(&dout, &dview, &diter, (uint32_t)time(NULL));
			ok = tk_lg_out_finish(&dout) && ok;
		}
	}
	atomic_flag_clear(&busy);
	if (!ok) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/* Removes the files of a CTF directory we are about to replace. */
static void remove_dir(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(path);
}

int tk_log_dump(const char *path, tk_log_format fmt)
{
	static _Atomic unsigned serial; /* two threads dumping to one path */
	char tmp[PATH_MAX];
	if (!path || snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
			      atomic_fetch_add(&serial, 1)) >= (int)sizeof tmp) {
		errno = EINVAL;
		return -1;
	}
	int rc;
	if (fmt == TK_LOG_DUMP_CTF) {
		remove_dir(tmp);
		if (mkdir(tmp, 0755) != 0)
			return -1;
		int dfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0) {
			rmdir(tmp);
			return -1;
		}
		rc = tk_log_dump_fd(dfd, fmt);
		close(dfd);
		if (rc == 0) {
			struct stat sb;
			if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
				remove_dir(path);
			rc = rename(tmp, path);
		}
		if (rc != 0) {
			int e = errno;
			remove_dir(tmp);
			errno = e;
		}
		return rc;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	rc = tk_log_dump_fd(fd, fmt);
	if (close(fd) != 0)
		rc = -1;
	if (rc == 0)
		rc = rename(tmp, path);
	if (rc != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
	}
	return rc;
}

static char exit_path[PATH_MAX];
static tk_log_format exit_fmt;

static void dump_at_exit(void)
{
	if (exit_path[0] && tk_lg_g.base)
		tk_log_dump(exit_path, exit_fmt);
}

int tk_log_dump_at_exit(const char *path, tk_log_format fmt)
{
	static int registered;
	size_t n = path ? strlen(path) : 0;
	if (!n || n >= sizeof exit_path) {
		errno = EINVAL;
		return -1;
	}
	memcpy(exit_path, path, n + 1);
	exit_fmt = fmt;
	if (!registered && atexit(dump_at_exit) != 0)
		return -1;
	registered = 1;
	return 0;
}
