/* Shared pieces of the SQLite virtual tables (see include/tracekit/sql.h).
 *
 * One tk_sql_ctx per connection (the module's client data) holds every
 * input named by a table, so the tables of one file share one set of
 * derived rows (threads, frames, sched slices ...), built on the first
 * scan that needs them and kept until the connection closes. The event
 * tables stream from a tk_source instead and keep nothing. */
#ifndef TK_SQL_INTERNAL_H
#define TK_SQL_INTERNAL_H

#ifdef TK_HAVE_SQLITE

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "tracekit/sql.h"
#include "tracekit/tracekit.h"

/* Tables. The order is the order tk_sql_attach creates them in. */
typedef enum tk_sql_kind {
	TK_SQL_EVENT,
	TK_SQL_SAMPLE,
	TK_SQL_STACK_FRAME,
	TK_SQL_CALLSITE,
	TK_SQL_THREAD,
	TK_SQL_PROCESS,
	TK_SQL_MAPPING,
	TK_SQL_TRACK,
	TK_SQL_COUNTER,
	TK_SQL_SCHED,
	TK_SQL_PROFILE,
	TK_SQL_THREAD_STATE,
	TK_SQL_N_DERIVED, /* event_<class>: a per-class event table */
	TK_SQL_CLASS = TK_SQL_N_DERIVED,
} tk_sql_kind;

/* A growable array of elem-sized items. */
typedef struct tk_sql_vec {
	void *v;
	size_t n, cap;
} tk_sql_vec;

/* Pointer to a new zeroed item at the end, NULL when out of memory. */
void *tk_sql_vec_push(tk_sql_vec *vec, size_t elem);
#define TK_SQL_AT(vec, type, i) (&((type *)(vec).v)[i])

/* Interned NUL-terminated strings; pointers live as long as the pool. */
typedef struct tk_sql_strings {
	tk_arena arena;
	tk_hashmap by_hash; /* FNV-1a -> index + 1 into list (probing on clash) */
	tk_sql_vec list;    /* const char * */
} tk_sql_strings;

void tk_sql_strings_init(tk_sql_strings *s);
void tk_sql_strings_free(tk_sql_strings *s);
/* NULL when out of memory. */
const char *tk_sql_intern(tk_sql_strings *s, const char *str, size_t len);

typedef struct tk_sql_sample {
	uint64_t ts, period, ip;
	int64_t callsite; /* -1: none */
	int32_t cpu, pid, tid;
	uint32_t event; /* index into tk_sql_derived.event_names */
	bool has_ts;
} tk_sql_sample;

typedef struct tk_sql_frame {
	const char *name; /* NULL: no symbol */
	const char *dso;
	const void *image; /* the pass's image object (NULL: no map) */
	uint64_t address, sym_offset;
} tk_sql_frame;

typedef struct tk_sql_callsite {
	int64_t parent; /* -1: a root */
	uint32_t depth;
	uint32_t frame;
} tk_sql_callsite;

typedef struct tk_sql_thread {
	int32_t tid, pid;
	const char *name;
	uint64_t start_ts, end_ts;
	bool has_start, has_end;
	int64_t upid;    /* -1: unknown */
	const void *src; /* the pass's own thread object, while it runs */
} tk_sql_thread;

typedef struct tk_sql_process {
	int32_t pid;
	const char *name;
	const char *cmdline;
} tk_sql_process;

typedef struct tk_sql_mapping {
	uint64_t start, end, pgoff;
	const char *dso;
	const char *build_id; /* hex or NULL */
	int32_t pid;          /* -1: the kernel's maps */
} tk_sql_mapping;

typedef struct tk_sql_track {
	const char *name;
	const char *type; /* "cpu", "stream", "cpel", "counter" */
} tk_sql_track;

typedef struct tk_sql_counter {
	uint64_t ts;
	uint32_t track;
	double value;
} tk_sql_counter;

typedef struct tk_sql_sched {
	uint64_t ts, dur;
	int32_t cpu, tid, priority;
	const char *end_state; /* NULL: the slice ran to the end of the trace */
	bool has_priority;
} tk_sql_sched;

typedef struct tk_sql_thread_state {
	uint64_t ts, dur;
	int32_t cpu, tid;  /* cpu -1: not on a CPU */
	const char *state; /* "Running", or the task state letters (R: runnable) */
} tk_sql_thread_state;

typedef struct tk_sql_profile_row {
	const char *image;
	const char *event;
	uint64_t offset, count;
} tk_sql_profile_row;

/* Groups of derived rows, each built by one pass over the input. */
enum {
	TK_SQL_GROUP_PERF = 1,  /* sample .. mapping, from perf's records */
	TK_SQL_GROUP_MODEL = 2, /* track, counter, sched (+ thread/process off perf) */
	TK_SQL_GROUP_DCPI = 4,  /* profile */
};

typedef struct tk_sql_derived {
	tk_sql_strings strings;
	tk_sql_vec event_names; /* const char *, sample.event */
	tk_sql_vec samples, frames, callsites, threads, processes, mappings;
	tk_sql_vec tracks, counters, sched, profile, thread_state;
	tk_hashmap frame_by_key, callsite_by_key, track_by_key, thread_by_tid, process_by_pid;
} tk_sql_derived;

typedef struct tk_sql_input {
	char *path;
	tk_format format; /* detected when first needed */
	unsigned built;   /* TK_SQL_GROUP_* done */
	tk_sql_derived d;
	/* per derived table: 0 not checked, 1 rows in ts order, 2 not */
	uint8_t ts_sorted[TK_SQL_N_DERIVED];
	/* The first failed build, replayed to every later scan. */
	bool failed;
	tk_error err;
} tk_sql_input;

typedef struct tk_sql_ctx {
	tk_sql_options opt;
	tk_sql_vec inputs; /* tk_sql_input * */
	/* the source whose classes name the columns of event_<class> tables */
	char *class_path;
	tk_source *class_src;
} tk_sql_ctx;

/* The input for path, created on first use (NULL when out of memory). */
tk_sql_input *tk_sql_input_get(tk_sql_ctx *ctx, const char *path);
void tk_sql_input_free(tk_sql_input *in);
/* Builds the groups a table needs; TK_OK or the (remembered) error. */
tk_status tk_sql_input_build(tk_sql_ctx *ctx, tk_sql_input *in, tk_sql_kind kind, tk_error *err);
/* Number of rows of a derived table for one input (after the build). */
size_t tk_sql_derived_count(const tk_sql_input *in, tk_sql_kind kind);

/* The passes (sql_perf_pass.c, sql_model_pass.c, sql_dcpi_pass.c). */
tk_status tk_sql_perf_pass(tk_sql_ctx *ctx, tk_sql_input *in, tk_error *err);
tk_status tk_sql_model_pass(tk_sql_ctx *ctx, tk_sql_input *in, tk_error *err);
tk_status tk_sql_dcpi_pass(tk_sql_input *in, tk_error *err);

/* Per-table description of the derived tables (sql_tables.c). */
typedef struct tk_sql_table_def {
	const char *name;
	const char *columns; /* inside CREATE TABLE x(...) */
	int id_col;          /* column whose value is the row's id (-1: none) */
	int ts_col;          /* column ts, when rows come in time order (-1: none) */
	/* Row values. base[k] is the id offset of table k for this input (rows
	 * of several inputs are numbered one after the other). */
	void (*column)(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		       sqlite3_context *ctx);
} tk_sql_table_def;

const tk_sql_table_def *tk_sql_table_def_of(tk_sql_kind kind);
/* Kind by table name ("event", "sample", ...); -1 when unknown. */
int tk_sql_kind_of(const char *name);

/* The error as the CLI prints it, without "tracekit: ". sqlite3_malloc'd. */
char *tk_sql_error_text(const tk_error *err, const char *path);

/* One virtual table of the module. */
typedef struct tk_sql_vtab {
	sqlite3_vtab base;
	tk_sql_ctx *ctx;
	tk_sql_kind kind;
	tk_sql_input **inputs;
	size_t n_inputs;
	/* event tables: names kept for the statement's lifetime (results are
	 * handed to SQLite without a copy) */
	tk_sql_strings names;
	/* TK_SQL_CLASS: the class name and its payload member names (the
	 * columns after ts, cpu, pid, tid) */
	char *class_name;
	uint64_t class_id, class_stream_id; /* two classes may share a name */
	bool want_class_id;                 /* 'class_id=S/I' chose one of them */
	char **members;
	size_t n_members;
	double file_bytes; /* size of the inputs, for cost estimates */
	bool seekable;     /* every input is CTF: a ts range skips packets */
} tk_sql_vtab;

/* Event tables (sql_event.c): `event` and event_<class>. */
int tk_sql_event_best_index(tk_sql_vtab *vt, sqlite3_index_info *info);
int tk_sql_event_open(tk_sql_vtab *vt, sqlite3_vtab_cursor **out);
/* Derived tables (sql_derived.c). */
int tk_sql_derived_best_index(tk_sql_vtab *vt, sqlite3_index_info *info);
int tk_sql_derived_open(tk_sql_vtab *vt, sqlite3_vtab_cursor **out);

/* Cursor methods dispatch through this table, set by the open functions. */
typedef struct tk_sql_cursor_ops {
	int (*close)(sqlite3_vtab_cursor *);
	int (*filter)(sqlite3_vtab_cursor *, int, const char *, int, sqlite3_value **);
	int (*next)(sqlite3_vtab_cursor *);
	int (*eof)(sqlite3_vtab_cursor *);
	int (*column)(sqlite3_vtab_cursor *, sqlite3_context *, int);
	int (*rowid)(sqlite3_vtab_cursor *, sqlite3_int64 *);
} tk_sql_cursor_ops;

typedef struct tk_sql_cursor {
	sqlite3_vtab_cursor base;
	const tk_sql_cursor_ops *ops;
} tk_sql_cursor;

/* Sets the vtab's error message from err (the query then fails with it). */
int tk_sql_vtab_fail(tk_sql_vtab *vt, const tk_error *err, const char *path);

/* Args as JSON (sql_args.c): contexts then payload, into a growable buffer. */
typedef struct tk_writer tk_writer;
void tk_sql_args_json(tk_writer *w, const tk_event *ev);
/* One value as an SQLite result (ints, floats, text; others as JSON). */
void tk_sql_result_value(sqlite3_context *ctx, const tk_value *v, tk_writer *scratch);

#endif /* TK_HAVE_SQLITE */
#endif
