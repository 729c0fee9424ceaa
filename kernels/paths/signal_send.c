/*
 * signal_send.c - signal.send: kill(self, 0), the permission check of a
 * signal sent without a signal (x8 = 129): lmbench's "lat_sig catch" times
 * kill(self, SIGUSR1) caught by a handler and subtracts this (its
 * do_send), so lmbench's catch is signal.catch minus signal.send
 * (hotsim fidelity does that sum). Booted state only.
 */
#ifdef HS_USER_SIDE
#include <signal.h>

#include "user_op.h"

/* kill(self, 0) looped at its site */
HS_SITE(hs_at_send);

static void warm(struct hs_wl *w)
{
	hs_sys_fn(w->self, 0, 0, SYS_kill);
}

static void run(struct hs_wl *w, long ops)
{
	for (long i = 0; i < ops; i++)
		hs_at_send_fn(w->self, 0, 0, SYS_kill);
}

HS_USER_OP(send, .order = 190, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "send", .kind = HS_POINT_SVC, .site = "hs_at_send",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_kill", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_sig catch's do_send", .op = "one kill(self, 0) is one op",
};

const struct hs_path_def hs_path_signal_send = {
	.name = "signal.send",
	.summary = "kill(self, 0): a signal's permission check, what lmbench's catch subtracts (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
