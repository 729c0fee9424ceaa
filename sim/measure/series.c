/*
 * series.c - a patch series, commit by commit (series.h): ask the builder
 * for the commits' images, measure them (every commit pinned to the base's
 * sites, as compare pins its patched image), and find each moved row's
 * steps (series_plan.c). Bisect measures the base and the tip on every
 * row, then the commits its searches need on the moved rows' paths and
 * cores only (a row's result does not depend on which others are measured
 * with it: compare's shards rely on the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/series.h"

/* Ask for commit k's image and open it; 0, 1 it failed (c->why), -1. */
static int build(struct ms_series *s, const struct ms_series_builder *b, int k, struct ms_image **out)
{
	struct ms_commit *c = &s->c[k];
	char path[4096];
	int rc;

	*out = NULL;
	if (c->failed)
		return 1;
	c->asked = 1;
	s->asked++;
	rc = b->build(b->ctx, k, path, sizeof(path), c->why, sizeof(c->why));
	if (rc)
		return rc < 0 ? -1 : (c->failed = 1);
	if (!(*out = calloc(1, sizeof(**out))))
		return hs_fail("out of memory");
	if (ms_open(path, *out)) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Every row of a measured commit cannot run: it did not boot. */
static void boot_failed(struct ms_commit *c)
{
	for (int i = 0; i < c->m->nrows; i++)
		if (c->m->rows[i].ok)
			return;
	if (c->m->nrows) {
		c->failed = 1;
		snprintf(c->why, sizeof(c->why), "cannot run: %.380s", c->m->rows[0].why);
	}
}

/* Measure the opened images imgs[0..n) of commits ks[] with options o
 * (the base's rows first when ks[0] is the base). */
static int measure(struct ms_series *s, const int *ks, struct ms_image **imgs, int n, const struct ms_options *o,
		   int full)
{
	const struct ms_options *opts[MS_SERIES_MAX + 1] = { NULL };
	struct ms_options pinned = *o;

	pinned.pin_from = s->c[0].m ? s->c[0].m : imgs[0];
	for (int i = 0; i < n; i++)
		opts[i] = ks[i] ? &pinned : o;
	if (ms_measure_images(imgs, opts, n))
		return -1;
	for (int i = 0; i < n; i++) {
		s->c[ks[i]].m = imgs[i];
		s->c[ks[i]].full = full;
		boot_failed(&s->c[ks[i]]);
	}
	return 0;
}

/* measure() of one commit; the image is freed when it fails. */
static int measure_one(struct ms_series *s, int k, struct ms_image *img, const struct ms_options *o, int full)
{
	if (!measure(s, &k, &img, 1, o, full))
		return 0;
	ms_free(img);
	free(img);
	return -1;
}

const struct ms_row *ms_series_row(const struct ms_series *s, int k, int r)
{
	const struct ms_image *base = s->c[0].m, *m = s->c[k].m;

	if (!base || !m || r >= base->nrows)
		return NULL;
	if (!k)
		return &base->rows[r];
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].core == base->rows[r].core && !strcmp(m->rows[i].name, base->rows[r].name))
			return &m->rows[i];
	return NULL;
}

int ms_series_nrows(const struct ms_series *s)
{
	return s->c[0].m ? s->c[0].m->nrows : 0;
}

int ms_series_move(const struct ms_series *s, int a, int b, int r, struct ms_move *mv)
{
	struct ms_pair p = { .base = ms_series_row(s, a, r), .patched = ms_series_row(s, b, r) };

	memset(mv, 0, sizeof(*mv));
	if (!p.base || !p.patched)
		return -1;
	p.name = p.base->name;
	p.core = p.base->core;
	s->cmp->base = s->c[a].m;
	s->cmp->patched = s->c[b].m;
	ms_pair_move(s->cmp, &p, MS_TYPICAL, mv);
	return 0;
}

/* --- the oracle the plan searches with ------------------------------------ */

struct oracle_ctx {
	struct ms_series *s;
	const struct ms_series_builder *b;
	struct ms_options moved;	/* the moved rows' paths and cores */
};

static int o_measure(void *ctx, int k)
{
	struct oracle_ctx *x = ctx;
	struct ms_image *img;
	int rc = build(x->s, x->b, k, &img);

	if (rc)
		return rc;
	return measure_one(x->s, k, img, &x->moved, 0) ? -1 : x->s->c[k].failed;
}

static int o_measured(void *ctx, int k)
{
	const struct ms_series *s = ((struct oracle_ctx *)ctx)->s;

	return s->c[k].m && !s->c[k].failed;
}

static int o_differ(void *ctx, int a, int b, int r)
{
	struct ms_move mv;

	if (ms_series_move(((struct oracle_ctx *)ctx)->s, a, b, r, &mv))
		return 0;
	return mv.verdict == MS_IMPROVED || mv.verdict == MS_REGRESSED;
}

/* The paths and cores of the rows that moved from the base to the tip
 * (every unit of them measured: a row's sub-rows come with it). */
static void moved_options(const struct ms_series *s, const char *moved, struct ms_options *o)
{
	const struct ms_image *base = s->c[0].m;

	*o = s->o;
	o->npaths = o->ncores = 0;
	for (int k = 0; k < s->o.npaths; k++)
		for (int r = 0; r < base->nrows; r++)
			if (moved[r] && !strcmp(base->rows[r].path, s->o.paths[k]->name)) {
				o->paths[o->npaths++] = s->o.paths[k];
				break;
			}
	for (int c = 0; c < s->o.ncores; c++)
		for (int r = 0; r < base->nrows; r++)
			if (moved[r] && base->rows[r].core == s->o.cores[c]) {
				o->cores[o->ncores++] = s->o.cores[c];
				break;
			}
}

/* The commits measured together: as many as the parallel measuring takes
 * at once (images x cores). */
static int measure_batches(struct ms_series *s, const int *ks, struct ms_image **imgs, int n)
{
	int per = 64 / (s->o.ncores ? s->o.ncores : 1);

	for (int i = 0; i < n; i += per)
		if (measure(s, ks + i, imgs + i, n - i < per ? n - i : per, &s->o, 1))
			return -1;
	return 0;
}

/* Every mode: build each commit (in order: each from its parent), then
 * measure them with the base. */
static int every_commit(struct ms_series *s, const struct ms_series_builder *b, struct ms_image *base)
{
	struct ms_image *imgs[MS_SERIES_MAX + 1] = { base };
	int ks[MS_SERIES_MAX + 1] = { 0 }, n = 1, rc = 0;

	for (int k = 1; k <= s->n && rc >= 0; k++)
		if ((rc = build(s, b, k, &imgs[n])) == 0)
			ks[n++] = k;
	if (rc >= 0)
		rc = measure_batches(s, ks, imgs, n);
	for (int i = 0; i < n; i++)
		if (!s->c[ks[i]].m) {
			ms_free(imgs[i]);
			free(imgs[i]);
		}
	for (int i = n - 1; i > 0 && !s->tip; i--)
		if (!s->c[ks[i]].failed)
			s->tip = ks[i];
	return rc < 0 ? -1 : 0;
}

/* Bisect: the base, then the tip - the last commit that builds and boots -
 * on every row. */
static int base_and_tip(struct ms_series *s, const struct ms_series_builder *b, struct ms_image *base)
{
	if (measure_one(s, 0, base, &s->o, 1))
		return -1;
	for (int k = s->n; k >= 1 && !s->tip; k--) {
		struct ms_image *img;
		int rc = build(s, b, k, &img);

		if (rc < 0 || (!rc && measure_one(s, k, img, &s->o, 1)))
			return -1;
		if (!rc && !s->c[k].failed)
			s->tip = k;
	}
	return 0;
}

static int add_steps(struct ms_series *s, const struct ms_plan_oracle *or, int r)
{
	struct ms_step *grown = realloc(s->steps, (size_t)(s->nsteps + s->n + 1) * sizeof(*grown));
	int got;

	if (!grown)
		return hs_fail("out of memory");
	s->steps = grown;
	got = ms_plan_row(or, s->every, s->tip, r, s->steps + s->nsteps, s->n + 1);
	if (got < 0)
		return -1;
	for (int i = 0; i < got; i++) {
		struct ms_step *st = &s->steps[s->nsteps + i];

		ms_series_move(s, st->from, st->commit, r, &st->mv);
	}
	s->nsteps += got;
	return 0;
}

static int find_steps(struct ms_series *s, const struct ms_series_builder *b)
{
	struct oracle_ctx x = { .s = s, .b = b };
	struct ms_plan_oracle or = { .ctx = &x, .n = s->n, .measure = o_measure, .measured = o_measured,
				     .differ = o_differ };
	int nrows = ms_series_nrows(s);
	char *moved = calloc((size_t)nrows + 1, 1);
	int rc = moved ? 0 : hs_fail("out of memory");

	for (int r = 0; r < nrows && !rc && s->tip; r++)
		s->nmoved += moved[r] = (char)o_differ(&x, 0, s->tip, r);
	if (!rc && s->tip)
		moved_options(s, moved, &x.moved);
	for (int r = 0; r < nrows && !rc; r++)
		if (s->every || moved[r])
			rc = add_steps(s, &or, r);
	free(moved);
	return rc;
}

int ms_series_run(struct ms_series *s, const struct ms_series_builder *b)
{
	struct ms_image *base;
	int rc;

	if (!(s->cmp = calloc(1, sizeof(*s->cmp))))
		return hs_fail("out of memory");
	if ((rc = build(s, b, 0, &base)))
		return rc < 0 ? -1 : hs_fail("the base does not build: %s", s->c[0].why);
	if (s->every ? every_commit(s, b, base) : base_and_tip(s, b, base))
		return -1;
	return find_steps(s, b);
}

void ms_series_free(struct ms_series *s)
{
	for (int k = 0; k <= s->n; k++)
		if (s->c[k].m) {
			ms_free(s->c[k].m);
			free(s->c[k].m);
			s->c[k].m = NULL;
		}
	free(s->steps);
	free(s->cmp);
	s->steps = NULL;
	s->cmp = NULL;
}
