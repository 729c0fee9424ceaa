/*
 * report_words.c - the sentences the text table and the markdown report
 * share (summary, an image's identity, the footnote), and word wrapping to
 * the width of an email reply.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

double rp_uncal_pct(const struct hs_model_result *r)
{
	return r->cycles ? 100.0 * (double)r->uncalibrated_cycles / (double)r->cycles : 0.0;
}

const char *rp_identity(char *buf, size_t len, const struct hs_image *img)
{
	snprintf(buf, len, "Linux %s, %s, build id %.12s", img->version[0] ? img->version : "?",
		 img->compiler[0] ? img->compiler : "?", img->build_id[0] ? img->build_id : "none");
	return buf;
}

/* "typical", "typical+warm", ... */
static const char *state_list(char *buf, size_t len, const struct ms_compare *c)
{
	size_t used = 0;

	buf[0] = 0;
	for (int st = 0; st < MS_NSTATES && used < len; st++)
		if (c->want[st])
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "", ms_state_names[st]);
	return buf;
}

const char *rp_summary(char *buf, size_t len, const struct ms_compare *c)
{
	const struct ms_summary *s = &c->summary;
	int ncores = 0, nrows = 0;
	char states[64];
	size_t used;

	for (int i = 0; i < c->npairs; i++) {
		int first_cpu = 1, first_row = 1;

		for (int k = 0; k < i; k++) {
			first_cpu &= c->pairs[k].core != c->pairs[i].core;
			first_row &= strcmp(c->pairs[k].name, c->pairs[i].name) != 0;
		}
		ncores += first_cpu;
		nrows += first_row;
	}
	used = (size_t)snprintf(buf, len, "%u results (%d rows x %d cores x %s)", s->results, nrows, ncores,
				state_list(states, sizeof(states), c));
	if (c->patched && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", %u moved; significant and beyond layout noise: %u improved (I), "
					 "%u regressed (R)", s->moved, s->improved, s->regressed);
	if (s->largest && used < len) {
		const struct ms_result *b = ms_pair_result(s->largest, 0, s->largest_state);

		used += (size_t)snprintf(buf + used, len - used, "; largest %s %s %s %+.0f cycles (%+.2f%%)",
					 s->largest->name, s->largest->core->name, ms_state_names[s->largest_state],
					 s->largest_delta, ms_delta_pct(b->d.mean, b->d.mean + s->largest_delta));
	}
	if (s->not_run && used < len)
		snprintf(buf + used, len - used, "; %u not run", s->not_run);
	return buf;
}

/* How many samples the typical rows have: "64", "40 to 128". */
static const char *sample_counts(char *buf, size_t len, const struct ms_compare *c)
{
	unsigned lo = 0, hi = 0;

	for (int i = 0; i < c->npairs; i++)
		for (int side = 0; side < 2; side++) {
			const struct ms_row *r = side ? c->pairs[i].patched : c->pairs[i].base;
			unsigned n = r && r->ok ? r->s[MS_TYPICAL].d.n : 0;

			if (n < 2)
				continue;
			lo = !lo || n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	if (!hi)
		return NULL;
	if (lo == hi)
		snprintf(buf, len, "%u", lo);
	else
		snprintf(buf, len, "%u to %u", lo, hi);
	return buf;
}

/* The patched image's uncalibrated share of cycles, lowest and highest over
 * the results: what a compare's text says instead of a column. */
static void uncal_range(const struct ms_compare *c, double *lo, double *hi)
{
	*lo = 100;
	*hi = 0;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (!ms_pair_ok(c, p))
			continue;
		for (int st = 0; st < MS_NSTATES; st++) {
			const struct ms_result *r = ms_pair_result(p, 1, (enum ms_state)st);
			double s;

			if (!c->want[st] || !r->r.cycles)
				continue;
			s = 100.0 * (double)r->r.uncalibrated_cycles / (double)r->r.cycles;
			*lo = s < *lo ? s : *lo;
			*hi = s > *hi ? s : *hi;
		}
	}
	if (*lo > *hi)
		*lo = *hi = 0;
}

const char *rp_footnote(char *buf, size_t len, const struct ms_compare *c, const char *uncal)
{
	char counts[32];
	const char *n = sample_counts(counts, sizeof(counts), c);
	size_t used = 0;

	used += (size_t)snprintf(buf + used, len - used, "cycles per operation:");
	if (c->want[MS_TYPICAL] && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 " typical = the mean over %s%s sampled operations of a kernel at steady "
					 "state, each costed with the caches and predictors what ran before it "
					 "left (a row of synthesized state is one draw);",
					 n ? n : "the", n ? "" : "");
	if (c->want[MS_WARM] && used < len)
		used += (size_t)snprintf(buf + used, len - used, " warm = one op repeated until the cost "
					 "converges;");
	if (c->want[MS_COLD] && used < len)
		used += (size_t)snprintf(buf + used, len - used, " cold = caches, TLBs and predictors "
					 "flushed;");
	if (c->patched && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 " +-95%%: the 95%% interval of the difference of the means (Welch's t), "
					 "as a share of base; sig: (I) improved, (R) regressed - significant at "
					 "95%% and beyond the layout band (a row of one draw a side: beyond the band) - ~ within noise, . a sub-row (it attributes its row's move, no verdict of its own), - one draw without a layout band (not judged); total: sum of the "
					 "results above and folded;");
	else if (used < len)
		used += (size_t)snprintf(buf + used, len - used, " +-95: the 95%% interval of the mean "
					 "(Student's t);");
	if (!uncal && used < len) {
		double lo, hi;

		uncal_range(c, &lo, &hi);
		snprintf(buf + used, len - used, " uncalibrated parameters (hotsim models) charge %.1f%% to "
			 "%.1f%% of the patched image's cycles per result (JSON: "
			 "patched_uncalibrated_cycles)", lo, hi);
	} else if (used < len)
		snprintf(buf + used, len - used, " %s: share of %s cycles charged by uncalibrated parameters "
			 "(hotsim models)", uncal,
			 !c->patched ? "the" : !strcmp(uncal, "uncal") ? "the patched image's" : "each image's");
	return buf;
}

void rp_wrap(FILE *f, const char *lead, const char *indent, const char *text, int width)
{
	int col = (int)strlen(lead), start = col;

	fputs(lead, f);
	while (*text) {
		int w;

		while (*text == ' ')
			text++;
		w = (int)strcspn(text, " ");
		if (!w)
			break;
		if (col > start && col + 1 + w > width) {
			fprintf(f, "\n%s", indent);
			col = start = (int)strlen(indent);
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, (size_t)w, f);
		col += w;
		text += w;
	}
	fputc('\n', f);
}
