/*
 * syscall_write.c - syscall.write: write() of one byte to /dev/null (x8 =
 * 64), lmbench's "lat_syscall write": ksys_write, vfs_write ->
 * write_null (which takes the byte and does nothing), fsnotify's modify
 * event, ret_to_user. Booted state only (hs_at_wrnull).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* write() of one byte to /dev/null looped at its site */
static char byte = 'x';

HS_SITE(hs_at_wrnull);

static void warm(struct hs_wl *w)
{
	hs_sys_fn(w->null, (long)&byte, 1, SYS_write);
}

static void run(struct hs_wl *w, long ops)
{
	for (long i = 0; i < ops; i++)
		hs_at_wrnull_fn(w->null, (long)&byte, 1, SYS_write);
}

HS_USER_OP(wrnull, .order = 80, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "wrnull", .kind = HS_POINT_SVC, .site = "hs_at_wrnull",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "ksys_write", "vfs_write", "write_null", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall write", .op = "one 1-byte write() to /dev/null is one op",
};

const struct hs_path_def hs_path_syscall_write = {
	.name = "syscall.write",
	.summary = "write() of 1 byte to /dev/null, lmbench's write syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
