/*
 * syscall_invalid.c - syscall.invalid: a syscall number out of range (x8 = 4095, above every
 * kernel's __NR_syscalls) - the entry and exit of a syscall with no work:
 * el0_svc -> invoke_syscall, which answers -ENOSYS (do_ni_syscall /
 * sys_ni_syscall), then ret_to_user and eret. The path the this_cpu series
 * benchmarks as syscall/invalid.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* syscall 4095 (above every kernel's __NR_syscalls) looped at its site */
#define NR_INVALID 4095

HS_SITE(hs_at_invalid);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(0, 0, 0, NR_INVALID);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_invalid_fn(0, 0, 0, NR_INVALID);
}

HS_USER_OP(invalid, .order = 20, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

/* booted: A at the svc of syscall 4095 (the workload's hs_at_invalid) */
static const struct hs_boot_point point = {
	.name = "invalid", .kind = HS_POINT_SVC, .site = "hs_at_invalid",
};

static const char *const landmarks[] = {
	"el0t_64_sync", "el0t_64_sync_handler", "el0_svc", "invoke_syscall", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "Fastpath syscall/invalid", .op = "one out-of-range syscall is one op",
};

const struct hs_path_def hs_path_syscall_invalid = {
	.name = "syscall.invalid",
	.summary = "an out-of-range syscall number from EL0: svc to eret (-ENOSYS)",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_SVC,
	.from_el = 0,
	.syscall = 4095,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
