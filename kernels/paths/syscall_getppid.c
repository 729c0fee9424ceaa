/*
 * syscall_getppid.c - syscall.getppid: getppid() from a user task (x8 = 173,
 * __NR_getppid): the syscall lmbench times as "lat_syscall null" and
 * Fastpath as syscall/getppid - entry, invoke_syscall, __arm64_sys_getppid
 * (an RCU read of the real parent's tgid), ret_to_user, eret. Booted
 * state only: the workload's getppid() loop at hs_at_getppid.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* getppid() looped at its site */
HS_SITE(hs_at_getppid);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(0, 0, 0, SYS_getppid);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_getppid_fn(0, 0, 0, SYS_getppid);
}

HS_USER_OP(getppid, .order = 60, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "getppid", .kind = HS_POINT_SVC, .site = "hs_at_getppid",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_getppid", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall null", .op = "one getppid() is one op",
};

const struct hs_path_def hs_path_syscall_getppid = {
	.name = "syscall.getppid",
	.summary = "getppid() from EL0, lmbench's null syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
