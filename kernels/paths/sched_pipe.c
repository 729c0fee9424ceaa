/*
 * sched_pipe.c - sched-pipe: one round trip of `perf bench sched pipe` (tools/perf/bench/
 * sched-pipe.c: two tasks, two pipes, one byte each way) between the boot
 * workload's processes, from the booted state only: A writes a byte,
 * B (asleep in read) is woken, A blocks in read and the CPU switches to B
 * (switch_mm: another process), B's read returns, B writes the byte back
 * and wakes A, B blocks in read, the switch back to A, and A's read
 * returns to user space. Sub-rows split every instruction into .user,
 * .write, .wakeup, .read, .switch and .return.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* A writes a byte to B through pipe a, B echoes it back through pipe b,
 * A reads it: perf bench sched pipe's round trip, between two processes */
#include <unistd.h>

static int a[2], b[2];
static char byte = 'x';

HS_SITE(hs_at_write);
HS_SITE(hs_at_read);

static void setup(struct hs_wl *w)
{
	(void)w;
	if (pipe(a) || pipe(b)) {
		hs_wl_say("HOTSIM workload: no pipes\n");
		return;
	}
	if (fork() == 0) {
		/* B: echo every byte back, forever */
		for (;;) {
			hs_sys_fn(a[0], (long)&byte, 1, SYS_read);
			hs_sys_fn(b[1], (long)&byte, 1, SYS_write);
		}
	}
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(a[1], (long)&byte, 1, SYS_write);
	hs_sys_fn(b[0], (long)&byte, 1, SYS_read);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++) {
		hs_at_write_fn(a[1], (long)&byte, 1, SYS_write);
		hs_at_read_fn(b[0], (long)&byte, 1, SYS_read);
	}
}

HS_USER_OP(pipe, .order = 30, .setup = setup, .warm = warm, .run = run);
#else
#include "paths/path_internal.h"
#include "ping_pong.h"

/* booted: A at the svc of its write() (the workload's hs_at_write), B
 * asleep in read(); each op is a round trip, to A's read() returning */
const struct hs_boot_point hs_point_pipe = {
	.name = "pipe", .kind = HS_POINT_SVC, .site = "hs_at_write", .each_op = 1,
};

static const char *const landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", "try_to_wake_up", "__schedule",
	"cpu_do_switch_mm|check_and_switch_context", "__switch_to", "finish_task_switch", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "perf bench sched pipe", .op = "one round trip is one op",
};

const struct hs_path_def hs_path_sched_pipe = {
	.name = "sched-pipe",
	.summary = "one perf bench sched pipe round trip between two processes (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &hs_point_pipe, .split = hs_ping_pong_split, .machine = 1,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_read", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
#endif
