/*
 * test_series.c - `hotsim series`: what is wrong with the request is found
 * before any build, and the series is read as written - a directory of
 * patches, a quilt series, an mbox, a git range - with a patch that does
 * not apply named (fast tier: a fake tree, a scratch cache that must stay
 * unmade). The planted series on Debian's 7.2 tree is test_series_kernel.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define MAX_OUT (1 << 20)

static char dir[64];	/* scratch: tree/ (kernel-shaped), bare/ (not), p/, cache/ */

/* a.c in tree/, and patches: 01 changes b, 02 does not apply, 03 changes
 * the b 01 made (so it applies only on top of 01) */
static void scratch(void)
{
	char cmd[2048];

	snprintf(dir, sizeof(dir), "/tmp/hotsim-series-test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p tree/arch/arm64 bare p && touch tree/Makefile && "
		 "printf 'int a;\\nint b;\\nint c;\\n' > tree/a.c && cp tree/a.c bare/ && "
		 "printf 'first: change b\\n\\n--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n int a;\\n-int b;\\n"
		 "+int bb;\\n int c;\\n' > p/01-b.diff && "
		 "printf -- '--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n int x;\\n-int y;\\n+int yy;\\n"
		 " int z;\\n' > p/02-bad.diff && "
		 "printf 'third: on top of the first\\n--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n int a;\\n"
		 "-int bb;\\n+int bbb;\\n int c;\\n' > p/03-bb.patch",
		 dir);
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0);
}

static void cleanup(void)
{
	hs_rm_rf(dir);
}

TestSuite(series, .init = scratch, .fini = cleanup);

/* CMD (hotsim series ... or the script) in the scratch dir with its cache;
 * stdout into *out, stderr into *err (either may be NULL); exit status */
static int sh(const char *what, char **out, char **err)
{
	char cmd[2048], cwd[512], bin[600];
	char *o;
	int rc;

	/* the test's cwd is the checkout; the commands run in the scratch dir */
	cr_assert(getcwd(cwd, sizeof(cwd)));
	snprintf(bin, sizeof(bin), "%s%s%s", hs_bin()[0] == '/' ? "" : cwd, hs_bin()[0] == '/' ? "" : "/", hs_bin());
	snprintf(cmd, sizeof(cmd), "cd %s && HOTSIM_CACHE=%s/cache HOTSIM=%s SERIES=%s/scripts/hotsim-series "
		 "sh -c '%s' 2>%s/err", dir, dir, bin, cwd, what, dir);
	rc = hs_sh(cmd, &o, MAX_OUT);
	if (out)
		*out = o;
	else
		free(o);
	if (err) {
		size_t len;
		char path[128];

		snprintf(path, sizeof(path), "%s/err", dir);
		*err = (char *)hs_test_slurp(path, &len);
		cr_assert_not_null(*err);
	}
	return rc;
}

/* No build started: the scratch cache was never made. */
static void nothing_built(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cache", dir);
	cr_assert_neq(access(path, F_OK), 0, "a build started: %s exists", path);
}

Test(series, usage_errors_before_any_build)
{
	static const struct { const char *args, *says; } cases[] = {
		{ "tree", "give one of --commits BASE..TIP and --patches PATH" },
		{ "tree --patches p --commits a..b", "give one of --commits BASE..TIP and --patches PATH" },
		{ "nosuch --patches p", "nosuch: no such directory" },
		{ "bare --patches p", "bare is not a Linux source tree" },
		{ "tree --patches nosuch", "nosuch: no such file or directory" },
		{ "tree --patches p --config nosuch.config", "nosuch.config: no such config file" },
		{ "tree --commits a..b", "is not a git checkout" },
		{ "tree --patches tree/a.c", "no patches" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char cmd[256], *err;

		snprintf(cmd, sizeof(cmd), "$HOTSIM series %s", cases[i].args);
		cr_assert_eq(sh(cmd, NULL, &err), 2, "series %s", cases[i].args);
		cr_assert(strstr(err, cases[i].says), "series %s: %s", cases[i].args, err);
		free(err);
	}
	nothing_built();
}

/* A directory: its patches by name; 02 does not apply and is named, 03
 * applies on top of 01 (02 left out). */
Test(series, a_directory_of_patches_and_one_that_does_not_apply)
{
	char *out;

	cr_assert_eq(sh("$SERIES tree --patches p --list", &out, NULL), 0);
	cr_assert(strstr(out, "\tbase\t"), "%s", out);
	cr_assert(strstr(out, "\n1\t01-b\tfirst: change b\tok\n"), "%s", out);
	cr_assert(strstr(out, "\n2\t02-bad\t02-bad\tdoes not apply: a.c: Hunk #1 FAILED at 1.\n"), "%s", out);
	cr_assert(strstr(out, "\n3\t03-bb\tthird: on top of the first\tok\n"), "%s", out);
	free(out);
	/* a commit that does not apply is not built: its reason, exit 1 */
	cr_assert_eq(sh("$SERIES tree --patches p --build 2", &out, NULL), 1);
	cr_assert_str_eq(out, "does not apply: a.c: Hunk #1 FAILED at 1.\n");
	free(out);
	nothing_built();
}

/* A quilt series file gives the order (here against the names'), and its
 * comments and blank lines are skipped. */
Test(series, a_quilt_series_gives_the_order)
{
	char *out;

	cr_assert_eq(sh("printf \"# order\\n\\n01-b.diff\\n03-bb.patch -p1\\n\" > p/series && "
			"$SERIES tree --patches p --list | cut -f1,2,4", &out, NULL), 0);
	cr_assert(strstr(out, "\n1\t01-b\tok\n2\t03-bb\tok\n"), "%s", out);
	cr_assert_null(strstr(out, "02-bad"), "%s", out);
	free(out);
	/* a name may be absolute; one that is not there is an error */
	cr_assert_eq(sh("printf \"$PWD/p/01-b.diff\nnosuch.diff\n\" > p/series && $SERIES tree --patches p --list", NULL,
			&out), 2);
	cr_assert(strstr(out, "p/series names nosuch.diff, which is not there"), "%s", out);
	free(out);
	cr_assert_eq(sh("printf \"$PWD/p/01-b.diff\n\" > p/series && $SERIES tree --patches p --list | cut -f1,2", &out,
			NULL), 0);
	cr_assert(strstr(out, "\n1\t01-b\n"), "%s", out);
	free(out);
}

/* git format-patch --stdout: each message a commit, its hash the id, its
 * subject without [PATCH n/m]; the cover letter carries no diff. */
Test(series, an_mbox_of_format_patch)
{
	char *out;

	cr_assert_eq(sh("cd tree && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
			"GIT_COMMITTER_EMAIL=t@t GIT_AUTHOR_DATE=2026-01-01T00:00:00Z "
			"GIT_COMMITTER_DATE=2026-01-01T00:00:00Z && git init -q . && git add -A && git commit -qm base && "
			"patch -s -p1 < ../p/01-b.diff && git commit -qam \"sched: the first, with a subject "
			"long enough to wrap\" && patch -s -p1 < ../p/03-bb.patch && git commit -qam second && "
			"git format-patch -q --cover-letter --stdout HEAD~2 > ../series.mbox && "
			"for r in HEAD~1 HEAD; do git rev-parse --short=12 $r; done && cd .. && $SERIES tree --patches series.mbox --list | cut -f1-3",
			&out, NULL), 0);
	{
		char h1[16], h2[16], want[256];

		cr_assert_eq(sscanf(out, "%15s %15s", h1, h2), 2, "%s", out);
		snprintf(want, sizeof(want), "1\t%s\tsched: the first, with a subject long enough to wrap\n2\t%s\tsecond\n",
			 h1, h2);
		cr_assert(strstr(out, want), "want:\n%s\ngot:\n%s", want, out);
	}
	free(out);
}

/* --commits: the first-parent commits after BASE, named by short hash and
 * subject; the base is line 0. */
Test(series, a_git_range)
{
	char *out, h[3][16], want[512];

	cr_assert_eq(sh("cd tree && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
			"GIT_COMMITTER_EMAIL=t@t && git init -q . && mkdir -p arch/arm64 && echo > arch/arm64/Kconfig && "
			"git add -A && git commit -qm base && patch -s -p1 < ../p/01-b.diff && git commit -qam one && "
			"patch -s -p1 < ../p/03-bb.patch && git commit -qam two && "
			"for r in HEAD~2 HEAD~1 HEAD; do git rev-parse --short=12 $r; done && cd .. && "
			"$SERIES tree --commits HEAD~2..HEAD --list",
			&out, NULL), 0);
	cr_assert_eq(sscanf(out, "%15s %15s %15s", h[0], h[1], h[2]), 3, "%s", out);
	snprintf(want, sizeof(want), "0\t%s\tbase\tok\n1\t%s\tone\tok\n2\t%s\ttwo\tok\n", h[0], h[1], h[2]);
	cr_assert(strstr(out, want), "want:\n%s\ngot:\n%s", want, out);
	free(out);
	cr_assert_eq(sh("cd tree && $SERIES . --commits HEAD..HEAD~1 --list", NULL, &out), 2);
	cr_assert(strstr(out, "HEAD is not an ancestor of HEAD~1"), "%s", out);
	free(out);
	cr_assert_eq(sh("cd tree && $SERIES . --commits HEAD..HEAD --list", NULL, &out), 2);
	cr_assert(strstr(out, "HEAD..HEAD has no commits"), "%s", out);
	free(out);
	nothing_built();
}
