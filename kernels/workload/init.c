/*
 * init.c - the workload hotsim boots a kernel with (docs/booted-state.md):
 * /init of a tiny initramfs, a static aarch64 program built from this
 * file and the user side of every booted path (kernels/paths/<path>.c,
 * user_op.h). It knows no path: it runs the operations the paths
 * registered, in their order.
 *
 * First it waits until it runs alone: a distro kernel's boot leaves async
 * work running (crypto self-tests in kthreads), which would otherwise be
 * what the scheduler switches to. Then it takes the kernel to its steady
 * state before anything is measured (docs/sampling-and-noise.md): it
 * sleeps until the kernel has been up STEADY_UPTIME_S seconds - 6.x
 * reseeds its crng every max(1 s, uptime / 2) for the first two minutes,
 * then once a minute; under -icount shift=0,sleep=off an idle guest's
 * clock jumps to its next timer, so the sleep costs the host almost
 * nothing - and each operation is warmed many times before its run (the
 * first random draw after the sleep reseeds; slab caches, the pipe's
 * pages, PELT averages and the scheduler's tree settle). Each run loops
 * its operation at a labelled svc (a "site", a global symbol) where hotsim
 * stops the boot and takes the point's snapshot; the replay runs on from
 * there through as many consecutive operations as it samples.
 *
 * A boot stopped at a point finds its clock at the next timer deadline
 * when it resumes (QEMU's icount warp), so the tick comes at once; the
 * replay does the same. Every site reads the virtual counter into x9 just
 * before its svc.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "user_op.h"

#define STEADY_UPTIME_S 130	/* past the crng's early-boot reseeding (2 minutes) */
#define MAX_OPS 64

HS_SITE(hs_sys);	/* every system call that is not a site's */
HS_SITE4(hs_sys4);

/* The operations the paths registered (user_op.h), bounded by the linker. */
extern const struct hs_user_op __start_hs_user_ops[], __stop_hs_user_ops[];

void hs_wl_say(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	hs_sys_fn(1, (long)s, n, SYS_write);
}

int hs_wl_file(const char *path, long bytes)
{
	char dir[256], block[4096];
	int fd;

	if (access(path, F_OK) == 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		mkdir(dir, 0755);
		*p = '/';
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
		hs_wl_say("HOTSIM workload: cannot create a benchmark file\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (char)('a' + i % 26);
	for (long left = bytes; left > 0; left -= (long)sizeof(block))
		if (write(fd, block, left < (long)sizeof(block) ? (size_t)left : sizeof(block)) < 0)
			break;
	close(fd);
	return 0;
}

/* A small number at the start of a /proc file ("0.00 0.00 0.00 1/57 123",
 * "131.04 128.00"): field k (0-based, blank-separated); -1 if unreadable. */
static long proc_field(const char *path, int k)
{
	char buf[128];
	int fd = open(path, O_RDONLY), n;
	const char *p = buf;

	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (int field = 0; field < k && p; field++)
		p = strchr(p + 1, ' ');
	return p ? atol(p + (k ? 1 : 0)) : -1;
}

/* Until this process has been the only runnable task for 200 ms (20
 * checks 10 ms apart), at most 60 s of guest time. */
static void wait_alone(void)
{
	struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
	int quiet = 0;

	for (int i = 0; i < 6000 && quiet < 20; i++) {
		nanosleep(&ten_ms, NULL);
		/* "1/57": runnable / all, the fourth field */
		quiet = proc_field("/proc/loadavg", 3) <= 1 ? quiet + 1 : 0;
	}
}

/* Sleep until the kernel has been up STEADY_UPTIME_S seconds. */
static void steady_uptime(void)
{
	long up = proc_field("/proc/uptime", 0);

	if (up >= 0 && up < STEADY_UPTIME_S) {
		struct timespec t = { STEADY_UPTIME_S - up, 0 };

		nanosleep(&t, NULL);
	}
}

/*
 * A user's own workload (hotsim --workload: /user in the initramfs): run
 * it once the kernel is at steady state, alone, and say on the console
 * how it ended (hotsim names that when a marker is never reached).
 */
static int run_user(void)
{
	int status = 0;
	pid_t pid;
	char msg[96];

	/* said before the sleep: the console is quiet again when the program
	 * runs (the replay has no UART: a console write while it samples is a
	 * fault it names) */
	hs_wl_say("HOTSIM user workload start\n");
	steady_uptime();
	if ((pid = fork()) == 0) {
		execl("/user", "/user", (char *)0);
		hs_wl_say("HOTSIM user workload: cannot execute /user\n");
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "HOTSIM user workload killed by signal %d\n", WTERMSIG(status));
	else
		snprintf(msg, sizeof(msg), "HOTSIM user workload exited with status %d\n", WEXITSTATUS(status));
	hs_wl_say(msg);
	reboot(RB_POWER_OFF);
	return 0;
}

/* Where the boot learns of an operation this kernel cannot run (x0 its
 * site, x1 why: user_op.h) */
HS_AT_INSN(hs_skip_fn, HS_LABEL(hs_at_skip), "nop");
void hs_skip_fn(const char *site, const char *why);

void hs_wl_skip(struct hs_wl *w, const char *site, const char *why)
{
	char msg[300];

	snprintf(msg, sizeof(msg), "HOTSIM workload skips %s: %s\n", site, why);
	hs_wl_say(msg);
	hs_skip_fn(site, why);
	w->skip = 1;
}

static int by_order(const void *a, const void *b)
{
	const struct hs_user_op *x = *(const struct hs_user_op *const *)a;
	const struct hs_user_op *y = *(const struct hs_user_op *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* Every registered operation, in order: setup, warm-up, the run at its
 * site, teardown. */
static void run_ops(struct hs_wl *w)
{
	const struct hs_user_op *v[MAX_OPS];
	size_t n = 0;

	for (const struct hs_user_op *op = __start_hs_user_ops; op < __stop_hs_user_ops && n < MAX_OPS; op++)
		v[n++] = op;
	qsort(v, n, sizeof(v[0]), by_order);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->setup)
			v[i]->setup(w);
		if (w->skip) {
			w->skip = 0;
			continue;
		}
		for (unsigned k = 0; v[i]->warm && k < (v[i]->warmup ? v[i]->warmup : HS_WL_WARMUP); k++)
			v[i]->warm(w);
		v[i]->run(w, HS_WL_OPS);
		if (v[i]->teardown)
			v[i]->teardown(w);
	}
}

/*
 * The user address space laid out alike in every boot: without this, each
 * image's boot seeds its own random mmap base, stack and brk (the kernel's
 * crng is timed by the image's own instruction counts), and an operation
 * that maps memory lands elsewhere in each, where it allocates and zeroes
 * another number of page-table pages (lat_mmap on Debian's 6.1 pair: a
 * quarter of a page an op against two, +14% that was no patch's). Two
 * images must differ by their code only, so /init runs itself again
 * without randomization (ADDR_NO_RANDOMIZE, kept across fork and exec,
 * for every operation and a user's workload).
 */
static void fixed_layout(char **argv)
{
	int p = personality(0xffffffff);

	if (p == -1 || (p & ADDR_NO_RANDOMIZE) || personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1)
		return;
	execv("/init", argv);
	hs_wl_say("HOTSIM workload: cannot run /init again without address randomization\n");
}

/* Run as a program an operation exec()s (user_op.h, argv0): its main. */
static int exec_entry(const char *argv0)
{
	for (const struct hs_user_op *op = __start_hs_user_ops; argv0 && op < __stop_hs_user_ops; op++)
		if (op->argv0 && !strcmp(op->argv0, argv0))
			return op->main();
	return -1;
}

int main(int argc, char **argv)
{
	struct hs_wl w;
	int rc;

	if (argc > 0 && (rc = exec_entry(argv[0])) >= 0)
		return rc;
	fixed_layout(argv);
	hs_wl_say("HOTSIM workload start\n");
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	wait_alone();
	if (access("/user", X_OK) == 0)
		return run_user();
	mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3));
	w.zero = open("/dev/zero", O_RDONLY);
	w.null = open("/dev/null", O_WRONLY);
	w.self = hs_sys_fn(0, 0, 0, SYS_getpid);
	w.skip = 0;
	if (w.zero < 0 || w.null < 0) {
		hs_wl_say("HOTSIM workload: no /dev/zero or /dev/null\n");
		return 1;
	}
	steady_uptime();
	hs_wl_say("HOTSIM workload steady\n");
	run_ops(&w);
	hs_wl_say("HOTSIM workload done\n");
	reboot(RB_POWER_OFF);
	return 0;
}
