/* The profile inputs' table; see profile_inputs.h. */
#include "output/profile_inputs.h"

static tk_status perf_load(const char *path, tk_profile_key key, const char *events, bool by_counts,
			   tk_perf_profile *out, tk_error *err)
{
	return tk_perf_profile_load(path, key, events, !by_counts, !by_counts, out, err);
}

static tk_status dcpi_load(const char *path, tk_profile_key key, const char *events, bool by_counts,
			   tk_perf_profile *out, tk_error *err)
{
	(void)by_counts; /* DCPI holds counts only */
	return tk_dcpi_profile_load(path, key, events, out, err);
}

static const struct profile_input {
	tk_format format;
	bool counts_only;
	tk_status (*load)(const char *path, tk_profile_key key, const char *events, bool by_counts,
			  tk_perf_profile *out, tk_error *err);
	tk_status (*report)(const char *path, const tk_profile_report_options *opt, tk_writer *out,
			    tk_error *err);
} inputs[] = {
    {TK_FORMAT_PERF, false, perf_load, tk_perf_profile_report},
    {TK_FORMAT_DCPI, true, dcpi_load, tk_profile_report_dcpi},
};

static const struct profile_input *input_of(tk_format fmt)
{
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
		if (inputs[i].format == fmt)
			return &inputs[i];
	return NULL;
}

bool tk_profile_readable(tk_format fmt)
{
	return input_of(fmt) != NULL;
}

bool tk_profile_counts_only(tk_format fmt)
{
	const struct profile_input *in = input_of(fmt);
	return in && in->counts_only;
}

tk_status tk_profile_load_any(const char *path, tk_format fmt, tk_profile_key key,
			      const char *events, bool by_counts, tk_perf_profile *out,
			      tk_error *err)
{
	const struct profile_input *in = input_of(fmt);
	if (!in)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "%s files carry no profile", tk_format_name(fmt));
	return in->load(path, key, events, by_counts, out, err);
}

tk_status tk_profile_report_any(const char *path, tk_format fmt,
				const tk_profile_report_options *opt, tk_writer *out, tk_error *err)
{
	const struct profile_input *in = input_of(fmt);
	if (!in)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "%s files carry no profile", tk_format_name(fmt));
	return in->report(path, opt, out, err);
}
