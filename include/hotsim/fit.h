/*
 * fit.h - the unpublished costs of a core fitted to a board's published
 * lmbench cells (sim/measure/fit.c, the knobs fit_knobs.c; `hotsim fit`,
 * docs/calibration.md).
 */
#ifndef HOTSIM_FIT_H
#define HOTSIM_FIT_H

#include "hotsim/board.h"
#include "hotsim/measure.h"

/*
 * A knob: some of a core's unpublished parameters moved together, because
 * the cells cannot tell them apart - one value for all (tied) or one
 * factor on their guesses (scaled) - within physical bounds.
 */
#define MS_MAX_KNOBS 8
struct ms_knob {
	const char *name;
	const char *members[20];	/* parameter names, NULL-terminated */
	int scaled;			/* 1: a factor on each member's value */
	double lo, hi;			/* bounds of the value or factor */
	const char *why;		/* the grouping and the bounds' source */
};

struct ms_fit_cell {
	const struct hs_board_cell *c;
	double board, before, after;	/* cycles; before: at the guesses */
	int ok;				/* costed by the fit */
	int fitted;			/* in the fit's residuals */
};

struct ms_fit {
	const struct hs_board *b;
	const struct hs_core *core;	/* the board's (hs_board_core) */
	struct hs_core board_core;
	struct {
		const struct ms_knob *k;
		double value;		/* fitted (scaled: the factor) */
		double lo95, hi95;	/* the range the cells allow (95%) */
		int determined;		/* the cells pin it down (docs/calibration.md) */
		double prior[20];	/* each member's guess on the board */
	} v[MS_MAX_KNOBS];
	int nknobs;
	struct ms_fit_cell cells[MS_MAX_CELLS];
	int ncells, nfit;
	double rms_before, rms_after;	/* of the fitted cells' log ratios */
	int evaluations;
	unsigned nboots;		/* of the board's machine, for its unpinned cells */
};

/* The knobs fitted on a core (NULL-terminated), or NULL: none. */
const struct ms_knob *const *ms_knobs(const struct hs_core *core);
/* Replay the board's paths on image once (the unpinned cells' on its
 * machine, booted nboots times: 1 .. HS_BOOT_MAX), then fit the knobs of
 * its core to the board's fitted cells (least squares on log ratios,
 * bounded). */
int ms_fit(const char *image, const struct hs_board *b, unsigned nboots, struct ms_fit *out);
/* The value of member parameter member of knob k at the fit (a factor's
 * product with the member's guess on the board). */
double ms_knob_member(const struct ms_fit *f, int k, const char *member);

#endif
