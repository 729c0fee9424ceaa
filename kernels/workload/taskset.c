/*
 * taskset.c - /taskset, the first process of a pinned boot: what
 * `taskset -c LIST /init` does. The kernel starts it instead of /init
 * (rdinit=/taskset) and hands it the kernel command line's hotsim_cpus=MASK
 * (hex) in its environment, as it hands init every parameter it does not
 * know; it sets its own affinity to those CPUs and executes /init, which
 * keeps it, as does every process /init forks and executes - hotsim's own
 * operations, a user's /user, a Debian program. Linked away from /init's
 * and /user's addresses: the boot's breakpoints there must not hit here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		return;
}

int main(int argc, char **argv, char **envp)
{
	const char *m = getenv("hotsim_cpus");
	unsigned long mask = m ? strtoul(m, NULL, 16) : 0;
	char *init_argv[] = { "/init", NULL };
	char msg[160];
	cpu_set_t set;

	(void)argc;
	(void)argv;
	CPU_ZERO(&set);
	for (unsigned c = 0; c < 64; c++)
		if (mask >> c & 1)
			CPU_SET(c, &set);
	if (!mask || sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(msg, sizeof(msg), "HOTSIM taskset: sched_setaffinity(0x%lx): %s\n", mask,
			 mask ? strerror(errno) : "no hotsim_cpus= on the command line");
		say(msg);
		return 1;
	}
	execve("/init", init_argv, envp);
	snprintf(msg, sizeof(msg), "HOTSIM taskset: cannot execute /init: %s\n", strerror(errno));
	say(msg);
	return 1;
}
