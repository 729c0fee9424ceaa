/*
 * ctx_ring.c - lmbench's lat_ctx -s 128K with 2 processes (lat_ctx.c),
 * as two paths because lat_ctx measures two things and reports their
 * difference: ctx.ring, one pass of the token around the ring - A writes
 * it into B's pipe and blocks reading its own, B wakes, sums its 128 KB,
 * writes the token back, A wakes and sums its 128 KB (lat_ctx's
 * benchmark()); and ctx.overhead, the same pipe write and read and sum in
 * one process, its own pipe, no switch (benchmark_overhead()). lat_ctx
 * reports ring / 2 - overhead: a switch, its wakeup, and what the other
 * process's working set costs the caches. ctx.ring is a round trip a
 * machine replays unpinned (run --smp N), as lmbench runs it; its
 * sub-rows are sched-pipe's (ping_pong.c). Booted state only.
 */
#ifdef HS_USER_SIDE
#include <string.h>
#include <unistd.h>

#include "user_op.h"

#define CTX_INTS (128 * 1024 / 4)	/* lat_ctx -s 128 */
/* Ops a run makes: more than the replay samples (26) and validation
 * records (48 on a machine, QEMU running on past the replay's end), and
 * no more - each is 80,000-180,000 instructions. */
#define RUN_OPS 80

static int data[CTX_INTS];		/* each process's own after its memset */
static int ring[2][2], self[2];
static int token = 1;
static volatile int sink;

/* lat_ctx's sumit(): every int of the working set read and summed */
static int sumit(const int *d)
{
	int sum = 0;

	for (int i = 0; i < CTX_INTS; i += 8)
		sum += d[i] + d[i + 1] + d[i + 2] + d[i + 3] + d[i + 4] + d[i + 5] + d[i + 6] + d[i + 7];
	return sum;
}

/* Each op starts at a marker before its write: A's whole loop, sums
 * included, as lat_ctx times it. */
HS_AT_INSN(hs_ctxr_warm_fn, "", "nop");
HS_AT_INSN(hs_ctxr_fn, HS_LABEL(hs_at_ctxr), "nop");
HS_AT_INSN(hs_ctxo_warm_fn, "", "nop");
HS_AT_INSN(hs_ctxo_fn, HS_LABEL(hs_at_ctxo), "nop");
void hs_ctxr_warm_fn(void);
void hs_ctxr_fn(void);
void hs_ctxo_warm_fn(void);
void hs_ctxo_fn(void);

static void overhead_setup(struct hs_wl *w)
{
	(void)w;
	memset(data, 0, sizeof(data));
	if (pipe(self))
		hs_wl_say("HOTSIM workload: no pipe for ctx.overhead\n");
}

static void overhead_once(void (*mark)(void))
{
	mark();
	hs_sys_fn(self[1], (long)&token, sizeof(token), SYS_write);
	hs_sys_fn(self[0], (long)&token, sizeof(token), SYS_read);
	sink += sumit(data);
}

static void overhead_warm(struct hs_wl *w)
{
	(void)w;
	overhead_once(hs_ctxo_warm_fn);
}

static void overhead_run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops && i < RUN_OPS; i++)
		overhead_once(hs_ctxo_fn);
}

/* B: the token from A, its own sum, the token back - forever */
static void ring_setup(struct hs_wl *w)
{
	(void)w;
	if (pipe(ring[0]) || pipe(ring[1])) {
		hs_wl_say("HOTSIM workload: no pipes for ctx.ring\n");
		return;
	}
	if (fork() == 0) {
		int t;

		memset(data, 0, sizeof(data));
		for (;;) {
			hs_sys_fn(ring[0][0], (long)&t, sizeof(t), SYS_read);
			sink += sumit(data);
			hs_sys_fn(ring[1][1], (long)&t, sizeof(t), SYS_write);
		}
	}
}

static void ring_once(void (*mark)(void))
{
	mark();
	hs_sys_fn(ring[0][1], (long)&token, sizeof(token), SYS_write);
	hs_sys_fn(ring[1][0], (long)&token, sizeof(token), SYS_read);
	sink += sumit(data);
}

static void ring_warm(struct hs_wl *w)
{
	(void)w;
	ring_once(hs_ctxr_warm_fn);
}

static void ring_run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops && i < RUN_OPS; i++)
		ring_once(hs_ctxr_fn);
}

/* 50 warm-ups, not 2,000: each op is two sums of 128 KB */
HS_USER_OP(ctxo, .order = 260, .warmup = 50, .setup = overhead_setup, .warm = overhead_warm,
	   .run = overhead_run);
HS_USER_OP(ctxr, .order = 270, .warmup = 50, .setup = ring_setup, .warm = ring_warm, .run = ring_run);
#else
#include "hotsim/paths.h"
#include "ping_pong.h"

static const struct hs_boot_point ring_point = {
	.name = "ctxr", .kind = HS_POINT_MARK, .site = "hs_at_ctxr", .each_op = 1,
};

static const struct hs_boot_point overhead_point = {
	.name = "ctxo", .kind = HS_POINT_MARK, .site = "hs_at_ctxo",
};

static const char *const ring_landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", "try_to_wake_up", "__schedule",
	"__switch_to", "finish_task_switch", NULL
};

static const char *const overhead_landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", NULL
};

static const struct hs_bench_def ring_bench = {
	.benchmark = "lmbench lat_ctx -s 128K, 2 processes (the ring)",
	.op = "one pass of the token around the ring, both sums, is one op",
};

static const struct hs_bench_def overhead_bench = {
	.benchmark = "lmbench lat_ctx -s 128K (its overhead)",
	.op = "one pipe write, read and 128 KB sum in one process is one op",
};

/* An op is about 180,000 instructions: 24 samples hold in a trace of
 * 26 x max_insns. */
const struct hs_path_def hs_path_ctx_ring = {
	.name = "ctx.ring",
	.summary = "lmbench lat_ctx -s 128K: the token around a ring of 2 processes, 128 KB summed by each "
		   "(booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = ring_landmarks,
	.boot = { .point = &ring_point, .split = hs_ping_pong_split, .machine = 1,
		  .op = { .kind = HS_OP_RANGE, .warmup = 2, .samples = 24, .max_insns = 400000 } },
	.bench = &ring_bench,
};

const struct hs_path_def hs_path_ctx_overhead = {
	.name = "ctx.overhead",
	.summary = "lmbench lat_ctx -s 128K's overhead: a pipe write and read and the 128 KB sum in one "
		   "process (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = overhead_landmarks,
	.boot = { .point = &overhead_point,
		  .op = { .kind = HS_OP_RANGE, .warmup = 2, .samples = 32, .max_insns = 200000 } },
	.bench = &overhead_bench,
};
#endif
