/*
 * series_plan.c - where a row's move happens in a series (series.h,
 * ms_plan_row): the commit where it first appears and each step after it,
 * found by scanning every measured commit or by a binary search that
 * measures only what it needs. hotsim's measurement is deterministic, so a
 * commit either moved a row (a verdict) or did not: the search needs no
 * repeats, and its answer is exact.
 */
#include <stdlib.h>

#include "hotsim/err.h"
#include "hotsim/series.h"

/* The last measured commit in [lo, k) (lo is). */
static int measured_before(const struct ms_plan_oracle *o, int lo, int k)
{
	while (k - 1 > lo && !o->measured(o->ctx, k - 1))
		k--;
	return k - 1;
}

/* A measured commit in (lo, hi) nearest the middle (lower first on a tie),
 * or 0 when none is. */
static int measured_between(const struct ms_plan_oracle *o, int lo, int hi)
{
	int mid = lo + (hi - lo) / 2;

	for (int d = 0; d <= hi - lo; d++) {
		if (mid - d > lo && o->measured(o->ctx, mid - d))
			return mid - d;
		if (d && mid + d < hi && o->measured(o->ctx, mid + d))
			return mid + d;
	}
	return 0;
}

/* Measure a commit in (lo, hi) nearest the middle that builds (failed ones
 * are known to the oracle and skipped: failed[k]); 0 when none does, -1
 * on errors. */
static int measure_between(const struct ms_plan_oracle *o, int lo, int hi, char *failed)
{
	int mid = lo + (hi - lo) / 2;

	for (int d = 0; d <= hi - lo; d++)
		for (int side = 0; side < 2; side++) {
			int k = side ? mid + d : mid - d;
			int rc;

			if ((side && !d) || k <= lo || k >= hi || failed[k])
				continue;
			rc = o->measure(o->ctx, k);
			if (rc < 0)
				return -1;
			if (rc == 0)
				return k;
			failed[k] = 1;
		}
	return 0;
}

/* The first commit in (lo, hi] where row r differs from lo, lo and hi
 * measured and differing: the binary search. *parent: the commit the
 * search ended below it on. */
static int search(const struct ms_plan_oracle *o, int lo, int hi, int r, char *failed, int *parent)
{
	int from = lo;

	while (hi - lo > 1) {
		int mid = measured_between(o, lo, hi);

		if (!mid && (mid = measure_between(o, lo, hi, failed)) < 0)
			return -1;
		if (!mid)
			break;	/* nothing between builds: the step is one of them */
		if (o->differ(o->ctx, from, mid, r))
			hi = mid;
		else
			lo = mid;
	}
	*parent = lo;
	return hi;
}

/* Every mode: the first measured commit after a that differs from it. */
static int scan(const struct ms_plan_oracle *o, int a, int r)
{
	for (int k = a + 1; k <= o->n; k++)
		if (o->measured(o->ctx, k) && o->differ(o->ctx, a, k, r))
			return k;
	return 0;
}

int ms_plan_row(const struct ms_plan_oracle *o, int every, int tip, int r, struct ms_step *out, int max)
{
	char *failed = calloc((size_t)o->n + 1, 1);
	int a = 0, n = 0;

	if (!failed)
		return hs_fail("out of memory");
	while (n < max) {
		int k, parent;

		if (every) {
			if (!(k = scan(o, a, r)))
				break;
			parent = measured_before(o, a, k);
		} else {
			if (a == tip || !o->differ(o->ctx, a, tip, r))
				break;
			if ((k = search(o, a, tip, r, failed, &parent)) < 0) {
				n = -1;
				break;
			}
		}
		out[n++] = (struct ms_step){ .row = r, .commit = k, .parent = parent, .from = a };
		a = k;
	}
	free(failed);
	return n;
}
