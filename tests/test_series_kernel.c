/*
 * test_series_kernel.c - `hotsim series` on a real series (real-kernel
 * tier): kernels/linux/patches/7.2/series-planted on Debian's 7.2 tree,
 * nine commits built with the pair's recipe and cache (the pair test's
 * base; cached after the first run). What the series is, is known by
 * construction:
 *   1 comment-noop       a comment                        moves nothing
 *   2 irq-runtime-const  the project's own                no verdict
 *   3 getpid-barrier     16 dmb ish in sys_getpid()       getpid (R)
 *   4 unrelated          the project's own, layout only   moves nothing
 *   5 cswitch-inline     the project's own                no verdict
 *   6 pipe-barrier       128 dmb ish in anon_pipe_write() sched-pipe (R)
 *   7 broken             a typo                           does not build
 *   8 broken-fix         the typo fixed                   moves nothing
 *   9 getpid-more        16 more dmb ish in getpid        getpid (R) again
 * (the project's own patches move their paths within the layout band, as
 * compare says of their pairs: no verdict, so no step). The tests check
 * that the steps are exactly these, in every mode and in bisect, that
 * bisect builds within its bound, that the failed build is a column with
 * its error line, and that the output is the same twice.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdtable.h"
#include "testutil.h"

#define MAX_OUT (8 << 20)
/* the planted moves' paths, and two the series leaves alone */
#define PATHS "syscall.getpid,syscall.getppid,sched-pipe,cswitch"

/* "VERSION DIR" of the pristine 7.2 tree; the tree. */
static const char *tree(void)
{
	static char dir[512];
	char *src;

	if (dir[0])
		return dir;
	cr_assert_eq(hs_sh("c=${HOTSIM_CACHE:-$HOME/.cache/hotsim}; mkdir -p \"$c\" && "
			   "flock \"$c/.lock\" kernels/linux/source.sh 7.2 2>/dev/null", &src, 4096), 0,
		     "kernels/linux/source.sh 7.2 failed");
	cr_assert(strchr(src, ' '), "%s", src);
	src[strcspn(src, "\n")] = 0;
	snprintf(dir, sizeof(dir), "%s", strchr(src, ' ') + 1);
	free(src);
	return dir;
}

/* hotsim series on the planted series with ARGS; stdout */
static char *series(const char *args)
{
	char cmd[2048], *out;

	snprintf(cmd, sizeof(cmd), "%s series %s --patches kernels/linux/patches/7.2/series-planted --path " PATHS
		 " %s 2>/dev/null", hs_bin(), tree(), args);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "hotsim series %s failed:\n%.4000s", args, out);
	return out;
}

/* The JSON steps, one "name cpu commit against verdict" line each. */
static char *steps_of(const char *json)
{
	char cmd[256], path[] = "/tmp/hotsim-series-json.XXXXXX", *out;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert(f);
	fputs(json, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json, sys\nfor s in json.load(open(sys.argv[1]))[\"steps\"]:\n"
		 " print(s[\"name\"], s[\"cpu\"], s[\"commit\"], s[\"against\"], s[\"verdict\"])' %s", path);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "not JSON:\n%.2000s", json);
	unlink(path);
	return out;
}

/* The planted steps, by construction (row order: the base's rows). */
static const char planted[] =
	"syscall.getpid a53 3 0 regressed\nsyscall.getpid a53 9 3 regressed\n"
	"sched-pipe a53 6 0 regressed\n"
	"syscall.getpid a55 3 0 regressed\nsyscall.getpid a55 9 3 regressed\n"
	"sched-pipe a55 6 0 regressed\n"
	"syscall.getpid a73 3 0 regressed\nsyscall.getpid a73 9 3 regressed\n"
	"sched-pipe a73 6 0 regressed\n";

/* Every line of the text at most 72 columns, up to the explains (as
 * compare's --explain, wider). */
static void email_shaped(const char *text)
{
	for (const char *l = text; *l && strncmp(l, "\nstep ", 6); l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		cr_assert_leq(strcspn(l, "\n"), 72, "a line over 72 columns:\n%.*s", (int)strcspn(l, "\n"), l);
}

Test(series_kernel, every_commit_names_exactly_the_planted_moves, .timeout = 7200)
{
	char *json, *steps, *md, *txt, why[256];
	size_t len;
	int tables, rows;

	hs_kernel("7.2-base");
	json = series("--every --format json --md /tmp/hotsim-series-every.md --txt /tmp/hotsim-series-every.txt");
	/* the other formats from the same run */
	cr_assert_not_null(md = (char *)hs_test_slurp("/tmp/hotsim-series-every.md", &len));
	cr_assert_eq(md_tables(md, &tables, &rows, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(tables, 2, "the commits and the table");
	cr_assert_not_null(txt = (char *)hs_test_slurp("/tmp/hotsim-series-every.txt", &len));
	email_shaped(txt);
	cr_assert(strstr(txt, "\nfirst commit of no move: 1 2 4 5 7 8\n"), "%s", txt);
	unlink("/tmp/hotsim-series-every.md");
	unlink("/tmp/hotsim-series-every.txt");
	free(md);
	free(txt);
	steps = steps_of(json);
	cr_assert_str_eq(steps, planted, "the steps:\n%s", steps);
	/* the commit that does not build is a column with the build's last
	 * error line (gcc's, after the one about the typo: -Werror's) */
	cr_assert(strstr(json, "\"failed\": \"does not build: kernel/sys.c:"), "%.3000s", json);
	cr_assert(strstr(json, "error: control reaches end of non-void function"), "%.3000s", json);
	cr_assert(strstr(json, "\"mode\": \"every\""));
	free(steps);
	free(json);
}

/* The text: each planted move's first commit, the no-op commits named for
 * nothing, the failed build in the commit list, 72 columns but for the
 * explains. */
Test(series_kernel, bisect_text_is_exact_within_its_bound_and_deterministic, .timeout = 7200)
{
	char *a, *b, *json, *steps, *built;
	int n = 0;

	hs_kernel("7.2-base");
	a = series("");
	b = series("");
	cr_assert_str_eq(a, b, "two runs of the same series differ");
	cr_assert(strstr(a, "\nfirst commit of no move: 1 2 4 5 7 8\n"), "%s", a);
	cr_assert(strstr(a, "does not build: kernel/sys.c:"), "%s", a);
	email_shaped(a);
	json = series("--format json");
	steps = steps_of(json);
	cr_assert_str_eq(steps, planted, "bisect's steps:\n%s", steps);
	/* 3 step commits, each search at most ceil(log2 9) = 4 builds, and
	 * the tip and the base */
	cr_assert((built = strstr(json, "\"built\": ")) && sscanf(built + 9, "%d", &n) == 1);
	cr_assert_leq(n + 1, 3 * 4 + 2, "bisect built %d", n);
	free(steps);
	free(json);
	free(a);
	free(b);
}

/* One move (sched-pipe on the a53): the base, the tip and at most
 * ceil(log2 9) = 4 between, and the step exact. */
Test(series_kernel, bisect_of_one_move_builds_at_most_log2_n_plus_2, .timeout = 7200)
{
	char cmd[2048], *out, *built;
	int n = 0;

	hs_kernel("7.2-base");
	snprintf(cmd, sizeof(cmd), "%s series %s --patches kernels/linux/patches/7.2/series-planted --path sched-pipe "
		 "--cpu a53 --format json 2>/dev/null", hs_bin(), tree());
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "%.3000s", out);
	{
		char *steps = steps_of(out);

		cr_assert_str_eq(steps, "sched-pipe a53 6 0 regressed\n", "%s", steps);
		free(steps);
	}
	cr_assert((built = strstr(out, "\"built\": ")) && sscanf(built + 9, "%d", &n) == 1);
	cr_assert_leq(n + 1, 4 + 2, "bisect built %d commits and the base for one move", n);
	free(out);
}
