/*
 * test_turns.c - --turns: how a machine's replay takes turns between its
 * CPUs. QEMU's round robin (the default, validate's) runs a CPU on until
 * it halts; with the woken CPU first a CPU's turn ends at each SGI it
 * sends, so the CPU it woke runs before the sender goes on; by modelled
 * time the CPU whose clock is the earliest runs next. The kernel's own
 * code then decides what differs: nothing where the wakeup follows the
 * data, a second sleep where it comes before and the woken side looks
 * first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/core.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/machine_cost.h"
#include "hotsim/patch.h"
#include "hotsim/paths.h"
#include "testutil.h"

/* The J721E's machine as fidelity boots it (models/boards.c): its
 * snapshots are fidelity's and test_boots' own. */
#define J721E_MACHINE "--cpu a72 --smp 2 --cgroup session --cmdline audit=1"

/* Each steady op's (2 on) SGIs sent, IRQs taken and wfi halts of each of
 * the two CPUs, from state --ops: every one of them equal to want, or
 * (want 0) each op taking either of the kernel's two branches - one
 * wakeup each way or two - where an IRQ or halt may fall on either side
 * of an op's edge (the ops end where the site's task gets back to it):
 * each count 0 to 2, each CPU's sums over the n ops n - 1 to 2n + 1;
 * else the first op and CPU that is not. */
static void ops_send_take_halt(const char *point, const char *turns, unsigned want)
{
	char cmd[600], *out;
	unsigned n = 0, sum[2][3] = { { 0 } };

	snprintf(cmd, sizeof(cmd), "%s state %s " J721E_MACHINE " --point %s --ops 8%s%s 2>&1", hs_bin(),
		 hs_kernel("6.12-board"), point, turns ? " --turns " : "", turns ? turns : "");
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 0, "%s: %.3000s", cmd, out);
	for (const char *p = strstr(out, "\n  op "); p; p = strstr(p + 1, "\n  op ")) {
		unsigned op, c[2], insns[2], v[2][3];

		cr_assert_eq(sscanf(p, "\n  op %u cpu%u %u %u %u %u cpu%u %u %u %u %u", &op, &c[0], &insns[0], &v[0][0],
				    &v[0][1], &v[0][2], &c[1], &insns[1], &v[1][0], &v[1][1], &v[1][2]), 11,
			     "%.300s", p);
		if (op < 2)
			continue;
		n++;
		for (unsigned i = 0; i < 2; i++)
			for (unsigned k = 0; k < 3; k++) {
				cr_assert(want ? v[i][k] == want : v[i][k] <= 2,
					  "%s%s%s: op %u cpu%u: %u %s, not %u: %.3000s", point, turns ? " --turns " : "",
					  turns ? turns : "", op, i, v[i][k], k == 0 ? "SGIs" : k == 1 ? "IRQs" : "halts",
					  want, out);
				sum[i][k] += v[i][k];
			}
	}
	cr_assert_eq(n, 6u, "%.3000s", out);
	for (unsigned i = 0; !want && i < 2; i++)
		for (unsigned k = 0; k < 3; k++)
			cr_assert(sum[i][k] + 1 >= n && sum[i][k] <= 2 * n + 1, "%s --turns %s: cpu%u: %u %s in %u ops: %.3000s",
				  point, turns, i, sum[i][k], k == 0 ? "SGIs" : k == 1 ? "IRQs" : "halts", n, out);
	cr_assert_eq(!!strstr(out, "replayed, every CPU, the woken CPU first"), turns && !strcmp(turns, "wakee"),
		     "%.3000s", out);
	free(out);
}

/* The locks a replay's sampled ops reached before the other CPU took them
 * (state --ops: "N of them (sampled ops) reached a lock before"), 0 when
 * the line is not there */
static unsigned order_flips(const char *turns)
{
	char cmd[600], *out;
	const char *p;
	unsigned n = 0;

	snprintf(cmd, sizeof(cmd), "%s state %s " J721E_MACHINE " --point unix --ops 24 --turns %s 2>&1", hs_bin(),
		 hs_kernel("6.12-board"), turns);
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 0, "%s: %.3000s", cmd, out);
	if ((p = strstr(out, " of them (sampled ops) reached a lock before")))
		while (p > out && p[-1] >= '0' && p[-1] <= '9')
			p--;
	if (p)
		n = (unsigned)strtoul(p, NULL, 10);
	/* an order that is not a machine's says where to get one */
	cr_assert(!n || strstr(out, "(--turns model replays in the order a machine's cores take)"), "%.3000s", out);
	free(out);
	return n;
}

/*
 * pipe_write() wakes the reader after the byte is in the pipe: whoever
 * runs first, the woken reader finds it, and each CPU of the round trip
 * sends one SGI, takes one IRQ and halts once an op, in either order.
 * A unix socket's reader is woken before: its read of the byte frees the
 * skb the other side sent (consume_skb, sock_wfree), whose
 * unix_write_space() wakes that side - asleep in read() on the same wait
 * queue - while the reader has still to return, write and queue its
 * reply. In QEMU's order the reader's CPU runs on and queues it before the
 * woken side runs: one wakeup each way. With the woken CPU first, the
 * woken side looks before the byte is there, sleeps again, and
 * sock_def_readable() wakes it a second time: two SGIs, two IRQs and two
 * halts each way an op.
 */
Test(turns, the_woken_cpu_first_sleeps_again_only_where_its_wakeup_came_early, .timeout = 900)
{
	hs_not_under_sanitizers();
	ops_send_take_halt("pipe", NULL, 1);
	ops_send_take_halt("pipe", "wakee", 1);
	ops_send_take_halt("unix", "qemu", 1);
	ops_send_take_halt("unix", "wakee", 2);
}

/*
 * By modelled time the race is the models': the A72 machine's woken reader
 * (400 cycles of IPI, 50 of wfi exit, then its IRQ, wakeup and switch)
 * and its writer's 3,420 instructions to the socket's lock are close, and
 * each op takes one of the kernel's two branches; pipe's wakeup follows
 * its data, so its ops keep one of each. The turns follow the clock the
 * timeline costs the streams by, so that timeline finds no lock reached
 * before its holder took it - QEMU's order, where the writer's whole turn
 * runs first, reaches some. The same replay twice is the same bytes: the
 * order is the clock's, not the host's.
 */
Test(turns, by_modelled_time_each_race_goes_the_way_the_clocks_put_it, .timeout = 900)
{
	char cmd[600], *a, *b;

	hs_not_under_sanitizers();
	ops_send_take_halt("pipe", "model", 1);
	ops_send_take_halt("unix", "model", 0);
	cr_assert_eq(order_flips("model"), 0u);
	cr_assert_gt(order_flips("qemu"), 0u);
	snprintf(cmd, sizeof(cmd), "%s state %s " J721E_MACHINE " --point unix --ops 8 --turns model --json 2>&1",
		 hs_bin(), hs_kernel("6.12-board"));
	cr_assert_eq(hs_sh(cmd, &a, 1u << 20), 0, "%s", a);
	cr_assert_eq(hs_sh(cmd, &b, 1u << 20), 0, "%s", b);
	cr_assert_str_eq(a, b);
	cr_assert(strstr(a, "\"turns\": \"model\""), "%.2000s", a);
	free(a);
	free(b);
}

/* The turns are a machine's: on one CPU the option is an error, one
 * line naming it, exit 2, before any boot; a value it does not know too. */
Test(turns, one_cpu_takes_no_turns, .timeout = 60)
{
	static const char *const cmds[] = { "state no-such.vmlinux --turns wakee",
					    "trace no-such.vmlinux sched-pipe --turns wakee",
					    "run no-such.vmlinux --turns wakee --smp 1" };
	char cmd[300], *out;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s 2>&1", hs_bin(), cmds[i]);
		cr_assert_eq(hs_sh(cmd, &out, 1u << 16), 2, "%s: %s", cmd, out);
		cr_assert_eq(hs_count(out, "\n"), 1, "%s: one line: %s", cmd, out);
		cr_assert(hs_says(out, "--turns wakee: the turns of a machine's replay; add --smp N"), "%s: %s", cmd,
			  out);
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "%s run no-such.vmlinux --turns model 2>&1", hs_bin());
	cr_assert_eq(hs_sh(cmd, &out, 1u << 16), 2, "%s: %s", cmd, out);
	cr_assert(hs_says(out, "--turns model: the turns of a machine's replay; add --smp N"), "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "%s state no-such.vmlinux --smp 2 --turns first 2>&1", hs_bin());
	cr_assert_eq(hs_sh(cmd, &out, 1u << 16), 2, "%s", out);
	cr_assert(strstr(out, "--turns") && strstr(out, "qemu") && strstr(out, "wakee") && strstr(out, "model"), "%s",
		  out);
	free(out);
}

/*
 * hotsim fit costs a machine's replay again at each trial's parameters, in
 * the order it was recorded (ms_machine_replay, ms_machine_recost). In
 * QEMU's order the streams do not depend on the costs, so the replay
 * costed again at the same parameters is what ms_machine_cost made of the
 * same ops, to the cycle; and in the pipe's steady round trip both IPI
 * hops are on the critical path (booted-state.md), so 1,000 more cycles of
 * ipi_latency are 2,000 more a round trip, exactly.
 */
Test(turns, a_replay_costed_again_costs_what_its_rows_did, .timeout = 600)
{
	const struct hs_core *core = hs_core_find("a53");
	struct hs_image *img;
	struct hs_patched *pt;
	struct hs_session *s;
	struct hs_path_set set = hs_path_set_builtin;
	struct ms_options o;
	struct ms_machine_cost *mc = calloc(1, sizeof(*mc));
	struct ms_machine_replay *rep = calloc(1, sizeof(*rep));
	double rows = 0, again, more;
	unsigned k, nops = MS_MACHINE_WARM_OPS + 6;
	int one;

	cr_assert(mc && rep && core);
	cr_assert_not_null(img = hs_image_open(hs_kernel("7.2-base")), "%s", hs_errmsg());
	cr_assert_not_null(pt = hs_patch(img, core), "%s", hs_errmsg());
	set.ncpus = 2;
	cr_assert_not_null(s = hs_session_new(pt, HS_SRC_BOOTED, &set), "%s", hs_errmsg());
	cr_assert_eq(ms_machine_point(s, "pipe", &k), 0, "%s", hs_errmsg());
	memset(&o, 0, sizeof(o));
	o.want[MS_TYPICAL] = 1;
	cr_assert_eq(ms_machine_cost(&o, core, s, k, nops, mc), 0, "%s", hs_errmsg());
	for (unsigned j = MS_MACHINE_WARM_OPS; j < nops; j++)
		rows += (double)mc->op[j].latency / (nops - MS_MACHINE_WARM_OPS);
	cr_assert_eq(ms_machine_replay(&o, core, s, k, nops, rep), 0, "%s", hs_errmsg());
	cr_assert_eq(ms_machine_recost(&o, core, rep, &again, &one), 0, "%s", hs_errmsg());
	cr_assert_eq(again, rows, "costed again %.1f, the rows' %.1f", again, rows);
	cr_assert_eq(one, 0, "the round trips crossed CPUs");
	snprintf(o.params[0].name, sizeof(o.params[0].name), "ipi_latency");
	o.params[0].value = mc->ipi_latency + 1000;
	o.nparams = 1;
	cr_assert_eq(ms_machine_recost(&o, core, rep, &more, &one), 0, "%s", hs_errmsg());
	cr_assert_eq(more - again, 2000.0, "%.1f -> %.1f", again, more);
	ms_machine_replay_free(rep);
	free(rep);
	free(mc);
	hs_session_free(s);
	hs_patched_free(pt);
	hs_image_close(img);
}
