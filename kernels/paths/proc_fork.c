/*
 * proc_fork.c - proc.fork: lmbench's "lat_proc fork" (lat_proc.c
 * do_fork): glibc's fork(), the child exit(1)s through glibc's exit, the
 * parent wait()s until it has reaped that child. One op is one iteration
 * of that loop, from a marker before fork() to the next: glibc's fork
 * (its handlers, _Fork's clone with CLONE_CHILD_SETTID|CLEARTID), the
 * kernel's copy of the process, both sides' copy-on-write faults, the
 * child's exit and the parent's wakeup and reaping. The process is the
 * static workload (lmbench's is dynamically linked: its fork copies the
 * page tables of ld.so's and libc's mappings too). Booted state only.
 */
#ifdef HS_USER_SIDE
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "user_op.h"

/* The loop's marker: the op starts here, and ends here again. */
HS_AT_INSN(hs_pfork_warm_fn, "", "nop");
HS_AT_INSN(hs_pfork_fn, HS_LABEL(hs_at_pfork), "nop");
void hs_pfork_warm_fn(void);
void hs_pfork_fn(void);

static void once(void (*mark)(void))
{
	pid_t pid;

	mark();
	if ((pid = fork()) == 0)
		exit(1);
	while (pid > 0 && wait(NULL) != pid)
		;
}

static void warm(struct hs_wl *w)
{
	(void)w;
	once(hs_pfork_warm_fn);
}

/* a few more than the replay samples: each is 200,000 instructions */
static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops && i < 32; i++)
		once(hs_pfork_fn);
}

/* 50 warm-ups, not 2,000: each is a process; the boot stops at the next
 * point within a minute even on a loaded machine */
HS_USER_OP(pfork, .order = 230, .warmup = 50, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "pfork", .kind = HS_POINT_MARK, .site = "hs_at_pfork",
};

static const char *const landmarks[] = {
	"__arm64_sys_clone", "copy_process", "do_exit", "__arm64_sys_wait4", "release_task", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_proc fork", .op = "one fork + child exit(1) + wait is one op",
};

const struct hs_path_def hs_path_proc_fork = {
	.name = "proc.fork",
	.summary = "glibc fork(), the child's exit(1), wait(): lmbench's process fork+exit (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point,
		  .op = { .kind = HS_OP_RANGE, .warmup = 2, .samples = 16, .max_insns = 1000000 } },
	.bench = &bench,
};
#endif
