/* tracekit diff A B: two profiles compared per symbol (as perf diff and
 * dcpidiff do): count and % of each, and the delta of the percentages.
 * Also the profile form of `tracekit report` (no --state/--latency/
 * --linreg): perf.data through report_perf.c, DCPI through
 * profile_report.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "cli.h"
#include "model/filter.h"
#include "output/profile_inputs.h"
#include "output/report_diff.h"
#include "output/report_sort.h"

static tk_profile_report_options report_options(const tk_cli *cli)
{
	static tk_filter filter;
	filter = tk_render_filter(&cli->opt);
	tk_profile_report_options o = {
	    .filter = &filter,
	    .sort = cli->sort,
	    .top = cli->top,
	    .events = cli->opt.events,
	    .log = cli->opt.log,
	    .log_user = cli->opt.log_user,
	};
	return o;
}

int tk_cmd_report_profile(const tk_cli *cli)
{
	tk_writer *out = tk_cli_stdout();
	int rc = 0;
	for (int k = 0; k < cli->n_inputs && rc == 0; k++) {
		tk_error err;
		tk_error_clear(&err);
		const tk_format_ops *ops;
		if (tk_cli_format_of(cli, cli->inputs[k], &ops, &err) != TK_OK)
			return tk_cli_finish(tk_cli_fail(&err, cli->inputs[k]));
		if (cli->n_inputs > 1)
			tk_put_fmt(out, "%s== %s\n", k ? "\n" : "", cli->inputs[k]);
		tk_profile_report_options o = report_options(cli);
		tk_status st;
		if (tk_profile_readable(ops->format))
			st = tk_profile_report_any(cli->inputs[k], ops->format, &o, out, &err);
		else
			st = tk_error_set(
			    &err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			    "profile reports need perf.data or DCPI input (%s given); for event "
			    "reports choose --state EVENT, --latency START,END or --linreg "
			    "START,END",
			    ops->name);
		if (st != TK_OK)
			rc = tk_cli_fail(&err, cli->inputs[k]);
	}
	return tk_cli_finish(rc);
}

static uint64_t key_hash(const char *image, const char *sym)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *s = image; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (const char *s = sym ? sym : ""; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static bool same_key(const tk_profile_row *a, const tk_profile_row *b)
{
	return strcmp(a->image, b->image) == 0 &&
	       strcmp(a->symbol ? a->symbol : "", b->symbol ? b->symbol : "") == 0;
}

typedef struct diff_row {
	const tk_profile_row *a, *b;
} diff_row;

static void put_pct(tk_writer *out, double v, bool sign)
{
	char buf[32];
	snprintf(buf, sizeof buf, sign ? "%+.2f%%" : "%.2f%%", v);
	size_t n = strlen(buf);
	tk_put_spaces(out, (unsigned)(n < 9 ? 9 - n : 0));
	tk_put_str(out, buf);
}

static int diff_tables(const char *event, tk_profile_agg *aa, tk_profile_agg *ab, uint64_t top,
		       tk_writer *out)
{
	size_t na, nb;
	const tk_profile_row *ra = tk_profile_agg_rows(aa, &na);
	const tk_profile_row *rb = tk_profile_agg_rows(ab, &nb);
	uint64_t ta = tk_profile_agg_total(aa), tb = tk_profile_agg_total(ab);
	tk_hashmap in_b;
	tk_hashmap_init(&in_b);
	bool *matched = calloc(nb + 1, 1);
	diff_row *rows = malloc((na + nb + 1) * sizeof *rows);
	if (!matched || !rows) {
		free(matched);
		free(rows);
		tk_hashmap_free(&in_b);
		fprintf(stderr, "tracekit diff: out of memory\n");
		return 1;
	}
	for (size_t j = 0; j < nb; j++) {
		uint64_t h = key_hash(rb[j].image, rb[j].symbol);
		while (tk_hashmap_get(&in_b, h))
			h++;
		tk_hashmap_put(&in_b, h, j);
	}
	size_t n = 0;
	for (size_t i = 0; i < na; i++) {
		const tk_profile_row *b = NULL;
		for (uint64_t h = key_hash(ra[i].image, ra[i].symbol);; h++) {
			uint64_t *j = tk_hashmap_get(&in_b, h);
			if (!j)
				break;
			if (!matched[*j] && same_key(&ra[i], &rb[*j])) {
				b = &rb[*j];
				matched[*j] = true;
				break;
			}
		}
		rows[n++] = (diff_row){&ra[i], b};
	}
	for (size_t j = 0; j < nb; j++)
		if (!matched[j])
			rows[n++] = (diff_row){NULL, &rb[j]};
	if (top && n > top)
		n = (size_t)top;
	tk_put_fmt(out, "# event %s: A %llu, B %llu\n", event, (unsigned long long)ta,
		   (unsigned long long)tb);
	tk_put_str(out, "         A        %A          B        %B     delta  procedure  image\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t ca = rows[i].a ? rows[i].a->count : 0,
			 cb = rows[i].b ? rows[i].b->count : 0;
		double pa = ta ? 100.0 * (double)ca / (double)ta : 0,
		       pb = tb ? 100.0 * (double)cb / (double)tb : 0;
		const tk_profile_row *r = rows[i].a ? rows[i].a : rows[i].b;
		tk_put_u64_pad(out, ca, 10, ' ');
		put_pct(out, pa, false);
		tk_put_char(out, ' ');
		tk_put_u64_pad(out, cb, 10, ' ');
		put_pct(out, pb, false);
		tk_put_char(out, ' ');
		put_pct(out, pb - pa, true);
		tk_put_str(out, "  ");
		tk_put_str(out, r->symbol ? r->symbol : TK_PROFILE_UNKNOWN_SYMBOL);
		tk_put_str(out, "  ");
		tk_put_str(out, r->image);
		tk_put_char(out, '\n');
	}
	free(matched);
	free(rows);
	tk_hashmap_free(&in_b);
	return 0;
}

/* diff --children / --no-children / --sort KEY,...: perf diff's table on
 * the rows of perf report (report_diff.h), both files perf.data. */
static int diff_perf_rows(const tk_cli *cli)
{
	tk_filter filter = tk_cli_filter(&cli->opt);
	tk_profile_report_options base = {
	    .filter = &filter,
	    .events = cli->opt.events,
	    .log = cli->opt.log,
	    .log_user = cli->opt.log_user,
	};
	/* perf diff's default keys */
	const char *keys = tk_rsort_is_perf_list(cli->sort) ? cli->sort : "dso,sym";
	tk_report_children_options o = {
	    .base = &base,
	    .children = cli->children,
	    .sort_keys = keys,
	};
	tk_report_rows rows[2];
	memset(rows, 0, sizeof rows);
	int rc = 0;
	for (int k = 0; k < 2 && rc == 0; k++) {
		tk_error err;
		tk_error_clear(&err);
		const tk_format_ops *ops;
		tk_status st = tk_cli_format_of(cli, cli->inputs[k], &ops, &err);
		if (st == TK_OK && ops->format != TK_FORMAT_PERF)
			st = tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					  "--children, --no-children and --sort %s need perf.data "
					  "(%s given)",
					  keys, ops->name);
		if (st == TK_OK)
			st = tk_perf_report_rows(cli->inputs[k], &o, &rows[k], &err);
		if (st != TK_OK)
			rc = tk_cli_fail(&err, cli->inputs[k]);
	}
	if (rc == 0) {
		tk_error err;
		tk_error_clear(&err);
		if (tk_report_diff_write(&rows[0], &rows[1], keys, cli->children, cli->top,
					 tk_cli_stdout(), &err) != TK_OK)
			rc = tk_cli_fail(&err, cli->inputs[0]);
	}
	tk_report_rows_free(&rows[0]);
	tk_report_rows_free(&rows[1]);
	return tk_cli_finish(rc);
}

int tk_cmd_diff(int argc, char **argv)
{
	tk_cli cli;
	int rc = tk_cli_parse(&cli, "diff", argc, argv);
	if (rc)
		return rc;
	if (cli.n_inputs != 2) {
		fprintf(stderr, "tracekit diff: give exactly two profiles: A B\n");
		return TK_EXIT_USAGE;
	}
	if (cli.children || cli.no_children || tk_rsort_is_perf_list(cli.sort))
		return diff_perf_rows(&cli);
	tk_perf_profile p[2];
	memset(p, 0, sizeof p);
	/* perf.data against perf.data: periods, as perf diff weighs, and
	 * unknown addresses per address, as perf report lists them; against a
	 * DCPI profile (counts of samples, image virtual addresses): sample
	 * counts and one [unknown] row per image on both sides */
	bool counts_only = false;
	for (int k = 0; k < 2; k++) {
		tk_error e;
		const tk_format_ops *o;
		if (tk_cli_format_of(&cli, cli.inputs[k], &o, &e) == TK_OK &&
		    tk_profile_counts_only(o->format))
			counts_only = true;
	}
	for (int k = 0; k < 2; k++) {
		tk_error err;
		tk_error_clear(&err);
		const tk_format_ops *ops;
		if (tk_cli_format_of(&cli, cli.inputs[k], &ops, &err) != TK_OK) {
			rc = tk_cli_fail(&err, cli.inputs[k]);
			break;
		}
		tk_status st;
		if (tk_profile_readable(ops->format))
			st = tk_profile_load_any(cli.inputs[k], ops->format, TK_PROFILE_BY_SYMBOL,
						 cli.opt.events, counts_only, &p[k], &err);
		else
			st = tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					  "diff reads perf.data and DCPI profiles (%s given)",
					  ops->name);
		if (st != TK_OK) {
			rc = tk_cli_fail(&err, cli.inputs[k]);
			break;
		}
	}
	tk_writer *out = tk_cli_stdout();
	for (size_t i = 0; rc == 0 && i < p[0].n; i++) {
		size_t j = 0;
		while (j < p[1].n && strcmp(p[1].events[j], p[0].events[i]) != 0)
			j++;
		if (j == p[1].n && p[0].n == 1 && p[1].n == 1)
			j = 0; /* one event each ("cpu-clock" vs "cpu-clock:u"): compare them */
		tk_profile_agg *empty =
		    j < p[1].n ? NULL : tk_profile_agg_new(TK_PROFILE_BY_SYMBOL);
		if (i)
			tk_put_char(out, '\n');
		rc = diff_tables(p[0].events[i], p[0].aggs[i], empty ? empty : p[1].aggs[j],
				 cli.top, out);
		tk_profile_agg_free(empty);
	}
	for (size_t j = 0; rc == 0 && j < p[1].n; j++) {
		bool seen = p[0].n == 1 && p[1].n == 1;
		for (size_t i = 0; i < p[0].n; i++)
			seen |= strcmp(p[0].events[i], p[1].events[j]) == 0;
		if (seen)
			continue;
		tk_profile_agg *empty = tk_profile_agg_new(TK_PROFILE_BY_SYMBOL);
		tk_put_char(out, '\n');
		rc = diff_tables(p[1].events[j], empty, p[1].aggs[j], cli.top, out);
		tk_profile_agg_free(empty);
	}
	tk_perf_profile_free(&p[0]);
	tk_perf_profile_free(&p[1]);
	return tk_cli_finish(rc);
}
