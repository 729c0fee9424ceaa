/*
 * compare.c - the comparison `run` and `compare` report (hotsim/measure.h):
 * rows paired across the two images by (name, cpu), warnings when the
 * images differ in more than code, and the reviewer's view of it - a
 * summary, the results ordered by the size of their change, the unchanged
 * ones counted, and per-state totals (the shape of scripts/bloat-o-meter);
 * and what a move is worth: the difference of the means with Welch's
 * interval, the layout band, and the verdict (measure.h, struct ms_move).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/measure.h"

double ms_delta_pct(double base, double patched)
{
	if (!base)
		return 0.0;
	return 100.0 * (patched - base) / base;
}

static const struct ms_row *find(const struct ms_image *m, const char *name, const struct hs_core *core)
{
	for (int i = 0; m && i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name) && m->rows[i].core == core)
			return &m->rows[i];
	return NULL;
}

/* Pair rows by (name, cpu) in base order, then rows only in patched. */
static void pair_rows(struct ms_compare *c)
{
	c->npairs = 0;
	for (int i = 0; i < c->base->nrows; i++) {
		const struct ms_row *b = &c->base->rows[i];
		struct ms_pair *p = &c->pairs[c->npairs++];

		p->base = b;
		p->patched = c->patched ? find(c->patched, b->name, b->core) : NULL;
		p->name = b->name;
		p->core = b->core;
	}
	for (int i = 0; c->patched && i < c->patched->nrows; i++) {
		const struct ms_row *r = &c->patched->rows[i];
		struct ms_pair *p;

		if (find(c->base, r->name, r->core))
			continue;
		p = &c->pairs[c->npairs++];
		p->base = NULL;
		p->patched = r;
		p->name = r->name;
		p->core = r->core;
	}
}

static void warn(struct ms_compare *c, const char *fmt, const char *a, const char *b)
{
	if (c->nwarnings < (int)HS_ARRAY_SIZE(c->warnings))
		snprintf(c->warnings[c->nwarnings++], sizeof(c->warnings[0]), fmt, a, b);
}

static void identity_warnings(struct ms_compare *c)
{
	const struct hs_image *a = c->base->img, *b = c->patched->img;

	if (strcmp(a->version, b->version))
		warn(c, "kernel versions differ: %s vs %s", a->version, b->version);
	if (strcmp(a->compiler, b->compiler))
		warn(c, "compilers differ: %s vs %s", a->compiler, b->compiler);
	if (a->ikconfig_hash && b->ikconfig_hash && a->ikconfig_hash != b->ikconfig_hash)
		warn(c, "embedded .config differs (CONFIG_IKCONFIG)%s%s", "", "");
	else if (!!a->ikconfig_hash != !!b->ikconfig_hash)
		warn(c, "only one image embeds its .config%s%s", "", "");
	if (a->build_id[0] && !strcmp(a->build_id, b->build_id))
		warn(c, "both images have build id %s: the same build twice?%s", a->build_id, "");
}

int ms_pair_ok(const struct ms_compare *c, const struct ms_pair *p)
{
	return p->base && p->base->ok && (!c->patched || (p->patched && p->patched->ok));
}

const struct ms_result *ms_pair_result(const struct ms_pair *p, int patched, enum ms_state st)
{
	const struct ms_row *r = patched ? p->patched : p->base;

	return r ? &r->s[st] : NULL;
}

/* A move is a change of the rounded means: what the table shows. */
static long long shown_delta(const struct ms_pair *p, enum ms_state st)
{
	return llround(ms_pair_result(p, 1, st)->d.mean) - llround(ms_pair_result(p, 0, st)->d.mean);
}

int ms_pair_beyond_noise(const struct ms_compare *c, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *b, *q;
	double d;

	if (!c->patched || !ms_pair_ok(c, p) || !p->base->noise_n || !p->patched->noise_n)
		return -1;
	b = ms_pair_result(p, 0, st);
	q = ms_pair_result(p, 1, st);
	d = fabs(q->d.mean - b->d.mean);
	return (q->noise_hi < b->noise_lo || q->noise_lo > b->noise_hi) && d * 200 >= b->noise_lo;
}

void ms_pair_move(const struct ms_compare *c, const struct ms_pair *p, enum ms_state st, struct ms_move *m)
{
	const struct ms_result *b = ms_pair_result(p, 0, st), *q = ms_pair_result(p, 1, st);
	struct ms_welch w;

	memset(m, 0, sizeof(*m));
	m->band = -1;
	m->verdict = MS_SAME;
	if (!c->patched || !ms_pair_ok(c, p))
		return;
	m->delta = q->d.mean - b->d.mean;
	m->pct = ms_delta_pct(b->d.mean, q->d.mean);
	m->tested = ms_welch(&b->d, &q->d, &w) == 0;
	m->p = m->tested ? w.p : 1;
	m->ci95 = m->tested ? w.ci95 : 0;
	m->band = ms_pair_beyond_noise(c, p, st);
	/* A row of one deterministic draw per side (warm, cold, synthesized
	 * state) has no sampling spread to test: what alone can move it is
	 * layout, so the layout band is its whole test. */
	m->one_draw = b->d.n == 1 && q->d.n == 1;
	m->significant = m->tested ? w.p < 0.05 : m->one_draw && m->band == 1;
	if (!shown_delta(p, st))
		return;
	m->verdict = MS_WITHIN;
	if (p->base->part || p->patched->part)
		m->verdict = MS_PART;
	else if (!m->tested && m->band < 0)
		m->verdict = MS_UNJUDGED;
	else if (m->significant && m->band == 1)
		m->verdict = m->delta < 0 ? MS_IMPROVED : MS_REGRESSED;
	/* Nothing the row ran changed, yet it took other paths through that
	 * code: the two boots' states differ there (a stable update's
	 * scheduler entering another EEVDF regime), and a verdict would name
	 * the patch for what its code did not do. */
	if ((m->verdict == MS_IMPROVED || m->verdict == MS_REGRESSED) && ms_pair_touched(c, p) == 0) {
		struct ms_diverged v[1];
		double dn;

		if (ms_pair_diverged(c, p, v, 1, &dn) > 0) {
			m->verdict = MS_WITHIN;
			m->state_only = 1;
		}
	}
}

/* The larger change of the states shown (what the row is sorted by). */
static double magnitude(const struct ms_compare *c, const struct ms_pair *p)
{
	double m = 0;

	for (int st = 0; st < MS_NSTATES; st++)
		if (c->want[st])
			m = fmax(m, (double)llabs(shown_delta(p, (enum ms_state)st)));
	return m;
}

static void summarize(struct ms_compare *c)
{
	struct ms_summary *s = &c->summary;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		for (int st = 0; st < MS_NSTATES; st++) {
			struct ms_move mv;
			long long d;

			if (!c->want[st])
				continue;
			s->results++;
			if (!ms_pair_ok(c, p)) {
				s->not_run++;
				continue;
			}
			if (!c->patched)
				continue;
			d = shown_delta(p, (enum ms_state)st);
			ms_pair_move(c, p, (enum ms_state)st, &mv);
			s->moved += d != 0;
			s->faster += d < 0;
			s->slower += d > 0;
			s->improved += mv.verdict == MS_IMPROVED;
			s->regressed += mv.verdict == MS_REGRESSED;
			/* the largest move of a whole row: sub-rows attribute it */
			if (d && mv.verdict != MS_PART &&
			    (!s->largest || fabs(mv.delta) > fabs(s->largest_delta))) {
				s->largest = p;
				s->largest_state = (enum ms_state)st;
				s->largest_delta = mv.delta;
			}
		}
	}
}

/* Stable: by the size of the change, then in registry order. */
static int by_change(const void *a, const void *b, void *ctx)
{
	const struct ms_compare *c = ctx;
	const struct ms_pair *x = &c->pairs[*(const int *)a], *y = &c->pairs[*(const int *)b];
	double mx = ms_pair_ok(c, x) ? magnitude(c, x) : 0, my = ms_pair_ok(c, y) ? magnitude(c, y) : 0;

	if (mx != my)
		return mx > my ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

void ms_compare_build(struct ms_compare *c, const struct ms_image *base,
		      const struct ms_image *patched, const int want[MS_NSTATES])
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->patched = patched;
	memcpy(c->want, want, sizeof(c->want));
	pair_rows(c);
	if (patched)
		identity_warnings(c);
	summarize(c);
	for (int i = 0; i < c->npairs; i++)
		c->order[i] = i;
	if (patched)
		qsort_r(c->order, (size_t)c->npairs, sizeof(c->order[0]), by_change, c);
}

int ms_pair_moved(const struct ms_compare *c, const struct ms_pair *p)
{
	return !ms_pair_ok(c, p) || !c->patched || magnitude(c, p) != 0;
}

void ms_compare_total(const struct ms_compare *c, enum ms_state st, double *base, double *patched)
{
	*base = *patched = 0;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (!ms_pair_ok(c, p))
			continue;
		*base += ms_pair_result(p, 0, st)->d.mean;
		if (c->patched)
			*patched += ms_pair_result(p, 1, st)->d.mean;
	}
}

const struct ms_pair *ms_compare_explainable(const struct ms_compare *c, enum ms_state *st)
{
	const struct ms_pair *best = NULL;
	double best_d = 0;

	for (int i = 0; c->patched && i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		/* a whole path's row: sub-rows (sched-pipe.write) and the
		 * census (a sum of sites) have no run of their own */
		if (!ms_pair_ok(c, p) || p->base->sites || p->patched->sites || strcmp(p->name, p->base->path))
			continue;
		for (int s = 0; s < MS_NSTATES; s++) {
			double d;

			if (!c->want[s])
				continue;
			d = fabs((double)shown_delta(p, (enum ms_state)s));
			if (d > best_d) {
				best = p;
				best_d = d;
				*st = (enum ms_state)s;
			}
		}
	}
	return best;
}

int ms_compare_regressed(const struct ms_compare *c, double pct)
{
	for (int i = 0; c->patched && i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (!ms_pair_ok(c, p))
			continue;
		for (int st = 0; st < MS_NSTATES; st++) {
			struct ms_move mv;

			if (!c->want[st])
				continue;
			ms_pair_move(c, p, (enum ms_state)st, &mv);
			if (mv.verdict == MS_REGRESSED && mv.pct > pct)
				return 1;
		}
	}
	return 0;
}
