/* measure_internal.h - what the measure layer's files share: costing a
 * run into rows (cost.c) and small helpers. */
#ifndef HOTSIM_MEASURE_INTERNAL_H
#define HOTSIM_MEASURE_INTERNAL_H

#include "hotsim/fit.h"
#include "hotsim/measure.h"

/* Cost a run into rows[0] (its whole row) and rows[1..nparts] (its
 * sub-rows, part k of the run is rows[1 + k]) in every state asked for,
 * with the layout bands (cost.c). */
int ms_cost_rows(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		 struct ms_row *rows, unsigned nparts);
/* A result of one draw (n = 1) from one model result. */
int ms_result_one(struct ms_result *s, const struct hs_model_result *r);

int ms_cmp_u64(const void *a, const void *b);
/* The distinct pcs of a stream, ascending, in a malloc'd array of *n
 * (NULL when out of memory, or for an empty stream). */
uint64_t *ms_distinct_pcs(const struct hs_trace *t, size_t *n);
/* A set of 64-bit values (distinct.c), zeroed to start: add values, then
 * take them once, ascending, in a malloc'd array of *n that the set hands
 * over (NULL when out of memory). -1 when out of memory. */
struct ms_set {
	uint64_t *v;
	size_t n, cap;
	int zero;
};
int ms_set_add(struct ms_set *s, uint64_t x);
uint64_t *ms_set_sorted(struct ms_set *s, size_t *n);
void ms_set_free(struct ms_set *s);

/* Measure the selected paths of an opened image on its o->cores[c],
 * appending the rows (measure.c); ms_measure_images runs these. */
int ms_measure_core(const struct ms_options *o, int c, struct ms_image *out);
/* Path d's rows on the session's machine of more than one CPU
 * (machine_rows.c): the round trip and the parts of its critical path. */
int ms_machine_rows(const struct ms_options *o, const struct hs_patched *pt, const struct hs_path_def *d,
		    struct hs_session *s, struct ms_image *out);

/* Bounded Levenberg-Marquardt (lm.c): fn puts the residuals at x in r
 * (their count in *nr, the same every call); x starts inside [lo, hi] and
 * ends at the minimum found, cov the parameters' covariance there
 * (INFINITY on the diagonal where J'J is singular). */
typedef int (*ms_resid_fn)(void *ctx, const double *x, double *r, int *nr);
struct ms_lm {
	int n;
	double x[MS_MAX_KNOBS], lo[MS_MAX_KNOBS], hi[MS_MAX_KNOBS];
	double cov[MS_MAX_KNOBS][MS_MAX_KNOBS];
	double rss;
	int nres, iterations, singular;
};
int ms_lm(void *ctx, ms_resid_fn fn, struct ms_lm *s);

/* The paths the options' sessions boot for: o->set, else the registry's. */
static inline const struct hs_path_set *ms_path_set(const struct ms_options *o)
{
	return o->set ? o->set : &hs_path_set_builtin;
}

/* The set path d boots with: o->more's when d is one of its paths. */
static inline const struct hs_path_set *ms_set_of(const struct ms_options *o, const struct hs_path_def *d)
{
	for (int i = 0; o->more && o->more->defs[i]; i++)
		if (o->more->defs[i] == d)
			return o->more;
	return ms_path_set(o);
}

#endif
