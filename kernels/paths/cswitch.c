/*
 * cswitch.c - cswitch: a real switch between two runnable tasks. Task A yields:
 * __schedule -> pick_next_task (CFS) -> context_switch -> __switch_to ->
 * cpu_switch_to -> finish_task_switch, ending when task B, asleep in
 * __schedule since its own last yield, is back out of schedule().
 * finish_task_switch may be inlined (cswitch-inline pair): the path is
 * defined by __schedule and schedule(), not by it.
 */
#include "hotsim/paths.h"

extern const struct hs_boot_point hs_point_pipe;	/* sched_pipe.c */

static const char *const landmarks[] = {
	"__schedule", "pick_next_task_fair|pick_task_fair", "__switch_to", "cpu_switch_to",
	"finish_task_switch", NULL
};

static const char *const boot_landmarks[] = {
	"cpu_do_switch_mm|check_and_switch_context", "update_rq_clock", "__update_load_avg_se", NULL
};

const struct hs_path_def hs_path_cswitch = {
	.name = "cswitch",
	.summary = "context switch between two runnable tasks (yield), __schedule to schedule() return",
	.kind = HS_PATH_SWITCH,
	.landmarks = landmarks,
	/* booted: A blocks in read() and B, woken by A's write(), runs: the
	 * first __schedule of the round trip, to B's return from it */
	.boot = { .point = &hs_point_pipe, .window = "__schedule", .landmarks = boot_landmarks,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_read", .warmup = 8, .samples = 64 } },
};
