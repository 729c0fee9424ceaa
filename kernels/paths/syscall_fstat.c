/*
 * syscall_fstat.c - syscall.fstat: fstat() of an open file, lmbench's
 * "lat_syscall fstat" (lat_syscall.c do_fstat, on the file stat uses), as
 * glibc 2.33 and later make it on arm64: newfstatat(fd, "", buf,
 * AT_EMPTY_PATH) (x8 = 79) - the empty name copied in from user space and
 * freed again, the file from the fd table, its inode's attributes copied
 * out, ret_to_user. Booted state only.
 */
#ifdef HS_USER_SIDE
#include <fcntl.h>
#include <unistd.h>

#include "user_op.h"

/* newfstatat(fd, "", buf, AT_EMPTY_PATH) looped at its site */
#define AT_EMPTY_PATH_ 0x1000

static char buf[256];
static int fd = -1;

HS_SITE4(hs_at_fstat);

static void setup(struct hs_wl *w)
{
	(void)w;
	hs_wl_file(HS_LMB_FILE, HS_LMB_FILE_BYTES);
	fd = open(HS_LMB_FILE, O_RDONLY);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys4_fn(fd, (long)"", (long)buf, AT_EMPTY_PATH_, SYS_newfstatat);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_fstat_fn(fd, (long)"", (long)buf, AT_EMPTY_PATH_, SYS_newfstatat);
}

HS_USER_OP(fstat, .order = 170, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "fstat", .kind = HS_POINT_SVC, .site = "hs_at_fstat",
};

static const char *const landmarks[] = {
	"el0_svc", "invoke_syscall", "__arm64_sys_newfstatat", "vfs_fstat", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall fstat", .op = "one fstat() of an open file is one op",
};

const struct hs_path_def hs_path_syscall_fstat = {
	.name = "syscall.fstat",
	.summary = "fstat() of an open file, lmbench's fstat syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 16, .samples = 128 } },
	.bench = &bench,
};
#endif
