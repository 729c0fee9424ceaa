/*
 * test_series_plan.c - where `hotsim series` finds a row's steps
 * (sim/measure/series_plan.c), on a table of values instead of kernels: a
 * row's value per commit, commits that do not build. The steps must be
 * exactly the commits where the value changes, and bisect must build at
 * most ceil(log2 n) commits a step (every position of one and of two
 * steps, n = 1 to 33, checked).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hotsim/series.h"

#define N_MAX 40

struct table {
	int n;
	int v[4][N_MAX + 1];		/* row r's value at commit k */
	char fails[N_MAX + 1];		/* does not build */
	char have[N_MAX + 1];		/* measured */
	int builds;
};

static int t_measure(void *ctx, int k)
{
	struct table *t = ctx;

	cr_assert(!t->have[k], "commit %d measured twice", k);
	t->builds++;
	if (t->fails[k])
		return 1;
	t->have[k] = 1;
	return 0;
}

static int t_measured(void *ctx, int k)
{
	return ((struct table *)ctx)->have[k];
}

static int t_differ(void *ctx, int a, int b, int r)
{
	struct table *t = ctx;

	cr_assert(t->have[a] && t->have[b], "compared %d and %d, not both measured", a, b);
	return t->v[r][a] != t->v[r][b];
}

/* A series of n commits, row 0 stepping up at each of at[] (0-terminated);
 * the base and the tip measured, as bisect starts. */
static void setup(struct table *t, int n, const int *at)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
	for (int k = 0; k <= n; k++)
		for (int i = 0; at[i]; i++)
			t->v[0][k] += k >= at[i];
	t->have[0] = t->have[n] = 1;
}

static int plan(struct table *t, int every, int r, struct ms_step *out)
{
	struct ms_plan_oracle o = { t, t->n, t_measure, t_measured, t_differ };

	return ms_plan_row(&o, every, t->n, r, out, N_MAX);
}

static int ceil_log2(int n)
{
	int b = 0;

	while ((1 << b) < n)
		b++;
	return b;
}

Test(series_plan, one_step_anywhere_is_exact_in_log2_builds)
{
	for (int n = 1; n <= 33; n++)
		for (int s = 1; s <= n; s++) {
			struct table t;
			struct ms_step st[N_MAX];

			setup(&t, n, (int[]){ s, 0 });
			cr_assert_eq(plan(&t, 0, 0, st), 1, "n %d, step at %d", n, s);
			cr_assert_eq(st[0].commit, s, "n %d: found %d, the step is at %d", n, st[0].commit, s);
			cr_assert_eq(st[0].parent, s - 1);
			cr_assert_eq(st[0].from, 0);
			cr_assert_leq(t.builds, ceil_log2(n), "n %d, step at %d: %d builds", n, s, t.builds);
		}
}

Test(series_plan, a_move_in_two_steps_names_both)
{
	for (int n = 2; n <= 33; n++)
		for (int a = 1; a < n; a++)
			for (int b = a + 1; b <= n; b++) {
				struct table t;
				struct ms_step st[N_MAX];

				setup(&t, n, (int[]){ a, b, 0 });
				cr_assert_eq(plan(&t, 0, 0, st), 2, "n %d, steps at %d, %d", n, a, b);
				cr_assert_eq(st[0].commit, a);
				cr_assert_eq(st[1].commit, b);
				cr_assert_eq(st[1].from, a, "the second step is against the first");
				cr_assert_leq(t.builds, 2 * ceil_log2(n), "n %d, %d, %d: %d builds", n, a, b, t.builds);
			}
}

Test(series_plan, rows_stepping_at_one_commit_share_its_builds)
{
	struct table t;
	struct ms_step st[N_MAX];
	int first;

	setup(&t, 9, (int[]){ 6, 0 });
	for (int k = 0; k <= 9; k++)
		t.v[1][k] = 2 * t.v[0][k];
	cr_assert_eq(plan(&t, 0, 0, st), 1);
	first = t.builds;
	cr_assert_eq(plan(&t, 0, 1, st), 1);
	cr_assert_eq(st[0].commit, 6);
	cr_assert_eq(t.builds, first, "the second row built %d more", t.builds - first);
}

/* 9 commits, a second step at 9 on top of one at 3 (the series test's
 * getpid rows), commit 7 does not build: the search steps over it. */
Test(series_plan, a_commit_that_does_not_build_is_stepped_over)
{
	struct table t;
	struct ms_step st[N_MAX];

	setup(&t, 9, (int[]){ 3, 9, 0 });
	t.fails[7] = 1;
	cr_assert_eq(plan(&t, 0, 0, st), 2);
	cr_assert_eq(st[0].commit, 3);
	cr_assert_eq(st[1].commit, 9);
	cr_assert_eq(st[1].parent, 8);
}

/* The step is at the commit that does not build: the answer is the range
 * it hides in, from the last commit that built below it. */
Test(series_plan, a_step_hidden_by_a_failed_build_is_a_range)
{
	struct table t;
	struct ms_step st[N_MAX];

	setup(&t, 8, (int[]){ 5, 0 });
	t.fails[5] = 1;
	cr_assert_eq(plan(&t, 0, 0, st), 1);
	cr_assert_eq(st[0].parent, 4);
	cr_assert_eq(st[0].commit, 6);
}

/* Every mode: every commit measured, a move that comes and goes (tip
 * equal to the base) is found too, step by step. */
Test(series_plan, every_commit_finds_a_move_that_goes_away)
{
	struct table t;
	struct ms_step st[N_MAX];

	setup(&t, 6, (int[]){ 0 });
	memset(t.have, 1, sizeof(t.have));
	t.fails[4] = 1;
	t.have[4] = 0;
	memcpy(t.v[0], (int[]){ 0, 0, 1, 1, 1, 0, 0 }, 7 * sizeof(int));
	cr_assert_eq(plan(&t, 1, 0, st), 2);
	cr_assert_eq(st[0].commit, 2);
	cr_assert_eq(st[0].parent, 1);
	cr_assert_eq(st[1].commit, 5);
	cr_assert_eq(st[1].parent, 3, "4 did not build: 5's parent measured is 3");
	cr_assert_eq(st[1].from, 2);
	cr_assert_eq(t.builds, 0);
	/* bisect sees the base and the tip alike: nothing to search */
	memset(t.have, 0, sizeof(t.have));
	t.have[0] = t.have[6] = 1;
	cr_assert_eq(plan(&t, 0, 0, st), 0);
}
