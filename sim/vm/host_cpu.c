/*
 * host_cpu.c - every QEMU on a host CPU of its own: what makes a boot of
 * more than one CPU the same every time.
 *
 * One CPU records (qemu.c); QEMU 7.2 refuses record mode for a machine, and
 * without it the host decides this race: the round-robin thread adds a
 * slice's instructions to the clock (icount_process_data) after leaving the
 * guest and before taking the big lock, while a CPU that ended its slice in
 * a wfi is already halted; a main loop that runs in between, finding every
 * CPU idle, warps the clock to the next deadline from a count that lacks
 * that slice (accel/tcg/tcg-accel-ops-rr.c, softmmu/icount.c). On a host
 * CPU of its own QEMU's main loop runs where the vCPU thread woke it or
 * waits, not beside it. Measured beside a kernel build, two boots at a
 * time into empty caches: the 7.2 baseline on four A53s with the workload
 * pinned to CPU 3 gave 3 different snapshots in 8 boots free to run on
 * either host CPU, 1 in 28 pinned to one; Debian's 7.2 on four A55s 1 in
 * 14 on a CPU each, 5 in 12 with two boots sharing each CPU. (Running the
 * vCPU thread SCHED_FIFO on top made the baseline vary again: 3 in 8.)
 *
 * The CPU is one no other hotsim's boot holds - a lock file a CPU in /tmp,
 * recording or not - and a boot that finds none free waits for one.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "vm/host_cpu.h"

#define WAIT_MS (900 * 1000)		/* for a host CPU no other boot holds */

static int lock_cpu(int cpu)
{
	const char *tmp = getenv("TMPDIR");
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/hotsim-host-cpu-%d.lock", tmp && *tmp ? tmp : "/tmp", cpu);
	if ((fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One try round the CPUs this process may use, from the one it is on */
static int try_each(struct hs_host_cpu *h, const cpu_set_t *allowed, int here)
{
	for (int k = 0; k < CPU_SETSIZE; k++) {
		int cpu = ((here < 0 ? 0 : here) + k) % CPU_SETSIZE;

		if (CPU_ISSET(cpu, allowed) && (h->lock = lock_cpu(cpu)) >= 0) {
			h->cpu = cpu;
			return 0;
		}
	}
	return -1;
}

void hs_host_cpu_take(struct hs_host_cpu *h)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	cpu_set_t allowed;
	int here = sched_getcpu();

	h->cpu = h->lock = -1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	/* every CPU busy with a boot: wait for one, as long as a boot may
	 * take, then share the one this process is on */
	for (unsigned waited = 0; try_each(h, &allowed, here) && waited < WAIT_MS; waited += 50) {
		if (!waited)
			fprintf(stderr, "hotsim: every host CPU has a boot of its own; this boot waits for one\n");
		nanosleep(&ts, NULL);
	}
	if (h->lock < 0 && here >= 0 && CPU_ISSET(here, &allowed))
		h->cpu = here;
}

void hs_host_cpu_pin(const struct hs_host_cpu *h)
{
	cpu_set_t one;

	if (h->cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(h->cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

void hs_host_cpu_release(struct hs_host_cpu *h)
{
	if (h->lock >= 0)
		close(h->lock);
	h->lock = -1;
	h->cpu = -1;
}
