/* tracekit record: samples with perf_event_open into a perf.data file
 * (src/record/). perf record's option letters, parsed here because they
 * differ from the shared reader options (-a, -o, -e, -c mean other things).
 * A COMMAND is forked first and held on a pipe until its counters are open
 * and enabled (enable_on_exec), then exec'd, as perf's workload start. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "cli.h"
#include "record/record.h"
#include "record_sinks.h"

static const char record_usage[] =
    "usage: tracekit record [OPTIONS] [--] [COMMAND [ARGS]]\n"
    "\n"
    "Samples with perf_event_open into a perf.data file (as perf record).\n"
    "\n"
    "  -e, --event EVENTS     cpu-clock (default), task-clock, page-faults,\n"
    "                         context-switches, ... or tracepoints SYS:NAME;\n"
    "                         comma-separated or repeated; :u / :k modifiers\n"
    "  -c, --count N          a sample every N events\n"
    "  -F, --freq HZ          samples per second (default 4000)\n"
    "  -g                     call graphs (frame pointers)\n"
    "      --call-graph MODE  fp, or dwarf[,SIZE]: user registers and SIZE bytes\n"
    "                         of user stack (default 8192) for perf to unwind\n"
    "  -a, --all-cpus         every task on every CPU\n"
    "  -C, --cpu LIST         only these CPUs (0-3,6)\n"
    "  -p, --pid LIST         existing processes\n"
    "  -t, --tid LIST         existing threads\n"
    "  -o, --output FILE      output (default perf.data)\n"
    "      --duration SECS    stop after SECS seconds\n"
    "      --switch-events    context switch records (PERF_RECORD_SWITCH)\n"
    "  -z                     zstd-compressed records (as perf record -z)\n"
    "  -m, --mmap-pages N     ring buffer pages per CPU (power of 2; or 512K, 4M)\n"
    "  -k, --clockid CLOCK    sample times from CLOCK (monotonic, monotonic_raw,\n"
    "                         realtime, boottime, tai): clock data in the header\n"
    "      --to FORMAT        -o OUT in FORMAT instead of perf.data (ctf, cpel, ...),\n"
    "                         streamed through tracekit convert\n"
    "      --profile-db DIR   continuous profiling: DCPI profiles per image and\n"
    "                         event in DIR/EPOCH/HOST/ (system-wide by default)\n"
    "      --epoch T          --profile-db epoch length (default 10m; s, m, h, d)\n"
    "  -q, --quiet            no messages\n";

static volatile sig_atomic_t stop_signal, child_changed;

static void on_stop(int sig)
{
	stop_signal = sig;
}
static void on_child(int sig)
{
	(void)sig;
	child_changed = 1;
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("tracekit record: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(try tracekit record --help)\n", stderr);
	return TK_EXIT_USAGE;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v == 0)
		return false;
	*out = v;
	return true;
}

/* "0-3,6" -> ids; false on bad syntax or past max */
static bool parse_list(const char *s, int *out, size_t *n, size_t cap, long max)
{
	*n = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0 || a > max)
			return false;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b > max)
				return false;
			s = end;
		}
		for (long v = a; v <= b; v++) {
			if (*n == cap)
				return false;
			out[(*n)++] = (int)v;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return *n > 0;
}

static void online_cpus(rec_options *o)
{
	o->n_cpus = 0;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char buf[4096];
	if (f && fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (parse_list(buf, o->cpus, &o->n_cpus, REC_MAX_CPUS, REC_MAX_CPUS - 1)) {
			fclose(f);
			return;
		}
	}
	if (f)
		fclose(f);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	for (long i = 0; i < n && i < REC_MAX_CPUS; i++)
		o->cpus[o->n_cpus++] = (int)i;
}

static int add_events(rec_options *o, const char *list)
{
	char buf[1024];
	if (strlen(list) >= sizeof buf)
		return usage_error("event list too long: %s", list);
	strcpy(buf, list);
	if (!buf[strspn(buf, ",")])
		return usage_error("-e: no event in '%s'", list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char msg[1024];
		size_t n = rec_event_expand(tok, &o->events[o->n_events],
					    REC_MAX_EVENTS - o->n_events, msg, sizeof msg);
		if (!n) {
			fprintf(stderr, "tracekit record: %s\n", msg);
			return TK_EXIT_USAGE;
		}
		o->n_events += n;
	}
	return 0;
}

typedef struct workload {
	pid_t pid;
	int go_fd, err_fd;
} workload;

/* Forks COMMAND stopped before exec: it waits for a byte on go_fd, and
 * reports an exec failure's errno on err_fd (closed on a good exec). */
static int workload_prepare(workload *w, char **argv, bool stdout_is_data)
{
	int go[2], ef[2];
	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(ef, O_CLOEXEC) != 0) {
		perror("tracekit record: pipe");
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("tracekit record: fork");
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		close(ef[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);             /* SIG_IGN would survive the exec */
		if (stdout_is_data && dup2(2, 1) < 0) /* its output must not mix into the data */
			_exit(127);
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the recorder gave up */
		execvp(argv[0], argv);
		int e = errno;
		if (write(ef[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ef[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = ef[0];
	return 0;
}

/* Lets the workload exec; returns its exec errno, 0 on success. */
static int workload_start(workload *w)
{
	int e = 0;
	if (write(w->go_fd, "g", 1) != 1)
		e = errno;
	close(w->go_fd);
	w->go_fd = -1;
	ssize_t n;
	do
		n = read(w->err_fd, &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	return n == (ssize_t)sizeof e ? e : 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* PERF_RECORD_EVENT_UPDATE of type NAME, one per event after the
 * features, as perf record -o - writes them: perf names a pipe's events
 * from these (without them, from the attr's bits: "cpu-clock:uh" for
 * cpu-clock:u). */
static tk_status pipe_event_name(perfw_out *o, const tk_perf_attr *a, tk_error *err)
{
	if (!a->n_ids || !a->name)
		return TK_OK;
	size_t len = strlen(a->name), padded = (len + 1 + 7) & ~(size_t)7;
	if (len > 255)
		return TK_OK; /* rec_event names are shorter */
	uint8_t rec[24 + 256] = {0};
	tk_store_u32(rec, TK_PERF_RECORD_EVENT_UPDATE, o->swap);
	tk_store_u16(rec + 6, (uint16_t)(24 + padded), o->swap);
	tk_store_u64(rec + 8, 2, o->swap); /* PERF_EVENT_UPDATE__NAME */
	tk_store_u64(rec + 16, a->ids[0], o->swap);
	memcpy(rec + 24, a->name, len);
	tk_put_mem(o->w, rec, 24 + padded);
	return o->w->error ? tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write: %s",
					  strerror(o->w->error))
			   : TK_OK;
}

/* Pipe mode: what file mode puts in the header comes first, as records:
 * HEADER_ATTR with the ids, HEADER_FEATURE for the features (event desc
 * too, as perf's pipe mode), HEADER_TRACING_DATA, and the event names
 * (EVENT_UPDATE). */
static tk_status pipe_header(rec_session *s, perfw_out *o, int argc, char **argv, tk_error *err)
{
	tk_status st = TK_OK;
	for (size_t i = 0; i < s->opt->n_events && st == TK_OK; i++)
		st = perfw_out_pipe_attr(o, &s->attrs[i], 128, err);
	if (st == TK_OK)
		st = rec_add_features(s, o, argc + 1, argv - 1, err);
	for (size_t i = 0; i < o->n_feats && st == TK_OK; i++) {
		const perfw_feature *f = &o->feats[i];
		if (f->id == TK_PERF_FEAT_TRACING_DATA)
			st = perfw_out_pipe_tracing(o, f->data, f->size, err);
		else
			st = perfw_out_pipe_feature(o, f->id, f->data, f->size, err);
	}
	for (size_t i = 0; i < s->opt->n_events && st == TK_OK; i++)
		st = pipe_event_name(o, &s->attrs[i], err);
	return st;
}

/* -t: the side-band of each thread's process (Tgid from /proc). */
static tk_status synth_targets(const rec_options *opt, perfw_out *o, rec_dsos *dsos, tk_error *err)
{
	if (!opt->threads_only)
		return rec_synth_procs(o, opt->pids, opt->n_pids,
				       (opt->dwarf_stack != 0) | REC_SYNTH_FORKS, dsos, NULL, err);
	tk_status st = TK_OK;
	for (size_t i = 0; i < opt->n_pids && st == TK_OK; i++) {
		char p[64], line[256];
		snprintf(p, sizeof p, "/proc/%d/status", (int)opt->pids[i]);
		FILE *f = fopen(p, "r");
		pid_t tgid = opt->pids[i];
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "Tgid:", 5) == 0)
				tgid = (pid_t)atoi(line + 5);
		if (f)
			fclose(f);
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= opt->pids[j] == tgid;
		if (!seen)
			st = rec_synth_procs(o, &tgid, 1, (opt->dwarf_stack != 0) | REC_SYNTH_FORKS,
					     dsos, NULL, err);
	}
	return st;
}

/* File mode: the attrs and ids right after the header and a header with
 * data size 0 (as perf writes while recording), so that a SIGKILLed
 * recording (its temporary file) is read up to its last complete record.
 * perfw_out_finish writes the final header, attrs and features as usual. */
static tk_status provisional_header(rec_session *s, perfw_out *o, tk_error *err)
{
	const uint32_t asz = 128;
	const uint64_t entry = asz + 16;
	size_t n = s->opt->n_events;
	uint64_t attrs_off = tk_writer_tell(o->w), ids_off = attrs_off + entry * n;
	uint8_t abuf[128 + 16];
	for (size_t i = 0; i < n; i++) {
		perfw_encode_attr(&s->attrs[i], asz, o->big, abuf);
		perfw_put64(o, abuf + asz, ids_off);
		perfw_put64(o, abuf + asz + 8, 8 * (uint64_t)s->attrs[i].n_ids);
		tk_put_mem(o->w, abuf, entry);
		ids_off += 8 * (uint64_t)s->attrs[i].n_ids;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s->attrs[i].n_ids; k++) {
			uint8_t v[8];
			perfw_put64(o, v, s->attrs[i].ids[k]);
			tk_put_mem(o->w, v, 8);
		}
	tk_status st = tk_writer_flush(o->w, err);
	if (st != TK_OK)
		return st;
	o->data_offset = tk_writer_tell(o->w);
	uint8_t h[104] = {0};
	memcpy(h, o->big ? "2ELIFREP" : "PERFILE2", 8);
	perfw_put64(o, h + 8, sizeof h);
	perfw_put64(o, h + 16, entry);
	perfw_put64(o, h + 24, attrs_off);
	perfw_put64(o, h + 32, entry * n);
	perfw_put64(o, h + 40, o->data_offset);
	if (o->w->fd >= 0 && pwrite(o->w->fd, h, sizeof h, 0) != (ssize_t)sizeof h)
		return tk_error_set(err, TK_ERR_IO, 0, "cannot write the perf.data header: %s",
				    strerror(errno));
	return TK_OK;
}

typedef struct rec_cli {
	rec_options opt;
	const char *output;
	bool quiet, compress;
	double duration;
	bool cpus_given, output_given;
	char **command;
	pid_t pid_buf[REC_MAX_CPUS];
	const char *to;         /* --to FORMAT through a converter child */
	const char *profile_db; /* --profile-db DIR */
	uint64_t epoch_s;       /* --epoch, seconds */
} rec_cli;

/* perf record's options; returns 0, or the exit status to use. */
static int parse_args(rec_cli *c, int argc, char **argv)
{
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
			break; /* COMMAND */
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(record_usage, stdout);
			return -1;
		}
		if (strcmp(a, "-g") == 0) {
			c->opt.callchain = true;
			continue;
		}
		if (strcmp(a, "-a") == 0 || strcmp(a, "--all-cpus") == 0) {
			c->opt.system_wide = true;
			continue;
		}
		if (strcmp(a, "--switch-events") == 0) {
			c->opt.switch_events = true;
			continue;
		}
		if (strcmp(a, "-z") == 0) {
			c->compress = true;
			continue;
		}
		if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			c->quiet = true;
			continue;
		}
		/* options with a value: -xVAL, -x VAL, --long=VAL, --long VAL */
		static const struct {
			char s;        /* short letter, or 0 */
			const char *l; /* long form */
			char key;
		} vopts[] = {
		    {'e', "--event", 'e'},      {'c', "--count", 'c'},   {'F', "--freq", 'F'},
		    {'C', "--cpu", 'C'},        {'p', "--pid", 'p'},     {'o', "--output", 'o'},
		    {'t', "--tid", 't'},        {0, "--duration", 'D'},  {0, "--call-graph", 'G'},
		    {'m', "--mmap-pages", 'm'}, {'k', "--clockid", 'k'}, {0, "--to", 'T'},
		    {0, "--profile-db", 'P'},   {0, "--epoch", 'E'}};
		char key = 0;
		const char *val = NULL;
		for (size_t k = 0; k < sizeof vopts / sizeof vopts[0] && !key; k++) {
			size_t ll = strlen(vopts[k].l);
			if (vopts[k].s && a[1] == vopts[k].s && a[0] == '-' && a[1] != '-') {
				key = vopts[k].key;
				val = a[2] ? a + 2 : NULL;
			} else if (strncmp(a, vopts[k].l, ll) == 0 && (!a[ll] || a[ll] == '=')) {
				key = vopts[k].key;
				val = a[ll] == '=' ? a + ll + 1 : NULL;
			}
		}
		if (!key)
			return usage_error("unknown option '%s'", a);
		if (!val) {
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value", a);
			val = argv[++i];
		}
		int rc;
		switch (key) {
		case 'e':
			if ((rc = add_events(&c->opt, val)) != 0)
				return rc;
			break;
		case 'c':
			if (!parse_u64(val, &c->opt.period))
				return usage_error("-c: not a positive count: %s", val);
			break;
		case 'F':
			if (!parse_u64(val, &c->opt.freq))
				return usage_error("-F: not a positive frequency: %s", val);
			break;
		case 'C':
			if (!parse_list(val, c->opt.cpus, &c->opt.n_cpus, REC_MAX_CPUS,
					REC_MAX_CPUS - 1))
				return usage_error("-C: not a CPU list: %s", val);
			c->cpus_given = true;
			break;
		case 't':
		case 'p': {
			int ids[REC_MAX_CPUS];
			size_t n;
			if (c->opt.n_pids)
				return usage_error("%s", "-p and -t: give one list");
			if (!parse_list(val, ids, &n, REC_MAX_CPUS, 0x3fffffff))
				return usage_error("-p/-t: not a list of ids: %s", val);
			c->opt.threads_only = key == 't';
			for (size_t k = 0; k < n; k++)
				c->pid_buf[k] = ids[k];
			c->opt.pids = c->pid_buf;
			c->opt.n_pids = n;
			break;
		}
		case 'o':
			c->output = val;
			c->output_given = true;
			break;
		case 'G':
			if (strcmp(val, "fp") == 0) {
				c->opt.callchain = true;
			} else if (strncmp(val, "dwarf", 5) == 0 && (!val[5] || val[5] == ',')) {
				uint64_t size = 8192; /* perf's default */
				if (val[5] &&
				    (!parse_u64(val + 6, &size) || size % 8 || size > 65528))
					return usage_error(
					    "--call-graph dwarf,SIZE: SIZE a multiple of "
					    "8 up to 65528: %s",
					    val);
				c->opt.dwarf_stack = (uint32_t)size;
			} else {
				return usage_error("--call-graph: fp or dwarf[,SIZE]: %s", val);
			}
			break;
		case 'm':
			if (!rec_mmap_pages_parse(val, sysconf(_SC_PAGESIZE), &c->opt.mmap_pages))
				return usage_error("-m: pages (a power of 2) or a size such as "
						   "512K: %s",
						   val);
			break;
		case 'k':
			if (!rec_clockid_parse(val, &c->opt.clockid))
				return usage_error("-k: unknown clock '%s' (monotonic, "
						   "monotonic_raw, realtime, boottime, tai)",
						   val);
			c->opt.use_clockid = true;
			break;
		case 'T':
			if (tk_format_from_name(val) == TK_FORMAT_UNKNOWN)
				return usage_error("--to: unknown format '%s'", val);
			c->to = strcmp(val, "perf") == 0 ? NULL : val;
			break;
		case 'P': c->profile_db = val; break;
		case 'E':
			if (!rec_epoch_parse(val, &c->epoch_s))
				return usage_error("--epoch: a duration such as 10m, 30s, 1h: %s",
						   val);
			break;
		case 'D': {
			char *end;
			c->duration = strtod(val, &end);
			if (end == val || *end || !(c->duration > 0) || c->duration > 1e9)
				return usage_error(
				    "--duration: not a positive number of seconds: %s", val);
			break;
		}
		}
	}
	if (c->opt.period && c->opt.freq)
		return usage_error("%s", "-c and -F exclude each other");
	if (c->to && c->profile_db)
		return usage_error("%s", "--to and --profile-db exclude each other");
	if (c->to && !c->output_given) /* -o -: formats convert streams to stdout */
		return usage_error("--to %s: give the output with -o", c->to);
	if (c->epoch_s && !c->profile_db)
		return usage_error("%s", "--epoch goes with --profile-db");
	if (c->profile_db && !c->epoch_s)
		c->epoch_s = 600; /* dcpid's 10 minutes */
	if (c->profile_db && c->output_given)
		return usage_error("%s", "--profile-db writes the database, not -o");
	c->command = i < argc ? argv + i : NULL;
	if (c->profile_db && !c->command && !c->opt.n_pids)
		c->opt.system_wide = true; /* dcpid's job: the whole system */
	if (!c->command && !c->opt.system_wide && !c->opt.n_pids && !c->cpus_given && !c->duration)
		return usage_error("%s", "nothing to record: give a COMMAND, -a, -C, -p or "
					 "--duration");
	if (c->cpus_given && !c->opt.n_pids)
		c->opt.system_wide = true; /* -C alone means every task on those CPUs */
	if (!c->command && !c->opt.n_pids && !c->opt.system_wide)
		c->opt.system_wide = true; /* --duration alone: the whole system */
	if (c->opt.n_pids && c->command)
		return usage_error("%s", "-p/-t and a COMMAND exclude each other");
	if (c->opt.n_pids && c->opt.system_wide)
		return usage_error("%s", "-p and -a/-C exclude each other");
	return 0;
}

/* One recording's state; with --profile-db the output is replaced at
 * each epoch while the counters and rings stay. */
typedef struct rec_run {
	rec_cli *c;
	rec_session s;
	perfw_out o;
	bool out_open, keepable;
	const char *path; /* the output perfw_out writes: FILE, "-", an epoch's */
	bool live;        /* the counters run while the output is (re)opened */
	int argc;
	char **argv;
} rec_run;

/* Opens r->path and writes what precedes the rings' data: the header (or
 * pipe-mode metadata), TIME_CONV, the kernel map, the processes. */
static tk_status open_output(rec_run *r, pid_t workload_pid, tk_error *err)
{
	const rec_cli *c = r->c;
	tk_status st = perfw_out_open(&r->o, r->path, !tk_host_is_le(), c->compress, err);
	if (st != TK_OK)
		return st;
	r->out_open = true;
	r->keepable = false;
	if (r->o.pipe)
		st = pipe_header(&r->s, &r->o, r->argc, r->argv, err);
	else if ((st = provisional_header(&r->s, &r->o, err)) == TK_OK)
		r->keepable = true;
	if (st == TK_OK) /* where perf puts it: after the pipe metadata, before the maps */
		st = rec_synth_time_conv(&r->s, &r->o, err);
	if (st == TK_OK)
		st = rec_synth_kernel(&r->o, err);
	if (st == TK_OK)
		st = rec_synth_modules(&r->o, err);
	if (st != TK_OK)
		return st;
	unsigned data_maps = c->opt.dwarf_stack != 0;
	if (c->opt.system_wide)
		st = rec_synth_procs(&r->o, NULL, 0, data_maps | REC_SYNTH_FORKS, &r->s.dsos,
				     r->live ? &r->s : NULL, err);
	else if (workload_pid)
		st = rec_synth_procs(&r->o, &workload_pid, 1, data_maps, &r->s.dsos, NULL, err);
	else
		st = synth_targets(&c->opt, &r->o, &r->s.dsos, err);
	/* out before the counters start: a recorder killed at once still
	 * leaves a readable (empty) recording, and a live reader its header */
	if (st == TK_OK)
		st = perfw_out_flush_batch(&r->o, err);
	return st == TK_OK ? tk_writer_flush(r->o.w, err) : st;
}

/* The features and the final header (file mode), or the end of the stream. */
static tk_status finish_output(rec_run *r, tk_error *err)
{
	tk_status st = TK_OK;
	if (!r->o.pipe)
		st = rec_add_features(&r->s, &r->o, r->argc + 1, r->argv - 1, err);
	if (st != TK_OK)
		return st;
	const tk_perf_attr *attrs[REC_MAX_EVENTS];
	for (size_t i = 0; i < r->c->opt.n_events; i++)
		attrs[i] = &r->s.attrs[i];
	st = perfw_out_finish(&r->o, attrs, r->c->opt.n_events, 128, err);
	r->out_open = false;
	return st;
}

/* Collects finished epoch folds; block: all of them. */
static void reap_folds(pid_t *folds, size_t *n, bool block, int *failed)
{
	for (size_t i = 0; i < *n;) {
		int ws;
		pid_t got = waitpid(folds[i], &ws, block ? 0 : WNOHANG);
		if (got < 0 && errno == EINTR)
			continue;
		if (got == 0) {
			i++;
			continue;
		}
		if (got < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
			*failed = 1;
		folds[i] = folds[--*n];
	}
}

int tk_cmd_record(int argc, char **argv)
{
	static rec_cli c; /* large (CPU and event tables) */
	memset(&c, 0, sizeof c);
	c.output = "perf.data";
	int rc = parse_args(&c, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!c.opt.n_events) {
		char msg[256];
		rec_event_parse("cpu-clock", &c.opt.events[0], msg, sizeof msg);
		c.opt.n_events = 1;
	}
	if (!c.cpus_given) {
		online_cpus(&c.opt);
	} else { /* an offline or absent CPU would fail later with ENODEV */
		static rec_options on;
		online_cpus(&on);
		for (size_t i = 0; i < c.opt.n_cpus; i++) {
			bool found = false;
			for (size_t k = 0; k < on.n_cpus; k++)
				found |= on.cpus[k] == c.opt.cpus[i];
			if (!found) {
				fprintf(stderr, "tracekit record: -C: CPU %d is not online\n",
					c.opt.cpus[i]);
				return TK_EXIT_USAGE;
			}
		}
	}

	struct sigaction sa = {0};
	sa.sa_handler = on_stop; /* no SA_RESTART: poll returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	/* a reader gone (-o - | head, a --to converter that failed) is a write
	 * error reported as such, not a silent death */
	signal(SIGPIPE, SIG_IGN);

	workload w = {0, -1, -1};
	if (c.command) {
		if (workload_prepare(&w, c.command, strcmp(c.output, "-") == 0) != 0)
			return 1;
		c.opt.workload = w.pid;
		/* counting starts at exec unless the whole system is recorded */
		c.opt.enable_on_exec = !c.opt.system_wide;
		if (c.opt.system_wide)
			c.opt.workload = 0;
	}

	tk_error err;
	tk_error_clear(&err);
	static rec_run r; /* the session's tables are large */
	memset(&r, 0, sizeof r);
	r.c = &c;
	r.argc = argc;
	r.argv = argv;
	r.path = c.output;
	int status = 0;
	bool kept = false;
	char epoch[16] = "";
	double epoch_end = 0;
	time_t epoch_t = 0; /* the current epoch's name, as a time */
	int fold_stdout = -1;
	pid_t fold_pid = -1;
	pid_t folds[64];
	size_t n_folds = 0;
	int fold_failed = 0;
	rec_converter cv = {-1, -1};
	tk_status st = rec_open(&r.s, &c.opt, &err);
	if (st == TK_OK && c.to) {
		if (rec_converter_start(&cv, c.to, c.output, c.quiet) != 0)
			st = tk_error_set(&err, TK_ERR_IO, TK_NO_OFFSET,
					  "cannot start the converter");
		r.path = "-";
	}
	if (st == TK_OK && c.profile_db) {
		if (mkdir(c.profile_db, 0777) != 0 && errno != EEXIST)
			st = tk_error_set(&err, TK_ERR_IO, TK_NO_OFFSET, "cannot create %s: %s",
					  c.profile_db, strerror(errno));
		epoch_t = rec_epoch_time(time(NULL), 0, c.epoch_s);
		rec_epoch_name(epoch_t, c.epoch_s, epoch);
		if (st == TK_OK &&
		    (fold_pid = rec_fold_start(c.profile_db, epoch, &fold_stdout)) < 0)
			st = tk_error_set(&err, TK_ERR_IO, TK_NO_OFFSET, "cannot start the fold");
		r.path = "-";
		epoch_end = now_s() + (double)c.epoch_s;
	}
	if (st == TK_OK)
		st = open_output(&r, w.pid, &err);
	if (st == TK_OK && !c.opt.enable_on_exec)
		st = rec_enable(&r.s, &err);
	if (st == TK_OK && w.pid) {
		int e = workload_start(&w);
		if (e) {
			fprintf(stderr, "tracekit record: cannot run '%s': %s\n", c.command[0],
				strerror(e));
			st = TK_ERR_IO;
			status = 127;
			r.keepable = false; /* nothing was recorded: no file */
			waitpid(w.pid, NULL, 0);
			w.pid = 0;
		}
	}
	double deadline = c.duration ? now_s() + c.duration : 0;
	while (st == TK_OK && !stop_signal) {
		int timeout = 100;
		if (deadline) {
			double left = deadline - now_s();
			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		bool gone = rec_wait(&r.s, timeout);
		if ((st = rec_drain(&r.s, &r.o, &err)) != TK_OK)
			break;
		if (epoch_end && now_s() >= epoch_end) {
			/* the epoch's stream ends: its child folds it while the next
			 * one goes to a new child (side-band synthesized again: each
			 * stream is read on its own) */
			if ((st = finish_output(&r, &err)) != TK_OK)
				break;
			rec_fold_end(&fold_stdout);
			reap_folds(folds, &n_folds, false, &fold_failed);
			if (n_folds == sizeof folds / sizeof folds[0]) /* folds that slow: wait */
				reap_folds(folds, &n_folds, true, &fold_failed);
			folds[n_folds++] = fold_pid;
			/* a name of its own: one already used would have this
			 * fold's profiles replace the last one's */
			epoch_t = rec_epoch_time(time(NULL), epoch_t, c.epoch_s);
			rec_epoch_name(epoch_t, c.epoch_s, epoch);
			if ((fold_pid = rec_fold_start(c.profile_db, epoch, &fold_stdout)) < 0) {
				st = tk_error_set(&err, TK_ERR_IO, TK_NO_OFFSET,
						  "cannot start the fold");
				break;
			}
			epoch_end += (double)c.epoch_s;
			if (epoch_end < now_s()) /* the recorder was held up: no empty epochs */
				epoch_end = now_s() + (double)c.epoch_s;
			r.live = true;
			if ((st = open_output(&r, w.pid, &err)) != TK_OK)
				break;
		}
		if (gone && !c.opt.system_wide && !w.pid)
			break; /* every -p/-t task exited, as perf record stops */
		if (w.pid && child_changed) {
			child_changed = 0;
			int ws;
			if (waitpid(w.pid, &ws, WNOHANG) == w.pid) {
				w.pid = 0;
				if (WIFSIGNALED(ws) && !c.quiet)
					fprintf(stderr, "tracekit record: %s killed by signal %d\n",
						c.command[0], WTERMSIG(ws));
				break;
			}
		}
		if (n_folds)
			reap_folds(folds, &n_folds, false, &fold_failed);
	}
	rec_disable(&r.s);
	if (st == TK_OK)
		st = rec_drain(&r.s, &r.o, &err);
	if (w.go_fd >= 0) { /* never started: it reads EOF and exits */
		close(w.go_fd);
		w.go_fd = -1;
	}
	if (w.pid) { /* stopped by a signal or --duration: end the workload too */
		kill(w.pid, SIGTERM);
		waitpid(w.pid, NULL, 0);
		w.pid = 0;
	}
	if (w.err_fd >= 0)
		close(w.err_fd);
	if (st == TK_OK)
		st = finish_output(&r, &err);
	/* a failed write (disk full): keep what was written, as an unfinished
	 * recording (data size 0), rather than nothing */
	if (r.out_open && r.keepable && st == TK_ERR_IO && r.o.w && r.o.w->tmp_path &&
	    r.o.w->path && rename(r.o.w->tmp_path, r.o.w->path) == 0) {
		free(r.o.w->tmp_path);
		r.o.w->tmp_path = NULL;
		kept = true;
	}
	if (r.out_open)
		perfw_out_abort(&r.o);
	if (cv.pid > 0) {
		int crc = rec_converter_finish(&cv);
		if (crc != 0) { /* its reason is on stderr already; ours (EPIPE) follows from it */
			tk_error_clear(&err);
			st = tk_error_set(
			    &err, TK_ERR_IO, TK_NO_OFFSET,
			    "the conversion to %s (tracekit convert) failed with exit %d", c.to,
			    crc);
			if (crc == TK_EXIT_USAGE) /* convert refused the options (-o - for ctf) */
				status = TK_EXIT_USAGE;
		}
	}
	if (fold_pid > 0) { /* the last epoch: its stream ends, its child writes it */
		rec_fold_end(&fold_stdout);
		if (n_folds == sizeof folds / sizeof folds[0])
			reap_folds(folds, &n_folds, true, &fold_failed);
		folds[n_folds++] = fold_pid;
	}
	reap_folds(folds, &n_folds, true, &fold_failed);
	uint64_t samples = r.s.samples, lost = r.s.lost;
	rec_close(&r.s);
	if (st == TK_OK && fold_failed)
		st = tk_error_set(&err, TK_ERR_IO, TK_NO_OFFSET,
				  "an epoch could not be written into the profile database");
	if (st != TK_OK) {
		if (status)
			return status;
		int fail_rc = tk_cli_fail(&err, c.output);
		if (kept)
			fprintf(stderr,
				"tracekit record: the data written before the failure is in "
				"%s, "
				"an unfinished recording (readers stop at its last complete "
				"record)\n",
				r.path);
		return fail_rc;
	}
	if (lost)
		fprintf(stderr, "tracekit record: warning: %llu records lost (ring buffers full)\n",
			(unsigned long long)lost);
	if (!c.quiet) {
		struct stat sb;
		const char *where = c.profile_db ? c.profile_db : c.output;
		double mb =
		    !c.to && !c.profile_db && strcmp(c.output, "-") != 0 && stat(c.output, &sb) == 0
			? (double)sb.st_size / 1048576.0
			: 0;
		if (c.to || c.profile_db)
			fprintf(stderr, "[ tracekit record: wrote %s (%llu samples) ]\n", where,
				(unsigned long long)samples);
		else
			fprintf(stderr, "[ tracekit record: wrote %.3f MB %s (%llu samples) ]\n",
				mb, c.output, (unsigned long long)samples);
	}
	return 0;
}
