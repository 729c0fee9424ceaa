/*
 * script.c - the helper scripts hotsim runs (hotsim-pair, hotsim-series):
 * found beside this binary (installed) or in the checkout's scripts/ (for
 * ./hotsim and build/hotsim), and run with their stdout read back.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "hotsim/err.h"

int cli_script(const char *name, const char *env, char *out, size_t len)
{
	static const char *const rel[] = { "/", "/scripts/", "/../scripts/" };
	char dir[PATH_MAX];
	ssize_t n;

	if (getenv(env)) {
		snprintf(out, len, "%s", getenv(env));
		return access(out, X_OK);
	}
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	dir[n > 0 ? n : 0] = 0;
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = 0;
	for (size_t i = 0; i < HS_ARRAY_SIZE(rel); i++) {
		snprintf(out, len, "%s%s%s", dir, rel[i], name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* The child: stdout into the pipe, stderr left as it is. */
static void child(char *const argv[], int fd[2])
{
	close(fd[0]);
	if (dup2(fd[1], STDOUT_FILENO) < 0)
		_exit(127);
	close(fd[1]);
	execv(argv[0], argv);
	fprintf(stderr, "hotsim: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int cli_run(char *const argv[], char *buf, size_t len)
{
	int fd[2], st;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	fflush(NULL);
	if (pipe(fd))
		return hs_fail("cannot run %s: %s", argv[0], strerror(errno));
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return hs_fail("cannot run %s: %s", argv[0], strerror(errno));
	}
	if (!pid)
		child(argv, fd);
	close(fd[1]);
	while ((r = read(fd[0], buf + got, len - 1 - got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (got += (size_t)r) == len - 1)
			break;
	}
	buf[got] = 0;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return hs_fail("%s: %s", argv[0], strerror(errno));
	if (!WIFEXITED(st))
		return hs_fail("%s: ended by signal %d", argv[0], WTERMSIG(st));
	return WEXITSTATUS(st);
}
