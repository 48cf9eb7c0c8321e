/* Which files the samples hit, for HEADER_BUILD_ID: perf record writes
 * the build ids of hit files only, found by a pass over the recording at
 * the end (process_buildids: build_id__mark_dso_hit for each sample's
 * ip). The same here: the recording just written is read back in perf's
 * order, the maps followed with the threads model, and each user
 * sample's file and, for kernel samples, the kernel marked. */
#include <linux/perf_event.h>

#include "context/threads_model.h"
#include "record/record.h"
#include "tracekit/session.h"

tk_status rec_hit_files(const char *path, rec_dsos *hit, bool *kernel_hit, tk_error *err)
{
	*kernel_hit = false;
	/* silent (no log): the file is still unfinished (data size 0) */
	tk_open_options oo = {.format = TK_FORMAT_PERF};
	tk_session *ses;
	tk_status st = tk_session_open(path, &oo, TK_SESSION_NATIVE, &ses, err);
	if (st != TK_OK)
		return st;
	const tk_perf_file *f = tk_session_perf(ses);
	tk_threads th;
	if (!tk_threads_init(&th, NULL)) {
		tk_session_close(ses);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	const tk_session_item *it;
	const tk_dso *last = NULL; /* samples come in runs of one file */
	while ((st = tk_session_next(ses, &it, err)) == TK_OK) {
		const tk_perf_record *rec = it->perf;
		if (rec->type != TK_PERF_RECORD_SAMPLE) {
			if ((st = tk_threads_process(&th, f, rec, err)) != TK_OK)
				break;
			continue;
		}
		unsigned mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (mode == PERF_RECORD_MISC_KERNEL) {
			*kernel_hit = true;
			continue;
		}
		tk_perf_sample s;
		if (mode != PERF_RECORD_MISC_USER ||
		    tk_perf_parse_sample(f, rec, &s, NULL) != TK_OK)
			continue;
		tk_thread *t = tk_threads_findnew(&th, (int32_t)s.pid, (int32_t)s.tid);
		const tk_map *m = t && t->maps ? tk_maps_find(t->maps, s.ip) : NULL;
		if (m && m->dso && m->dso != last) {
			last = m->dso;
			rec_dsos_add(hit, m->dso->name);
		}
	}
	tk_threads_free(&th);
	tk_session_close(ses);
	return st == TK_END ? TK_OK : st;
}
