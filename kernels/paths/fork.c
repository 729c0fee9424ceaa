/*
 * fork.c - fork: clone(SIGCHLD) from A (x8 = 220: kernel_clone,
 * copy_process, dup_mm - A's page tables copied, its writable pages made
 * copy-on-write - and wake_up_new_task), A's wait4() at hs_at_wait, which
 * sleeps; the child runs (ret_from_fork, an instruction abort on the text
 * page fork did not copy, exit_group: do_exit, exit_mmap, the SIGCHLD),
 * and A is woken and reaps it (release_task). One fork + _exit + wait, as
 * Fastpath's micromm/fork and lmbench's lat_proc fork count it, by the
 * raw syscalls: glibc's fork() adds its atfork handlers, and A's own
 * copy-on-write faults after the fork are A's next instructions, not the
 * op's. Sub-rows .parent and .child (from the first instruction the child
 * runs until A runs again). Booted state only (hs_at_fork).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/*
 * clone(SIGCHLD, no stack, no tids) - the raw syscall, not glibc's fork(),
 * whose atfork handlers and tid bookkeeping are glibc's cost - the child
 * exit_group(0)s at once, the parent wait4(pid, NULL, 0, NULL)s for that
 * child, as lmbench's waitpid(pid) does (wait4(-1) would reap the last
 * op's child while this one has not run yet: ops two at a time). In asm,
 * so that nothing but the operation touches memory (a C loop's stack
 * writes after fork are copy-on-write faults of their own); twice: the
 * warm-up's copy without labels, and the labelled one.
 */
#define FORK_FN(fn, at_fork, at_wait)				\
	__asm__(".text\n.balign 16\n"				\
		".type " #fn ", %function\n"			\
		#fn ":\n"					\
		"	mov x0, #17\n"	/* SIGCHLD */		\
		"	mov x1, xzr\n	mov x2, xzr\n"		\
		"	mov x3, xzr\n	mov x4, xzr\n"		\
		"	mov x8, #220\n"	/* clone */		\
		"	mrs x9, cntvct_el0\n"			\
		at_fork "	svc #0\n"			\
		"	cbnz x0, 1f\n"				\
		"	mov x8, #94\n"	/* exit_group(0) */	\
		"	svc #0\n"				\
		"1:	mov x1, xzr\n	mov x2, xzr\n"		\
		"	mov x3, xzr\n"	/* x0: the child's pid */	\
		"	mov x8, #260\n"	/* wait4 */		\
		at_wait "	svc #0\n"			\
		"	ret\n"					\
		".size " #fn ", . - " #fn "\n")
FORK_FN(hs_fork_warm_fn, "", "");
FORK_FN(hs_fork_fn, ".globl hs_at_fork\nhs_at_fork:\n", ".globl hs_at_wait\nhs_at_wait:\n");
void hs_fork_warm_fn(void);
void hs_fork_fn(void);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_fork_warm_fn();
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_fork_fn();
}

HS_USER_OP(fork, .order = 130, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"
#include "paths/split.h"

static const struct hs_boot_point point = {
	.name = "fork", .kind = HS_POINT_SVC, .site = "hs_at_fork",
};

static const char *const landmarks[] = {
	"__arm64_sys_clone", "kernel_clone", "copy_process", "copy_page_range", "ret_from_fork",
	"do_exit", "exit_mmap", "__arm64_sys_wait4", "release_task", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "Fastpath micromm/fork, lmbench lat_proc fork",
	.op = "one fork + child exit + wait is one op",
};

/* The parent's side until cpu_switch_to returns into the child (its first
 * run starts at ret_from_fork), the child's until a switch returns
 * elsewhere (back in A). */
static void fork_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
{
	static const char *const rf_names[] = { "ret_from_fork", NULL };
	static const char *const sw_names[] = { "cpu_switch_to", NULL };
	const struct hs_sym *rf = hs_split_sym(s, rf_names), *sw = hs_split_sym(s, sw_names);
	int parent, child, cur;

	if (!hs_split_begin(out))
		return;
	parent = hs_split_part(out, "parent");
	child = hs_split_part(out, "child");
	cur = parent;
	for (size_t i = begin; i < end; i++) {
		uint64_t pc = hs_trace_pc(s->t, i);

		if (rf && pc == rf->addr)
			cur = child;
		out->part_of[i] = (uint8_t)cur;
		if (cur == child && sw && pc >= sw->addr && pc < sw->addr + sw->size &&
		    hs_split_insn(s, i)->cls == A64_C_RET && i + 1 < end &&
		    !(rf && hs_trace_pc(s->t, i + 1) == rf->addr))
			cur = parent;
	}
}

const struct hs_path_def hs_path_fork = {
	.name = "fork",
	.summary = "fork + child exit + wait, by the raw syscalls (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .split = fork_split,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_wait", .warmup = 4, .samples = 32,
			  /* 107k (7.2-base) to 160k (Debian 6.1) measured */
			  .max_insns = 400000 } },
	.bench = &bench,
};
#endif
