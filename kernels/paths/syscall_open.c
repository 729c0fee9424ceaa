/*
 * syscall_open.c - syscall.open: open() then close() of a file, lmbench's
 * "lat_syscall open" (lat_syscall.c do_openclose): openat(AT_FDCWD, path,
 * O_RDONLY) (x8 = 56) - the path walk, a struct file allocated and put in
 * the fd table - then close() (x8 = 57) of that fd, to close's return.
 * Booted state only.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* openat at its site, close at the end site, looped */
#define AT_FDCWD_ (-100)

HS_SITE4(hs_at_open);
HS_SITE(hs_at_close);

static void setup(struct hs_wl *w)
{
	(void)w;
	hs_wl_file(HS_LMB_FILE, HS_LMB_FILE_BYTES);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(hs_sys4_fn(AT_FDCWD_, (long)HS_LMB_FILE, 0, 0, SYS_openat), 0, 0, SYS_close);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_close_fn(hs_at_open_fn(AT_FDCWD_, (long)HS_LMB_FILE, 0, 0, SYS_openat), 0, 0, SYS_close);
}

HS_USER_OP(open, .order = 180, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "open", .kind = HS_POINT_SVC, .site = "hs_at_open",
};

static const char *const landmarks[] = {
	"__arm64_sys_openat", "do_sys_openat2", "path_openat", "__arm64_sys_close", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_syscall open", .op = "one open() + close() of a file is one op",
};

const struct hs_path_def hs_path_syscall_open = {
	.name = "syscall.open",
	.summary = "open() then close() of a file, lmbench's open syscall (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_close", .warmup = 16, .samples = 64 } },
	.bench = &bench,
};
#endif
