/*
 * report_svg_move.c - what a row of the compare picture's changes says
 * (report_svg_forest.c): its move, the interval and the layout band in %
 * of base, its verdict in words and colour, and the numbers the text
 * table prints for it (cli/report_table.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_svg.h"

static const char *why_na(const struct ms_pair *p)
{
	return !p->base ? "absent in base" : !p->patched ? "absent in patched" :
	       !p->base->ok ? "cannot run on base" : "cannot run on patched";
}

static void verdict(struct svg_move *t, enum ms_verdict v)
{
	static const char *const words[] = {
		[MS_SAME] = "unchanged", [MS_WITHIN] = "~ within noise", [MS_IMPROVED] = "(I) improved",
		[MS_REGRESSED] = "(R) regressed", [MS_PART] = ". part of its row", [MS_UNJUDGED] = "- not judged",
	};
	static const char *const inks[] = {
		[MS_SAME] = INK_PART, [MS_WITHIN] = INK_N, [MS_IMPROVED] = INK_I,
		[MS_REGRESSED] = INK_R, [MS_PART] = INK_PART, [MS_UNJUDGED] = INK_N,
	};

	snprintf(t->verdict, sizeof(t->verdict), "%s", words[v]);
	t->ink = inks[v];
}

/*
 * The layout band as a move around zero, in % of the base mean. A move is
 * beyond it (ms_pair_beyond_noise) when the two images' ranges over the
 * layouts do not overlap and it is 0.5% of base's lowest or more. The
 * ranges do not overlap when patched's lowest is above base's highest:
 * the move d > (b.hi - b.mean) + (q.mean - q.lo); or its highest below
 * base's lowest: d < -(q.hi - q.mean) - (b.mean - b.lo). So what the text
 * report's layout section calls within is this interval, widened to
 * +-0.5% of base's lowest: a dot inside it is within. Whole rows only:
 * a sub-row's band is no test (measure.h, MS_PART).
 */
static int band(const struct ms_compare *c, const struct svg_row *r, double *lo, double *hi)
{
	const struct ms_result *b, *q;
	double least;

	if (r->part || !ms_pair_ok(c, r->p) || !r->p->base->noise_n || !r->p->patched->noise_n)
		return 0;
	b = ms_pair_result(r->p, 0, r->st);
	q = ms_pair_result(r->p, 1, r->st);
	if (!b->d.mean)
		return 0;
	least = 0.005 * b->noise_lo;
	*lo = 100.0 * fmin(-(q->noise_hi - q->d.mean) - (b->d.mean - b->noise_lo), -least) / b->d.mean;
	*hi = 100.0 * fmax((b->noise_hi - b->d.mean) + (q->d.mean - q->noise_lo), least) / b->d.mean;
	return 1;
}

int svg_move(const struct ms_compare *c, const struct svg_row *r, struct svg_move *t)
{
	const struct ms_result *b = ms_pair_result(r->p, 0, r->st), *q = ms_pair_result(r->p, 1, r->st);

	memset(t, 0, sizeof(*t));
	t->ink = INK_PART;
	if (!ms_pair_ok(c, r->p)) {
		snprintf(t->verdict, sizeof(t->verdict), "n/a: %s", why_na(r->p));
		return -1;
	}
	ms_pair_move(c, r->p, r->st, &t->mv);
	snprintf(t->delta, sizeof(t->delta), "%+.2f%%", t->mv.pct);
	t->ci = t->mv.tested && b->d.mean ? 100.0 * t->mv.ci95 / b->d.mean : 0;
	if (!t->mv.tested)
		snprintf(t->ci_text, sizeof(t->ci_text), "one draw");
	else if (b->d.mean)
		snprintf(t->ci_text, sizeof(t->ci_text), "\u00b1%.2f%%", t->ci);
	else
		snprintf(t->ci_text, sizeof(t->ci_text), "\u00b1%.0f", t->mv.ci95);
	snprintf(t->cyc, sizeof(t->cyc), "%.0f -> %.0f", b->d.mean, q->d.mean);
	verdict(t, t->mv.verdict);
	t->banded = band(c, r, &t->band_lo, &t->band_hi);
	return 0;
}

const char *svg_move_tip(char *buf, size_t len, const struct svg_row *r, const struct svg_move *t)
{
	int n = snprintf(buf, len, "%s %s%s%s: ", r->p->name, r->p->core->name, t->delta[0] ? " " : "",
			 t->delta[0] ? ms_state_names[r->st] : "");

	if (t->delta[0])
		n += snprintf(buf + n, len - (size_t)n, "%s cycles, %s %s, ", t->cyc, t->delta, t->ci_text);
	if (t->banded)
		n += snprintf(buf + n, len - (size_t)n, "layout band %+.2f%%..%+.2f%%, ", t->band_lo, t->band_hi);
	snprintf(buf + n, len - (size_t)n, "%s", t->verdict);
	return buf;
}
