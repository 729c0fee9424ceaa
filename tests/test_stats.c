/*
 * test_stats.c - the statistics behind every sampled row and every compare
 * verdict (sim/measure/stats.c), against values worked by hand or read
 * from the published two-sided Student's t table (any statistics text,
 * e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2):
 * t(0.975; 1) = 12.706, t(0.975; 7) = 2.365, t(0.975; 8) = 2.306,
 * t(0.975; 10) = 2.228, t(0.975; 30) = 2.042, t(0.975; inf) = 1.960.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "hotsim/measure.h"
#include "../sim/measure/measure_internal.h"

#define NEAR(a, b, eps) cr_assert(fabs((a) - (b)) < (eps), "%s = %.6f, want %.6f", #a, (double)(a), \
				  (double)(b))

Test(stats, t_quantiles_are_the_table)
{
	NEAR(ms_t_quantile(0.975, 1), 12.706, 5e-4);
	NEAR(ms_t_quantile(0.975, 7), 2.365, 5e-4);
	NEAR(ms_t_quantile(0.975, 8), 2.306, 5e-4);
	NEAR(ms_t_quantile(0.975, 10), 2.228, 5e-4);
	NEAR(ms_t_quantile(0.975, 30), 2.042, 5e-4);
	NEAR(ms_t_quantile(0.975, 1e7), 1.960, 5e-4);
	/* symmetric, and the median is 0 */
	NEAR(ms_t_quantile(0.025, 10), -2.228, 5e-4);
	NEAR(ms_t_quantile(0.5, 10), 0.0, 1e-12);
}

Test(stats, t_cdf_inverts_the_quantile)
{
	NEAR(ms_t_cdf(2.228, 10), 0.975, 1e-4);
	NEAR(ms_t_cdf(-2.228, 10), 0.025, 1e-4);
	NEAR(ms_t_cdf(0, 3), 0.5, 1e-12);
	/* df = 1 is Cauchy: F(t) = 1/2 + atan(t) / pi */
	NEAR(ms_t_cdf(1.0, 1), 0.75, 1e-9);
	NEAR(ms_t_cdf(3.0, 1), 0.5 + atan(3.0) / M_PI, 1e-9);
}

/* {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, squared deviations 32, so the sample
 * sd is sqrt(32 / 7) = 2.13809; the interval's half-width is
 * t(0.975; 7) * sd / sqrt(8) = 2.36462 * 0.75593 = 1.78749. The median of
 * an even count is the mean of the middle two, 4.5, rounded half away from
 * zero to 5 (rows print whole cycles). */
Test(stats, distribution_of_eight_values)
{
	static const double v[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct ms_dist d;

	ms_dist_of(v, 8, &d);
	cr_assert_eq(d.n, 8);
	NEAR(d.mean, 5.0, 1e-12);
	NEAR(d.sd, sqrt(32.0 / 7.0), 1e-12);
	NEAR(d.ci95, 1.78749, 1e-4);
	cr_assert_eq(d.min, 2);
	cr_assert_eq(d.max, 9);
	cr_assert_eq(d.median, 5);
}

/* One draw: a mean, no spread, no interval. */
Test(stats, one_draw_has_no_interval)
{
	static const double v[] = { 370 };
	struct ms_dist d;

	ms_dist_of(v, 1, &d);
	cr_assert_eq(d.n, 1);
	NEAR(d.mean, 370, 1e-12);
	cr_assert_eq(d.sd, 0);
	cr_assert_eq(d.ci95, 0);
	cr_assert_eq(d.median, 370);
}

/* a = {1..5}, b = {3..7}: means 3 and 5, both variances 2.5, so the
 * standard error of the difference is sqrt(2.5/5 + 2.5/5) = 1, t = 2, and
 * Welch-Satterthwaite gives df = 1 / (0.5^2/4 + 0.5^2/4) = 8. Two-sided
 * p for t = 2 on 8 df: 0.0805 (table); the interval 2.306 * 1. */
Test(stats, welch_by_hand)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	struct ms_dist da, db;
	struct ms_welch w;

	ms_dist_of(a, 5, &da);
	ms_dist_of(b, 5, &db);
	cr_assert_eq(ms_welch(&da, &db, &w), 0);
	NEAR(w.delta, 2.0, 1e-12);
	NEAR(w.t, 2.0, 1e-12);
	NEAR(w.df, 8.0, 1e-9);
	NEAR(w.p, 0.0805, 5e-4);
	NEAR(w.ci95, 2.306, 5e-4);
	/* not significant at 95%: the interval contains 0 */
	cr_assert_gt(w.p, 0.05);
	cr_assert_lt(w.ci95, 2.5);
}

/* Unequal variances: a = {10, 12} (var 2), b = {20, 26, 26, 28} (var
 * 12): se^2 = 2/2 + 12/4 = 4, t = (25 - 11) / 2 = 7, df = 16 / (1/1 +
 * 9/3) = 4; two-sided p for t = 7 on 4 df is 0.0022. */
Test(stats, welch_unequal_variances)
{
	static const double a[] = { 10, 12 }, b[] = { 20, 26, 26, 28 };
	struct ms_dist da, db;
	struct ms_welch w;

	ms_dist_of(a, 2, &da);
	ms_dist_of(b, 4, &db);
	cr_assert_eq(ms_welch(&da, &db, &w), 0);
	NEAR(w.t, 7.0, 1e-12);
	NEAR(w.df, 4.0, 1e-9);
	NEAR(w.p, 0.0022, 2e-4);
	cr_assert_lt(w.p, 0.05);
}

/* Every sample of each side the same (a deterministic op): the difference
 * is exact - significant whenever it is not zero. */
Test(stats, welch_without_spread_is_exact)
{
	static const double a[] = { 370, 370, 370 }, b[] = { 372, 372, 372 };
	struct ms_dist da, db;
	struct ms_welch w;

	ms_dist_of(a, 3, &da);
	ms_dist_of(b, 3, &db);
	cr_assert_eq(ms_welch(&da, &db, &w), 0);
	NEAR(w.delta, 2.0, 1e-12);
	cr_assert_eq(w.p, 0.0);
	cr_assert_eq(ms_welch(&da, &da, &w), 0);
	cr_assert_eq(w.p, 1.0);
}

/* A side of one draw has no test (the delta is still given). */
Test(stats, welch_needs_two_samples_a_side)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 5 };
	struct ms_dist da, db;
	struct ms_welch w;

	ms_dist_of(a, 3, &da);
	ms_dist_of(b, 1, &db);
	cr_assert_eq(ms_welch(&da, &db, &w), -1);
	NEAR(w.delta, 3.0, 1e-12);
}

/* A layout is costed over the first quarter of the sampled ops, at least
 * 8, all of them when there are fewer: 128 -> 32, 64 -> 16, 40 -> 10,
 * 36 -> 9, 33 -> 9 (a quarter rounded up), 32 -> 8, 20 -> 8, 5 -> 5. */
Test(stats, band_ops_are_a_quarter_at_least_eight)
{
	static const unsigned in[] = { 128, 64, 40, 36, 33, 32, 20, 8, 5, 1 };
	static const unsigned want[] = { 32, 16, 10, 9, 9, 8, 8, 8, 5, 1 };

	for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		cr_assert_eq(ms_band_ops(in[i]), want[i], "%u samples: %u, want %u", in[i], ms_band_ops(in[i]),
			     want[i]);
}

/* Recorded samples {10, 20, 30, 40}: mean 25. A layout that makes the
 * first two {12, 24} (mean 18 against the recorded 15) moves the row by +3:
 * 28. Over all four it is the layout's own mean. */
Test(stats, band_at_pairs_the_layout_with_the_recorded)
{
	static const double rec[] = { 10, 20, 30, 40 };

	NEAR(ms_band_at(rec, 25, 18, 2), 28.0, 1e-12);
	NEAR(ms_band_at(rec, 25, 27, 4), 27.0, 1e-12);
	NEAR(ms_band_at(rec, 25, 9, 1), 24.0, 1e-12);
}

/*
 * The distinct values a layout band splits at (distinct.c): each once,
 * ascending, 0 included, however often and in whatever order they came;
 * 10,000 values past the set's first room (4,096 slots, grown at half
 * full) come back all, in order.
 */
Test(stats, a_set_gives_each_value_once_in_order)
{
	const uint64_t in[] = { 0xffffffff00000040ULL, 7, 0, 7, 0x40, 0xffffffff00000040ULL, 0, 3 };
	const uint64_t want[] = { 0, 3, 7, 0x40, 0xffffffff00000040ULL };
	struct ms_set set = { 0 };
	uint64_t *v;
	size_t n;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		cr_assert_eq(ms_set_add(&set, in[i]), 0);
	cr_assert((v = ms_set_sorted(&set, &n)));
	cr_assert_eq(n, 5);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(v[i], want[i], "v[%zu] = %#llx", i, (unsigned long long)v[i]);
	free(v);

	/* descending, each twice: 64-byte lines as the data split takes them */
	for (uint64_t k = 0; k < 20000; k++)
		cr_assert_eq(ms_set_add(&set, (10000 - k / 2) * 64), 0);
	cr_assert((v = ms_set_sorted(&set, &n)));
	cr_assert_eq(n, 10000);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(v[i], (i + 1) * 64);
	free(v);

	/* an empty set: none, and an array to free */
	cr_assert((v = ms_set_sorted(&set, &n)));
	cr_assert_eq(n, 0);
	free(v);
}
