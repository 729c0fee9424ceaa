/*
 * syscall_stat.c - syscall.stat: stat() of a file, lmbench's "lat_syscall
 * stat" (lat_syscall.c do_stat, its default file /usr/include/sys/types.h):
 * glibc's stat() is newfstatat(AT_FDCWD, path, buf, 0) on arm64 (x8 = 79),
 * so a four-component path walk through the dentry cache, the inode's
 * attributes copied out, ret_to_user. Booted state only.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* newfstatat(AT_FDCWD, HS_LMB_FILE, buf, 0) looped at its site */
#define AT_FDCWD_ (-100)

static char buf[256];	/* struct stat is 128 bytes on arm64 */

HS_SITE4(hs_at_stat);

static void setup(struct hs_wl *w)
{
	(void)w;
	hs_wl_file(HS_LMB_FILE, HS_LMB_FILE_BYTES);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys4_fn(AT_FDCWD_, (long)HS_LMB_FILE, (long)buf, 0, SYS_newfstatat);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_stat_fn(AT_FDCWD_, (long)HS_LMB_FILE, (long)buf, 0, SYS_newfstatat);
}

HS_USER_OP(stat, .order = 160, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "stat", .kind = HS_POINT_SVC, .site = "hs_at_stat",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_newfstatat", "vfs_statx|vfs_fstatat", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall stat", .op = "one stat() of /usr/include/sys/types.h is one op",
};

const struct hs_path_def hs_path_syscall_stat = {
	.name = "syscall.stat",
	.summary = "stat() of a file by its path, lmbench's stat syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
