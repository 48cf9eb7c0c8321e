/* What perf record writes besides the rings: the side-band synthesized
 * from /proc before the data (the kernel map from /proc/kallsyms' _text,
 * COMM per thread and MMAP2 per executable mapping of existing processes,
 * so samples of code mapped before the counters started resolve), and the
 * header features perf script/report read. Synthesized records carry a
 * zeroed id trailer, as perf's: id 0 means the first attr. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/writer.h"
#include "record/record.h"

static void put_hdr(uint8_t *p, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = {.type = type, .misc = misc, .size = (uint16_t)size};
	memcpy(p, &h, sizeof h);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* name + NUL padded to 8; returns the padded length */
static size_t put_name(uint8_t *p, const char *s, size_t max)
{
	size_t len = strnlen(s, max - 1);
	size_t padded = (len + 1 + 7) & ~(size_t)7;
	memset(p, 0, padded);
	memcpy(p, s, len);
	return padded;
}

tk_status rec_synth_kernel(perfw_out *o, tk_error *err)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	if (!f)
		return TK_OK; /* no kernel symbols to anchor; perf does the same */
	char line[512];
	unsigned long long text = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long a;
		char t, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3 &&
		    strcmp(name, "_text") == 0) {
			text = a;
			break;
		}
	}
	fclose(f);
	if (!text)
		return TK_OK; /* kptr_restrict hides addresses */
	uint8_t r[128];
	size_t n = 8 + 4 + 4 + 8 + 8 + 8;
	put_hdr(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 0);
	put32(r + 8, (uint32_t)-1); /* perf's host kernel pid */
	put32(r + 12, 0);
	put64(r + 16, text);
	put64(r + 24, ~0ULL - text);
	put64(r + 32, text); /* pgoff: the _text address, as perf */
	n += put_name(r + n, "[kernel.kallsyms]_text", 64);
	memset(r + n, 0, REC_ID_HDR_SIZE);
	n += REC_ID_HDR_SIZE;
	put_hdr(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, n);
	return perfw_out_record(o, r, n, NULL, 0, err);
}

tk_status rec_synth_time_conv(const rec_session *s, perfw_out *o, tk_error *err)
{
	if (!s->n_rings)
		return TK_OK;
	const volatile struct perf_event_mmap_page *pc = s->rings[0].base;
	uint64_t shift, mult, zero, cycles, mask;
	bool cap_zero, cap_short;
	for (unsigned tries = 0;; tries++) { /* the page's seqlock, as perf reads it */
		uint32_t seq = pc->lock;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		shift = pc->time_shift;
		mult = pc->time_mult;
		zero = pc->time_zero;
		cycles = pc->time_cycles;
		mask = pc->time_mask;
		cap_zero = pc->cap_user_time_zero;
		cap_short = pc->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if ((pc->lock == seq && !(seq & 1)) || tries > 1000)
			break;
	}
	if (!cap_zero)
		return TK_OK; /* no TSC conversion offered (a VM's kvm-clock): perf writes none */
	uint8_t r[56] = {0};
	put_hdr(r, TK_PERF_RECORD_TIME_CONV, 0, sizeof r);
	put64(r + 8, shift);
	put64(r + 16, mult);
	put64(r + 24, zero);
	put64(r + 32, cycles);
	put64(r + 40, mask);
	r[48] = cap_zero;
	r[49] = cap_short;
	return perfw_out_record(o, r, sizeof r, NULL, 0, err);
}

static tk_status synth_comm(perfw_out *o, pid_t pid, pid_t tid, tk_error *err)
{
	char p[64], comm[32] = "";
	snprintf(p, sizeof p, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	FILE *f = fopen(p, "r");
	if (!f)
		return TK_OK; /* exited meanwhile */
	if (!fgets(comm, sizeof comm, f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	uint8_t r[96];
	size_t n = 16;
	put32(r + 8, (uint32_t)pid);
	put32(r + 12, (uint32_t)tid);
	n += put_name(r + n, comm, 17);
	memset(r + n, 0, REC_ID_HDR_SIZE);
	n += REC_ID_HDR_SIZE;
	put_hdr(r, PERF_RECORD_COMM, 0, n);
	return perfw_out_record(o, r, n, NULL, 0, err);
}

static tk_status synth_maps(perfw_out *o, pid_t pid, unsigned flags, rec_dsos *dsos, tk_error *err)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/maps", (int)pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return TK_OK;
	char line[4200];
	uint8_t *r = malloc(4096 + 128);
	if (!r) {
		fclose(f);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_status st = TK_OK;
	while (st == TK_OK && fgets(line, sizeof line, f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, mnr;
		char perm[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff,
			   &maj, &mnr, &ino, &name_at) < 7)
			continue;
		if (perm[2] != 'x' && (!(flags & REC_SYNTH_DATA_MAPS) || !ino))
			continue; /* code resolves samples; unwinding also needs the files' other
				     segments */
		char *name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		if (!*name)
			name = "//anon";
		if (strcmp(name, "[vsyscall]") == 0)
			continue; /* a kernel address, perf skips it too */
		uint32_t prot = (perm[0] == 'r' ? PROT_READ : 0) |
				(perm[1] == 'w' ? PROT_WRITE : 0) |
				(perm[2] == 'x' ? PROT_EXEC : 0);
		uint32_t map_flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		size_t n = 8;
		put32(r + n, (uint32_t)pid);
		put32(r + n + 4, (uint32_t)pid);
		put64(r + n + 8, start);
		put64(r + n + 16, end - start);
		put64(r + n + 24, pgoff);
		put32(r + n + 32, maj);
		put32(r + n + 36, mnr);
		put64(r + n + 40, ino);
		put64(r + n + 48, 0);
		put32(r + n + 56, prot);
		put32(r + n + 60, map_flags);
		n += 64;
		n += put_name(r + n, name, 4096);
		rec_dsos_add(dsos, name);
		memset(r + n, 0, REC_ID_HDR_SIZE);
		n += REC_ID_HDR_SIZE;
		put_hdr(r, PERF_RECORD_MMAP2,
			PERF_RECORD_MISC_USER | (perm[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA),
			n);
		st = perfw_out_record(o, r, n, NULL, 0, err);
	}
	free(r);
	fclose(f);
	return st;
}

/* As perf: the main thread's parent from /proc, the others' the main thread. */
static tk_status synth_fork(perfw_out *o, pid_t pid, pid_t tid, tk_error *err)
{
	pid_t ppid = pid;
	if (tid == pid) {
		char p[64], line[256];
		snprintf(p, sizeof p, "/proc/%d/status", (int)pid);
		FILE *f = fopen(p, "r");
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "PPid:", 5) == 0)
				ppid = (pid_t)atoi(line + 5);
		if (f)
			fclose(f);
	}
	uint8_t r[8 + 24 + REC_ID_HDR_SIZE] = {0};
	put32(r + 8, (uint32_t)pid);
	put32(r + 12, (uint32_t)ppid);
	put32(r + 16, (uint32_t)tid);
	put32(r + 20, (uint32_t)ppid);
	put_hdr(r, PERF_RECORD_FORK, 0, sizeof r);
	return perfw_out_record(o, r, sizeof r, NULL, 0, err);
}

static tk_status synth_proc(perfw_out *o, pid_t pid, unsigned flags, rec_dsos *dsos, tk_error *err)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/task", (int)pid);
	DIR *d = opendir(p);
	if (!d)
		return TK_OK;
	tk_status st = TK_OK;
	struct dirent *e;
	while (st == TK_OK && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			if (!(flags & REC_SYNTH_FORKS) ||
			    (st = synth_fork(o, pid, (pid_t)atoi(e->d_name), err)) == TK_OK)
				st = synth_comm(o, pid, (pid_t)atoi(e->d_name), err);
	closedir(d);
	return st == TK_OK ? synth_maps(o, pid, flags, dsos, err) : st;
}

tk_status rec_synth_procs(perfw_out *o, const pid_t *pids, size_t n, unsigned flags, rec_dsos *dsos,
			  rec_session *live, tk_error *err)
{
	bool wrote;
	if (pids) {
		for (size_t i = 0; i < n; i++) {
			tk_status st = synth_proc(o, pids[i], flags, dsos, err);
			if (st != TK_OK)
				return st;
		}
		return TK_OK;
	}
	DIR *d = opendir("/proc");
	if (!d)
		return TK_OK;
	tk_status st = TK_OK;
	struct dirent *e;
	while (st == TK_OK && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]) &&
		    (st = synth_proc(o, (pid_t)atoi(e->d_name), flags, dsos, err)) == TK_OK && live)
			st = rec_drain_records(live, o, &wrote, err);
	closedir(d);
	return st;
}

/* ---- features ---- */

static uint8_t *feat_string(const char *s, size_t *size)
{
	size_t len = strlen(s) + 1, padded = (len + 63) & ~(size_t)63;
	uint8_t *p = calloc(1, 4 + padded);
	if (!p)
		return NULL;
	put32(p, (uint32_t)padded);
	memcpy(p + 4, s, len);
	*size = 4 + padded;
	return p;
}

static tk_status add_string(perfw_out *o, unsigned id, const char *s, tk_error *err)
{
	size_t n;
	uint8_t *p = feat_string(s, &n);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return perfw_out_add_feature(o, id, p, n, err);
}

static tk_status add_cmdline(perfw_out *o, int argc, char **argv, tk_error *err)
{
	size_t size = 4;
	for (int i = 0; i < argc; i++)
		size += 4 + ((strlen(argv[i]) + 1 + 63) & ~(size_t)63);
	uint8_t *p = calloc(1, size), *q = p + 4;
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	put32(p, (uint32_t)argc);
	for (int i = 0; i < argc; i++) {
		size_t n;
		uint8_t *s = feat_string(argv[i], &n);
		if (!s) {
			free(p);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		memcpy(q, s, n);
		q += n;
		free(s);
	}
	return perfw_out_add_feature(o, TK_PERF_FEAT_CMDLINE, p, size, err);
}

static tk_status add_event_desc(rec_session *s, perfw_out *o, tk_error *err)
{
	size_t n_ev = s->opt->n_events, size = 8;
	for (size_t i = 0; i < n_ev; i++)
		size += 128 + 4 + 4 + ((strlen(s->attrs[i].name) + 1 + 63) & ~(size_t)63) +
			8 * s->attrs[i].n_ids;
	uint8_t *p = calloc(1, size), *q = p + 8;
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	put32(p, (uint32_t)n_ev);
	put32(p + 4, 128);
	for (size_t i = 0; i < n_ev; i++) {
		const tk_perf_attr *a = &s->attrs[i];
		perfw_encode_attr(a, 128, o->big, q);
		q += 128;
		put32(q, (uint32_t)a->n_ids);
		size_t n;
		uint8_t *str = feat_string(a->name, &n);
		if (!str) {
			free(p);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		memcpy(q + 4, str, n);
		free(str);
		q += 4 + n;
		for (size_t k = 0; k < a->n_ids; k++, q += 8)
			put64(q, a->ids[k]);
	}
	return perfw_out_add_feature(o, TK_PERF_FEAT_EVENT_DESC, p, size, err);
}

/* Appends a whole file; false when it cannot be read. */
static bool put_file(tk_writer *w, const char *path, bool size64)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *g = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
			if (!g) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = g;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return false;
	uint8_t len[8];
	if (size64) {
		put64(len, n);
		tk_put_mem(w, len, 8);
	} else {
		put32(len, (uint32_t)n);
		tk_put_mem(w, len, 4);
	}
	tk_put_mem(w, buf, n);
	free(buf);
	return true;
}

/* HEADER_TRACING_DATA (trace-cmd 0.6) with the tracefs format files of the
 * recorded tracepoints, grouped by system, host byte order. */
static tk_status add_tracing_data(rec_session *s, perfw_out *o, tk_error *err)
{
	const char *fs = rec_tracefs();
	if (!fs)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "tracefs is not mounted");
	tk_writer *w;
	tk_status st = tk_writer_open_memory(&w, err);
	if (st != TK_OK)
		return st;
	static const uint8_t magic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	tk_put_mem(w, magic, sizeof magic);
	tk_put_mem(w, "0.6", 4);
	uint8_t b[4] = {0, 8};
	b[0] = o->big ? 1 : 0;
	tk_put_mem(w, b, 2);
	put32(b, (uint32_t)sysconf(_SC_PAGESIZE));
	tk_put_mem(w, b, 4);
	char p[512];
	bool ok = true;
	tk_put_mem(w, "header_page", 12);
	snprintf(p, sizeof p, "%s/events/header_page", fs);
	ok = ok && put_file(w, p, true);
	tk_put_mem(w, "header_event", 13);
	snprintf(p, sizeof p, "%s/events/header_event", fs);
	ok = ok && put_file(w, p, true);
	put32(b, 0); /* no ftrace formats */
	tk_put_mem(w, b, 4);
	/* systems in first-seen order, each with its events once */
	size_t n_ev = s->opt->n_events, n_sys = 0;
	const char *sys[REC_MAX_EVENTS];
	for (size_t i = 0; i < n_ev; i++) {
		const rec_event *e = &s->opt->events[i];
		if (!e->is_tp)
			continue;
		size_t k = 0;
		while (k < n_sys && strcmp(sys[k], e->sys) != 0)
			k++;
		if (k == n_sys)
			sys[n_sys++] = e->sys;
	}
	put32(b, (uint32_t)n_sys);
	tk_put_mem(w, b, 4);
	for (size_t k = 0; k < n_sys && ok; k++) {
		tk_put_mem(w, sys[k], strlen(sys[k]) + 1);
		uint32_t count = 0;
		for (size_t i = 0; i < n_ev; i++) {
			const rec_event *e = &s->opt->events[i];
			bool dup = false;
			for (size_t j = 0; j < i; j++)
				dup |= s->opt->events[j].is_tp &&
				       s->opt->events[j].config == e->config;
			count += e->is_tp && !dup && strcmp(e->sys, sys[k]) == 0;
		}
		put32(b, count);
		tk_put_mem(w, b, 4);
		for (size_t i = 0; i < n_ev && ok; i++) {
			const rec_event *e = &s->opt->events[i];
			bool dup = false;
			for (size_t j = 0; j < i; j++)
				dup |= s->opt->events[j].is_tp &&
				       s->opt->events[j].config == e->config;
			if (!e->is_tp || dup || strcmp(e->sys, sys[k]) != 0)
				continue;
			snprintf(p, sizeof p, "%s/events/%s/%s/format", fs, e->sys, e->tp);
			ok = put_file(w, p, true);
		}
	}
	put32(b, 0); /* kallsyms */
	tk_put_mem(w, b, 4);
	put32(b, 0); /* printk formats */
	tk_put_mem(w, b, 4);
	uint8_t z[8] = {0}; /* saved cmdlines */
	tk_put_mem(w, z, 8);
	if (!ok) {
		tk_writer_abort(w);
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "cannot read the tracepoint formats in %s/events", fs);
	}
	size_t n;
	const char *data = tk_writer_data(w, &n);
	uint8_t *copy = malloc(n ? n : 1);
	if (copy)
		memcpy(copy, data, n);
	tk_writer_abort(w);
	if (!copy)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return perfw_out_add_feature(o, TK_PERF_FEAT_TRACING_DATA, copy, n, err);
}

/* perf's cpudesc: /proc/cpuinfo's "model name" with runs of spaces squeezed;
 * and total memory in kB from /proc/meminfo. */
static tk_status add_machine(perfw_out *o, tk_error *err)
{
	char line[512], desc[256] = "";
	unsigned long long mem_kb = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof line, f) && !desc[0]) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		size_t n = 0;
		for (char *p = colon + 1; *p && *p != '\n' && n + 1 < sizeof desc; p++)
			if (!(isspace((unsigned char)*p) && (n == 0 || desc[n - 1] == ' ')))
				desc[n++] = isspace((unsigned char)*p) ? ' ' : *p;
		while (n && desc[n - 1] == ' ')
			n--;
		desc[n] = '\0';
	}
	if (f)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %llu", &mem_kb) == 1)
			break;
	if (f)
		fclose(f);
	tk_status st = TK_OK;
	if (desc[0] && (st = add_string(o, TK_PERF_FEAT_CPUDESC, desc, err)) != TK_OK)
		return st;
	if (mem_kb) {
		uint8_t *m = malloc(8);
		if (!m)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		put64(m, mem_kb);
		st = perfw_out_add_feature(o, TK_PERF_FEAT_TOTAL_MEM, m, 8, err);
	}
	return st;
}

/* HEADER_BUILD_ID of the files hit, as perf: the recording is read back
 * from its (flushed) temporary file. Should that fail, every mapped file
 * and the kernel, a superset perf's tools read the same way. */
static tk_status add_hit_build_ids(rec_session *s, perfw_out *o, tk_error *err)
{
	const char *path = o->w ? (o->w->tmp_path ? o->w->tmp_path : o->w->path) : NULL;
	tk_status st = perfw_out_flush_batch(o, err);
	if (st == TK_OK && o->w)
		st = tk_writer_flush(o->w, err);
	if (st != TK_OK)
		return st;
	rec_dsos hit = {0};
	bool kernel = false;
	tk_error ignored;
	tk_error_clear(&ignored);
	if (path && rec_hit_files(path, &hit, &kernel, &ignored) == TK_OK) {
		st = rec_add_build_ids(&hit, kernel, o, err);
		rec_dsos_free(&hit);
		return st;
	}
	rec_dsos_free(&hit);
	return rec_add_build_ids(&s->dsos, true, o, err);
}

/* -k: HEADER_CLOCKID (the clock's resolution in ns, u64) and
 * HEADER_CLOCK_DATA (version 1, clockid, the time of day and the clock's
 * time taken together at the start), as perf record -k writes them;
 * perf script --tod and tracekit's --tod place samples with them. */
static tk_status add_clock(const rec_session *s, perfw_out *o, tk_error *err)
{
	struct timespec res;
	uint64_t res_ns = 1;
	if (clock_getres(s->opt->clockid, &res) == 0)
		res_ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
	uint8_t *r = malloc(8), *d = malloc(24);
	if (!r || !d) {
		free(r);
		free(d);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	put64(r, res_ns);
	put32(d, 1);
	put32(d + 4, (uint32_t)s->opt->clockid);
	put64(d + 8, s->clock_ref_tod_ns);
	put64(d + 16, s->clock_ref_clock_ns);
	tk_status st = perfw_out_add_feature(o, TK_PERF_FEAT_CLOCKID, r, 8, err);
	if (st != TK_OK) {
		free(d);
		return st;
	}
	return perfw_out_add_feature(o, TK_PERF_FEAT_CLOCK_DATA, d, 24, err);
}

tk_status rec_add_features(rec_session *s, perfw_out *o, int argc, char **argv, tk_error *err)
{
	struct utsname u;
	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	tk_status st;
	bool tp = false;
	for (size_t i = 0; i < s->opt->n_events; i++)
		tp |= s->opt->events[i].is_tp;
	if (tp && (st = add_tracing_data(s, o, err)) != TK_OK)
		return st;
	if ((st = add_string(o, TK_PERF_FEAT_HOSTNAME, u.nodename[0] ? u.nodename : "unknown",
			     err)) != TK_OK ||
	    (st = add_string(o, TK_PERF_FEAT_OSRELEASE, u.release, err)) != TK_OK ||
	    (st = add_string(o, TK_PERF_FEAT_VERSION, "tracekit " TRACEKIT_VERSION, err)) !=
		TK_OK ||
	    (st = add_string(o, TK_PERF_FEAT_ARCH, u.machine, err)) != TK_OK)
		return st;
	uint8_t *nr = malloc(8);
	if (!nr)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	put32(nr, (uint32_t)(conf > 0 ? conf : 1));
	put32(nr + 4, (uint32_t)(onln > 0 ? onln : 1));
	if ((st = perfw_out_add_feature(o, TK_PERF_FEAT_NRCPUS, nr, 8, err)) != TK_OK)
		return st;
	if ((st = add_cmdline(o, argc, argv, err)) != TK_OK || (st = add_machine(o, err)) != TK_OK)
		return st;
	if (!o->pipe && (st = add_hit_build_ids(s, o, err)) != TK_OK)
		return st;
	if (s->opt->use_clockid && (st = add_clock(s, o, err)) != TK_OK)
		return st;
	if (o->compress) { /* -z: perf needs the zstd parameters before the data */
		uint8_t *cf = malloc(20);
		if (!cf)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		perfw_out_compressed_feature(o, cf);
		if ((st = perfw_out_add_feature(o, TK_PERF_FEAT_COMPRESSED, cf, 20, err)) != TK_OK)
			return st;
	}
	return add_event_desc(s, o, err);
}
