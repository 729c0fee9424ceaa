/*
 * unix_stream.c - unix.stream: one round trip of lmbench's lat_unix
 * (lat_unix.c: a SOCK_STREAM socketpair(AF_UNIX), one byte each way)
 * between two processes, from the booted state only: A writes a byte to
 * its end, B (asleep in read() at the other) is woken and echoes it, and
 * A's read() returns it - unix_stream_sendmsg and unix_stream_recvmsg
 * where sched-pipe has the pipe's, the same wakeups and switches. The
 * sub-rows are sched-pipe's (ping_pong.c). A path a machine replays
 * unpinned (run --smp N), as lmbench runs it. A kernel without AF_UNIX
 * sockets (no networking: the check kernels) skips it, and the path says
 * so with the kernel's errno.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* lat_unix's round trip: A writes one byte to B through a stream
 * socketpair and reads it back; B echoes every byte it reads */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];
static char byte = 'u';

HS_SITE(hs_at_uwrite);
HS_SITE(hs_at_uread);

static void setup(struct hs_wl *w)
{
	char why[160];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		/* a kernel built without networking (CONFIG_UNIX) */
		snprintf(why, sizeof(why), "socketpair(AF_UNIX, SOCK_STREAM): %s", strerror(errno));
		hs_wl_skip(w, "hs_at_uwrite", why);
		return;
	}
	if (fork() == 0) {
		char c;

		for (;;) {
			hs_sys_fn(sv[0], (long)&c, 1, SYS_read);
			hs_sys_fn(sv[0], (long)&c, 1, SYS_write);
		}
	}
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(sv[1], (long)&byte, 1, SYS_write);
	hs_sys_fn(sv[1], (long)&byte, 1, SYS_read);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++) {
		hs_at_uwrite_fn(sv[1], (long)&byte, 1, SYS_write);
		hs_at_uread_fn(sv[1], (long)&byte, 1, SYS_read);
	}
}

HS_USER_OP(unix, .order = 250, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"
#include "ping_pong.h"

/* booted: A at the svc of its write() (hs_at_uwrite), B asleep in read();
 * each op is a round trip, to A's read() returning */
static const struct hs_boot_point point = {
	.name = "unix", .kind = HS_POINT_SVC, .site = "hs_at_uwrite", .each_op = 1,
	.needs = "unix_create", .needs_what = "AF_UNIX sockets (CONFIG_UNIX)",
};

static const char *const landmarks[] = {
	"unix_stream_sendmsg", "unix_stream_recvmsg", "try_to_wake_up", "__schedule",
	"cpu_do_switch_mm|check_and_switch_context", "__switch_to", "finish_task_switch", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_unix", .op = "one round trip of a byte is one op",
};

const struct hs_path_def hs_path_unix_stream = {
	.name = "unix.stream",
	.summary = "one lmbench lat_unix round trip over an AF_UNIX stream socketpair (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .split = hs_ping_pong_split, .machine = 1,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_uread", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
#endif
