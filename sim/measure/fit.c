/*
 * fit.c - the unpublished costs of a core fitted to a board's published
 * lmbench cells (measure.h, ms_fit; the method: docs/calibration.md).
 *
 * The board's paths are replayed once; every evaluation only costs the
 * recorded streams again with the knobs' values (fit_knobs.c), so the fit
 * sees exactly the instructions `hotsim fidelity` costs. It minimises the
 * sum of squared log ratios hotsim / board over the fitted cells (held-out
 * and unpinned ones are left out) by Levenberg-Marquardt in the log of
 * each knob, clamped to the knob's bounds, from the core file's values.
 * At the minimum, the Jacobian gives each knob's 95% range (Gauss-Newton
 * covariance with the residual variance); a knob is determined when that
 * range spans less than a factor of two.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "measure_internal.h"

/* a knob is determined when its 95% range spans less than this factor */
#define DETERMINED 2.0

struct fitting {
	struct ms_fit *out;
	const struct ms_knob *const *k;
	int nk;
	struct hs_patched *pt;
	struct hs_path_run run[MS_MAX_PATHS];
	int nruns;
	struct hs_path_set set;			/* the board's, on one CPU */
	struct ms_param base[MS_MAX_PARAMS];	/* the board's parameters */
	int nbase;
	double prior[MS_MAX_KNOBS][20];		/* each member's core-file value */
	double lo[MS_MAX_KNOBS], hi[MS_MAX_KNOBS];	/* bounds, log units */
};

/* Each member's value in the core file. */
static int priors(struct fitting *f)
{
	struct hs_model *m = hs_model_new(f->out->core);

	if (!m)
		return -1;
	for (int j = 0; j < f->nk; j++)
		for (int i = 0; f->k[j]->members[i]; i++) {
			const struct hs_param *p = NULL;

			for (size_t n = 0; (p = hs_model_param(m, n)) && strcmp(p->name, f->k[j]->members[i]); n++)
				;
			if (!p) {
				hs_model_free(m);
				return hs_fail("knob %s: no parameter %s", f->k[j]->name, f->k[j]->members[i]);
			}
			f->prior[j][i] = p->value;
		}
	hs_model_free(m);
	return 0;
}

/* The paths of the cells the fit uses (fitted or held out), each replayed
 * once from the booted state: an unpinned cell is neither, and its paths
 * run on the board's machine (fidelity.c), not on the one CPU here. */
static int replay(struct fitting *f, const char *image, struct hs_image **img)
{
	const struct hs_board *b = f->out->b;

	if (!(*img = hs_image_open(image)) || !(f->pt = hs_patch(*img, f->out->core)))
		return -1;
	for (unsigned i = 0; i < b->ncells; i++)
		for (int t = 0; t < 3 && b->cells[i].terms[t].path && !(b->cells[i].flags & HS_CELL_UNPINNED); t++) {
			const struct hs_path_def *d = hs_path_find(b->cells[i].terms[t].path);
			struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .set = &f->set };
			int seen = 0;

			for (int r = 0; r < f->nruns; r++)
				seen |= f->run[r].def == d;
			if (!d || seen)
				continue;
			if (hs_path_run_alone(d, f->pt, HS_SRC_BOOTED, &ro, &f->run[f->nruns]))
				return -1;
			if (!f->run[f->nruns++].ok)
				return hs_fail("%s on %s cannot run: %s", d->name, f->out->core->name,
					       f->run[f->nruns - 1].why);
		}
	return 0;
}

/* The model's parameters at knob values x (log units). */
static int params_at(const struct fitting *f, const double *x, struct ms_options *o)
{
	memset(o, 0, sizeof(*o));
	o->want[MS_TYPICAL] = 1;
	memcpy(o->params, f->base, sizeof(f->base[0]) * (size_t)f->nbase);
	o->nparams = f->nbase;
	for (int j = 0; j < f->nk; j++)
		for (int i = 0; f->k[j]->members[i]; i++) {
			struct ms_param *p = &o->params[o->nparams++];

			if (o->nparams > MS_MAX_PARAMS)
				return hs_fail("the fit sets more than %d parameters", MS_MAX_PARAMS);
			snprintf(p->core, sizeof(p->core), "%s", f->out->core->name);
			snprintf(p->name, sizeof(p->name), "%s", f->k[j]->members[i]);
			p->value = f->k[j]->scaled ? f->prior[j][i] * exp(x[j]) : exp(x[j]);
		}
	return 0;
}

/* Every cell's hotsim cycles at x; the fitted cells' log ratios in r. */
static int eval(struct fitting *f, const double *x, double *cells, double *r, int *nr)
{
	const struct hs_board *b = f->out->b;
	double mean[MS_MAX_PATHS];
	struct ms_options o;
	struct hs_model *m;

	if (params_at(f, x, &o) || !(m = ms_model(&o, f->out->core)))
		return -1;
	for (int i = 0; i < f->nruns; i++) {
		struct ms_row row;

		memset(&row, 0, sizeof(row));
		if (ms_cost_rows(m, &o, &f->run[i], &row, 0)) {
			hs_model_free(m);
			return -1;
		}
		mean[i] = row.s[MS_TYPICAL].d.mean;
		free(row.s[MS_TYPICAL].v);
	}
	hs_model_free(m);
	f->out->evaluations++;
	*nr = 0;
	for (unsigned c = 0; c < b->ncells; c++) {
		const struct hs_board_cell *bc = &b->cells[c];
		double board = bc->us * (double)b->clock_hz / 1e6;

		cells[c] = 0;
		for (int t = 0; t < 3 && bc->terms[t].path; t++)
			for (int i = 0; i < f->nruns; i++)
				if (!strcmp(f->run[i].def->name, bc->terms[t].path))
					cells[c] += bc->terms[t].coef * mean[i];
		if (bc->terms[0].path && !(bc->flags & (HS_CELL_HELD_OUT | HS_CELL_UNPINNED | HS_CELL_UNLIKE)))
			r[(*nr)++] = log((cells[c] > 1 ? cells[c] : 1) / board);
	}
	return 0;
}

/* ms_lm's residuals: the fitted cells' log ratios at x. */
static int resid(void *ctx, const double *x, double *r, int *nr)
{
	double cells[MS_MAX_CELLS];

	return eval(ctx, x, cells, r, nr);
}

/* The cells at x into before or after; the rms of the fitted log ratios. */
static int cells_at(struct fitting *f, const double *x, int after, double *rms)
{
	double cells[MS_MAX_CELLS], r[MS_MAX_CELLS], ss = 0;
	int nr;

	if (eval(f, x, cells, r, &nr))
		return -1;
	for (unsigned c = 0; c < f->out->b->ncells; c++) {
		struct ms_fit_cell *fc = &f->out->cells[c];

		fc->c = &f->out->b->cells[c];
		fc->board = fc->c->us * (double)f->out->b->clock_hz / 1e6;
		fc->ok = fc->c->terms[0].path != NULL && !(fc->c->flags & HS_CELL_UNPINNED);
		*(after ? &fc->after : &fc->before) = cells[c];
	}
	for (int i = 0; i < nr; i++)
		ss += r[i] * r[i];
	f->out->ncells = (int)f->out->b->ncells;
	f->out->nfit = nr;
	*rms = nr ? sqrt(ss / nr) : 0;
	return 0;
}

/* From the core file's values, each knob in log units within its bounds. */
static int solve(struct fitting *f)
{
	struct ms_lm s = { .n = f->nk };

	for (int j = 0; j < f->nk; j++) {
		s.lo[j] = log(f->k[j]->lo);
		s.hi[j] = log(f->k[j]->hi);
		s.x[j] = fmin(s.hi[j], fmax(s.lo[j], f->k[j]->scaled ? 0 : log(f->prior[j][0])));
	}
	if (cells_at(f, s.x, 0, &f->out->rms_before) || ms_lm(f, resid, &s) ||
	    cells_at(f, s.x, 1, &f->out->rms_after))
		return -1;
	for (int j = 0; j < f->nk; j++) {
		double half = 1.96 * sqrt(s.cov[j][j]);

		f->out->v[j].k = f->k[j];
		f->out->v[j].value = exp(s.x[j]);
		f->out->v[j].lo95 = exp(fmax(s.lo[j], s.x[j] - half));
		f->out->v[j].hi95 = exp(fmin(s.hi[j], s.x[j] + half));
		f->out->v[j].determined = isfinite(half) && exp(2 * half) < DETERMINED;
	}
	f->out->nknobs = f->nk;
	return 0;
}

int ms_fit(const char *image, const struct hs_board *b, struct ms_fit *out)
{
	struct fitting f = { .out = out };
	struct hs_image *img = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->b = b;
	if (!(out->core = hs_board_core(b, &out->board_core)) || !(f.k = ms_knobs(out->core)))
		return hs_fail("board %s: no knobs to fit on core %s", b->name, b->core);
	while (f.k[f.nk] && f.nk < MS_MAX_KNOBS)
		f.nk++;
	if ((f.nbase = ms_board_params(b, NULL, 0, f.base, MS_MAX_PARAMS)) < 0 || ms_board_set(b, 0, &f.set))
		return -1;
	rc = priors(&f) || replay(&f, image, &img) || solve(&f);
	for (int i = 0; i < f.nruns; i++)
		hs_path_run_free(&f.run[i]);
	hs_patched_free(f.pt);
	hs_image_close(img);
	return rc ? -1 : 0;
}

double ms_knob_member(const struct ms_fit *f, int k, const char *member)
{
	const struct ms_knob *kn = f->v[k].k;
	struct hs_model *m;
	const struct hs_param *p;
	double v = f->v[k].value;

	if (!kn->scaled || !(m = hs_model_new(f->core)))
		return v;
	for (size_t n = 0; (p = hs_model_param(m, n)); n++)
		if (!strcmp(p->name, member))
			v *= p->value;
	hs_model_free(m);
	return v;
}
