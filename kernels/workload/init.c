/*
 * init.c - the workload hotsim boots a kernel with (booted state, README):
 * /init of a tiny initramfs, a static aarch64 program.
 *
 * First it waits until it runs alone: a distro kernel's boot leaves async
 * work running (crypto self-tests in kthreads), which would otherwise be
 * what the scheduler switches to. Then two processes ping-pong one byte
 * over two pipes - the loop of `perf bench sched pipe` - for WARMUP
 * round trips, so caches of the kernel's
 * own state (slabs, the scheduler's averages, the pipe buffers) are what a
 * running system has. Then process A passes once through each of the
 * snapshot points, every one an `svc` with a global label hotsim puts a
 * breakpoint on (sites below; B never executes them):
 *
 *   hs_at_getpid    getpid()                      -> syscall.getpid
 *   hs_at_invalid   syscall 4095 (out of range)   -> syscall.invalid
 *   hs_at_write     write(a, 1 byte), B asleep in read(a)
 *   hs_at_read      read(b, 1 byte)               -> sched-pipe, cswitch
 *
 * followed by two phases in which the periodic tick is left to arrive on
 * its own: A spinning in user space (irq-el0: hotsim stops at the EL0 IRQ
 * vector) and A inside long read()s of /dev/zero (irq-el1: the EL1 IRQ
 * vector). Every site reads the virtual counter into x9 just before its
 * svc, so the snapshot knows the guest time to the tick.
 */
#include <fcntl.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 2000		/* round trips before the points */
#define SPIN_TICKS 1250000	/* 20 ms of the 62.5 MHz counter: > 2 ticks at HZ=100 */
#define ZERO_CHUNK (256 << 10)

#define NR_READ 63
#define NR_WRITE 64
#define NR_GETPID 172
#define NR_INVALID 4095

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
#define SITE_DECL(name) long name##_fn(long a, long b, long c, long nr)

SITE(hs_sys);		/* every other syscall */
SITE(hs_at_getpid);
SITE(hs_at_invalid);
SITE(hs_at_write);
SITE(hs_at_read);
SITE_DECL(hs_sys);
SITE_DECL(hs_at_getpid);
SITE_DECL(hs_at_invalid);
SITE_DECL(hs_at_write);
SITE_DECL(hs_at_read);

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

/* Runnable tasks, from /proc/loadavg ("0.00 0.00 0.00 1/57 123"); 0 if
 * it cannot be read. */
static int running(void)
{
	char buf[128];
	int fd = open("/proc/loadavg", O_RDONLY), n;
	const char *p = buf;

	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (int field = 0; field < 3 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : 0;
}

/* Until this process has been the only runnable task for 200 ms (20
 * checks 10 ms apart), at most 60 s of guest time. */
static void wait_alone(void)
{
	struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
	int quiet = 0;

	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	for (int i = 0; i < 6000 && quiet < 20; i++) {
		nanosleep(&ten_ms, NULL);
		quiet = running() <= 1 ? quiet + 1 : 0;
	}
}

int main(void)
{
	int a[2], b[2], z;
	char c = 'x';
	volatile uint64_t spins = 0;

	say("HOTSIM workload start\n");
	wait_alone();
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
	for (int i = 0; i < WARMUP; i++) {
		hs_sys_fn(a[1], (long)&c, 1, NR_WRITE);
		hs_sys_fn(b[0], (long)&c, 1, NR_READ);
	}
	hs_at_getpid_fn(0, 0, 0, NR_GETPID);
	hs_at_invalid_fn(0, 0, 0, NR_INVALID);
	hs_at_write_fn(a[1], (long)&c, 1, NR_WRITE);
	hs_at_read_fn(b[0], (long)&c, 1, NR_READ);
	/* irq-el0: the tick arrives while A spins in user space */
	for (uint64_t t0 = counter(); counter() - t0 < SPIN_TICKS;)
		spins++;
	/* irq-el1: ... and while the kernel clears user memory for A */
	for (uint64_t t0 = counter(); counter() - t0 < SPIN_TICKS;)
		hs_sys_fn(z, (long)zero_buf, sizeof(zero_buf), NR_READ);
	say("HOTSIM workload done\n");
	reboot(RB_POWER_OFF);
	return 0;
}
