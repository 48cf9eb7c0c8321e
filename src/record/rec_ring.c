/* Counters and rings: one perf_event_open per (event, CPU, thread), one
 * mmap ring per CPU (the other counters of that CPU redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT, as perf does), drained with the barriers the
 * perf_event_open(2) page documents: data_head read with acquire
 * semantics before the data, data_tail stored with release semantics after
 * the data has been copied out. */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "record/record.h"

static int sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/* The default ring: REC_RING_PAGES where locked memory is not counted
 * (root, or perf_event_paranoid -1: the kernel skips the limit), perf's
 * size otherwise, so that every CPU's ring fits in perf_event_mlock_kb per
 * CPU as perf's do (a ring refused half-way could not be shrunk: the other
 * counters of its CPU are already redirected into it). */
static size_t default_ring_pages(void)
{
	if (geteuid() == 0)
		return REC_RING_PAGES;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level <= -1 ? REC_RING_PAGES : REC_RING_PAGES_MIN;
}

static void kernel_attr(const rec_options *opt, size_t index, struct perf_event_attr *a)
{
	const rec_event *ev = &opt->events[index];
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = ev->type;
	a->config = ev->config;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER;
	if (opt->callchain || opt->dwarf_stack)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (opt->dwarf_stack) {
		/* as perf --call-graph dwarf: kernel callchain, user registers and
		 * a copy of the user stack for the reader to unwind */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_stack_user = opt->dwarf_stack;
#if defined(__x86_64__)
		a->sample_regs_user = 0xff0fffULL; /* perf's PERF_REGS_MASK: no DS ES FS GS */
#elif defined(__aarch64__)
		a->sample_regs_user = (1ULL << 33) - 1;
#else
		a->sample_regs_user = 0;
#endif
	}
	if (ev->is_tp) {
		a->sample_type |= PERF_SAMPLE_RAW;
		a->sample_period = opt->period ? opt->period : 1; /* every hit, as perf */
	} else if (opt->period) {
		a->sample_period = opt->period;
	} else {
		a->freq = 1;
		a->sample_freq = opt->freq ? opt->freq : 4000;
	}
	a->disabled = 1;
	a->inherit = 1;
	a->exclude_user = ev->excl_user;
	a->exclude_kernel = ev->excl_kernel;
	a->sample_id_all = 1;
	a->enable_on_exec = opt->enable_on_exec;
	if (opt->use_clockid) {
		a->use_clockid = 1;
		a->clockid = opt->clockid;
	}
	if (index == 0) { /* side-band once, from the first event, as perf */
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		a->context_switch = opt->switch_events;
		/* DWARF unwinding reads .eh_frame, which lives in a non-exec
		 * segment in today's ELF layouts: data mmaps too, as perf */
		a->mmap_data = opt->dwarf_stack != 0;
	}
	/* wake the poll loop once a quarter of the ring is full, not per record */
	a->watermark = 1;
	a->wakeup_watermark =
	    (uint32_t)((opt->mmap_pages ? opt->mmap_pages : default_ring_pages()) *
		       (size_t)sysconf(_SC_PAGESIZE) / 4);
}

/* The file's view of the attr; flags is the bitfield word at offset 40. */
static void file_attr(const struct perf_event_attr *k, const rec_event *ev, tk_perf_attr *t)
{
	memset(t, 0, sizeof *t);
	t->type = k->type;
	t->size = 128;
	t->config = k->config;
	t->sample_period = k->sample_period;
	t->sample_type = k->sample_type;
	t->read_format = k->read_format;
	uint64_t word;
	memcpy(&word, (const uint8_t *)k + 40, 8);
	/* the file describes the recording, not the counter's initial state */
	word &= ~((uint64_t)1 << TK_PERF_ATTR_DISABLED);
	word &= ~((uint64_t)1 << TK_PERF_ATTR_ENABLE_ON_EXEC);
	t->flags = word;
	t->wakeup_events = k->wakeup_events;
	t->sample_regs_user = k->sample_regs_user;
	t->sample_stack_user = k->sample_stack_user;
	t->clockid = k->clockid;
	t->name = ev->name;
}

static tk_status open_error(const rec_event *ev, int e, tk_error *err)
{
	if (e == EACCES || e == EPERM)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "%s: no permission to use perf_event_open (%s); "
				    "kernel.perf_event_paranoid must allow it (sysctl "
				    "kernel.perf_event_paranoid=-1, or run with CAP_PERFMON)",
				    ev->name, strerror(e));
	if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
				    "%s: this machine does not support the event (%s)", ev->name,
				    strerror(e));
	return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "%s: perf_event_open: %s", ev->name,
			    strerror(e));
}

static tk_status add_counter(rec_session *s, int fd, int cpu, size_t ev, tk_error *err)
{
	if (s->n_ctrs == s->cap_ctrs) {
		size_t cap = s->cap_ctrs ? 2 * s->cap_ctrs : 64;
		rec_counter *n = realloc(s->ctrs, cap * sizeof *n);
		if (!n) {
			close(fd);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		s->ctrs = n;
		s->cap_ctrs = cap;
	}
	rec_counter *c = &s->ctrs[s->n_ctrs++];
	c->fd = fd;
	c->cpu = cpu;
	c->event = ev;
	c->id = 0;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &c->id) != 0)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "PERF_EVENT_IOC_ID: %s",
				    strerror(errno));
	return TK_OK;
}

/* The threads to open: -1 (every task), the workload, or each thread of
 * each -p process. */
static pid_t *thread_list(const rec_options *opt, size_t *n)
{
	size_t cap = 16;
	pid_t *t = malloc(cap * sizeof *t);
	if (!t)
		return NULL;
	*n = 0;
	if (opt->system_wide) {
		t[(*n)++] = -1;
		return t;
	}
	if (opt->workload) {
		t[(*n)++] = opt->workload;
		return t;
	}
	if (opt->threads_only) {
		pid_t *g = realloc(t, (opt->n_pids ? opt->n_pids : 1) * sizeof *t);
		if (!g)
			return free(t), NULL;
		memcpy(g, opt->pids, opt->n_pids * sizeof *g);
		*n = opt->n_pids;
		return g;
	}
	for (size_t i = 0; i < opt->n_pids; i++) {
		char p[64];
		snprintf(p, sizeof p, "/proc/%d/task", (int)opt->pids[i]);
		DIR *d = opendir(p);
		if (!d) {
			if (*n == cap) {
				pid_t *g = realloc(t, 2 * cap * sizeof *t);
				if (!g)
					return free(t), NULL;
				t = g;
				cap *= 2;
			}
			t[(*n)++] = opt->pids[i]; /* perf_event_open reports ESRCH */
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			if (*n == cap) {
				pid_t *g = realloc(t, 2 * cap * sizeof *t);
				if (!g) {
					closedir(d);
					free(t);
					return NULL;
				}
				t = g;
				cap *= 2;
			}
			t[(*n)++] = (pid_t)atoi(e->d_name);
		}
		closedir(d);
	}
	return t;
}

tk_status rec_open(rec_session *s, rec_options *opt, tk_error *err)
{
	memset(s, 0, sizeof *s);
	s->opt = opt;
	s->scratch = malloc(65536);
	s->rings = calloc(opt->n_cpus ? opt->n_cpus : 1, sizeof *s->rings);
	if (!s->scratch || !s->rings)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	size_t n_threads;
	pid_t *threads = thread_list(opt, &n_threads);
	if (!threads)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = opt->mmap_pages ? opt->mmap_pages : default_ring_pages();
	if (opt->use_clockid) { /* perf's record__init_clock: one pair, at the start */
		struct timespec tod, ck;
		clock_gettime(CLOCK_REALTIME, &tod);
		if (clock_gettime(opt->clockid, &ck) != 0)
			return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "-k: clock %d: %s",
					    opt->clockid, strerror(errno));
		s->clock_ref_tod_ns = (uint64_t)tod.tv_sec * 1000000000u + (uint64_t)tod.tv_nsec;
		s->clock_ref_clock_ns = (uint64_t)ck.tv_sec * 1000000000u + (uint64_t)ck.tv_nsec;
	}
	tk_status st = TK_OK;
	for (size_t ci = 0; ci < opt->n_cpus && st == TK_OK; ci++) {
		int cpu = opt->cpus[ci], ring_fd = -1;
		for (size_t e = 0; e < opt->n_events && st == TK_OK; e++) {
			struct perf_event_attr a;
			kernel_attr(opt, e, &a);
			if (ci == 0)
				file_attr(&a, &opt->events[e], &s->attrs[e]);
			for (size_t t = 0; t < n_threads && st == TK_OK; t++) {
				int fd = sys_perf_event_open(&a, threads[t], cpu, -1,
							     PERF_FLAG_FD_CLOEXEC);
				if (fd < 0) {
					/* a -p thread that exited meanwhile */
					if (errno == ESRCH && opt->n_pids && n_threads > 1)
						continue;
					st = open_error(&opt->events[e], errno, err);
					break;
				}
				if ((st = add_counter(s, fd, cpu, e, err)) != TK_OK)
					break;
				if (ring_fd < 0) {
					size_t len = (pages + 1) * (size_t)page;
					void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
						       MAP_SHARED, fd, 0);
					if (m == MAP_FAILED) {
						st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
								  "mmap of the CPU %d ring (%zu "
								  "pages): %s (raise "
								  "kernel.perf_event_mlock_kb or "
								  "lower -m)",
								  cpu, pages, strerror(errno));
						break;
					}
					rec_ring *r = &s->rings[s->n_rings++];
					r->fd = fd;
					r->cpu = cpu;
					r->base = m;
					r->data_size = pages * (size_t)page;
					r->map_len = len;
					ring_fd = fd;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) != 0) {
					st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
							  "PERF_EVENT_IOC_SET_OUTPUT: %s",
							  strerror(errno));
				}
			}
		}
	}
	free(threads);
	if (st != TK_OK)
		return st;
	/* ids per event, for the attrs section and EVENT_DESC */
	for (size_t e = 0; e < opt->n_events; e++) {
		size_t n = 0;
		s->ids[e] = malloc((s->n_ctrs ? s->n_ctrs : 1) * sizeof(uint64_t));
		if (!s->ids[e])
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		for (size_t i = 0; i < s->n_ctrs; i++)
			if (s->ctrs[i].event == e)
				s->ids[e][n++] = s->ctrs[i].id;
		s->attrs[e].ids = s->ids[e];
		s->attrs[e].n_ids = n;
		s->attrs[e].index = e;
	}
	return TK_OK;
}

tk_status rec_enable(rec_session *s, tk_error *err)
{
	for (size_t i = 0; i < s->n_ctrs; i++)
		if (ioctl(s->ctrs[i].fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "PERF_EVENT_IOC_ENABLE: %s", strerror(errno));
	return TK_OK;
}

void rec_disable(rec_session *s)
{
	for (size_t i = 0; i < s->n_ctrs; i++)
		ioctl(s->ctrs[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

bool rec_wait(rec_session *s, int timeout_ms)
{
	struct pollfd p[REC_MAX_CPUS];
	size_t n = s->n_rings < REC_MAX_CPUS ? s->n_rings : REC_MAX_CPUS;
	for (size_t i = 0; i < n; i++) {
		p[i].fd = s->rings[i].fd;
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	if (poll(p, n, timeout_ms) <= 0) /* EINTR (a signal) just ends the wait */
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(p[i].revents & POLLHUP))
			return false;
	return n > 0;
}

/* The header of the record at off in the ring data[0..size), read across
 * the wrap. */
static void ring_header(const uint8_t *data, size_t size, size_t off, struct perf_event_header *h)
{
	if (off + sizeof *h <= size) {
		memcpy(h, data + off, sizeof *h);
	} else {
		size_t first = size - off;
		memcpy(h, data + off, first);
		memcpy((uint8_t *)h + first, data, sizeof *h - first);
	}
}

/* The len bytes of the record at off: in place, or copied whole into the
 * session's scratch when they wrap around the ring's end. */
static const uint8_t *ring_record(rec_session *s, const uint8_t *data, size_t size, size_t off,
				  size_t len)
{
	if (off + len <= size)
		return data + off;
	size_t first = size - off;
	memcpy(s->scratch, data + off, first);
	memcpy(s->scratch + first, data, len - first);
	return s->scratch;
}

/* Bookkeeping for one record: samples, images mapped (for the build ids of
 * hit images at the end), lost records. Only MMAP and LOST records are read
 * past their header; one that wraps around the ring end is copied whole. */
static void note_record(rec_session *s, const uint8_t *data, size_t size, size_t off,
			const struct perf_event_header *h)
{
	s->records++;
	if (h->type == PERF_RECORD_SAMPLE) {
		s->samples++;
		return;
	}
	bool user_map = (h->type == PERF_RECORD_MMAP2 || h->type == PERF_RECORD_MMAP) &&
			(h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	bool lost = h->type == PERF_RECORD_LOST && h->size >= 24;
	if (!user_map && !lost)
		return;
	const uint8_t *rec = ring_record(s, data, size, off, h->size);
	if (lost) {
		s->lost += tk_load_u64(rec + 16, false);
		return;
	}
	size_t at = h->type == PERF_RECORD_MMAP2 ? 72 : 40;
	if (h->size > at && memchr(rec + at, 0, h->size - at))
		rec_dsos_add(&s->dsos, (const char *)rec + at);
}

/* Uncompressed: [start, end) in at most two writes, the second after the
 * wrap, straight from the ring. */
static tk_status emit_spans(const uint8_t *data, size_t size, uint64_t start, uint64_t end,
			    perfw_out *o, tk_error *err)
{
	size_t off = (size_t)(start % size), len = (size_t)(end - start);
	size_t first = len < size - off ? len : size - off;
	tk_status st = perfw_out_records(o, data + off, first, err);
	if (st == TK_OK && len > first)
		st = perfw_out_records(o, data, len - first, err);
	return st;
}

/* Compressed (-z): record by record into the batch, a record that wraps
 * copied whole first. */
static tk_status emit_each(rec_session *s, const uint8_t *data, size_t size, uint64_t start,
			   uint64_t end, perfw_out *o, tk_error *err)
{
	for (uint64_t at = start; at < end;) {
		size_t off = (size_t)(at % size);
		struct perf_event_header h;
		ring_header(data, size, off, &h);
		const uint8_t *rec = ring_record(s, data, size, off, h.size);
		tk_status st = perfw_out_record(o, rec, h.size, NULL, 0, err);
		if (st != TK_OK)
			return st;
		at += h.size;
	}
	return TK_OK;
}

/* The records in [tail, head) are read for bookkeeping only (headers, and
 * the few MMAP and LOST records), then written from the ring itself in at
 * most two pieces, the second after the wrap: no per-record copy, as perf
 * record writes its rings. */
static tk_status drain_ring(rec_session *s, rec_ring *r, perfw_out *o, bool *wrote, tk_error *err)
{
	struct perf_event_mmap_page *pc = r->base;
	uint8_t *data = (uint8_t *)r->base + pc->data_offset;
	size_t size = pc->data_size ? pc->data_size : r->data_size;
	if (!pc->data_offset)
		data = (uint8_t *)r->base + sysconf(_SC_PAGESIZE);
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t start = pc->data_tail, tail = start;
	while (tail < head) {
		size_t off = (size_t)(tail % size);
		struct perf_event_header h;
		ring_header(data, size, off, &h);
		if (h.size < sizeof h || tail + h.size > head)
			break; /* cannot happen with a sane kernel; stop rather than loop */
		note_record(s, data, size, off, &h);
		tail += h.size;
	}
	tk_status st = TK_OK;
	if (tail > start) {
		st = o->compress ? emit_each(s, data, size, start, tail, o, err)
				 : emit_spans(data, size, start, tail, o, err);
		*wrote = true;
	}
	/* the kernel may reuse the space only after we are done reading it */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return st;
}

tk_status rec_drain_records(rec_session *s, perfw_out *o, bool *wrote, tk_error *err)
{
	for (size_t i = 0; i < s->n_rings; i++) {
		tk_status st = drain_ring(s, &s->rings[i], o, wrote, err);
		if (st != TK_OK)
			return st;
	}
	return TK_OK;
}

tk_status rec_drain(rec_session *s, perfw_out *o, tk_error *err)
{
	bool wrote = false;
	tk_status st0 = rec_drain_records(s, o, &wrote, err);
	if (st0 != TK_OK || !wrote)
		return st0;
	/* FINISHED_ROUND: everything before it may be sorted and flushed */
	uint8_t fr[8] = {0};
	struct perf_event_header h = {.type = TK_PERF_RECORD_FINISHED_ROUND, .misc = 0, .size = 8};
	memcpy(fr, &h, 8);
	tk_status st = perfw_out_record(o, fr, 8, NULL, 0, err);
	/* each round reaches the output now, not when the writer's buffer
	 * fills: a live reader of pipe mode (record -o - | print -, the --to
	 * converter) sees it, and a SIGKILL loses at most the current round */
	if (st == TK_OK)
		st = perfw_out_flush_batch(o, err);
	if (st == TK_OK && o->w)
		st = tk_writer_flush(o->w, err);
	return st;
}

void rec_close(rec_session *s)
{
	for (size_t i = 0; i < s->n_rings; i++)
		munmap(s->rings[i].base, s->rings[i].map_len);
	for (size_t i = 0; i < s->n_ctrs; i++)
		close(s->ctrs[i].fd);
	for (size_t e = 0; e < REC_MAX_EVENTS; e++)
		free(s->ids[e]);
	free(s->ctrs);
	free(s->rings);
	free(s->scratch);
	rec_dsos_free(&s->dsos);
	memset(s, 0, sizeof *s);
}
