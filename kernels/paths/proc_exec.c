/*
 * proc_exec.c - proc.exec: lmbench's "lat_proc exec" (lat_proc.c
 * do_forkexec): fork(), the child close(1)s and execve()s a program that
 * writes "Hello world\n" and exits (lmbench's hello.c), the parent wait()s
 * for it. One op is one iteration, from a marker before fork() to the
 * next. The program is the workload itself, run as "hello" (this file's
 * HS_USER_OP hello entry): a static program, where lmbench's /tmp/hello is
 * dynamically linked (ld.so's start and libc's relocations are not in the
 * op). Booted state only.
 */
#ifdef HS_USER_SIDE
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "user_op.h"

/* The loop's marker: the op starts here, and ends here again. */
HS_AT_INSN(hs_pexec_warm_fn, "", "nop");
HS_AT_INSN(hs_pexec_fn, HS_LABEL(hs_at_pexec), "nop");
void hs_pexec_warm_fn(void);
void hs_pexec_fn(void);

/* lmbench's hello.c, which the exec runs */
static int hello(void)
{
	write(1, "Hello world\n", 12);
	exit(0);
}

static void once(void (*mark)(void))
{
	char *nav[] = { "hello", NULL };
	pid_t pid;

	mark();
	if ((pid = fork()) == 0) {
		close(1);
		execve("/init", nav, NULL);
		exit(1);
	}
	while (pid > 0 && wait(NULL) != pid)
		;
}

static void warm(struct hs_wl *w)
{
	(void)w;
	once(hs_pexec_warm_fn);
}

/* a few more than the replay samples: each is 300,000 instructions */
static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops && i < 16; i++)
		once(hs_pexec_fn);
}

/* 20 warm-ups: each is a process and an exec (proc_fork.c says why few) */
HS_USER_OP(pexec, .order = 240, .warmup = 20, .warm = warm, .run = run, .argv0 = "hello", .main = hello);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "pexec", .kind = HS_POINT_MARK, .site = "hs_at_pexec",
};

static const char *const landmarks[] = {
	"__arm64_sys_clone", "copy_process", "__arm64_sys_execve", "load_elf_binary", "do_exit",
	"__arm64_sys_wait4", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_proc exec", .op = "one fork + execve of hello + wait is one op",
};

const struct hs_path_def hs_path_proc_exec = {
	.name = "proc.exec",
	.summary = "fork(), the child execve()s lmbench's hello, wait(): lmbench's process fork+execve "
		   "(booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point,
		  .op = { .kind = HS_OP_RANGE, .warmup = 1, .samples = 8, .max_insns = 1500000 } },
	.bench = &bench,
};
#endif
