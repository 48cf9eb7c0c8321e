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

typedef tk_status (*profile_fn)(const tk_dcpi_profile *p, const tk_render_options *opt,
				tk_writer *out, void *state, tk_error *err);

/* Runs fn over every profile of path whose event matches --event. With
 * several profiles, each is introduced by "==> PATH <==" (as tail(1)). */
static tk_status for_each_profile(const char *path, const tk_render_options *opt, tk_writer *out,
				  bool banners, profile_fn fn, void *state, tk_error *err)
{
	char **paths;
	size_t n;
	tk_status st = tk_dcpi_db_list(path, &paths, &n, err);
	if (st != TK_OK)
		return st;
	bool first = true;
	for (size_t i = 0; i < n && st == TK_OK; i++) {
		tk_dcpi_profile *p;
		if ((st = tk_dcpi_open(paths[i], &p, err)) != TK_OK)
			break;
		const char *event = tk_dcpi_profile_header(p)->event;
		if (!opt || !opt->events || tk_filter_name_matches(opt->events, event)) {
			if (banners && n > 1) {
				tk_put_str(out, first ? "==> " : "\n==> ");
				tk_put_str(out, paths[i]);
				tk_put_str(out, " <==\n");
			}
			first = false;
			st = fn(p, opt, out, state, err);
		}
		tk_dcpi_close(p);
	}
	tk_dcpi_db_free_list(paths, n);
	return st;
}

static tk_status print_one(const tk_dcpi_profile *p, const tk_render_options *opt, tk_writer *out,
			   void *state, tk_error *err)
{
	(void)state;
	if (strcmp(opt->style, "dcpicat") == 0)
		return tk_dcpi_print_dcpicat(p, out, err);
	return tk_dcpi_print_listing(p, out, err);
}

tk_status tk_dcpi_cli_print(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	if (strcmp(opt->style, "text") != 0 && strcmp(opt->style, "dcpicat") != 0 &&
	    strcmp(opt->style, "listing") != 0)
		return TK_ERR_UNSUPPORTED;
	return for_each_profile(path, opt, out, true, print_one, NULL, err);
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
	return for_each_profile(path, opt, out, true, info_one, NULL, err);
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
	tk_status st = for_each_profile(path, opt, out, false, stats_one, &s, err);
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
