/*
 * cgroup.c - /cgroup, the first process of a boot whose workload runs in a
 * cgroup (--cgroup), as a login shell under systemd does. The kernel starts
 * it instead of /init (rdinit=/cgroup) and hands it the command line's
 * hotsim_cgroup=PATH and hotsim_controllers=LIST (commas) in its
 * environment. It mounts the cgroup2 hierarchy, enables the controllers in
 * every cgroup from the root down to PATH's parent, as systemd does for the
 * units below them, creates PATH, moves itself there, and executes /taskset
 * when the boot has one (pinned too), else /init: every process they start
 * stays in PATH, and the scheduler, the memory and the task accounting of
 * each of them then walk PATH's levels. A kernel without cgroup2 or one of
 * the controllers ends here, saying which, and the boot with the kernel's
 * own panic. Linked away from /init's, /user's and /taskset's addresses:
 * the boot's breakpoints there must not hit here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROOT "/sys/fs/cgroup"

/* The reason on the console, and init's exit status: the kernel panics
 * with it. A console that cannot be written leaves only the panic. */
static int fail(const char *what, const char *why)
{
	char msg[400];
	ssize_t n;

	snprintf(msg, sizeof(msg), "HOTSIM cgroup: %s: %s\n", what, why);
	n = write(1, msg, strlen(msg));
	(void)n;
	return 1;
}

/* s into file; 0 or the errno */
static int put(const char *file, const char *s)
{
	int fd = open(file, O_WRONLY), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		e = errno;
	close(fd);
	return e;
}

/* Every controller of list (commas) in the root's cgroup.controllers, and
 * "+a +b ..." into ctl: 0; else the first missing one's name into missing
 * (-1), or -2 when ctl cannot hold them all. */
static int controllers(const char *list, char *ctl, size_t len, char *missing, size_t mlen)
{
	char have[256] = " ", one[32];
	int fd = open(ROOT "/cgroup.controllers", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, have + 1, sizeof(have) - 3);
	size_t at = 0;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	have[n + 1] = 0;
	for (char *p = have; *p; p++)
		if (*p == '\n')
			*p = ' ';
	strcat(have, " ");
	ctl[0] = 0;
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");
		char key[40];

		snprintf(one, sizeof(one), "%.*s", (int)(k < 31 ? k : 31), p);
		snprintf(key, sizeof(key), " %s ", one);
		if (!strstr(have, key)) {
			snprintf(missing, mlen, "%s", one);
			return -1;
		}
		int w = snprintf(ctl + at, len - at, "%s+%s", at ? " " : "", one);

		if (w < 0 || (size_t)w >= len - at)
			return -2;
		at += (size_t)w;
		p += k + (p[k] == ',');
	}
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	const char *path = getenv("hotsim_cgroup"), *list = getenv("hotsim_controllers");
	char dir[300] = ROOT, file[340], ctl[200], missing[40], why[200];
	const char *next = access("/taskset", X_OK) == 0 ? "/taskset" : "/init";
	char *next_argv[] = { (char *)next, NULL };
	int e;

	(void)argc;
	(void)argv;
	if (!path || !*path)
		return fail("no hotsim_cgroup= on the command line", "nothing to do");
	mkdir("/sys", 0555);
	mkdir("/sys/fs", 0555);
	mkdir(ROOT, 0555);
	if (mount("cgroup2", ROOT, "cgroup2", 0, NULL))
		return fail("mount cgroup2 at " ROOT, errno == ENODEV ? "this kernel has no cgroup2 (CONFIG_CGROUPS)"
								       : strerror(errno));
	if (list && *list && (e = controllers(list, ctl, sizeof(ctl), missing, sizeof(missing)))) {
		if (e == -2)
			return fail("hotsim_controllers", "more controllers than fit in one cgroup.subtree_control write");
		snprintf(why, sizeof(why), "this kernel has no %s controller (its config lacks it)", missing);
		return fail(ROOT "/cgroup.controllers", why);
	}
	/* each level enables the controllers for the next, which it creates */
	for (const char *p = path; *p;) {
		size_t k = strcspn(p, "/");

		snprintf(file, sizeof(file), "%s/cgroup.subtree_control", dir);
		if (list && *list && (e = put(file, ctl)))
			return fail(file, strerror(e));
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%.*s", (int)k, p);
		if (mkdir(dir, 0755) && errno != EEXIST)
			return fail(dir, strerror(errno));
		p += k + (p[k] == '/');
	}
	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	if ((e = put(file, "0")))
		return fail(file, strerror(e));
	execve(next, next_argv, envp);
	return fail(next, strerror(errno));
}
