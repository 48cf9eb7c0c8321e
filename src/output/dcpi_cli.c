/* Registry entry for DCPI profiles and profile databases: detection, info,
 * stats, print (listing, dcpicat) and the byte-identical copy. A database
 * argument (DB, DB/EPOCH or DB/EPOCH/HOST) stands for every profile below
 * it, in sorted path order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcpi/dcpi_source.h"
#include "model/filter.h"
#include "output/render_ops.h"
#include "output/dcpi_print.h"
#include "session/session_cpel.h"

typedef tk_status (*profile_fn)(const tk_dcpi_profile *p, const tk_render_options *opt,
				tk_writer *out, void *state, tk_error *err);

/* A walk of the profiles below a path on a native DCPI session: start is
 * called for each profile whose event matches --event (after a
 * "==> PATH <==" banner, as tail(1), when there are several and banners is
 * set); with counts, each of its addresses goes to the listing's or
 * dcpicat's count line, else the rest of the profile is skipped. */
typedef struct walk {
	const tk_render_options *opt;
	tk_writer *out;
	bool banners, first, counts, dcpicat, in_profile;
	profile_fn start;
	void *state;
} walk;

static tk_status on_item(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	if ((int)item->kind != TK_SESSION_DCPI_ITEM)
		return TK_OK;
	walk *w = user;
	const tk_dcpi_record *r = item->native;
	if (!r->start) {
		if (!w->in_profile)
			return TK_OK;
		tk_dcpi_print_count(w->out, w->dcpicat, r->addr, r->count);
		/* `| head`: no more output can go out (the CLI exits 0) */
		return tk_writer_failed(w->out) ? TK_END : TK_OK;
	}
	const char *event = tk_dcpi_profile_header(r->profile)->event;
	w->in_profile = !w->opt || !w->opt->events || tk_filter_name_matches(w->opt->events, event);
	if (!w->in_profile || !w->counts)
		tk_session_dcpi_skip(s);
	if (!w->in_profile)
		return TK_OK;
	if (w->banners && r->n_profiles > 1) {
		tk_put_str(w->out, w->first ? "==> " : "\n==> ");
		tk_put_str(w->out, r->path);
		tk_put_str(w->out, " <==\n");
	}
	w->first = false;
	tk_status st = w->start(r->profile, w->opt, w->out, w->state, err);
	return st == TK_OK && tk_writer_failed(w->out) ? TK_END : st;
}

static tk_status for_each_profile(const char *path, walk *w, tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_DCPI};
	tk_session *s;
	tk_status st = tk_session_open(path, &oo, TK_SESSION_NATIVE, &s, err);
	if (st != TK_OK)
		return st;
	w->first = true;
	tk_session_tool tool = {.record = on_item};
	st = tk_session_run(s, &tool, w, err);
	tk_session_close(s);
	return st;
}

static tk_status print_head(const tk_dcpi_profile *p, const tk_render_options *opt, tk_writer *out,
			    void *state, tk_error *err)
{
	(void)err;
	(void)state;
	tk_dcpi_print_head(p, strcmp(opt->style, "dcpicat") == 0, out);
	return TK_OK;
}

tk_status tk_dcpi_cli_print(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	if (strcmp(opt->style, "text") != 0 && strcmp(opt->style, "dcpicat") != 0 &&
	    strcmp(opt->style, "listing") != 0)
		return TK_ERR_UNSUPPORTED;
	walk w = {.opt = opt,
		  .out = out,
		  .banners = true,
		  .counts = true,
		  .dcpicat = strcmp(opt->style, "dcpicat") == 0,
		  .start = print_head};
	return for_each_profile(path, &w, err);
}

static tk_status info_one(const tk_dcpi_profile *p, const tk_render_options *opt, tk_writer *out,
			  void *state, tk_error *err)
{
	(void)opt;
	(void)state;
	return tk_dcpi_print_info(p, out, err);
}

tk_status tk_dcpi_cli_info(const char *path, const tk_render_options *opt, tk_writer *out,
			   tk_error *err)
{
	walk w = {.opt = opt, .out = out, .banners = true, .start = info_one};
	return for_each_profile(path, &w, err);
}

typedef struct stats_state {
	uint64_t profiles, samples, addresses;
} stats_state;

static tk_status stats_one(const tk_dcpi_profile *p, const tk_render_options *opt, tk_writer *out,
			   void *state, tk_error *err)
{
	(void)opt;
	(void)err;
	stats_state *s = state;
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	if (s->profiles++ == 0)
		tk_put_str(out, "     samples   addresses  chunks  event  image  path\n");
	bool body = tk_dcpi_body_supported(p);
	if (body) {
		tk_put_u64_pad(out, tk_dcpi_total_samples(p), 12, ' ');
		tk_put_u64_pad(out, tk_dcpi_total_offsets(p), 12, ' ');
		tk_put_u64_pad(out, tk_dcpi_chunk_total(p), 8, ' ');
		s->samples += tk_dcpi_total_samples(p);
		s->addresses += tk_dcpi_total_offsets(p);
	} else {
		tk_put_str(out, "           -           -       -");
	}
	tk_put_str(out, "  ");
	tk_put_str(out, h->event);
	tk_put_str(out, "  ");
	tk_put_str(out, h->image);
	tk_put_str(out, "  ");
	tk_put_str(out, h->path ? h->path : tk_dcpi_profile_name(p));
	tk_put_char(out, '\n');
	return TK_OK;
}

tk_status tk_dcpi_cli_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	stats_state s = {0};
	walk w = {.opt = opt, .out = out, .start = stats_one, .state = &s};
	tk_status st = for_each_profile(path, &w, err);
	if (st != TK_OK)
		return st;
	tk_put_str(out, "total: ");
	tk_put_u64(out, s.profiles);
	tk_put_str(out, s.profiles == 1 ? " profile, " : " profiles, ");
	tk_put_u64(out, s.samples);
	tk_put_str(out, " samples, ");
	tk_put_u64(out, s.addresses);
	tk_put_str(out, " addresses\n");
	return TK_OK;
}

const tk_render_ops tk_dcpi_render_ops = {
    .format = TK_FORMAT_DCPI,
    .info = tk_dcpi_cli_info,
    .stats = tk_dcpi_cli_stats,
    .print = tk_dcpi_cli_print,
};
