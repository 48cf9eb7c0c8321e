/* Opening perf.data: file header, attrs section, feature sections, pipe
 * header, `perf record --threads` directories; accessors and close. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perf/perf_internal.h"

#define FILE_HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16

static tk_perf_file *file_new(const char *name, const tk_perf_open_options *opt)
{
	tk_perf_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	if (opt)
		f->opt = *opt;
	snprintf(f->name, sizeof f->name, "%s", name ? name : "");
	tk_arena_init(&f->meta, 64 * 1024);
	tk_hashmap_init(&f->id_to_attr);
	f->id_pos = f->is_pos = -1;
	f->hdr.file_size = UINT64_MAX;
	return f;
}

static tk_status add_input(tk_perf_file *f, tk_input *in, const char *path, tk_error *err)
{
	perf_input *ni = realloc(f->inputs, (f->n_inputs + 1) * sizeof *ni);
	if (!ni) {
		tk_input_close(in);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	f->inputs = ni;
	perf_input *pi = &f->inputs[f->n_inputs++];
	memset(pi, 0, sizeof *pi);
	pi->in = in;
	pi->map = tk_input_data(in);
	pi->path = strdup(path ? path : "");
	pi->end = tk_input_size(in);
	return TK_OK;
}

/* Attrs section: attr_size-byte entries = attr + {offset, size} of its ids. */
static tk_status read_attrs(tk_perf_file *f, const uint8_t *map, uint64_t fsize, tk_error *err)
{
	const tk_perf_header *h = &f->hdr;
	if (h->attrs_size == 0)
		return TK_OK;
	if (h->attr_size < TK_PERF_ATTR_MIN_SIZE + 16)
		return tk_error_set(err, TK_ERR_FORMAT, 16,
				    "attr size %llu is smaller than the minimum %d",
				    (unsigned long long)(h->attr_size < 16 ? 0 : h->attr_size - 16),
				    TK_PERF_ATTR_MIN_SIZE);
	if (h->attrs_size % h->attr_size)
		tk_perf_warn(f, "attrs section size %llu is not a multiple of %llu",
			     (unsigned long long)h->attrs_size, (unsigned long long)h->attr_size);
	uint64_t n = h->attrs_size / h->attr_size;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = h->attrs_offset + i * h->attr_size;
		const uint8_t *p = map + off;
		size_t asz = (size_t)(h->attr_size - 16);
		tk_perf_attr a;
		tk_perf_attr_decode(p, asz, f->swap, &a);
		if (a.size != 0 && a.size < TK_PERF_ATTR_MIN_SIZE)
			return tk_error_set(err, TK_ERR_FORMAT, off + 4,
					    "attr %llu: size %u is smaller than %d",
					    (unsigned long long)i, a.size, TK_PERF_ATTR_MIN_SIZE);
		uint64_t ids_off = tk_load_u64(p + asz, f->swap);
		uint64_t ids_size = tk_load_u64(p + asz + 8, f->swap);
		if (!tk_range_ok(ids_off, ids_size, fsize))
			return tk_error_set(
			    err, TK_ERR_FORMAT, off + asz,
			    "attr %llu: ids section [0x%llx, +%llu) is outside the file",
			    (unsigned long long)i, (unsigned long long)ids_off,
			    (unsigned long long)ids_size);
		if (!tk_perf_add_attr(f, &a, map + ids_off, (size_t)(ids_size / 8), f->swap, off,
				      err))
			return err ? err->status : TK_ERR_NOMEM;
	}
	return TK_OK;
}

static tk_status check_section(const char *what, uint64_t field_off, uint64_t off, uint64_t size,
			       uint64_t fsize, tk_error *err)
{
	if (!tk_range_ok(off, size, fsize))
		return tk_error_set(
		    err, TK_ERR_TRUNCATED, field_off,
		    "%s section [0x%llx, +%llu) runs past the end of the file (%llu bytes)", what,
		    (unsigned long long)off, (unsigned long long)size, (unsigned long long)fsize);
	return TK_OK;
}

/* Whether the feature table after the data section holds a plausible entry
 * per feature bit (each section after the table and inside the file): a
 * finished recording with no data has one, a killed one has records there. */
static bool feature_table_ok(const tk_perf_file *f, const uint8_t *m, uint64_t fsize)
{
	const tk_perf_header *h = &f->hdr;
	uint64_t n = 0;
	for (int i = 0; i < 4; i++)
		n += (uint64_t)__builtin_popcountll(h->features[i]);
	uint64_t table = h->data_offset + h->data_size;
	if (n == 0 || !tk_range_ok(table, 16 * n, fsize))
		return n == 0 && table == fsize;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = tk_load_u64(m + table + 16 * i, f->swap);
		uint64_t size = tk_load_u64(m + table + 16 * i + 8, f->swap);
		if (off < table + 16 * n || !tk_range_ok(off, size, fsize))
			return false;
	}
	return true;
}

static tk_status parse_header(tk_perf_file *f, tk_error *err)
{
	perf_input *pi = &f->inputs[0];
	const uint8_t *p;
	tk_status st = tk_input_fetch(pi->in, 0, PIPE_HEADER_SIZE, &p, err);
	if (st == TK_END)
		return tk_error_set(err, TK_ERR_TRUNCATED, 0, "empty file");
	if (st != TK_OK)
		return st;
	tk_perf_header *h = &f->hdr;
	if (memcmp(p, "PERFILE2", 8) == 0) {
		h->big_endian = false;
	} else if (memcmp(p, "2ELIFREP", 8) == 0) {
		h->big_endian = true;
	} else if (memcmp(p, "PERFFILE", 8) == 0) {
		return tk_error_set(err, TK_ERR_UNSUPPORTED, 0,
				    "perf.data version 1 (PERFFILE) is not supported");
	} else {
		return tk_error_set(err, TK_ERR_FORMAT, 0, "not a perf.data file (bad magic)");
	}
	f->swap = h->big_endian == tk_host_is_le();
	h->swap = f->swap;
	h->header_size = tk_load_u64(p + 8, f->swap);
	if (h->header_size == PIPE_HEADER_SIZE) {
		h->pipe_mode = true;
		pi->pos = PIPE_HEADER_SIZE;
		pi->end = tk_input_size(pi->in); /* UINT64_MAX for streams */
		h->data_offset = PIPE_HEADER_SIZE;
		return TK_OK;
	}
	if (!pi->map)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, 8,
				    "file-mode perf.data cannot be read from a pipe");
	uint64_t fsize = tk_input_size(pi->in);
	h->file_size = fsize;
	if (h->header_size < FILE_HEADER_SIZE)
		return tk_error_set(err, TK_ERR_FORMAT, 8, "header size %llu is smaller than %d",
				    (unsigned long long)h->header_size, FILE_HEADER_SIZE);
	if (fsize < FILE_HEADER_SIZE)
		return tk_error_set(err, TK_ERR_TRUNCATED, fsize,
				    "file ends inside the %d-byte header", FILE_HEADER_SIZE);
	const uint8_t *m = pi->map;
	h->attr_size = tk_load_u64(m + 16, f->swap);
	h->attrs_offset = tk_load_u64(m + 24, f->swap);
	h->attrs_size = tk_load_u64(m + 32, f->swap);
	h->data_offset = tk_load_u64(m + 40, f->swap);
	h->data_size = tk_load_u64(m + 48, f->swap);
	h->event_types_offset = tk_load_u64(m + 56, f->swap);
	h->event_types_size = tk_load_u64(m + 64, f->swap);
	for (int i = 0; i < 4; i++)
		h->features[i] = tk_load_u64(m + 72 + 8 * i, f->swap);
	if ((st = check_section("attrs", 24, h->attrs_offset, h->attrs_size, fsize, err)) != TK_OK)
		return st;
	uint64_t data_end = h->data_offset + h->data_size;
	if (h->data_offset <= fsize && h->data_size == 0 && !feature_table_ok(f, m, fsize)) {
		/* perf record writes the data size and the feature sections when
		 * it exits: killed, it leaves 0 and the features unwritten */
		f->unfinished = true;
		data_end = fsize;
		tk_perf_warn(f, "the recording was not finished (data size 0 in the header; was "
				"perf record killed?): reading its data up to the last complete "
				"record, without the feature sections it never wrote");
	} else if (h->data_offset <= fsize && data_end > fsize && data_end >= h->data_offset) {
		/* cut short (head -c, a full disk): every complete record is read,
		 * then the truncation is the error */
		f->data_truncated = true;
		f->data_declared_end = data_end;
		data_end = fsize;
	} else if ((st = check_section("data", 40, h->data_offset, h->data_size, fsize, err)) !=
		   TK_OK) {
		return st;
	}
	if (!tk_range_ok(h->event_types_offset, h->event_types_size, fsize))
		tk_perf_warn(f, "event_types section lies outside the file; ignored");
	if ((st = read_attrs(f, m, fsize, err)) != TK_OK)
		return st;
	pi->pos = h->data_offset;
	pi->end = data_end;
	if (f->unfinished || f->data_truncated) {
		/* the feature table follows the data: not there, or not written */
		memset(h->features, 0, sizeof h->features);
		return TK_OK;
	}
	return tk_perf_read_features(f, err);
}

static int cmp_suffix(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a + 5, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b + 5, NULL, 10);
	return x < y ? -1 : x > y;
}

/* perf record --threads: DIR/data (header, metadata) + DIR/data.N (records). */
static tk_status open_directory(tk_perf_file *f, const char *dir, tk_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/data", dir);
	tk_input *in;
	tk_status st = tk_input_open(path, &in, err);
	if (st != TK_OK)
		return st;
	if ((st = add_input(f, in, path, err)) != TK_OK)
		return st;
	f->hdr.is_directory = true;
	DIR *d = opendir(dir);
	if (!d)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot list %s: %s", dir,
				    strerror(errno));
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		const char *s = de->d_name;
		if (strncmp(s, "data.", 5) != 0 || !s[5] ||
		    strspn(s + 5, "0123456789") != strlen(s + 5))
			continue;
		if (n >= TK_PERF_MAX_INPUTS)
			break;
		char **nn = realloc(names, (n + 1) * sizeof *nn);
		if (!nn || !(nn[n] = strdup(s))) {
			free(nn ? nn : names);
			closedir(d);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_suffix);
	for (size_t i = 0; i < n && st == TK_OK; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		st = tk_input_open(path, &in, err);
		if (st == TK_OK)
			st = add_input(f, in, path, err);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	tk_error_set_file(err, f->name);
	return st;
}

static tk_status finish_open(tk_perf_file *f, tk_error *err)
{
	tk_status st = parse_header(f, err);
	if (st != TK_OK)
		return st;
	for (size_t i = 1; i < f->n_inputs; i++) {
		perf_input *pi = &f->inputs[i];
		if (!pi->map)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "%s is not a regular file", pi->path);
		pi->pos = 0;
		pi->end = tk_input_size(pi->in);
	}
	tk_perf_name_attrs(f, !f->hdr.pipe_mode);
	/* perf script falls back to file order for a file whose (first) attr
	 * lacks sample_id_all (session.c: "No sample_id_all support, falling
	 * back to unordered processing"); pipe mode has no attrs yet there. */
	if (!f->hdr.pipe_mode && f->n_attrs &&
	    !tk_perf_attr_flag(f->attrs[0], TK_PERF_ATTR_SAMPLE_ID_ALL)) {
		if (!f->opt.raw_order)
			tk_perf_warn(f, "no sample_id_all: records keep file order, as perf does");
		f->opt.raw_order = true;
	}
	return TK_OK;
}

tk_status tk_perf_open(const char *path, const tk_perf_open_options *opt, tk_perf_file **out,
		       tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	tk_perf_file *f = file_new(path, opt);
	if (!f)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	struct stat sb;
	tk_status st;
	if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		st = open_directory(f, path, err);
	} else {
		tk_input *in;
		st = tk_input_open(path, &in, err);
		if (st == TK_OK)
			st = add_input(f, in, path, err);
	}
	if (st == TK_OK)
		st = finish_open(f, err);
	if (st != TK_OK) {
		tk_perf_close(f);
		return st;
	}
	*out = f;
	return TK_OK;
}

tk_status tk_perf_open_memory(const void *data, size_t size, const char *name,
			      const tk_perf_open_options *opt, tk_perf_file **out, tk_error *err)
{
	*out = NULL;
	tk_perf_file *f = file_new(name, opt);
	if (!f)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_input *in;
	tk_status st = tk_input_open_memory(data, size, name, &in, err);
	if (st == TK_OK)
		st = add_input(f, in, name, err);
	if (st == TK_OK)
		st = finish_open(f, err);
	if (st != TK_OK) {
		tk_perf_close(f);
		return st;
	}
	*out = f;
	return TK_OK;
}

void tk_perf_close(tk_perf_file *f)
{
	if (!f)
		return;
	tk_perf_order_free(f);
	tk_perf_records_free(f);
	for (size_t i = 0; i < f->n_inputs; i++) {
		tk_input_close(f->inputs[i].in);
		free(f->inputs[i].path);
	}
	free(f->inputs);
	free(f->attrs);
	free(f->raw_feats);
	free(f->build_ids);
	tk_hashmap_free(&f->id_to_attr);
	if (f->tracing)
		tk_perf_tracing_free(f->tracing);
	tk_arena_free(&f->meta);
	free(f);
}

const tk_perf_header *tk_perf_get_header(const tk_perf_file *f)
{
	return &f->hdr;
}

uint64_t tk_perf_compressed_records(const tk_perf_file *f, uint32_t type)
{
	if (type == TK_PERF_RECORD_COMPRESSED || type == TK_PERF_RECORD_COMPRESSED2)
		return f->n_compressed[type == TK_PERF_RECORD_COMPRESSED2];
	return 0;
}

size_t tk_perf_attr_count(const tk_perf_file *f)
{
	return f->n_attrs;
}

const tk_perf_attr *tk_perf_attr_at(const tk_perf_file *f, size_t i)
{
	return i < f->n_attrs ? f->attrs[i] : NULL;
}

const tk_perf_features *tk_perf_get_features(const tk_perf_file *f)
{
	return &f->feat;
}
const tk_perf_tracing *tk_perf_get_tracing(const tk_perf_file *f)
{
	return f->tracing;
}

tk_status tk_perf_next(tk_perf_file *f, const tk_perf_record **out, tk_error *err)
{
	if (tk_interrupt_pending())
		return tk_error_set(err, TK_ERR_INTERRUPTED, TK_NO_OFFSET, "interrupted");
	return tk_perf_order_next(f, out, err);
}
