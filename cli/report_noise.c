/*
 * report_noise.c - the layout noise band (compare/run --noise N): each
 * result costed again with part of the path's code and data moved against
 * the rest (sim/measure/cost.c), as an unrelated change elsewhere in the
 * kernel moves them; the range of the means over the layouts (each from
 * its first quarter of the samples, paired with the recorded), and whether
 * each move leaves it (ms_pair_beyond_noise()). Whole rows only: the
 * sub-rows' bands go into their verdicts in the main table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* Whole rows only: the name column is as wide as their longest name (at
 * least the main table's 17), not the sub-rows' (signal.catch.sigreturn):
 * the ranges of a six-digit row (fork) need the room. */
static int whole_row(const struct ms_compare *c, const struct ms_pair *p)
{
	return ms_pair_ok(c, p) && p->base->noise_n && (!c->patched || p->patched->noise_n) &&
	       !strcmp(p->name, p->base->path);
}

static int name_width(const struct ms_compare *c)
{
	int w = 17;

	for (int i = 0; i < c->npairs; i++)
		if (whole_row(c, &c->pairs[i]) && (int)strlen(c->pairs[i].name) > w)
			w = (int)strlen(c->pairs[i].name);
	return w;
}

static void head(FILE *f, const struct ms_compare *c, int layouts)
{
	char text[400];
	int w = name_width(c);

	snprintf(text, sizeof(text), "%d layouts: as recorded, and %d with part of the path's code and data "
		 "moved against the rest by up to %d KB (a cache way), each the recorded mean moved by what it "
		 "does to the first quarter of the samples (at least %d).%s", layouts + 1, layouts,
		 MS_LAYOUT_SPAN / 1024, MS_BAND_MIN,
		 c->patched ? " beyond: the two ranges do not overlap and the move is 0.5% or more." : "");
	fprintf(f, "\n");
	rp_wrap(f, "layout noise: ", "  ", text, RP_TEXT_WIDTH);
	if (c->patched)
		fprintf(f, "%-*s %-3s %-7s %12s %12s %6s %s\n", w, "path", "cpu", "state", "base", "patched",
			"delta", "layout");
	else
		fprintf(f, "%-*s %-3s %-7s %12s %6s\n", w, "path", "cpu", "state", "range", "spread");
}

static const char *range(char *buf, size_t len, const struct ms_result *r)
{
	snprintf(buf, len, "%.0f..%.0f", r->noise_lo, r->noise_hi);
	return buf;
}

void rp_noise_text(FILE *f, const struct ms_compare *c, int layouts)
{
	unsigned beyond = 0, within = 0, marked = 0, state_only = 0;
	int w = name_width(c);

	head(f, c, layouts);
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];

		if (!whole_row(c, p))
			continue;
		for (int st = 0; st < MS_NSTATES; st++) {
			const struct ms_result *b = ms_pair_result(p, 0, (enum ms_state)st);
			char rb[40], rp[40];

			if (!c->want[st])
				continue;
			if (!c->patched) {
				fprintf(f, "%-*s %-3s %-7s %12s %6.0f\n", w, p->name, p->core->name, ms_state_names[st],
					range(rb, sizeof(rb), b), b->noise_hi - b->noise_lo);
				continue;
			}
			long long d = llround(ms_pair_result(p, 1, (enum ms_state)st)->d.mean) - llround(b->d.mean);
			int apart = ms_pair_beyond_noise(c, p, (enum ms_state)st) == 1;
			struct ms_diverged v[1];
			double dn;
			int diverged = ms_pair_diverged(c, p, v, 1, &dn) > 0;
			struct ms_move mv;

			if (!d)
				continue;
			ms_pair_move(c, p, (enum ms_state)st, &mv);
			state_only += mv.state_only;
			beyond += apart;
			within += !apart;
			marked += diverged;
			fprintf(f, "%-*s %-3s %-7s %12s %12s %+6lld %s%s\n", w, p->name, p->core->name, ms_state_names[st],
				range(rb, sizeof(rb), b), range(rp, sizeof(rp), ms_pair_result(p, 1, (enum ms_state)st)),
				d, apart ? "beyond" : "within", diverged ? "*" : "");
		}
	}
	if (c->patched)
		fprintf(f, "%u moves beyond what layout alone causes, %u within it\n", beyond, within);
	if (marked)
		rp_wrap(f, "", "  ", "*: the runs also took different paths through unchanged code (above): "
			"layout is not all that differs between them.", RP_TEXT_WIDTH);
	if (state_only)
		rp_wrap(f, "", "  ", "A move beyond the band on a row where the patch changed no function it ran, "
			"only the paths taken through them, is the state's, not the patch's: within noise (~).",
			RP_TEXT_WIDTH);
}
