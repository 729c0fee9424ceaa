/*
 * perf_sched_pipe.c - perf.sched-pipe: `perf bench sched pipe` itself,
 * Debian's linux-perf as users run it (kernels/programs/), unpinned, one
 * round trip an op: the binary a user quotes, beside sched-pipe (hotsim's
 * own workload doing what its worker loop does). perf forks a worker; each
 * side loops write(4 bytes) and read(4 bytes) through glibc's wrappers
 * (tools/perf/bench/sched-pipe.c), so the point is the first svc of libc's
 * write() in one of them, and the op ends where that process's read()
 * returns. Sub-rows as sched-pipe's.
 */
#include "hotsim/paths.h"
#include "hotsim/program.h"
#include "ping_pong.h"

/* -l: more round trips than a boot and its replay take, so the program
 * is still looping wherever the snapshot is taken */
static const char *const argv[] = { "/usr/bin/perf", "bench", "sched", "pipe", "-l", "100000000", NULL };

static const struct hs_program perf = {
	.name = "perf", .package = "linux-perf", .lib = "lib/aarch64-linux-gnu/libc.so.6", .argv = argv,
};

static const struct hs_boot_point point = {
	.name = "perf-pipe", .kind = HS_POINT_CALL, .site = "write", .each_op = 1, .program = &perf,
};

static const char *const landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", "try_to_wake_up", "__schedule",
	"cpu_do_switch_mm|check_and_switch_context", "__switch_to", "finish_task_switch", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "perf bench sched pipe", .op = "one round trip is one op",
	.versus = "the program itself (Debian's linux-perf): against sched-pipe, hotsim's own loop, "
		  "glibc's write() and read() (16 instructions around each svc, hotsim's sites 3), "
		  "perf's check of each call's return, and 4-byte messages (not 1)",
};

const struct hs_path_def hs_path_perf_sched_pipe = {
	.name = "perf.sched-pipe",
	.summary = "perf bench sched pipe itself (Debian's linux-perf): one round trip (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .split = hs_ping_pong_split, .machine = 1,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "read", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
