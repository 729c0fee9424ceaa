/*
 * test_fit.c - the fit's optimiser (sim/measure/lm.c) on problems solved by
 * hand, and the boards' cells as lmbench defines them (models/boards.c).
 *
 * A mean: residuals r_i = x - y_i are least squares at x = mean(y), and the
 * Gauss-Newton variance of x is s^2 / m with s^2 = sum((y_i - mean)^2) /
 * (m - 1). For y = {1, 2, 3, 6}: mean 3, squared deviations 4 + 1 + 0 + 9
 * = 14, s^2 = 14 / 3, var = 14 / 12 = 1.1667.
 * A line through two points: r = (a + b t_i) - y_i with (t, y) = (0, 1),
 * (1, 3) fits exactly at a = 1, b = 2 (zero residuals).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/cgroup.h"
#include "hotsim/core.h"
#include "hotsim/cpucaps.h"
#include "hotsim/err.h"
#include "hotsim/model.h"
#include "hotsim/paths.h"
#include "../sim/measure/measure_internal.h"

#define NEAR(a, b, eps) cr_assert(fabs((a) - (b)) < (eps), "%s = %.6f, want %.6f", #a, (double)(a), \
				  (double)(b))

static int mean_resid(void *ctx, const double *x, double *r, int *nr)
{
	static const double y[] = { 1, 2, 3, 6 };

	(void)ctx;
	for (int i = 0; i < 4; i++)
		r[i] = x[0] - y[i];
	*nr = 4;
	return 0;
}

static int line_resid(void *ctx, const double *x, double *r, int *nr)
{
	(void)ctx;
	r[0] = x[0] + x[1] * 0 - 1;
	r[1] = x[0] + x[1] * 1 - 3;
	*nr = 2;
	return 0;
}

Test(fit, a_mean_and_its_variance)
{
	struct ms_lm s = { .n = 1, .x = { 0 }, .lo = { -100 }, .hi = { 100 } };

	cr_assert_eq(ms_lm(NULL, mean_resid, &s), 0);
	NEAR(s.x[0], 3.0, 1e-6);
	NEAR(s.rss, 14.0, 1e-6);
	NEAR(s.cov[0][0], 14.0 / 12.0, 1e-6);
	cr_assert(!s.singular);
}

Test(fit, a_bound_holds)
{
	/* the least-squares mean 3 lies above the bound 2.5: the fit stops there */
	struct ms_lm s = { .n = 1, .x = { 0 }, .lo = { -1 }, .hi = { 2.5 } };

	cr_assert_eq(ms_lm(NULL, mean_resid, &s), 0);
	NEAR(s.x[0], 2.5, 1e-9);
}

Test(fit, two_parameters_exactly)
{
	struct ms_lm s = { .n = 2, .x = { 0, 0 }, .lo = { -10, -10 }, .hi = { 10, 10 } };

	cr_assert_eq(ms_lm(NULL, line_resid, &s), 0);
	NEAR(s.x[0], 1.0, 1e-6);
	NEAR(s.x[1], 2.0, 1e-6);
	NEAR(s.rss, 0.0, 1e-9);
}

/* A parameter the residuals do not depend on is not determined: J'J is
 * singular, its variance infinite. The other keeps its own: x0 = 1.5,
 * rss = 0.5^2 + 0.5^2 = 0.5 over 2 residuals less 1 parameter seen, s^2 =
 * 0.5, J'J = 1 + 1 = 2, var = 0.5 / 2 = 0.25 - the unseen one does not
 * make every variance infinite. */
static int blind_resid(void *ctx, const double *x, double *r, int *nr)
{
	(void)ctx;
	r[0] = x[0] - 1;
	r[1] = x[0] - 2;
	*nr = 2;
	return 0;
}

Test(fit, a_parameter_the_cells_do_not_see)
{
	struct ms_lm s = { .n = 2, .x = { 0, 0 }, .lo = { -10, -10 }, .hi = { 10, 10 } };

	cr_assert_eq(ms_lm(NULL, blind_resid, &s), 0);
	NEAR(s.x[0], 1.5, 1e-3);	/* damped: to the stopping rule's precision */
	cr_assert(s.singular);
	cr_assert(isinf(s.cov[1][1]));
	NEAR(s.cov[0][0], 0.25, 1e-3);
}

/*
 * The knobs' parameters are the core's, each in one knob (a parameter in
 * two would be set twice); a fitted entry in a core file (HS_FIT) is its
 * knob's factor times its guess, within its range, and a scaled knob's
 * members share the factor - value / guess equal to the one decimal the
 * fit prints - and its range, lo / guess and hi / guess alike.
 */
Test(fit, a_fitted_entry_is_its_knob_s_factor_on_its_guess)
{
	static const char *const cores[] = { "a53", "a72" };
	int fitted = 0;

	for (size_t c = 0; c < sizeof(cores) / sizeof(cores[0]); c++) {
		const struct hs_core *core = hs_core_find(cores[c]);
		const struct ms_knob *const *k = core ? ms_knobs(core) : NULL;
		struct hs_model *m = core ? hs_model_new(core) : NULL;

		cr_assert(k && m, "%s", cores[c]);
		for (int j = 0; k[j]; j++) {
			double factor = 0, lo = 0, hi = 0;

			for (int i = 0; k[j]->members[i]; i++) {
				const struct hs_param *p = NULL;

				for (size_t n = 0; (p = hs_model_param(m, n)) && strcmp(p->name, k[j]->members[i]); n++)
					;
				cr_assert_not_null(p, "%s: knob %s: no parameter %s", cores[c], k[j]->name,
						   k[j]->members[i]);
				for (int j2 = 0; k[j2]; j2++)
					for (int i2 = 0; k[j2]->members[i2]; i2++)
						cr_assert(j2 == j || strcmp(k[j2]->members[i2], p->name), "%s in two knobs",
							  p->name);
				if (p->hi <= 0)
					continue;
				fitted++;
				cr_assert(p->guess > 0 && p->lo <= p->value && p->value <= p->hi, "%s.%s", cores[c],
					  p->name);
				if (!k[j]->scaled)
					continue;
				if (!factor) {
					factor = p->value / p->guess;
					lo = p->lo / p->guess;
					hi = p->hi / p->guess;
				}
				cr_assert(fabs(p->value - factor * p->guess) <= 0.05 + 0.005 * p->guess, "%s.%s: %g, "
					  "x%.3f of %g", cores[c], p->name, p->value, factor, p->guess);
				cr_assert(fabs(p->lo - lo * p->guess) <= 0.05 + 0.005 * p->guess, "%s", p->name);
				cr_assert(fabs(p->hi - hi * p->guess) <= 0.05 + 0.005 * p->guess, "%s", p->name);
				cr_assert(factor >= k[j]->lo && factor <= k[j]->hi, "%s: x%.2f out of its bounds",
					  k[j]->name, factor);
			}
		}
		hs_model_free(m);
	}
	cr_assert_gt(fitted, 0, "no core file holds a fitted entry");
}

/* lat_sig's own sums (lat_sig.c bench_catch, bench_prot): catch is the
 * caught kill less kill(self, 0); prot is the caught fault less that
 * catch. The cycles are the published us times the clock: 0.46 us at
 * 1.4 GHz is 644 cycles (published-boards: lat_syscall null). */
Test(fit, the_cells_are_lmbench_s)
{
	const struct hs_board *b = hs_board_find("am62x");
	int catch = -1, prot = -1, null = -1;

	cr_assert_not_null(b);
	for (unsigned i = 0; i < b->ncells; i++) {
		if (!strcmp(b->cells[i].bench, "lat_sig catch"))
			catch = (int)i;
		if (!strcmp(b->cells[i].bench, "lat_sig prot"))
			prot = (int)i;
		if (!strcmp(b->cells[i].bench, "lat_syscall null"))
			null = (int)i;
	}
	cr_assert(catch >= 0 && prot >= 0 && null >= 0);
	NEAR(b->cells[null].us * (double)b->clock_hz / 1e6, 644, 0.5);
	cr_assert_str_eq(b->cells[catch].terms[0].path, "signal.catch");
	cr_assert_eq(b->cells[catch].terms[0].coef, 1);
	cr_assert_str_eq(b->cells[catch].terms[1].path, "signal.send");
	cr_assert_eq(b->cells[catch].terms[1].coef, -1);
	/* prot - (catch - send) = prot - catch + send */
	cr_assert_str_eq(b->cells[prot].terms[0].path, "signal.prot");
	cr_assert_eq(b->cells[prot].terms[1].coef, -1);
	cr_assert_eq(b->cells[prot].terms[2].coef, 1);
	cr_assert_null(hs_board_find("no-such-board"));
}

/*
 * A board runs its cores on its own firmware: both boards' TF-A answers
 * SMCCC 1.1's Spectre calls. The A72's core file is a Raspberry Pi 4's,
 * whose armstub answers none: Linux leaves Spectre-v2 vulnerable there, and
 * with it Spectre-BHB ("no point mitigating Spectre-BHB alone",
 * proton-pack.c). On the J721E the A72 - on no v2 safe list, no CSV2 -
 * asks the firmware (WA1), and BHB takes the k=8 loop the A72 is listed
 * for. The A53 is v2-safe either way: the AM62x's core is the core file's.
 */
/* lmbench's file on the boards is not in a local page cache (their open
 * cell: a server's round trip, boards.c): stat and fstat ask the file
 * system for its attributes, lat_mmap writes to its shared mapping, and
 * only they are unlike; the page fault only reads the cached pages, as
 * hotsim's does. */
Test(fit, the_network_file_cells_are_unlike)
{
	for (int k = 0; hs_boards[k]; k++) {
		const struct hs_board *b = hs_boards[k];
		int n = 0;

		for (unsigned i = 0; i < b->ncells; i++) {
			int file = !strcmp(b->cells[i].bench, "lat_syscall stat") ||
				   !strcmp(b->cells[i].bench, "lat_syscall fstat") ||
				   !strcmp(b->cells[i].bench, "lat_mmap 1 MB");

			cr_assert_eq(!!(b->cells[i].flags & HS_CELL_UNLIKE), file, "%s: %s", b->name,
				     b->cells[i].bench);
			cr_assert(!file || strstr(b->cells[i].note, "unlike:"), "%s", b->cells[i].note);
			n += file;
		}
		cr_assert_eq(n, 3, "%s", b->name);
	}
}

Test(fit, a_board_runs_its_own_firmware)
{
	const struct hs_board *j = hs_board_find("j721e"), *am = hs_board_find("am62x");
	struct hs_core buf;
	const struct hs_core *pi4 = hs_core_find("a72"), *board;
	struct hs_spectre s;

	cr_assert(j && am && pi4 && pi4->no_smccc);
	hs_spectre_eval(pi4, &s);
	cr_assert_eq(s.v2, HS_MIT_VULNERABLE);
	cr_assert_neq(s.bhb, HS_MIT_LOOP);
	board = hs_board_core(j, &buf);
	cr_assert(board == &buf && !board->no_smccc && !strcmp(board->name, "a72"));
	hs_spectre_eval(board, &s);
	cr_assert_eq(s.v2, HS_MIT_FIRMWARE);
	cr_assert_eq(s.bhb, HS_MIT_LOOP);
	cr_assert_eq(hs_board_core(am, &buf), hs_core_find("a53"));
}

/*
 * A board counts the core file's times at its own clock. The A72's file
 * writes its DRAM at 180 cycles and its IPI at 400 at the Raspberry Pi 4's
 * 1.5 GHz (models/a72.c: about 120 and 267 ns); the J721E runs at 2.0 GHz,
 * so 240 and 533 (533.3, to the cycle). The A53's 180 and 300 at 1.2 GHz
 * are 210 and 350 at the AM62x's 1.4. The handover between two cores'
 * caches (peer_latency, 161) and the L2 (16) keep their cycles: the
 * cluster's own clock. The list is times, the board's own, then the
 * user's: a later entry wins.
 */
Test(fit, a_board_counts_times_at_its_own_clock)
{
	const struct hs_board *j = hs_board_find("j721e"), *am = hs_board_find("am62x");
	struct ms_param user = { "a72", "mem_latency", 100, MS_FROM_USER };
	struct ms_options *o = calloc(1, sizeof(*o));
	struct hs_model *m;
	const struct hs_param *p;
	int timed = 0;

	cr_assert(j && am && o);
	o->nparams = ms_board_params(j, &user, 1, o->params, MS_MAX_PARAMS);
	cr_assert_eq(o->nparams, 2 + 4 + 1, "%s", hs_errmsg());
	cr_assert_str_eq(o->params[0].name, "mem_latency");
	NEAR(o->params[0].value, 240, 1e-9);
	cr_assert_str_eq(o->params[1].name, "ipi_latency");
	NEAR(o->params[1].value, 533, 1e-9);
	cr_assert_str_eq(o->params[2].name, "l1i_size");
	cr_assert(o->params[0].from == MS_FROM_TIME && o->params[2].from == MS_FROM_BOARD &&
		  o->params[6].from == MS_FROM_USER);
	m = ms_model(o, hs_core_find("a72"));
	cr_assert_not_null(m, "%s", hs_errmsg());
	for (size_t i = 0; (p = hs_model_param(m, i)); i++) {
		timed += p->timed;
		if (!strcmp(p->name, "mem_latency"))
			NEAR(p->value, 100, 1e-9);
		if (!strcmp(p->name, "ipi_latency"))
			NEAR(p->value, 533, 1e-9);
		if (!strcmp(p->name, "peer_latency"))
			NEAR(p->value, 161, 1e-9);
		if (!strcmp(p->name, "l2_latency"))
			NEAR(p->value, 16, 1e-9);
	}
	hs_model_free(m);
	cr_assert_eq(timed, 2);
	cr_assert_eq(ms_clock_times(hs_core_find(am->core), am->clock_hz, o->params, MS_MAX_PARAMS), 2);
	NEAR(o->params[0].value, 210, 1e-9);
	NEAR(o->params[1].value, 350, 1e-9);
	cr_assert_eq(o->params[0].from, MS_FROM_TIME);
	cr_assert_eq(o->params[1].from, MS_FROM_TIME);
	free(o);
}

/*
 * A board's benchmarks run where a login on its root filesystem runs them:
 * TI's Arago has systemd 255 with pam, so a login is in
 * user.slice/user-0.slice/session-N.scope with cpu (delegated to
 * user@.service since systemd 252), memory and pids enabled above it; the
 * sets fidelity and fit boot say so, on the CPUs asked for. Their systemd
 * (255, its presets applied) has journald turn the kernel's auditing on,
 * no rules: the sets boot with audit=1. A board naming a cgroup hotsim has
 * no row for is refused, by name.
 */
Test(fit, a_board_runs_in_a_login_session)
{
	const struct hs_board *am = hs_board_find("am62x");
	struct hs_board bad;
	struct hs_path_set set;

	cr_assert_not_null(am);
	for (int i = 0; hs_boards[i]; i++) {
		cr_assert_eq(ms_board_set(hs_boards[i], hs_boards[i]->cpus, &set), 0, "%s", hs_errmsg());
		cr_assert_eq(set.ncpus, hs_boards[i]->cpus);
		cr_assert_not_null(set.cgroup);
		cr_assert_str_eq(set.cgroup->path, "user.slice/user-0.slice/session-1.scope");
		cr_assert_str_eq(set.cgroup->controllers, "cpu,memory,pids");
		cr_assert_eq(set.defs, hs_paths);
		cr_assert_str_eq(set.cmdline, "audit=1");
	}
	bad = *am;
	bad.cgroup = "nope";
	cr_assert_eq(ms_board_set(&bad, 0, &set), -1);
	cr_assert(strstr(hs_errmsg(), "board am62x: no cgroup nope"), "%s", hs_errmsg());
}

/*
 * A round trip "ran on one CPU" when every other CPU was idle the whole
 * op: a CPU that did any work (idle short of the op by more than half a
 * cycle) counts. J721E's unix.stream with the fit's values: each CPU idle
 * about 100 of 25,814 cycles - both worked, though the IPI was off the
 * critical path; pinned to CPU 1 of 4, the others idle the whole op.
 */
Test(fit, one_cpu_is_every_other_idle)
{
	const double both[] = { 97, 131 }, pinned[] = { 14377, 0, 14377, 14377 }, edge[] = { 1000, 999.4 };

	cr_assert_eq(ms_one_cpu(2, both, 25814), -1);
	cr_assert_eq(ms_one_cpu(4, pinned, 14377), 1);
	cr_assert_eq(ms_one_cpu(1, pinned + 1, 14377), -1);
	/* CPU 1, 0.6 short of the op, worked; CPU 0 was idle all of it */
	cr_assert_eq(ms_one_cpu(2, edge, 1000), 1);
}
