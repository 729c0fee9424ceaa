/*
 * syscall_write.c - syscall.write: write() of one byte to /dev/null (x8 =
 * 64), lmbench's "lat_syscall write": ksys_write, vfs_write ->
 * write_null (which takes the byte and does nothing), fsnotify's modify
 * event, ret_to_user. Booted state only (hs_at_wrnull).
 */
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
