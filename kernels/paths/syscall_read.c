/*
 * syscall_read.c - syscall.read: read() of one byte from /dev/zero (x8 =
 * 63), lmbench's "lat_syscall read": ksys_read, the file's lock and
 * position, vfs_read -> read_iter_zero (clears one user byte), fsnotify's
 * access event, ret_to_user. Booted state only (hs_at_rdzero).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* read() of one byte from /dev/zero looped at its site */
static char byte;

HS_SITE(hs_at_rdzero);

static void warm(struct hs_wl *w)
{
	hs_sys_fn(w->zero, (long)&byte, 1, SYS_read);
}

static void run(struct hs_wl *w, long ops)
{
	for (long i = 0; i < ops; i++)
		hs_at_rdzero_fn(w->zero, (long)&byte, 1, SYS_read);
}

HS_USER_OP(rdzero, .order = 70, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "rdzero", .kind = HS_POINT_SVC, .site = "hs_at_rdzero",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "ksys_read", "vfs_read", "read_iter_zero", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall read", .op = "one 1-byte read() of /dev/zero is one op",
};

const struct hs_path_def hs_path_syscall_read = {
	.name = "syscall.read",
	.summary = "read() of 1 byte from /dev/zero, lmbench's read syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
