/*
 * series.h - a patch series measured commit by commit (`hotsim series`):
 * each commit's rows against the base's, and for every row that moved,
 * the commit where the move first appears and each step after it.
 *
 * The commits are built by the caller (a callback; the CLI's runs
 * hotsim-series, the pair's recipe and cache); this decides which to build
 * and measures them with the same sampling and verdicts as compare. Every
 * commit, or (bisect) the base and the tip first, then per row that moved
 * between them a binary search over the commits in between, measuring only
 * the moved rows' paths and cores: at most ceil(log2 n) builds a step.
 */
#ifndef HOTSIM_SERIES_H
#define HOTSIM_SERIES_H

#include <stddef.h>

#include "hotsim/measure.h"

#define MS_SERIES_MAX 64	/* commits after the base */

struct ms_commit {
	char id[48];			/* short hash, or the patch's name */
	char subject[200];
	int failed;			/* does not apply, build or (every row) boot */
	char why[400];			/* failed: one line */
	int asked;			/* the builder was asked for it */
	struct ms_image *m;		/* measured (NULL: not) */
	int full;			/* measured on every row (else the moved rows') */
};

/* One step of a row's move: from commit `from` (the base, or the step
 * before) the row first differs at `commit`; `parent` is the commit
 * measured just before it (its parent, unless commits between did not
 * build), what --explain compares it with. */
struct ms_step {
	int row;			/* index of the row in the base's rows */
	int commit, parent, from;
	struct ms_move mv;		/* from -> commit */
};

struct ms_series_builder {
	void *ctx;
	/* Commit k's image (k 0: the base) into path: 0; 1 when it does not
	 * apply or build (why: one line); -1 on errors (hs_errmsg). */
	int (*build)(void *ctx, int k, char *path, size_t len, char *why, size_t wlen);
};

struct ms_series {
	int n;				/* commits after the base (c[1..n]) */
	struct ms_commit c[MS_SERIES_MAX + 1];
	int every;			/* build every commit (else bisect) */
	struct ms_options o;		/* the measuring (pin_from is set here) */
	int tip;			/* the last commit that built (0: none did) */
	int asked;			/* builds asked for, the base's included */
	int nmoved;			/* rows that moved from the base to the tip */
	struct ms_step *steps;		/* by row, then commit */
	int nsteps;
	struct ms_compare *cmp;		/* scratch */
};

/* Build and measure as s->every says; s->n, s->c[].id/subject and s->o
 * set by the caller. 0, or -1 (hs_errmsg): the base does not build, or
 * measuring failed. */
int ms_series_run(struct ms_series *s, const struct ms_series_builder *b);
/* Row r (of the base's rows) from commit a to commit b: 0 with the move,
 * -1 when either was not measured on that row. */
int ms_series_move(const struct ms_series *s, int a, int b, int r, struct ms_move *mv);
/* The base's row r, and commit k's row of the same name and core (NULL:
 * not measured). */
const struct ms_row *ms_series_row(const struct ms_series *s, int k, int r);
int ms_series_nrows(const struct ms_series *s);
void ms_series_free(struct ms_series *s);

/*
 * Where a row's steps are (series_plan.c), over an oracle, so that the
 * search is the same for real images and for a test's table of values:
 * measure(k) builds and measures commit k (0; 1 it did not build; -1
 * error), measured(k) says whether it is, differ(a, b, r) whether row r
 * moved from a to b (a verdict, (I) or (R)).
 */
struct ms_plan_oracle {
	void *ctx;
	int n;
	int (*measure)(void *ctx, int k);
	int (*measured)(void *ctx, int k);
	int (*differ)(void *ctx, int a, int b, int r);
};

/* Row r's steps (commit, parent, from; not mv) into out (at most max):
 * every: over the measured commits up to n, each step the first commit
 * that differs from the one before; else from the base to tip, each step
 * found by a binary search between measured commits (measuring the middle
 * one when none is measured; one that does not build is skipped for the
 * nearest that does). The count, or -1 on errors. */
int ms_plan_row(const struct ms_plan_oracle *o, int every, int tip, int r, struct ms_step *out, int max);

#endif
