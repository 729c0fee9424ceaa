/*
 * report_noise.c - the layout noise band (compare/run --noise N): each
 * result costed again with part of the path's code and data moved against
 * the rest (measure.c, noise()), as an unrelated change elsewhere in the
 * kernel moves them. The verdict per move is ms_pair_beyond_noise()'s.
 */
#include <stdio.h>

#include "report.h"

static void head(FILE *f, const struct ms_compare *c, int layouts)
{
	char text[400];
	int w = rp_name_width();

	snprintf(text, sizeof(text), "%d layouts: as recorded, and %d with part of the path's code and data "
		 "moved against the rest by up to 512 bytes.%s", layouts + 1, layouts,
		 c->patched ? " beyond: the two ranges do not overlap and the move is 0.5% or more." : "");
	fprintf(f, "\n");
	rp_wrap(f, "layout noise: ", "  ", text, RP_TEXT_WIDTH);
	if (c->patched)
		fprintf(f, "%-*s %-3s %-5s %12s %12s %6s %s\n", w, "path", "cpu", "state", "base", "patched",
			"delta", "noise");
	else
		fprintf(f, "%-*s %-3s %-5s %12s %6s\n", w, "path", "cpu", "state", "range", "spread");
}

void rp_noise_text(FILE *f, const struct ms_compare *c, int layouts)
{
	unsigned beyond = 0, within = 0, marked = 0;
	int w = rp_name_width();

	head(f, c, layouts);
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];

		if (!ms_pair_ok(c, p) || !p->base->noise_n || (c->patched && !p->patched->noise_n))
			continue;	/* sub-rows: no band of their own */
		for (int warm = 1; warm >= 0; warm--) {
			int s = !warm;
			char rb[40], rp[40];

			if (!(warm ? c->want_warm : c->want_cold))
				continue;
			snprintf(rb, sizeof(rb), "%llu..%llu", (unsigned long long)p->base->noise_lo[s],
				 (unsigned long long)p->base->noise_hi[s]);
			if (!c->patched) {
				fprintf(f, "%-*s %-3s %-5s %12s %6llu\n", w, p->name, p->cpu, warm ? "warm" : "cold", rb,
					(unsigned long long)(p->base->noise_hi[s] - p->base->noise_lo[s]));
				continue;
			}
			long long d = ms_pair_delta(p, warm);
			int apart = ms_pair_beyond_noise(c, p, warm) == 1;
			struct ms_diverged v[1];
			uint64_t dn;
			int diverged = ms_pair_diverged(c, p, v, 1, &dn) > 0;

			if (!d)
				continue;
			snprintf(rp, sizeof(rp), "%llu..%llu", (unsigned long long)p->patched->noise_lo[s],
				 (unsigned long long)p->patched->noise_hi[s]);
			beyond += apart;
			within += !apart;
			marked += diverged;
			fprintf(f, "%-*s %-3s %-5s %12s %12s %+6lld %s%s\n", w, p->name, p->cpu, warm ? "warm" : "cold",
				rb, rp, d, apart ? "beyond" : "within", diverged ? "*" : "");
		}
	}
	if (c->patched)
		fprintf(f, "%u moves beyond what layout alone causes, %u within it\n", beyond, within);
	if (marked)
		rp_wrap(f, "", "  ", "*: the runs also took different paths through unchanged code (above): "
			"layout is not all that differs between them.", RP_TEXT_WIDTH);
}
