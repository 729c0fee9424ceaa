/*
 * fidelity.c - hotsim's cycles beside a board's published ones
 * (measure.h, ms_fidelity; the boards: models/boards.c): the paths the
 * board's cells name, measured on its core with the board's own cache
 * geometry at steady state (typical rows), each cell summed as lmbench
 * sums it, and the mean absolute percentage error of the fitted cells and
 * of the held-out ones. Cells the board ran unpinned on several CPUs are
 * shown and counted in neither.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "measure_internal.h"

int ms_board_params(const struct hs_board *b, const struct ms_param *params, int nparams,
		    struct ms_param *out, int max)
{
	int n = 0;

	for (const struct hs_board_param *p = b->params; p && p->name; p++) {
		if (n == max)
			return hs_fail("more than %d parameters", max);
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].core, sizeof(out[n].core), "%s", b->core);
		snprintf(out[n].name, sizeof(out[n].name), "%s", p->name);
		out[n++].value = p->value;
	}
	for (int i = 0; i < nparams; i++) {
		if (n == max)
			return hs_fail("more than %d parameters", max);
		out[n++] = params[i];
	}
	return n;
}

/* The paths the cells name, once each, in the cells' order. */
static int cell_paths(const struct hs_board *b, struct ms_options *o)
{
	for (unsigned i = 0; i < b->ncells; i++)
		for (int t = 0; t < 3 && b->cells[i].terms[t].path; t++) {
			const struct hs_path_def *d = hs_path_find(b->cells[i].terms[t].path);
			int seen = 0;

			if (!d)
				return hs_fail("board %s: no path %s", b->name, b->cells[i].terms[t].path);
			for (int k = 0; k < o->npaths; k++)
				seen |= o->paths[k] == d;
			if (!seen && o->npaths == MS_MAX_PATHS)
				return hs_fail("board %s: more than %d paths", b->name, MS_MAX_PATHS);
			if (!seen)
				o->paths[o->npaths++] = d;
		}
	return 0;
}

static const struct ms_row *row_of(const struct ms_image *m, const char *path)
{
	for (int i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, path))
			return &m->rows[i];
	return NULL;
}

/* A cell from its terms' rows: the typical means summed, the intervals
 * added in quadrature (the paths are measured independently). */
static void cell(const struct ms_image *m, const struct hs_board *b, const struct hs_board_cell *c,
		 struct ms_cell *out)
{
	double var = 0;

	memset(out, 0, sizeof(*out));
	out->c = c;
	out->board = c->us * (double)b->clock_hz / 1e6;
	out->booted = 1;
	if (!c->terms[0].path) {
		snprintf(out->why, sizeof(out->why), "%s", c->note);
		return;
	}
	for (int t = 0; t < 3 && c->terms[t].path; t++) {
		const struct ms_row *r = row_of(m, c->terms[t].path);

		if (!r || !r->ok) {
			snprintf(out->why, sizeof(out->why), "%s: %.200s", c->terms[t].path,
				 r ? r->why : "not measured");
			return;
		}
		out->hotsim += c->terms[t].coef * r->s[MS_TYPICAL].d.mean;
		var += r->s[MS_TYPICAL].d.ci95 * r->s[MS_TYPICAL].d.ci95;
		out->booted &= r->booted;
	}
	out->ci95 = sqrt(var);
	out->ok = 1;
}

/* The errors: mean |hotsim / board - 1| of the fitted and held-out cells. */
static void errors(struct ms_fidelity *f)
{
	double sum[2] = { 0, 0 };

	f->worst = 0;
	f->worst_cell = -1;
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_cell *c = &f->cells[i];
		int held = (c->c->flags & HS_CELL_HELD_OUT) != 0;
		double e;

		if (!c->ok || (c->c->flags & HS_CELL_UNPINNED))
			continue;
		e = fabs(c->hotsim / c->board - 1);
		sum[held] += e;
		if (held)
			f->nheld++;
		else
			f->nfit++;
		if (e > f->worst) {
			f->worst = e;
			f->worst_cell = i;
		}
	}
	f->mape_fit = f->nfit ? 100 * sum[0] / f->nfit : 0;
	f->mape_held = f->nheld ? 100 * sum[1] / f->nheld : 0;
	f->worst *= 100;
}

int ms_fidelity(const char *image, const struct hs_board *b, const struct ms_param *params, int nparams,
		struct ms_fidelity *out)
{
	struct ms_options o = { .want[MS_TYPICAL] = 1, .src = HS_SRC_AUTO, .ncores = 1 };
	struct ms_image *imgs[1] = { &out->img };
	const struct ms_options *opts[1] = { &o };

	memset(out, 0, sizeof(*out));
	out->b = b;
	if (b->ncells > MS_MAX_CELLS)
		return hs_fail("board %s: more than %d cells", b->name, MS_MAX_CELLS);
	if (!(o.cores[0] = hs_core_find(b->core)))
		return hs_fail("board %s: no core %s", b->name, b->core);
	if (cell_paths(b, &o) || (o.nparams = ms_board_params(b, params, nparams, o.params, MS_MAX_PARAMS)) < 0)
		return -1;
	if (ms_open(image, &out->img) || ms_measure_images(imgs, opts, 1))
		return -1;
	for (unsigned i = 0; i < b->ncells; i++)
		cell(&out->img, b, &b->cells[i], &out->cells[out->ncells++]);
	errors(out);
	return 0;
}

void ms_fidelity_free(struct ms_fidelity *f)
{
	ms_free(&f->img);
}
