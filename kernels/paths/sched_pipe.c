/*
 * sched-pipe: one round trip of `perf bench sched pipe` (tools/perf/bench/
 * sched-pipe.c: two tasks, two pipes, one byte each way) between the boot
 * workload's processes, from the booted state only: A writes a byte,
 * B (asleep in read) is woken, A blocks in read and the CPU switches to B
 * (switch_mm: another process), B's read returns, B writes the byte back
 * and wakes A, B blocks in read, the switch back to A, and A's read
 * returns to user space. Sub-rows split every instruction into .user,
 * .write, .wakeup, .read, .switch and .return.
 */
#include "hotsim/paths.h"

static const char *const landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", "try_to_wake_up", "__schedule",
	"cpu_do_switch_mm|check_and_switch_context", "__switch_to", "finish_task_switch", NULL
};

const struct hs_path_def hs_path_sched_pipe = {
	.name = "sched-pipe",
	.summary = "one perf bench sched pipe round trip between two processes (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = HS_BOOT_PIPE, .end = HS_BOOT_END_READ, .pipe_parts = 1 },
};
