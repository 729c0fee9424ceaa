/*
 * compare.c - the comparison `run` and `compare` report (hotsim/measure.h):
 * rows paired across the two images by (name, cpu), warnings when the
 * images differ in more than code, and the reviewer's view of it - a
 * summary, the results ordered by the size of their change, the unchanged
 * ones counted, and per-state totals (the shape of scripts/bloat-o-meter).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/measure.h"

double ms_delta_pct(uint64_t base, uint64_t patched)
{
	if (!base)
		return 0.0;
	return 100.0 * ((double)patched - (double)base) / (double)base;
}

static const struct ms_row *find(const struct ms_image *m, const char *name, const char *cpu)
{
	for (int i = 0; m && i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name) && !strcmp(m->rows[i].cpu, cpu))
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
		p->patched = c->patched ? find(c->patched, b->name, b->cpu) : NULL;
		p->name = b->name;
		p->cpu = b->cpu;
	}
	for (int i = 0; c->patched && i < c->patched->nrows; i++) {
		const struct ms_row *r = &c->patched->rows[i];
		struct ms_pair *p;

		if (find(c->base, r->name, r->cpu))
			continue;
		p = &c->pairs[c->npairs++];
		p->base = NULL;
		p->patched = r;
		p->name = r->name;
		p->cpu = r->cpu;
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

const struct hs_model_result *ms_pair_result(const struct ms_pair *p, int patched, int warm)
{
	const struct ms_row *r = patched ? p->patched : p->base;

	return r ? (warm ? &r->warm : &r->cold) : NULL;
}

long long ms_pair_delta(const struct ms_pair *p, int warm)
{
	return (long long)ms_pair_result(p, 1, warm)->cycles - (long long)ms_pair_result(p, 0, warm)->cycles;
}

/* The larger change of the two states (what the row is sorted by). */
static long long magnitude(const struct ms_compare *c, const struct ms_pair *p)
{
	long long m = 0;

	for (int warm = 0; warm < 2; warm++) {
		long long d;

		if (!(warm ? c->want_warm : c->want_cold))
			continue;
		d = ms_pair_delta(p, warm);
		d = d < 0 ? -d : d;
		m = d > m ? d : m;
	}
	return m;
}

static void summarize(struct ms_compare *c)
{
	struct ms_summary *s = &c->summary;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		for (int warm = 1; warm >= 0; warm--) {
			long long d;

			if (!(warm ? c->want_warm : c->want_cold))
				continue;
			s->results++;
			if (!ms_pair_ok(c, p)) {
				s->not_run++;
				continue;
			}
			if (!c->patched)
				continue;
			d = ms_pair_delta(p, warm);
			s->moved += d != 0;
			s->faster += d < 0;
			s->slower += d > 0;
			if (d && (!s->largest || (d < 0 ? -d : d) > (s->largest_delta < 0 ? -s->largest_delta :
										   s->largest_delta))) {
				s->largest = p;
				s->largest_warm = warm;
				s->largest_delta = d;
			}
		}
	}
}

/* Stable: by the size of the change, then in registry order. */
static int by_change(const void *a, const void *b, void *ctx)
{
	const struct ms_compare *c = ctx;
	const struct ms_pair *x = &c->pairs[*(const int *)a], *y = &c->pairs[*(const int *)b];
	int okx = ms_pair_ok(c, x), oky = ms_pair_ok(c, y);
	long long mx = okx ? magnitude(c, x) : 0, my = oky ? magnitude(c, y) : 0;

	if (mx != my)
		return mx > my ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

void ms_compare_build(struct ms_compare *c, const struct ms_image *base,
		      const struct ms_image *patched, int want_warm, int want_cold)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->patched = patched;
	c->want_warm = want_warm;
	c->want_cold = want_cold;
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

void ms_compare_total(const struct ms_compare *c, int warm, uint64_t *base, uint64_t *patched)
{
	*base = *patched = 0;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (!ms_pair_ok(c, p))
			continue;
		*base += ms_pair_result(p, 0, warm)->cycles;
		if (c->patched)
			*patched += ms_pair_result(p, 1, warm)->cycles;
	}
}

int ms_pair_beyond_noise(const struct ms_compare *c, const struct ms_pair *p, int warm)
{
	int s = !warm;
	long long d;

	if (!c->patched || !ms_pair_ok(c, p) || !p->base->noise_n || !p->patched->noise_n)
		return -1;
	d = ms_pair_delta(p, warm);
	return (p->patched->noise_hi[s] < p->base->noise_lo[s] || p->patched->noise_lo[s] > p->base->noise_hi[s]) &&
	       (unsigned long long)(d < 0 ? -d : d) * 200 >= p->base->noise_lo[s];
}

const struct ms_pair *ms_compare_explainable(const struct ms_compare *c, int *warm)
{
	const struct ms_pair *best = NULL;
	long long best_d = 0;

	for (int i = 0; c->patched && i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		/* a whole path's row: sub-rows (sched-pipe.write) and the
		 * census (a sum of sites) have no run of their own */
		if (!ms_pair_ok(c, p) || p->base->sites || p->patched->sites || strcmp(p->name, p->base->path))
			continue;
		for (int w = 1; w >= 0; w--) {
			long long d;

			if (!(w ? c->want_warm : c->want_cold))
				continue;
			d = ms_pair_delta(p, w);
			d = d < 0 ? -d : d;
			if (d > best_d) {
				best = p;
				best_d = d;
				*warm = w;
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
		for (int warm = 0; warm < 2; warm++)
			if ((warm ? c->want_warm : c->want_cold) &&
			    ms_delta_pct(ms_pair_result(p, 0, warm)->cycles,
					 ms_pair_result(p, 1, warm)->cycles) > pct)
				return 1;
	}
	return 0;
}
