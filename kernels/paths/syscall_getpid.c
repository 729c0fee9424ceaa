/*
 * syscall_getpid.c - syscall.getpid: getpid() from a user task - svc #0 with x8 = 172
 * (__NR_getpid, include/uapi/asm-generic/unistd.h): el0t_64_sync,
 * el0t_64_sync_handler -> el0_svc -> do_el0_svc -> invoke_syscall ->
 * __arm64_sys_getpid, then ret_to_user with no pending work and eret.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* getpid() looped at its site */
HS_SITE(hs_at_getpid);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(0, 0, 0, SYS_getpid);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_getpid_fn(0, 0, 0, SYS_getpid);
}

HS_USER_OP(getpid, .order = 10, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

/* booted: A at the svc of its getpid() (the workload's hs_at_getpid) */
static const struct hs_boot_point point = {
	.name = "getpid", .kind = HS_POINT_SVC, .site = "hs_at_getpid",
};

static const char *const landmarks[] = {
	"el0t_64_sync", "el0t_64_sync_handler", "el0_svc", "invoke_syscall", "__arm64_sys_getpid",
	"ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "Fastpath syscall/getpid", .op = "one getpid() is one op",
};

const struct hs_path_def hs_path_syscall_getpid = {
	.name = "syscall.getpid",
	.summary = "getpid() from EL0: svc to eret, through invoke_syscall",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_SVC,
	.from_el = 0,
	.syscall = 172,		/* __NR_getpid */
	.landmarks = landmarks,
	/* booted: consecutive getpid()s of the workload's loop (1 in 48 refills
	 * the per-CPU random batch on 6.x kernels: many samples) */
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
