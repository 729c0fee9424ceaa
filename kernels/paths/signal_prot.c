/*
 * signal_prot.c - signal.prot: a store to a read-only shared mapping of a
 * file, the SIGSEGV it raises caught by a handler that returns, so the
 * store faults again: lmbench's "lat_sig prot" (lat_sig.c do_prot). One op
 * is the permission fault (do_page_fault to its bad_area), the signal's
 * delivery, the handler, rt_sigreturn and the eret back to the store.
 * lmbench reports it less its catch (lat_sig catch, itself less
 * kill(self, 0)): hotsim fidelity takes that sum. Booted state only.
 */
#ifdef HS_USER_SIDE
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "user_op.h"

/* The store, twice in asm (the warm-up's copy without the label). */
HS_AT_INSN(hs_prot_warm_fn, "", "strb w9, [x0]");
HS_AT_INSN(hs_prot_fn, HS_LABEL(hs_at_prot), "strb w9, [x0]");
void hs_prot_warm_fn(char *p);
void hs_prot_fn(char *p);

static char *where;
static volatile long left;

/* lmbench's prot() counts and returns, so the store faults again; after
 * the last one this steps over it so the run can end */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	if (--left <= 0)
		((ucontext_t *)uc)->uc_mcontext.pc += 4;
}

static void setup(struct hs_wl *w)
{
	struct sigaction sa = { 0 };
	int fd;

	(void)w;
	hs_wl_file(HS_LMB_FILE, HS_LMB_FILE_BYTES);
	fd = open(HS_LMB_FILE, O_RDONLY);
	where = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	if (where == MAP_FAILED)
		hs_wl_say("HOTSIM workload: cannot map the prot file\n");
}

/* all of the warm-up in one call: HS_WL_WARMUP faults in a row */
static void warm(struct hs_wl *w)
{
	(void)w;
	left = HS_WL_WARMUP;
	hs_prot_warm_fn(where);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	left = ops;
	hs_prot_fn(where);
}

HS_USER_OP(prot, .order = 200, .warmup = 1, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "prot", .kind = HS_POINT_SVC, .site = "hs_at_prot",
};

static const char *const landmarks[] = {
	"el0_da", "do_page_fault", "arm64_force_sig_fault|force_sig_fault", "setup_rt_frame",
	"__arm64_sys_rt_sigreturn", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_sig prot (before its catch is subtracted)",
	.op = "one protection fault caught by its handler is one op",
};

const struct hs_path_def hs_path_signal_prot = {
	.name = "signal.prot",
	.summary = "a store to a read-only file mapping, its SIGSEGV caught, the store again: lmbench's prot "
		   "(booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_ABORT, .warmup = 16, .samples = 64 } },
	.bench = &bench,
};
#endif
