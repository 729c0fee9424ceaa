/*
 * fit.c - the unpublished costs of a core fitted to a board's published
 * lmbench cells (measure.h, ms_fit; the method: docs/calibration.md).
 *
 * The board's paths are replayed once; every evaluation only costs the
 * recorded streams again with the knobs' values (fit_knobs.c), so the fit
 * sees exactly the instructions `hotsim fidelity` costs. The cells the
 * board ran unpinned and a machine replays (lat_pipe, lat_unix, lat_ctx)
 * are fitted too, on the board's machine as fidelity runs them: each boot
 * replayed once, taking turns by modelled time at the guesses, then
 * costed again in that order with each trial's (a trial that would
 * move a race between the CPUs keeps the recorded one). It minimises the
 * sum of squared log ratios hotsim / board over the fitted cells (held-out
 * ones and those on one CPU that the board ran across CPUs are left out)
 * by Levenberg-Marquardt in the log of each knob, clamped to the knob's
 * bounds, from the guesses (a fitted entry's own, so a fit re-run gives
 * the value the core file holds). At the minimum, the Jacobian gives each knob's 95% range (Gauss-Newton
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
#include "hotsim/machine_cost.h"
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
	/* the machine's paths, boot by boot, as replayed at the guesses; a
	 * cell's boots in its mean (fidelity.c's rule) */
	struct machine_term {
		const struct hs_path_def *d;
		unsigned boot;
		struct ms_machine_replay *rep;
		int one_cpu;
	} mrun[MS_MAX_PATHS * HS_BOOT_MAX];
	int nmruns;
	unsigned nboots;
	struct hs_session *sess[HS_BOOT_MAX];	/* boot k's: its streams' decode */
	unsigned in_mean[MS_MAX_CELLS];		/* a mask of boots */
	struct ms_param base[MS_MAX_PARAMS];	/* the board's parameters */
	int nbase;
	double lo[MS_MAX_KNOBS], hi[MS_MAX_KNOBS];	/* bounds, log units */
};

/* A parameter's guess on the board: what the board's list sets (a time at
 * its clock, its own cache geometry), else the guess a fit moved the core
 * file's value from (the fit starts there again, to the same value), else
 * that value. */
static double board_guess(const struct ms_param *base, int nbase, const struct hs_param *p)
{
	for (int i = nbase; i-- > 0;)
		if (!strcmp(base[i].name, p->name))
			return base[i].value;
	return p->hi > 0 ? p->guess : p->value;
}

/* Each member's guess on the board */
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
			f->out->v[j].prior[i] = board_guess(f->base, f->nbase, p);
		}
	hs_model_free(m);
	return 0;
}

/* Whether cell c is fitted: not held out, not unlike, and where the board
 * ran it across CPUs, replayed so (its first term on the machine) */
static int fitted(const struct hs_board *b, const struct hs_board_cell *c)
{
	const struct hs_path_def *d = c->terms[0].path ? hs_path_find(c->terms[0].path) : NULL;

	return d && !(c->flags & (HS_CELL_HELD_OUT | HS_CELL_UNLIKE)) &&
	       (!(c->flags & HS_CELL_UNPINNED) || ms_on_machine(b, c, d));
}

/* Whether the fit costs cell c: fitted or held out, or unlike (shown) */
static int costed(const struct hs_board *b, const struct hs_board_cell *c)
{
	const struct hs_path_def *d = c->terms[0].path ? hs_path_find(c->terms[0].path) : NULL;

	return d && (!(c->flags & HS_CELL_UNPINNED) || ms_on_machine(b, c, d));
}

static int replay_one(struct fitting *f, const struct hs_path_def *d)
{
	struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .set = &f->set };

	for (int r = 0; r < f->nruns; r++)
		if (f->run[r].def == d)
			return 0;
	if (f->nruns == MS_MAX_PATHS)
		return hs_fail("board %s: more than %d paths", f->out->b->name, MS_MAX_PATHS);
	if (hs_path_run_alone(d, f->pt, HS_SRC_BOOTED, &ro, &f->run[f->nruns]))
		return -1;
	if (!f->run[f->nruns++].ok)
		return hs_fail("%s on %s cannot run: %s", d->name, f->out->core->name, f->run[f->nruns - 1].why);
	return 0;
}

static int params_at(const struct fitting *f, const double *x, struct ms_options *o);

/* Path d on boot k of the board's machine (session s), taking turns by
 * modelled time at o's values (the guesses), kept to be costed again */
static int replay_machine(struct fitting *f, struct hs_session *s, const struct ms_options *o,
			  const struct hs_path_def *d, unsigned k)
{
	struct machine_term *mt = &f->mrun[f->nmruns];
	unsigned point, nops = MS_MACHINE_WARM_OPS + d->boot.op.samples;
	double latency;

	for (int r = 0; r < f->nmruns; r++)
		if (f->mrun[r].d == d && f->mrun[r].boot == k)
			return 0;
	if (f->nmruns == MS_MAX_PATHS * HS_BOOT_MAX)
		return hs_fail("board %s: more than %d machine paths", f->out->b->name, MS_MAX_PATHS);
	if (!(mt->rep = malloc(sizeof(*mt->rep))))
		return hs_fail("out of memory");
	if (nops > HS_MACHINE_MAX_OPS)
		nops = HS_MACHINE_MAX_OPS;
	if (ms_machine_point(s, d->boot.point->name, &point) ||
	    ms_machine_replay(o, f->out->core, s, point, nops, mt->rep)) {
		free(mt->rep);
		return hs_fail("%s on board %s's machine, boot %u: %s", d->name, f->out->b->name, k, hs_errmsg());
	}
	mt->d = d;
	mt->boot = k;
	f->nmruns++;
	return ms_machine_recost(o, f->out->core, mt->rep, &latency, &mt->one_cpu);
}

/* Boot k of the board's machine: the machine terms of the cells it costs */
static int replay_boot(struct fitting *f, unsigned k, const double *x0)
{
	const struct hs_board *b = f->out->b;
	struct hs_path_set set;
	struct hs_session *s;
	struct ms_options o;
	int rc = 0;

	if (ms_board_set(b, b->cpus, &set) || params_at(f, x0, &o))
		return -1;
	set.boot = k;
	set.turns = HS_TURNS_MODEL;
	/* kept to the end: the streams name the session's decoded code */
	if (!(s = f->sess[k] = hs_session_new(f->pt, HS_SRC_BOOTED, &set)))
		return -1;
	for (unsigned i = 0; i < b->ncells && !rc; i++)
		for (int t = 0; t < 3 && b->cells[i].terms[t].path && !rc && costed(b, &b->cells[i]); t++) {
			const struct hs_path_def *d = hs_path_find(b->cells[i].terms[t].path);

			if (ms_on_machine(b, &b->cells[i], d))
				rc = replay_machine(f, s, &o, d, k);
		}
	return rc;
}

/* A cell's boots in its mean: those whose round trips crossed CPUs on
 * every machine term, or all when none did (fidelity.c's rule) */
static void boots_in_mean(struct fitting *f, unsigned c)
{
	const struct hs_board_cell *bc = &f->out->b->cells[c];
	unsigned all = (1u << f->nboots) - 1, crossed = all;

	for (int t = 0; t < 3 && bc->terms[t].path; t++)
		for (int r = 0; r < f->nmruns; r++)
			if (!strcmp(f->mrun[r].d->name, bc->terms[t].path) && f->mrun[r].one_cpu)
				crossed &= ~(1u << f->mrun[r].boot);
	f->in_mean[c] = crossed ? crossed : all;
}

/* The paths of the cells the fit costs, each replayed once: on one CPU
 * from the booted state, or on the board's machine boot by boot. */
static int replay(struct fitting *f, const char *image, struct hs_image **img, const double *x0)
{
	const struct hs_board *b = f->out->b;

	if (!(*img = hs_image_open(image)) || !(f->pt = hs_patch(*img, f->out->core)))
		return -1;
	for (unsigned i = 0; i < b->ncells; i++)
		for (int t = 0; t < 3 && b->cells[i].terms[t].path && costed(b, &b->cells[i]); t++) {
			const struct hs_path_def *d = hs_path_find(b->cells[i].terms[t].path);

			if (!d)
				return hs_fail("board %s: no path %s", b->name, b->cells[i].terms[t].path);
			if (!ms_on_machine(b, &b->cells[i], d) && replay_one(f, d))
				return -1;
		}
	for (unsigned k = 0; k < f->nboots; k++)
		if (replay_boot(f, k, x0))
			return -1;
	for (unsigned i = 0; i < b->ncells; i++)
		boots_in_mean(f, i);
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
			p->value = f->k[j]->scaled ? f->out->v[j].prior[i] * exp(x[j]) : exp(x[j]);
		}
	return 0;
}

/* A term's cycles: its one-CPU row's mean, or the mean over the cell's
 * boots of the machine's steady round trips */
static double term(const struct fitting *f, unsigned c, const char *path, const double *mean, const double *mlat)
{
	double v = 0;
	unsigned n = 0;

	for (int i = 0; i < f->nruns; i++)
		if (!strcmp(f->run[i].def->name, path))
			return mean[i];
	for (int r = 0; r < f->nmruns; r++)
		if (!strcmp(f->mrun[r].d->name, path) && (f->in_mean[c] >> f->mrun[r].boot & 1)) {
			v += mlat[r];
			n++;
		}
	return n ? v / n : 0;
}

/* Every cell's hotsim cycles at x; the fitted cells' log ratios in r. */
static int eval(struct fitting *f, const double *x, double *cells, double *r, int *nr)
{
	const struct hs_board *b = f->out->b;
	double mean[MS_MAX_PATHS], mlat[MS_MAX_PATHS * HS_BOOT_MAX];
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
	for (int i = 0; i < f->nmruns; i++) {
		int one;

		if (ms_machine_recost(&o, f->out->core, f->mrun[i].rep, &mlat[i], &one))
			return -1;
	}
	f->out->evaluations++;
	*nr = 0;
	for (unsigned c = 0; c < b->ncells; c++) {
		const struct hs_board_cell *bc = &b->cells[c];
		double board = bc->us * (double)b->clock_hz / 1e6;

		cells[c] = 0;
		for (int t = 0; t < 3 && bc->terms[t].path; t++)
			cells[c] += bc->terms[t].coef * term(f, c, bc->terms[t].path, mean, mlat);
		if (fitted(b, bc))
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
		fc->ok = costed(f->out->b, fc->c);
		fc->fitted = fitted(f->out->b, fc->c);
		*(after ? &fc->after : &fc->before) = cells[c];
	}
	for (int i = 0; i < nr; i++)
		ss += r[i] * r[i];
	f->out->ncells = (int)f->out->b->ncells;
	f->out->nfit = nr;
	*rms = nr ? sqrt(ss / nr) : 0;
	return 0;
}

/* From the guesses, each knob in log units within its bounds. */
static void start(const struct fitting *f, struct ms_lm *s)
{
	s->n = f->nk;
	for (int j = 0; j < f->nk; j++) {
		s->lo[j] = log(f->k[j]->lo);
		s->hi[j] = log(f->k[j]->hi);
		s->x[j] = fmin(s->hi[j], fmax(s->lo[j], f->k[j]->scaled ? 0 : log(f->out->v[j].prior[0])));
	}
}

static int solve(struct fitting *f, struct ms_lm *sp)
{
	struct ms_lm s = *sp;

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

int ms_fit(const char *image, const struct hs_board *b, unsigned nboots, struct ms_fit *out)
{
	struct fitting *f = calloc(1, sizeof(*f));
	struct hs_image *img = NULL;
	struct ms_lm s;
	int rc;

	memset(out, 0, sizeof(*out));
	out->b = b;
	if (!f)
		return hs_fail("out of memory");
	f->out = out;
	if (nboots < 1 || nboots > HS_BOOT_MAX)
		rc = hs_fail("board %s: %u boots of its machine; 1 to %d", b->name, nboots, HS_BOOT_MAX);
	else if (!(out->core = hs_board_core(b, &out->board_core)) || !(f->k = ms_knobs(out->core)))
		rc = hs_fail("board %s: no knobs to fit on core %s", b->name, b->core);
	else if (b->ncells > MS_MAX_CELLS)
		rc = hs_fail("board %s: more than %d cells", b->name, MS_MAX_CELLS);
	else {
		while (f->k[f->nk] && f->nk < MS_MAX_KNOBS)
			f->nk++;
		f->nboots = out->nboots = nboots;
		rc = (f->nbase = ms_board_params(b, NULL, 0, f->base, MS_MAX_PARAMS)) < 0 ||
		     ms_board_set(b, 0, &f->set) || priors(f);
		if (!rc) {
			start(f, &s);
			rc = replay(f, image, &img, s.x) || solve(f, &s);
		}
	}
	for (int i = 0; i < f->nruns; i++)
		hs_path_run_free(&f->run[i]);
	for (int i = 0; i < f->nmruns; i++) {
		ms_machine_replay_free(f->mrun[i].rep);
		free(f->mrun[i].rep);
	}
	for (unsigned k = 0; k < f->nboots; k++)
		hs_session_free(f->sess[k]);
	hs_patched_free(f->pt);
	hs_image_close(img);
	free(f);
	return rc ? -1 : 0;
}

double ms_knob_member(const struct ms_fit *f, int k, const char *member)
{
	const struct ms_knob *kn = f->v[k].k;

	if (!kn->scaled)
		return f->v[k].value;
	for (int i = 0; kn->members[i]; i++)
		if (!strcmp(kn->members[i], member))
			return f->v[k].value * f->v[k].prior[i];
	return f->v[k].value;
}
