/*
 * futex_wake.c - futex.wake: FUTEX_WAKE | FUTEX_PRIVATE_FLAG on a futex
 * nobody waits on (x8 = 98), what `perf bench futex wake` times per call
 * when no waiter is queued: the key from the address (private: no mm
 * lookup), the hash bucket, an empty waiter list, ret_to_user. Booted
 * state only (hs_at_futex).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* FUTEX_WAKE | FUTEX_PRIVATE_FLAG on a word nobody waits on, looped at
 * its site */
#define FUTEX_WAKE_PRIVATE_OP 129

static int futex_word;

HS_SITE4(hs_at_futex);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys4_fn((long)&futex_word, FUTEX_WAKE_PRIVATE_OP, 1, 0, SYS_futex);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_futex_fn((long)&futex_word, FUTEX_WAKE_PRIVATE_OP, 1, 0, SYS_futex);
}

HS_USER_OP(futex, .order = 110, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "futex", .kind = HS_POINT_SVC, .site = "hs_at_futex",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_futex", "do_futex", "futex_wake", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "perf bench futex wake", .op = "one FUTEX_WAKE with no waiter is one op",
};

const struct hs_path_def hs_path_futex_wake = {
	.name = "futex.wake",
	.summary = "FUTEX_WAKE_PRIVATE on an uncontended futex (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
