/*
 * signal_catch.c - signal.catch: kill(self, SIGUSR1) (x8 = 129) with a
 * handler installed, lmbench's "lat_sig catch": the kill queues the
 * signal to the caller, ret_to_user finds it pending (do_notify_resume ->
 * do_signal -> setup_rt_frame), the eret goes to the handler, which
 * returns through the vDSO's trampoline into rt_sigreturn, and that
 * syscall's eret resumes after the kill. Sub-rows: .send (the kill
 * syscall up to the delivery), .deliver (the signal frame built),
 * .handler (user code: handler and trampoline), .sigreturn (the
 * rt_sigreturn syscall). Booted state only (hs_at_kill).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* kill(self, SIGUSR1) looped at its site: the handler runs, then
 * rt_sigreturn, then the svc returns */
#include <signal.h>

static volatile int caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static struct hs_ksigaction act = { on_usr1, 0, 0, 0 };

HS_SITE(hs_at_kill);

static void setup(struct hs_wl *w)
{
	(void)w;
	hs_sys4_fn(SIGUSR1, (long)&act, 0, 8, SYS_rt_sigaction);
}

static void warm(struct hs_wl *w)
{
	hs_sys_fn(w->self, SIGUSR1, 0, SYS_kill);
}

static void run(struct hs_wl *w, long ops)
{
	for (long i = 0; i < ops; i++)
		hs_at_kill_fn(w->self, SIGUSR1, 0, SYS_kill);
}

static void teardown(struct hs_wl *w)
{
	(void)w;
	if (caught < HS_WL_WARMUP)
		hs_wl_say("HOTSIM workload: SIGUSR1 was not caught\n");
}

HS_USER_OP(kill, .order = 100, .setup = setup, .warm = warm, .run = run,
	   .teardown = teardown);
#else
#include "hotsim/paths.h"
#include "paths/split.h"

static const struct hs_boot_point point = {
	.name = "kill", .kind = HS_POINT_SVC, .site = "hs_at_kill",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_kill", "arch_do_signal_or_restart|do_signal|do_notify_resume", "setup_rt_frame",
	"__arm64_sys_rt_sigreturn", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_sig catch", .op = "one kill() caught by its handler is one op",
};

enum { SC_SEND, SC_DELIVER, SC_HANDLER, SC_SIGRETURN, SC_N };

/* In trace order: the kill syscall until ret_to_user's signal work,
 * building the frame, the handler (user), the rt_sigreturn syscall. */
static void catch_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
{
	static const char *const names[SC_N] = { "send", "deliver", "handler", "sigreturn" };
	static const char *const sig_names[] = { "arch_do_signal_or_restart", "do_signal", "do_notify_resume",
						 NULL };
	const struct hs_sym *sig = hs_split_sym(s, sig_names);
	int id[SC_N], cur = SC_SEND, kernel = 0;

	if (!hs_split_begin(out))
		return;
	for (int k = 0; k < SC_N; k++)
		id[k] = hs_split_part(out, names[k]);
	for (size_t i = begin; i < end; i++) {
		uint64_t pc = hs_trace_pc(s->t, i);
		int user = pc < s->img->base;

		/* the op starts at the kill's svc, in user space */
		kernel |= !user;
		if (cur == SC_SEND && sig && pc == sig->addr)
			cur = SC_DELIVER;
		else if (cur <= SC_DELIVER && user && kernel)
			cur = SC_HANDLER;
		else if (cur == SC_HANDLER && !user)
			cur = SC_SIGRETURN;
		out->part_of[i] = (uint8_t)id[cur];
	}
}

const struct hs_path_def hs_path_signal_catch = {
	.name = "signal.catch",
	.summary = "kill(self, SIGUSR1) to its handler and back, lmbench's signal catch (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .split = catch_split,
		  .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 64 } },
	.bench = &bench,
};
#endif
