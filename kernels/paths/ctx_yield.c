/*
 * ctx_yield.c - ctx.yield: A's sched_yield() (x8 = 124) with a second
 * process D that yields back whenever it runs: the yield switches to D
 * (pick_next_task, switch_mm, __switch_to), D returns from its own
 * sched_yield to user space, calls it again, and the switch comes back to
 * A, whose svc then returns - one switch each way, as lmbench's lat_ctx
 * with no working set (0k) counts them, without its pipes. Sub-rows
 * .a (A's side) and .d (D's side). Booted state only (hs_at_yield).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* sched_yield() with process D yielding back whenever it runs: one switch
 * each way, looped at its site */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t d;

HS_SITE(hs_at_yield);

static void setup(struct hs_wl *w)
{
	(void)w;
	if ((d = fork()) == 0)
		for (;;)
			hs_sys_fn(0, 0, 0, SYS_sched_yield);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(0, 0, 0, SYS_sched_yield);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_yield_fn(0, 0, 0, SYS_sched_yield);
}

static void teardown(struct hs_wl *w)
{
	(void)w;
	kill(d, SIGKILL);
	waitpid(d, NULL, 0);
}

HS_USER_OP(yield, .order = 120, .setup = setup, .warm = warm, .run = run,
	   .teardown = teardown);
#else
#include "hotsim/paths.h"
#include "paths/split.h"

static const struct hs_boot_point point = {
	.name = "yield", .kind = HS_POINT_SVC, .site = "hs_at_yield",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_sched_yield", "__schedule", "cpu_switch_to",
	"ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_ctx 0k (by sched_yield)", .op = "one yield there and back is one op",
};

/* A's side until the first switch lands in D (cpu_switch_to returns into
 * D's stack), D's side until the switch back. */
static void yield_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
{
	static const char *const sw_names[] = { "cpu_switch_to", NULL };
	const struct hs_sym *sw = hs_split_sym(s, sw_names);
	int a, d, cur, seen = 0;

	if (!hs_split_begin(out))
		return;
	a = hs_split_part(out, "a");
	d = hs_split_part(out, "d");
	cur = a;
	for (size_t i = begin; i < end; i++) {
		out->part_of[i] = (uint8_t)cur;
		if (sw && hs_trace_pc(s->t, i) >= sw->addr && hs_trace_pc(s->t, i) < sw->addr + sw->size &&
		    hs_split_insn(s, i)->cls == A64_C_RET)
			cur = ++seen % 2 ? d : a;
	}
}

const struct hs_path_def hs_path_ctx_yield = {
	.name = "ctx.yield",
	.summary = "sched_yield() between two processes: one switch each way (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .split = yield_split,
		  .op = { .kind = HS_OP_SYSCALL, .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
#endif
