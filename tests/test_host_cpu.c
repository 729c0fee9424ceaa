/*
 * test_host_cpu.c - a boot's host CPU (sim/vm/host_cpu.c): two boots at
 * once hold two different CPUs, a CPU given back is taken again, and a
 * QEMU started on one runs there alone. The locks live in a directory of
 * the test's own (TMPDIR), so boots of other suites do not hold them.
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/host_cpu.h"

static char dir[] = "/tmp/hotsim-host-cpu-XXXXXX";

static void private_locks(void)
{
	cr_assert(mkdtemp(dir));
	cr_assert_eq(setenv("TMPDIR", dir, 1), 0);
}

static void drop_locks(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

static int allowed_cpus(void)
{
	cpu_set_t s;

	cr_assert_eq(sched_getaffinity(0, sizeof(s), &s), 0);
	return CPU_COUNT(&s);
}

Test(host_cpu, two_boots_hold_two_cpus, .init = private_locks, .fini = drop_locks)
{
	struct hs_host_cpu a, b, c;
	int was;

	if (allowed_cpus() < 2)
		cr_skip_test("this host has one CPU");
	hs_host_cpu_take(&a);
	hs_host_cpu_take(&b);
	cr_assert(a.lock >= 0 && b.lock >= 0, "each boot holds its CPU's lock");
	cr_assert_neq(a.cpu, b.cpu, "two boots on host CPU %d", a.cpu);
	was = a.cpu;
	hs_host_cpu_release(&a);
	cr_assert(a.cpu == -1 && a.lock == -1);
	hs_host_cpu_take(&c);
	cr_assert(c.lock >= 0 && c.cpu != b.cpu, "CPU %d is held by the other boot", c.cpu);
	if (allowed_cpus() == 2)
		cr_assert_eq(c.cpu, was, "the CPU given back is the only free one");
	hs_host_cpu_release(&b);
	hs_host_cpu_release(&c);
}

/* What QEMU's child does before exec: it and every thread it makes run on
 * the boot's CPU only. */
Test(host_cpu, a_pinned_child_runs_there_alone, .init = private_locks, .fini = drop_locks)
{
	struct hs_host_cpu h;
	pid_t pid;
	int st;

	hs_host_cpu_take(&h);
	cr_assert(h.cpu >= 0 && h.lock >= 0);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		cpu_set_t s;
		int alone;

		hs_host_cpu_pin(&h);
		alone = !sched_getaffinity(0, sizeof(s), &s) && CPU_COUNT(&s) == 1 && CPU_ISSET(h.cpu, &s);
		_exit(alone ? 0 : 1);
	}
	cr_assert(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "the child does not run on host CPU %d alone", h.cpu);
	hs_host_cpu_release(&h);
}
