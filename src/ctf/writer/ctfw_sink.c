/* The CTF writer as a tk_sink: the temporary directory, event dispatch to
 * streams, and the atomic commit (metadata, then rename into place). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/output_path.h"
#include "ctf/writer/ctfw_internal.h"
#include "tracekit/ctf_writer.h"

#define CTFW_DEFAULT_PACKET (1024 * 1024)
#define CTFW_MIN_PACKET     256

/* Removes the temporary trace directory: its files and index/. */
static void remove_tmp_dir(ctfw_sink *s)
{
	if (!s->tmp_dir)
		return;
	int dfd = open(s->tmp_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		int ifd = openat(dfd, "index", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = ifd >= 0 ? fdopendir(ifd) : NULL;
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)))
				if (e->d_name[0] != '.')
					unlinkat(ifd, e->d_name, 0);
			closedir(d);
		} else if (ifd >= 0) {
			close(ifd);
		}
		unlinkat(dfd, "index", AT_REMOVEDIR);
		int dfd2 = dup(dfd);
		d = dfd2 >= 0 ? fdopendir(dfd2) : NULL;
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)))
				if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
					unlinkat(dfd, e->d_name, 0);
			closedir(d);
		} else if (dfd2 >= 0) {
			close(dfd2);
		}
		close(dfd);
	}
	rmdir(s->tmp_dir);
}

static void sink_free(ctfw_sink *s)
{
	for (size_t i = 0; i < s->n_streams; i++)
		ctfw_stream_free(s->streams[i]);
	free(s->streams);
	for (size_t i = 0; i < s->n_scs; i++)
		tk_hashmap_free(&s->scs[i]->used_ids);
	free(s->scs);
	free(s->ecs);
	tk_hashmap_free(&s->ec_map);
	tk_hashmap_free(&s->stream_map);
	tk_arena_free(&s->arena);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	free(s->final_dir);
	free(s->tmp_dir);
	free(s);
}

static void ctfw_abort(tk_sink *sink)
{
	ctfw_sink *s = (ctfw_sink *)sink;
	for (size_t i = 0; i < s->n_streams; i++) {
		ctfw_stream_free(s->streams[i]);
		s->streams[i] = NULL;
	}
	s->n_streams = 0;
	remove_tmp_dir(s);
	sink_free(s);
}

static tk_status ctfw_write(tk_sink *sink, const tk_event *ev, tk_error *err)
{
	ctfw_sink *s = (ctfw_sink *)sink;
	if (s->failed)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: write after an earlier failure");
	if (!ev || !ev->cls)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: event without a class");
	ctfw_stream_class *sc;
	ctfw_event_class *ec;
	ctfw_stream *st;
	/* The stream class first: its first event decides whether it has a
	 * clock and a cpu_id. */
	tk_status rc = TK_OK;
	if (ev->cls == s->last_cls && ctfw_stream_class_fits(s->last_ec->sc, ev)) {
		ec = s->last_ec; /* the usual case: the same class as the last event */
	} else {
		rc = ctfw_stream_class_get(s, ev->cls->stream_class_id, ev, &sc, err);
		if (rc == TK_OK)
			rc = ctfw_event_class_get(s, ev->cls, sc, &ec, err);
		if (rc == TK_OK) {
			s->last_cls = ev->cls;
			s->last_ec = ec;
		}
	}
	if (rc == TK_OK)
		rc = ctfw_stream_get(s, ec->sc, ev, &st, err);
	if (rc == TK_OK)
		rc = ctfw_stream_write(s, st, ec, ev, err);
	if (rc != TK_OK)
		s->failed = true;
	return rc;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) == 0 ? 0 : -1;
}

/* --force: the old directory steps aside under a temporary name, the new
 * trace takes its place, then the old one is removed; a failed swap puts
 * the old directory back. */
static tk_status replace_dir(ctfw_sink *s, tk_error *err)
{
	size_t n = strlen(s->tmp_dir) + 8;
	char *old = malloc(n);
	if (!old)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	snprintf(old, n, "%s-old", s->tmp_dir);
	tk_status rc = TK_OK;
	if (rename(s->final_dir, old) != 0) {
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot move %s aside: %s",
				  s->final_dir, strerror(errno));
	} else if (rename(s->tmp_dir, s->final_dir) != 0) {
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot rename %s to %s: %s",
				  s->tmp_dir, s->final_dir, strerror(errno));
		rename(old, s->final_dir);
	} else if (nftw(old, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && s->opt.log) {
		char msg[600];
		snprintf(msg, sizeof msg, "could not remove the replaced trace %s", old);
		s->opt.log(s->opt.log_user, 0, msg);
	}
	free(old);
	return rc;
}

static tk_status ctfw_close(tk_sink *sink, tk_error *err)
{
	ctfw_sink *s = (ctfw_sink *)sink;
	tk_status rc = TK_OK;
	if (s->failed)
		rc = tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				  "ctf writer: not committed after an earlier failure");
	for (size_t i = 0; rc == TK_OK && i < s->n_streams; i++)
		rc = ctfw_stream_finish(s, s->streams[i], err);
	if (rc == TK_OK)
		rc = ctfw_metadata_write(s, err);
	if (rc == TK_OK && fsync(s->dir_fd) != 0)
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot sync %s: %s", s->tmp_dir,
				  strerror(errno));
	if (rc == TK_OK && s->replace)
		rc = replace_dir(s, err);
	else if (rc == TK_OK && rename(s->tmp_dir, s->final_dir) != 0) {
		int e = errno;
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot rename %s to %s: %s",
				  s->tmp_dir, s->final_dir,
				  e == ENOTEMPTY || e == EEXIST
				      ? "output exists and is not an empty directory"
				      : strerror(e));
	}
	if (rc != TK_OK) {
		if (err)
			tk_error_set_file(err, s->final_dir);
		ctfw_abort(sink);
		return rc;
	}
	free(s->tmp_dir);
	s->tmp_dir = NULL;
	sink_free(s);
	return TK_OK;
}

static const tk_sink_ops ctfw_ops = {
    .write = ctfw_write,
    .close = ctfw_close,
    .abort = ctfw_abort,
};

static void make_uuid(uint8_t u[16])
{
	if (getrandom(u, 16, 0) != 16) {
		/* No entropy source: still unique enough per run. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t a = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
			 b = (uint64_t)getpid();
		memcpy(u, &a, 8);
		memcpy(u + 8, &b, 8);
	}
	u[6] = (uint8_t)((u[6] & 0x0F) | 0x40); /* version 4 */
	u[8] = (uint8_t)((u[8] & 0x3F) | 0x80); /* RFC 4122 variant */
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	bool empty = true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	return empty;
}

tk_status tk_ctf_sink_open(const char *dir, const tk_trace_info *info, const tk_sink_options *opt,
			   tk_sink **out, tk_error *err)
{
	if (out)
		*out = NULL;
	if (!dir || !*dir || !info || !out)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: missing output directory or trace info");
	tk_error_set_file(err, dir);
	/* A symlink is followed (the trace replaces its target, never the
	 * link); what is already there is never lost silently. */
	tk_output_path op;
	/* trailing slashes dropped first: "link/" names the link's target to
	 * lstat, and a rename onto "link" would replace the link itself */
	size_t dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	char *trimmed = strndup(dir, dlen);
	if (!trimmed)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	tk_status rs = tk_output_path_resolve(trimmed, &op, err);
	free(trimmed);
	if (rs != TK_OK)
		return rs;
	bool replace = false;
	if (op.kind == TK_OUTPUT_DIR && !dir_is_empty(op.path)) {
		replace = opt && opt->force;
		if (!replace)
			rs = tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
					  "ctf writer: output directory %s exists and is not "
					  "empty (--force replaces it)",
					  op.path);
	} else if (op.kind != TK_OUTPUT_DIR && op.kind != TK_OUTPUT_ABSENT) {
		rs = tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				  "ctf writer: output %s exists and is not a directory", op.path);
	}
	if (rs != TK_OK) {
		tk_output_path_free(&op);
		return rs;
	}
	const char *bo = opt && opt->byte_order ? opt->byte_order : "native";
	bool big;
	if (strcmp(bo, "big") == 0 || strcmp(bo, "be") == 0)
		big = true;
	else if (strcmp(bo, "little") == 0 || strcmp(bo, "le") == 0)
		big = false;
	else if (strcmp(bo, "native") == 0)
		big = !tk_host_is_le();
	else {
		tk_output_path_free(&op);
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: unknown byte order '%s'", bo);
	}

	ctfw_sink *s = calloc(1, sizeof *s);
	if (!s) {
		tk_output_path_free(&op);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	}
	s->replace = replace;
	s->base.ops = &ctfw_ops;
	s->info = info;
	if (opt)
		s->opt = *opt;
	s->dir_fd = -1;
	s->big_endian = big;
	s->packet_size = opt && opt->packet_size ? opt->packet_size : CTFW_DEFAULT_PACKET;
	if (s->packet_size < CTFW_MIN_PACKET)
		s->packet_size = CTFW_MIN_PACKET;
	tk_arena_init(&s->arena, 64 * 1024);
	tk_hashmap_init(&s->ec_map);
	tk_hashmap_init(&s->stream_map);
	make_uuid(s->uuid);

	/* ".NAME.tk-XXXXXX" beside NAME (trailing slashes dropped). */
	size_t len = strlen(op.path);
	while (len > 1 && op.path[len - 1] == '/')
		len--;
	s->final_dir = strndup(op.path, len);
	tk_output_path_free(&op);
	if (!s->final_dir) {
		sink_free(s);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	}
	const char *slash = strrchr(s->final_dir, '/');
	size_t head = slash ? (size_t)(slash - s->final_dir) + 1 : 0;
	size_t tlen = len + 16;
	s->tmp_dir = malloc(tlen);
	if (!s->tmp_dir) {
		sink_free(s);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	}
	snprintf(s->tmp_dir, tlen, "%.*s.%s.tk-XXXXXX", (int)head, s->final_dir,
		 s->final_dir + head);
	if (!mkdtemp(s->tmp_dir)) {
		int e = errno;
		free(s->tmp_dir);
		s->tmp_dir = NULL;
		sink_free(s);
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "cannot create a temporary directory beside %s: %s", dir,
				    strerror(e));
	}
	/* mkdtemp makes 0700; a trace directory is normally world-readable. */
	chmod(s->tmp_dir, 0755);
	s->dir_fd = open(s->tmp_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dir_fd < 0 || mkdirat(s->dir_fd, "index", 0755) != 0) {
		int e = errno;
		ctfw_abort(&s->base);
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "cannot prepare the temporary trace directory: %s",
				    strerror(e));
	}
	*out = &s->base;
	return TK_OK;
}
