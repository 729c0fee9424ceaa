/*
 * test_boots.c - --boot K (hs_path_set.boot): the same kernel and workload
 * booted again, hotsim_boot=K on the command line, reach a state of their
 * own; fidelity's unpinned cells are the mean of several such boots of the
 * board's machine, their range in the cell's note.
 */
#include <math.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/cmdline.h"
#include "hotsim/err.h"
#include "hotsim/measure.h"
#include "testutil.h"

/* The J721E's machine as fidelity boots it: its paths, CPUs, cgroup and
 * parameters (models/boards.c), so the snapshots are fidelity's own. */
#define J721E_MACHINE "--cpu a72 --smp 2 --cgroup session --cmdline audit=1 --path sched-pipe,unix.stream,ctx.ring"

/* The snapshot id "run --json" names for boot k of that machine, into id; its
 * whole output into *out (the caller's to free). */
static void snapshot_of(unsigned k, char *id, size_t len, char **out)
{
	char cmd[700];
	const char *at;

	snprintf(cmd, sizeof(cmd), "%s run %s " J721E_MACHINE " --boot %u --json 2>&1", hs_bin(),
		 hs_kernel("6.12-board"), k);
	cr_assert_eq(hs_sh(cmd, out, 1u << 20), 0, "%s: %.3000s", cmd, *out);
	at = strstr(*out, "(snapshot ");
	cr_assert_not_null(at, "%.3000s", *out);
	snprintf(id, len, "%.8s", at + 10);
}

/*
 * hotsim_boot=K is a parameter the kernel does not know: it passes it to
 * init unread (init/main.c, unknown_bootoption), but the boot parses its
 * bytes, under QEMU's -icount, so every later event of the boot moves: a
 * snapshot of its own, not boot 0's. The same K boots the same again.
 */
Test(boots, a_later_boot_is_a_state_of_its_own, .timeout = 900)
{
	char first[16], later[16], again[16], *out0, *out1, *out2;

	hs_not_under_sanitizers();
	snapshot_of(0, first, sizeof(first), &out0);
	snapshot_of(1, later, sizeof(later), &out1);
	snapshot_of(1, again, sizeof(again), &out2);
	cr_assert_str_neq(first, later, "boot 1 is boot 0's snapshot %s", first);
	cr_assert_str_eq(later, again);
	cr_assert_str_eq(out1, out2, "the same boot, byte for byte");
	cr_assert(hs_says(out1, "boot 1 (hotsim_boot=1)"), "%.3000s", out1);
	cr_assert(!hs_says(out0, "hotsim_boot"), "boot 0 is the boot as always: %.3000s", out0);
	free(out0);
	free(out1);
	free(out2);
}

/* Out of range, --boot is refused before an image is read; hotsim_boot
 * is hotsim's own in --cmdline. */
Test(boots, the_boots_a_machine_has, .timeout = 60)
{
	char cmd[300], *out;

	snprintf(cmd, sizeof(cmd), "%s run no-such.vmlinux --boot %d 2>&1", hs_bin(), HS_BOOT_MAX);
	cr_assert_eq(hs_sh(cmd, &out, 1u << 16), 2, "%s", out);
	cr_assert_eq(hs_count(out, "\n"), 1, "one line: %s", out);
	cr_assert(hs_says(out, "--boot needs a whole number in 0..7"), "%s", out);
	free(out);
	cr_assert_eq(hs_cmdline_check("audit=1 hotsim_boot=2"), -1);
	cr_assert(strstr(hs_errmsg(), "hotsim_boot=2"), "%s", hs_errmsg());
}

/*
 * A cell fidelity replays on the machine is the mean of the boots whose
 * round trips crossed CPUs (of every boot when none did); with one boot it
 * is that boot, boot 0, the one every earlier fidelity booted. The cells
 * on one CPU do not depend on the machine's boots. A machine cell's note
 * counts the locks its round trips reached before the other CPU took them.
 */
Test(boots, an_unpinned_cell_is_the_mean_of_its_boots, .timeout = 900)
{
	const struct hs_board *b = hs_board_find("j721e");
	struct ms_fidelity one, two;
	int machine_cells = 0;

	hs_not_under_sanitizers();
	cr_assert_not_null(b);
	cr_assert_eq(ms_fidelity(hs_kernel("6.12-board"), b, NULL, 0, 1, &one), 0, "%s", hs_errmsg());
	cr_assert_eq(ms_fidelity(hs_kernel("6.12-board"), b, NULL, 0, 2, &two), 0, "%s", hs_errmsg());
	cr_assert_eq(one.ncells, two.ncells);
	for (int i = 0; i < two.ncells; i++) {
		const struct ms_cell *c1 = &one.cells[i], *c2 = &two.cells[i];
		double sum = 0;
		unsigned n = 0;

		if (!c2->ok)
			continue;
		if (!c2->nboots) {
			cr_assert_eq(c1->hotsim, c2->hotsim, "%s", c2->c->bench);
			continue;
		}
		machine_cells++;
		cr_assert_eq(c1->nboots, 1);
		cr_assert_eq(c2->nboots, 2, "%s", c2->c->bench);
		cr_assert_eq(c1->hotsim, c2->boot_cycles[0], "%s: boot 0", c2->c->bench);
		for (unsigned k = 0; k < 2; k++)
			if (c2->one_cpu || !c2->boot_one_cpu[k]) {
				sum += c2->boot_cycles[k];
				n++;
			}
		cr_assert_gt(n, 0);
		cr_assert(fabs(c2->hotsim - sum / n) < 1e-6, "%s: %.1f, mean %.1f", c2->c->bench, c2->hotsim, sum / n);
		cr_assert_eq(c2->one_cpu, c2->boot_one_cpu[0] && c2->boot_one_cpu[1]);
		cr_assert(strstr(c2->note, "over 2 boots of the machine"), "%s", c2->note);
		/* lat_unix's woken reader reaches the socket's lock about when
		 * the writer takes it to queue the reply (its wakeup comes from
		 * the skb's free, unix_write_space): in QEMU's order, where the
		 * writer's turn runs first, some of those locks were reached
		 * before the writer took them; lat_pipe's and lat_ctx's wakeups
		 * come after their data, and no lock is reached so */
		cr_assert_eq(!!strstr(c2->note, "reached a lock before the other CPU took it"),
			     !strcmp(c2->c->bench, "lat_unix"), "%s: %s", c2->c->bench, c2->note);
		/* the cell takes turns by modelled time, where such a reader
		 * finds no byte and sleeps again (test_turns.c): QEMU's order,
		 * which never takes that branch, costs less, said in its note */
		if (c2->flips)
			cr_assert(c2->qemu_order > 0 && c2->qemu_order < c2->hotsim && strstr(c2->note, "in that order"),
				  "%s: %.0f, QEMU's order %.0f: %s", c2->c->bench, c2->hotsim, c2->qemu_order,
				  c2->note);
	}
	/* lat_pipe, lat_unix and lat_ctx (lat_proc's run on one CPU) */
	cr_assert_eq(machine_cells, 3);
	/* the file cells are shown and in no mean: the fitted cells' error is
	 * the mean over the others not held out */
	{
		double sum = 0;
		int n = 0, unlike = 0;

		for (int i = 0; i < one.ncells; i++) {
			const struct ms_cell *c = &one.cells[i];

			if (c->c->flags & HS_CELL_UNLIKE) {
				cr_assert(c->ok && c->hotsim > 0, "%s is shown", c->c->bench);
				unlike++;
			} else if (c->ok && !c->c->flags) {
				sum += fabs(c->hotsim / c->board - 1);
				n++;
			}
		}
		cr_assert_eq(unlike, 3);
		cr_assert_eq(one.nfit, n);
		cr_assert(fabs(one.mape_fit - 100 * sum / n) < 1e-9, "%.3f against %.3f", one.mape_fit, 100 * sum / n);
	}
	ms_fidelity_free(&one);
	ms_fidelity_free(&two);
}

/* The JSON object named name in out holds want (its fields before the next
 * object's) */
static int param_has(const char *out, const char *name, const char *want)
{
	char key[80];
	const char *at, *end;

	snprintf(key, sizeof(key), "\"name\": \"%s\"", name);
	if (!(at = strstr(out, key)))
		return 0;
	end = strchr(at, '}');
	at = strstr(at, want);
	return at && end && at < end;
}

/*
 * fidelity --json says what the board's core ran with beside its core
 * file: on the J721E (2.0 GHz) the A72 file's DRAM and IPI, 180 and 400
 * cycles at its 1.5 GHz, are 240 and 533 (from "time"); the datasheet's
 * 48 KB L1 I-cache is the board's own (from "board"); an L2 hit, the
 * core's own cycles, is not listed.
 */
Test(boots, fidelity_says_what_the_board_ran_with, .timeout = 900)
{
	char cmd[700], *out;

	hs_not_under_sanitizers();
	snprintf(cmd, sizeof(cmd), "%s fidelity %s --board j721e --boots 1 --json 2>&1", hs_bin(),
		 hs_kernel("6.12-board"));
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 0, "%s: %.3000s", cmd, out);
	cr_assert(param_has(out, "mem_latency", "\"value\": 240") && param_has(out, "mem_latency", "\"from\": \"time\""),
		  "%.3000s", out);
	cr_assert(param_has(out, "ipi_latency", "\"value\": 533") && param_has(out, "ipi_latency", "\"from\": \"time\""),
		  "%.3000s", out);
	cr_assert(param_has(out, "l1i_size", "\"value\": 49152") && param_has(out, "l1i_size", "\"from\": \"board\""),
		  "%.3000s", out);
	cr_assert_null(strstr(out, "\"name\": \"l2_latency\""), "%.3000s", out);
	free(out);
}
