/*
 * signal_install.c - signal.install: rt_sigaction(SIGUSR1, handler, &old)
 * (x8 = 134), lmbench's "lat_sig install" (lat_sig.c do_install): copy the
 * new action in, do_sigaction under the sighand lock, the old action out,
 * ret_to_user.
 * Booted state only (hs_at_sigact).
 */
#ifdef HS_USER_SIDE
#include <signal.h>

#include "user_op.h"

/* rt_sigaction(SIGUSR1, handler, &old) looped at its site */

static void on_usr1(int sig)
{
	(void)sig;
}

static struct hs_ksigaction act = { on_usr1, 0, 0, 0 }, old;

HS_SITE4(hs_at_sigact);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys4_fn(SIGUSR1, (long)&act, (long)&old, 8, SYS_rt_sigaction);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_sigact_fn(SIGUSR1, (long)&act, (long)&old, 8, SYS_rt_sigaction);
}

HS_USER_OP(sigact, .order = 90, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "sigact", .kind = HS_POINT_SVC, .site = "hs_at_sigact",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_rt_sigaction", "do_sigaction", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_sig install", .op = "one sigaction() is one op",
};

const struct hs_path_def hs_path_signal_install = {
	.name = "signal.install",
	.summary = "rt_sigaction(SIGUSR1) from EL0, lmbench's signal install (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
