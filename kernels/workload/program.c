/*
 * program.c - /user of a boot that runs a Debian program as users run it
 * (kernels/programs/: perf from linux-perf, its libraries beside it in the
 * initramfs). /init runs it once the kernel is at steady state, as it runs
 * a user's own workload.
 *
 * /program says what to run: its first line is the shared library whose
 * code holds the path's site (libc.so.6: the svc of write()), the rest the
 * program's argv, a line each (pinned, the runner already is, and every
 * process it starts inherits that: taskset.c). This runner starts the program with stdout
 * and stderr on /dev/zero (the console stays quiet while the replay
 * samples: it has no UART), lets it run WARM_MS of guest time - the
 * program's own loop warms the kernel - and then stops at hs_at_program
 * with x0 = the address the library is mapped at in the program's process
 * (its first mapping, file offset 0) and x1 = the program's pid: the boot
 * arms the site there (sim/vm/boot.c). Then it waits for the program.
 *
 * Where the program may run on more than one CPU it is stopped (SIGSTOP
 * to its process group, every process seen stopped, then QUIET_MS) over
 * that stop and continued after it: a machine's stop that finds another
 * CPU busy ends as far as the host's timing takes that CPU
 * (docs/booted-state.md), and a stopped program leaves the others idle.
 * On one CPU nothing else runs, and a stop there would change the
 * program's own rhythm: perf's two processes on one CPU, stopped and
 * continued, went on with wakeups that find the other already awake.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WARM_MS 100
#define QUIET_MS 10
#define MAX_ARGS 16

/* Where the boot learns the library's address (x0) and the pid (x1). */
__asm__(".text\n.balign 16\n.globl hs_program_fn\n.type hs_program_fn, %function\n"
	"hs_program_fn:\n.globl hs_at_program\nhs_at_program:\n	nop\n	ret\n"
	".size hs_program_fn, . - hs_program_fn\n");
void hs_program_fn(unsigned long base, long pid);

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		return;
}

/* The address of lib's first mapping in pid, or 0. */
static unsigned long lib_base(long pid, const char *lib)
{
	char path[64], line[512];
	unsigned long base = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (!base && fgets(line, sizeof(line), f)) {
		const char *name = strrchr(line, '/');
		unsigned long start, off;

		if (name && !strncmp(name + 1, lib, strlen(lib)) && name[1 + strlen(lib)] == '\n' &&
		    sscanf(line, "%lx-%*x %*s %lx", &start, &off) == 2 && off == 0)
			base = start;
	}
	fclose(f);
	return base;
}

/* Whether every process of group pgrp is stopped (and one exists) */
static int all_stopped(pid_t pgrp)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int seen = 0, running = 0;

	if (!d)
		return 0;
	while (!running && (e = readdir(d))) {
		char path[300], line[512], *rp;
		char state;
		int grp;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		/* pid (comm) state ppid pgrp: comm may hold anything but the last ')' */
		if (fgets(line, sizeof(line), f) && (rp = strrchr(line, ')')) &&
		    sscanf(rp + 1, " %c %*d %d", &state, &grp) == 2 && grp == pgrp) {
			seen = 1;
			running = state != 'T';
		}
		fclose(f);
	}
	closedir(d);
	return seen && !running;
}

/* Stop the program's processes and wait, at most a second of guest time,
 * until each is stopped, then QUIET_MS more: the CPUs that ran them have
 * gone idle by then */
static void stop_program(pid_t pid)
{
	struct timespec ms = { 0, 1000 * 1000 }, quiet = { 0, QUIET_MS * 1000 * 1000 };

	kill(-pid, SIGSTOP);
	for (int t = 0; t < 1000 && !all_stopped(pid); t++)
		nanosleep(&ms, NULL);
	nanosleep(&quiet, NULL);
}

/* Whether this runner, and so the program, may run on more than one CPU */
static int several_cpus(void)
{
	cpu_set_t s;

	return !sched_getaffinity(0, sizeof(s), &s) && CPU_COUNT(&s) > 1;
}

int main(void)
{
	static char spec[2048];
	char *argv[MAX_ARGS + 1], *lib, msg[160];
	struct timespec ms = { 0, 1000 * 1000 };
	unsigned long base = 0;
	int fd = open("/program", O_RDONLY), n = 0, status;
	ssize_t len = fd < 0 ? -1 : read(fd, spec, sizeof(spec) - 1);
	pid_t pid;

	if (len <= 0) {
		say("HOTSIM program: no /program\n");
		return 1;
	}
	spec[len] = 0;
	lib = strtok(spec, "\n");
	for (char *a = strtok(NULL, "\n"); a && n < MAX_ARGS; a = strtok(NULL, "\n"))
		argv[n++] = a;
	argv[n] = NULL;
	if (!lib || !n) {
		say("HOTSIM program: /program names no library or program\n");
		return 1;
	}
	if ((pid = fork()) == 0) {
		char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/", NULL };
		int z = open("/dev/zero", O_WRONLY);

		setpgid(0, 0);	/* its processes, to stop them together */

		dup2(z, 1);
		dup2(z, 2);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	setpgid(pid, pid);
	for (int t = 0; t < WARM_MS; t++) {
		nanosleep(&ms, NULL);
		if (!base)
			base = lib_base(pid, lib);
	}
	if (waitpid(pid, &status, WNOHANG) == pid) {
		snprintf(msg, sizeof(msg), "HOTSIM program: %s ended within %d ms (status 0x%x)\n", argv[0],
			 WARM_MS, status);
		say(msg);
		return 1;
	}
	if (!base) {
		snprintf(msg, sizeof(msg), "HOTSIM program: no %.60s mapped in %s after %d ms\n", lib, argv[0],
			 WARM_MS);
		say(msg);
		return 1;
	}
	if (several_cpus())
		stop_program(pid);
	hs_program_fn(base, pid);
	kill(-pid, SIGCONT);
	waitpid(pid, &status, 0);
	snprintf(msg, sizeof(msg), "HOTSIM program: %s ended (status 0x%x)\n", argv[0], status);
	say(msg);
	return 0;
}
