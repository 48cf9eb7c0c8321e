/* The DCPI model adapter; see dcpi_source.h. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "dcpi/dcpi_cursor.h"
#include "dcpi/dcpi_source.h"
#include "model/source_impl.h"

static const tk_field_class str_class = {.kind = TK_TYPE_STRING};
static const tk_field_class addr_class = {
    .kind = TK_TYPE_INT, .semantic = TK_SEM_IP, .bits = 64, .base = 16};
static const tk_field_class count_class = {.kind = TK_TYPE_INT, .bits = 64, .base = 10};
static const tk_member payload_members[] = {
    {"image", &str_class},
    {"address", &addr_class},
    {"count", &count_class},
};
static const tk_field_class payload_class = {
    .kind = TK_TYPE_STRUCT,
    .members = payload_members,
    .n_members = 3,
};

typedef struct dcpi_source {
	tk_source base;
	char **paths;
	size_t n_paths, next_path;
	tk_dcpi_profile *cur;      /* profile being read, or NULL */
	const tk_event_class *cls; /* its class */
	tk_dcpi_cursor cursor;     /* over its counts */
	tk_arena classes;
	tk_env_entry env[12];
	tk_value values[3];
	tk_value payload;
	tk_event ev;
} dcpi_source;

/* One class per distinct event name; profiles of one event share it. */
static const tk_event_class *class_for(dcpi_source *s, const char *event)
{
	const tk_trace_info *info = &s->base.info;
	for (size_t i = 0; i < info->n_event_classes; i++)
		if (strcmp(info->event_classes[i]->name, event) == 0)
			return info->event_classes[i];
	tk_event_class *k = tk_arena_calloc(&s->classes, 1, sizeof *k);
	char *name = tk_arena_strdup(&s->classes, event);
	if (!k || !name)
		return NULL;
	k->id = info->n_event_classes;
	k->name = name;
	k->loglevel = -1;
	k->payload = &payload_class;
	return tk_source_add_class(&s->base, k) ? k : NULL;
}

static tk_status open_next_profile(dcpi_source *s, tk_error *err)
{
	tk_dcpi_close(s->cur);
	s->cur = NULL;
	if (s->next_path >= s->n_paths)
		return TK_END;
	tk_status st = tk_dcpi_open(s->paths[s->next_path++], &s->cur, err);
	if (st != TK_OK)
		return st;
	const tk_dcpi_header *h = tk_dcpi_profile_header(s->cur);
	if (!(s->cls = class_for(s, h->event)))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	const char *image = h->path ? h->path : h->image;
	s->values[0] = (tk_value){.cls = &str_class, .v.str = {image, strlen(image)}};
	s->ev.stream_instance = s->next_path - 1;
	s->cursor = (tk_dcpi_cursor){.p = s->cur};
	return TK_OK;
}

static tk_status dcpi_next(tk_source *src, const tk_event **out, tk_error *err)
{
	dcpi_source *s = (dcpi_source *)src;
	for (;;) {
		if (!s->cur) {
			tk_status st = open_next_profile(s, err);
			if (st != TK_OK)
				return st;
		}
		tk_status st = tk_dcpi_cursor_next(&s->cursor, err);
		if (st == TK_OK) {
			s->values[1].v.u = s->cursor.addr;
			s->values[2].v.u = s->cursor.count;
			s->ev.cls = s->cls;
			s->ev.offset = s->cursor.offset;
			*out = &s->ev;
			return TK_OK;
		}
		if (st != TK_END)
			return st;
		tk_dcpi_close(s->cur);
		s->cur = NULL;
	}
}

static void dcpi_close_source(tk_source *src)
{
	dcpi_source *s = (dcpi_source *)src;
	tk_dcpi_close(s->cur);
	tk_dcpi_db_free_list(s->paths, s->n_paths);
	tk_arena_free(&s->classes);
	tk_source_classes_free(&s->base);
	free(s);
}

static const tk_source_ops dcpi_source_ops = {dcpi_next, dcpi_close_source};

static void env_str(dcpi_source *s, size_t *n, const char *key, const char *value)
{
	if (value && *n < sizeof s->env / sizeof s->env[0])
		s->env[(*n)++] =
		    (tk_env_entry){.key = key, .str = tk_arena_strdup(&s->classes, value)};
}

static void env_int(dcpi_source *s, size_t *n, const char *key, uint64_t value)
{
	if (*n < sizeof s->env / sizeof s->env[0])
		s->env[(*n)++] = (tk_env_entry){.key = key, .is_int = true, .i = (int64_t)value};
}

tk_status tk_dcpi_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err)
{
	(void)opt;
	*out = NULL;
	dcpi_source *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	s->base.ops = &dcpi_source_ops;
	tk_arena_init(&s->classes, 4096);
	s->base.info.format = TK_FORMAT_DCPI;
	s->base.info.name = tk_arena_strdup(&s->classes, path);
	s->values[1].cls = &addr_class;
	s->values[2].cls = &count_class;
	s->payload = (tk_value){.cls = &payload_class, .v.list = {s->values, 3, 0}};
	s->ev = (tk_event){
	    .cpu = TK_CPU_NONE, .pid = TK_PID_NONE, .tid = TK_PID_NONE, .payload = &s->payload};
	tk_status st = tk_dcpi_db_list(path, &s->paths, &s->n_paths, err);
	/* Open the first profile now: a bad file fails at open, and a single
	 * profile's header becomes the trace environment. */
	if (st == TK_OK)
		st = open_next_profile(s, err);
	if (st != TK_OK) {
		dcpi_close_source(&s->base);
		return st == TK_END
			   ? tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "no profiles")
			   : st;
	}
	size_t n = 0;
	if (s->n_paths == 1) {
		const tk_dcpi_header *h = tk_dcpi_profile_header(s->cur);
		env_str(s, &n, "version", h->version);
		env_str(s, &n, "image", h->image);
		env_str(s, &n, "path", h->path);
		env_str(s, &n, "epoch", h->epoch);
		env_str(s, &n, "platform", h->platform);
		env_str(s, &n, "event", h->event);
		env_int(s, &n, "period", h->period);
		env_int(s, &n, "tstart", h->tstart);
		env_int(s, &n, "tsize", h->tsize);
		env_int(s, &n, "cpuspeed", h->cpuspeed);
	} else {
		env_int(s, &n, "profiles", s->n_paths);
	}
	s->base.info.env = s->env;
	s->base.info.n_env = n;
	*out = &s->base;
	return TK_OK;
}
