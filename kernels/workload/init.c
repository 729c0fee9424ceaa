/*
 * init.c - the workload hotsim boots a kernel with (docs/booted-state.md):
 * /init of a tiny initramfs, a static aarch64 program.
 *
 * First it waits until it runs alone: a distro kernel's boot leaves async
 * work running (crypto self-tests in kthreads), which would otherwise be
 * what the scheduler switches to. Then it takes the kernel to its steady
 * state before anything is measured (docs/sampling-and-noise.md):
 *   - it sleeps until the kernel has been up STEADY_UPTIME_S seconds: 6.x
 *     reseeds its crng every max(1 s, uptime / 2) for the first two
 *     minutes, then once a minute; under -icount shift=0,sleep=off an
 *     idle guest's clock jumps to its next timer, so the sleep costs the
 *     host almost nothing;
 *   - it runs every operation it will be measured on many times (the
 *     first random draw after the sleep reseeds; slab caches, the pipe's
 *     pages, PELT averages and the scheduler's tree settle).
 * Then the phases, each a loop of OPS operations that starts at a
 * labelled svc (a "site", global symbol) where hotsim stops the boot and
 * takes the point's snapshot; the replay runs on from there through as
 * many consecutive operations as it samples:
 *
 *   hs_at_getpid   getpid()                      -> syscall.getpid
 *   hs_at_invalid  syscall 4095 (out of range)   -> syscall.invalid
 *   hs_at_write    write(a, 1 byte), B asleep in read(a); A's read(b)
 *                  at hs_at_read ends the round trip -> sched-pipe, cswitch
 *   hs_at_spin     getpid(), then A spins in user space through the label
 *                  hs_tick_el0 -> irq-el0
 *   hs_at_zero     read() of /dev/zero, 256 KiB at a time (the kernel
 *                  clears user memory) -> irq-el1
 *
 * and after them, so that the states of the points above do not depend
 * on them, the micro-benchmarks developers run (lmbench, perf bench,
 * Fastpath), each warmed WARMUP times and then looped at its site:
 *
 *   hs_at_getppid  getppid()                     -> syscall.getppid
 *   hs_at_rdzero   read(/dev/zero, 1 byte)       -> syscall.read
 *   hs_at_wrnull   write(/dev/null, 1 byte)      -> syscall.write
 *   hs_at_sigact   rt_sigaction(SIGUSR1)         -> signal.install
 *   hs_at_kill     kill(self, SIGUSR1): the handler runs, then
 *                  rt_sigreturn, then the svc returns -> signal.catch
 *   hs_at_futex    FUTEX_WAKE_PRIVATE, nobody waiting -> futex.wake
 *   hs_at_yield    sched_yield() with process D yielding back: one
 *                  switch each way               -> ctx.yield
 *   hs_at_fork     clone(SIGCHLD); the child exits at once (exit_group,
 *                  nothing touched), the parent's wait4(pid) at hs_at_wait
 *                  reaps it                      -> fork
 *   hs_at_mmap     mmap() of one anonymous page, a write to it (the page
 *                  fault), munmap() at hs_at_munmap -> mmap
 *   hs_at_touch    the first write to the next page of a fresh anonymous
 *                  region (no huge pages): a page fault -> fault.page
 *
 * A boot stopped at a point finds its clock at the next timer deadline
 * when it resumes (QEMU's icount warp), so the tick comes at once; the
 * replay does the same. The IRQ phases use that on purpose: hotsim stops
 * (and its replay warps) at hs_tick_el0, or at a kernel function of the
 * read, each time it is reached, so each tick is a sample without
 * replaying the milliseconds of spinning between two natural ticks.
 * Every site reads the virtual counter into x9 just before its svc.
 * B never executes a site.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STEADY_UPTIME_S 130	/* past the crng's early-boot reseeding (2 minutes) */
#define WARMUP 2000		/* of each operation, after the sleep */
#define OPS 1100		/* per phase: what the replay can sample (with its warm-up) */
#define SPIN_TICKS 1250000	/* 20 ms of the 62.5 MHz counter: > 2 ticks at HZ=100 */
#define ZERO_CHUNK (256 << 10)

#define NR_READ 63
#define NR_WRITE 64
#define NR_GETPID 172
#define NR_GETPPID 173
#define NR_KILL 129
#define NR_RT_SIGACTION 134
#define NR_FUTEX 98
#define NR_SCHED_YIELD 124
#define NR_INVALID 4095
#define NR_MUNMAP 215
#define NR_CLONE 220
#define NR_MMAP 222
#define NR_WAIT4 260
#define SIGUSR1_NR 10
#define FUTEX_WAKE_PRIVATE_OP 129	/* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */

/* One svc at a global label, the counter in x9 one instruction before. */
#define SITE(name)						\
	__asm__(".text\n.balign 16\n.globl " #name "\n"	\
		".type " #name "_fn, %function\n"		\
		#name "_fn:\n"					\
		"	mov x8, x3\n"				\
		"	mrs x9, cntvct_el0\n"			\
		#name ":\n"					\
		"	svc #0\n"				\
		"	ret\n"					\
		".size " #name "_fn, . - " #name "_fn\n")

/* long name_fn(a, b, c, nr): x0-x2 arguments, x3 the syscall number */
#define SITE_DECL(name) long name##_fn(long a, long b, long c, nr_t nr)
typedef long nr_t;

/* The same with a fourth argument: x0-x3, x4 the number. */
#define SITE4(name)						\
	__asm__(".text\n.balign 16\n.globl " #name "\n"	\
		".type " #name "_fn, %function\n"		\
		#name "_fn:\n"					\
		"	mov x8, x4\n"				\
		"	mrs x9, cntvct_el0\n"			\
		#name ":\n"					\
		"	svc #0\n"				\
		"	ret\n"					\
		".size " #name "_fn, . - " #name "_fn\n")
#define SITE4_DECL(name) long name##_fn(long a, long b, long c, long d, nr_t nr)

SITE(hs_sys);		/* every other syscall */
SITE(hs_at_getpid);
SITE(hs_at_invalid);
SITE(hs_at_write);
SITE(hs_at_read);
SITE(hs_at_spin);
SITE(hs_at_zero);
SITE(hs_at_getppid);
SITE(hs_at_rdzero);
SITE(hs_at_wrnull);
SITE(hs_at_kill);
SITE(hs_at_yield);
SITE4(hs_sys4);
SITE4(hs_at_sigact);
SITE4(hs_at_futex);
SITE_DECL(hs_sys);
SITE_DECL(hs_at_getpid);
SITE_DECL(hs_at_invalid);
SITE_DECL(hs_at_write);
SITE_DECL(hs_at_read);
SITE_DECL(hs_at_spin);
SITE_DECL(hs_at_zero);
SITE_DECL(hs_at_getppid);
SITE_DECL(hs_at_rdzero);
SITE_DECL(hs_at_wrnull);
SITE_DECL(hs_at_kill);
SITE_DECL(hs_at_yield);
SITE4_DECL(hs_sys4);
SITE4_DECL(hs_at_sigact);
SITE4_DECL(hs_at_futex);

/* A labelled instruction of the EL0 spin, where the IRQ samples are taken. */
__asm__(".text\n.balign 16\n.globl hs_tick_el0\n"
	".type hs_tick_el0_fn, %function\n"
	"hs_tick_el0_fn:\n"
	"hs_tick_el0:\n"
	"	nop\n"
	"	ret\n"
	".size hs_tick_el0_fn, . - hs_tick_el0_fn\n");
void hs_tick_el0_fn(void);

/*
 * The memory operations, in asm so that nothing but the operation touches
 * memory (a C loop's stack writes after fork are copy-on-write faults of
 * their own). Each comes twice: the warm-up's copy without labels (a
 * site is where the boot stops), and the labelled one.
 *
 * fork: clone(SIGCHLD, no stack, no tids) - the raw syscall, not glibc's
 * fork(), whose atfork handlers and tid bookkeeping are glibc's cost -
 * the child exit_group(0)s at once, the parent wait4(pid, NULL, 0, NULL)s
 * for that child, as lmbench's waitpid(pid) does (wait4(-1) would reap the
 * last op's child while this one has not run yet: ops two at a time).
 */
#define FORK_FN(fn, at_fork, at_wait)				\
	__asm__(".text\n.balign 16\n"				\
		".type " #fn ", %function\n"			\
		#fn ":\n"					\
		"	mov x0, #17\n"	/* SIGCHLD */		\
		"	mov x1, xzr\n	mov x2, xzr\n"		\
		"	mov x3, xzr\n	mov x4, xzr\n"		\
		"	mov x8, #220\n"	/* clone */		\
		"	mrs x9, cntvct_el0\n"			\
		at_fork "	svc #0\n"			\
		"	cbnz x0, 1f\n"				\
		"	mov x8, #94\n"	/* exit_group(0) */	\
		"	svc #0\n"				\
		"1:	mov x1, xzr\n	mov x2, xzr\n"		\
		"	mov x3, xzr\n"	/* x0: the child's pid */	\
		"	mov x8, #260\n"	/* wait4 */		\
		at_wait "	svc #0\n"			\
		"	ret\n"					\
		".size " #fn ", . - " #fn "\n")
FORK_FN(hs_fork_warm_fn, "", "");
FORK_FN(hs_fork_fn, ".globl hs_at_fork\nhs_at_fork:\n", ".globl hs_at_wait\nhs_at_wait:\n");

/* mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS),
 * one write (the fault that gives it its page), munmap. */
#define MMAP_FN(fn, at_mmap, at_munmap)				\
	__asm__(".text\n.balign 16\n"				\
		".type " #fn ", %function\n"			\
		#fn ":\n"					\
		"	mov x0, xzr\n	mov x1, #4096\n"	\
		"	mov x2, #3\n	mov x3, #0x22\n"	\
		"	mov x4, #-1\n	mov x5, xzr\n"		\
		"	mov x8, #222\n"	/* mmap */		\
		"	mrs x9, cntvct_el0\n"			\
		at_mmap "	svc #0\n"			\
		"	str x9, [x0]\n"			\
		"	mov x1, #4096\n"			\
		"	mov x8, #215\n"	/* munmap */		\
		at_munmap "	svc #0\n"			\
		"	ret\n"					\
		".size " #fn ", . - " #fn "\n")
MMAP_FN(hs_mmap_warm_fn, "", "");
MMAP_FN(hs_mmap_fn, ".globl hs_at_mmap\nhs_at_mmap:\n", ".globl hs_at_munmap\nhs_at_munmap:\n");

/* The first write to the page at x0. */
#define TOUCH_FN(fn, at_touch)					\
	__asm__(".text\n.balign 16\n"				\
		".type " #fn ", %function\n"			\
		#fn ":\n"					\
		"	mrs x9, cntvct_el0\n"			\
		at_touch "	str x9, [x0]\n"			\
		"	ret\n"					\
		".size " #fn ", . - " #fn "\n")
TOUCH_FN(hs_touch_warm_fn, "");
TOUCH_FN(hs_touch_fn, ".globl hs_at_touch\nhs_at_touch:\n");
void hs_fork_warm_fn(void);
void hs_fork_fn(void);
void hs_mmap_warm_fn(void);
void hs_mmap_fn(void);
void hs_touch_warm_fn(char *page);
void hs_touch_fn(char *page);

static uint64_t counter(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static void say(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	hs_sys_fn(1, (long)s, n, NR_WRITE);
}

static char zero_buf[ZERO_CHUNK];

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

/* The kernel's struct sigaction on arm64 (no SA_RESTORER: the kernel
 * returns through the vDSO's rt_sigreturn trampoline, as glibc does). */
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static volatile int caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

/* fork, mmap, fault.page (file header): the region's pages each fault
 * once; small pages only, so that each write is one fault. */
static void memory_ops(void)
{
	size_t pages = WARMUP + OPS + 16, page = (size_t)sysconf(_SC_PAGESIZE);	/* 4K, 16K or 64K */
	char *region;

	for (int i = 0; i < WARMUP; i++)
		hs_fork_warm_fn();
	for (int i = 0; i < OPS; i++)
		hs_fork_fn();
	for (int i = 0; i < WARMUP; i++)
		hs_mmap_warm_fn();
	for (int i = 0; i < OPS; i++)
		hs_mmap_fn();
	region = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		      -1, 0);
	if (region == MAP_FAILED) {
		say("HOTSIM workload: no anonymous memory\n");
		return;
	}
	madvise(region, pages * page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < WARMUP; i++)
		hs_touch_warm_fn(region + i * page);
	for (size_t i = WARMUP; i < WARMUP + OPS; i++)
		hs_touch_fn(region + i * page);
	munmap(region, pages * page);
}

/* The benchmarks' operations (file header), after the phases above. */
static void benchmarks(int z)
{
	static struct ksigaction act = { on_usr1, 0, 0, 0 };
	static int futex_word;
	long self = hs_sys_fn(0, 0, 0, NR_GETPID);
	int nul;
	char c = 'x';
	pid_t d;

	mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3));
	nul = open("/dev/null", O_WRONLY);
	hs_sys4_fn(SIGUSR1_NR, (long)&act, 0, 8, NR_RT_SIGACTION);
	for (int i = 0; i < WARMUP; i++) {
		hs_sys_fn(0, 0, 0, NR_GETPPID);
		hs_sys_fn(z, (long)&c, 1, NR_READ);
		hs_sys_fn(nul, (long)&c, 1, NR_WRITE);
		hs_sys4_fn(SIGUSR1_NR, (long)&act, 0, 8, NR_RT_SIGACTION);
		hs_sys_fn(self, SIGUSR1_NR, 0, NR_KILL);
		hs_sys4_fn((long)&futex_word, FUTEX_WAKE_PRIVATE_OP, 1, 0, NR_FUTEX);
	}
	for (int i = 0; i < OPS; i++)
		hs_at_getppid_fn(0, 0, 0, NR_GETPPID);
	for (int i = 0; i < OPS; i++)
		hs_at_rdzero_fn(z, (long)&c, 1, NR_READ);
	for (int i = 0; i < OPS; i++)
		hs_at_wrnull_fn(nul, (long)&c, 1, NR_WRITE);
	for (int i = 0; i < OPS; i++)
		hs_at_sigact_fn(SIGUSR1_NR, (long)&act, 0, 8, NR_RT_SIGACTION);
	for (int i = 0; i < OPS; i++)
		hs_at_kill_fn(self, SIGUSR1_NR, 0, NR_KILL);
	for (int i = 0; i < OPS; i++)
		hs_at_futex_fn((long)&futex_word, FUTEX_WAKE_PRIVATE_OP, 1, 0, NR_FUTEX);
	/* ctx.yield: D yields back whenever it runs */
	if ((d = fork()) == 0)
		for (;;)
			hs_sys_fn(0, 0, 0, NR_SCHED_YIELD);
	for (int i = 0; i < WARMUP; i++)
		hs_sys_fn(0, 0, 0, NR_SCHED_YIELD);
	for (int i = 0; i < OPS; i++)
		hs_at_yield_fn(0, 0, 0, NR_SCHED_YIELD);
	kill(d, SIGKILL);
	if (caught < WARMUP)
		say("HOTSIM workload: SIGUSR1 was not caught\n");
	memory_ops();
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
	say("HOTSIM user workload start\n");
	steady_uptime();
	if ((pid = fork()) == 0) {
		execl("/user", "/user", (char *)0);
		say("HOTSIM user workload: cannot execute /user\n");
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "HOTSIM user workload killed by signal %d\n", WTERMSIG(status));
	else
		snprintf(msg, sizeof(msg), "HOTSIM user workload exited with status %d\n", WEXITSTATUS(status));
	say(msg);
	reboot(RB_POWER_OFF);
	return 0;
}

int main(void)
{
	int a[2], b[2], z;
	char c = 'x';
	volatile uint64_t spins = 0;

	say("HOTSIM workload start\n");
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	wait_alone();
	if (access("/user", X_OK) == 0)
		return run_user();
	z = open("/dev/zero", O_RDONLY);
	if (z < 0 || pipe(a) || pipe(b)) {
		say("HOTSIM workload: no /dev/zero or pipes\n");
		return 1;
	}
	if (fork() == 0) {
		/* B: echo every byte back, forever */
		for (;;) {
			hs_sys_fn(a[0], (long)&c, 1, NR_READ);
			hs_sys_fn(b[1], (long)&c, 1, NR_WRITE);
		}
	}
	steady_uptime();
	say("HOTSIM workload steady\n");
	for (int i = 0; i < WARMUP; i++) {
		hs_sys_fn(a[1], (long)&c, 1, NR_WRITE);
		hs_sys_fn(b[0], (long)&c, 1, NR_READ);
		hs_sys_fn(0, 0, 0, NR_GETPID);
		hs_sys_fn(0, 0, 0, NR_INVALID);
		if (i % 64 == 0)
			hs_sys_fn(z, (long)zero_buf, sizeof(zero_buf), NR_READ);
	}
	for (int i = 0; i < OPS; i++)
		hs_at_getpid_fn(0, 0, 0, NR_GETPID);
	for (int i = 0; i < OPS; i++)
		hs_at_invalid_fn(0, 0, 0, NR_INVALID);
	for (int i = 0; i < OPS; i++) {
		hs_at_write_fn(a[1], (long)&c, 1, NR_WRITE);
		hs_at_read_fn(b[0], (long)&c, 1, NR_READ);
	}
	/* irq-el0: the tick while A spins in user space */
	hs_at_spin_fn(0, 0, 0, NR_GETPID);
	for (uint64_t t0 = counter(); counter() - t0 < SPIN_TICKS;) {
		hs_tick_el0_fn();
		spins++;
	}
	/* irq-el1: ... and while the kernel clears user memory for A */
	hs_at_zero_fn(z, (long)zero_buf, sizeof(zero_buf), NR_READ);
	for (uint64_t t0 = counter(); counter() - t0 < SPIN_TICKS;)
		hs_sys_fn(z, (long)zero_buf, sizeof(zero_buf), NR_READ);
	benchmarks(z);
	say("HOTSIM workload done\n");
	reboot(RB_POWER_OFF);
	return 0;
}
