/*
 * test_pair.c - `hotsim pair`: everything wrong with the request is found
 * before any build and leaves the tree as it was (fast tier, a tiny fake
 * tree and a scratch cache that must stay unmade); and on a real kernel
 * source, the pair built from Debian's 7.2 tree plus the project's own
 * cswitch-inline patch compares exactly as the project's own pair does
 * (real-kernel tier: one full and one incremental build, cached after).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#define MAX_OUT (4 << 20)

static char dir[64];	/* scratch: tree/, cache/, patches */

static void scratch(void)
{
	char cmd[512];

	snprintf(dir, sizeof(dir), "/tmp/hotsim-pair-test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir tree && printf 'int a;\\nint b;\\nint c;\\n' > tree/a.c && "
		 "printf -- '--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n int x;\\n-int y;\\n+int yy;\\n int z;\\n' > bad.diff && "
		 "printf -- '--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n int a;\\n-int b;\\n+int bb;\\n int c;\\n' > good.diff",
		 dir);
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0);
}

static void cleanup(void)
{
	hs_rm_rf(dir);
}

/* hotsim pair ARGS with the scratch cache; stderr into *err; exit status */
static int pair(const char *args, char **err)
{
	char cmd[1024], bin[600] = "";

	/* the test's cwd is the checkout; the command runs in the scratch dir */
	if (hs_bin()[0] != '/')
		cr_assert(getcwd(bin, 512));
	snprintf(bin + strlen(bin), sizeof(bin) - strlen(bin), "%s%s", bin[0] ? "/" : "", hs_bin());
	snprintf(cmd, sizeof(cmd), "cd %s && HOTSIM_CACHE=%s/cache %s pair %s 2>&1 >/dev/null", dir, dir, bin, args);
	return hs_sh(cmd, err, MAX_OUT);
}

static unsigned lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The tree holds a.c as written, nothing else; no build started (the
 * cache was never made). */
static void untouched(void)
{
	char cmd[256], *out;

	snprintf(cmd, sizeof(cmd), "cd %s && ls -A tree && cat tree/a.c", dir);
	cr_assert_eq(hs_sh(cmd, &out, 4096), 0);
	cr_assert_str_eq(out, "a.c\nint a;\nint b;\nint c;\n", "the tree changed:\n%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "%s/cache", dir);
	cr_assert_neq(access(cmd, F_OK), 0, "a build started: %s exists", cmd);
}

TestSuite(pair, .init = scratch, .fini = cleanup);

Test(pair, patch_that_does_not_apply)
{
	char *err;

	cr_assert_eq(pair("tree --patch bad.diff", &err), 2);
	cr_assert_eq(lines(err), 1, "one line:\n%s", err);
	cr_assert(strstr(err, "hotsim pair: bad.diff does not apply to "), "%s", err);
	cr_assert(strstr(err, "a.c: Hunk #1 FAILED"), "%s", err);
	free(err);
	untouched();
}

Test(pair, a_tree_that_is_not_a_kernel)
{
	char *err;

	/* the patch applies (dry run): then the tree itself is refused */
	cr_assert_eq(pair("tree --patch good.diff", &err), 2);
	cr_assert_eq(lines(err), 1, "%s", err);
	cr_assert(strstr(err, "tree is not a Linux source tree"), "%s", err);
	free(err);
	untouched();
}

Test(pair, usage_errors)
{
	static const struct { const char *args, *says; } cases[] = {
		{ "tree", "give one of --patch FILE and --commits BASE..HEAD" },
		{ "tree --patch good.diff --commits a..b", "give one of --patch" },
		{ "tree --patch good.diff --cc icc", "--cc is gcc or clang, not 'icc'" },
		{ "nosuch --patch good.diff", "nosuch: no such directory" },
		{ "tree --patch nosuch.diff", "nosuch.diff: no such patch file" },
		{ "tree --patch tree/a.c", "not a patch" },
		{ "tree --patch good.diff --config nosuch.config", "nosuch.config: no such config file" },
		{ "tree --commits a..b", "is not a git checkout" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err;

		cr_assert_eq(pair(cases[i].args, &err), 2, "pair %s", cases[i].args);
		cr_assert(strstr(err, cases[i].says), "pair %s: %s", cases[i].args, err);
		free(err);
	}
	untouched();
}

Test(pair, commits_of_a_git_tree)
{
	char cmd[768], *err;

	snprintf(cmd, sizeof(cmd),
		 "cd %s/tree && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
		 "GIT_COMMITTER_EMAIL=t@t && git init -q . && git add a.c && git commit -qm one && "
		 "patch -s -p1 < ../good.diff && git commit -qam two", dir);
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0);
	cr_assert_eq(pair("tree --commits HEAD~1..nosuch", &err), 2);
	cr_assert(strstr(err, "no commit 'nosuch'"), "%s", err);
	free(err);
	cr_assert_eq(pair("tree --commits HEAD..HEAD", &err), 2);
	cr_assert(strstr(err, "changes nothing"), "%s", err);
	free(err);
	cr_assert_eq(pair("tree --commits HEAD~1..HEAD", &err), 2);
	cr_assert(strstr(err, "is not a Linux source tree"), "%s", err);
	free(err);
	snprintf(cmd, sizeof(cmd), "cd %s/tree && git status --porcelain && git log --oneline | wc -l", dir);
	cr_assert_eq(hs_sh(cmd, &err, 4096), 0);
	cr_assert_str_eq(err, "2\n", "the checkout changed: %s", err);
	free(err);
}

/* hotsim-pair's own usage lists exactly the options of `hotsim pair`'s table. */
Test(pair, script_takes_the_tables_options)
{
	char cmd[512], *help, *usage, *save = NULL, *whole;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s help pair", hs_bin());
	cr_assert_eq(hs_sh(cmd, &help, MAX_OUT), 0);
	whole = strdup(help);
	cr_assert_eq(hs_sh("scripts/hotsim-pair --help", &usage, MAX_OUT), 0);
	for (char *l = strtok_r(help, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char opt[64], line[160];

		if (sscanf(l, " %63s", opt) != 1 || strncmp(opt, "--", 2))
			continue;
		/* the same option line, metavariable and help */
		snprintf(line, sizeof(line), "%s", l + 2);
		cr_assert(strstr(usage, line), "hotsim-pair --help lacks '%s':\n%s", line, usage);
		n++;
	}
	cr_assert_eq(n, 5);
	for (const char *p = usage; (p = strstr(p, "\n  --")); p++) {
		char opt[64];

		sscanf(p + 3, "%63s", opt);
		cr_assert(strstr(whole, opt), "hotsim-pair takes %s, the table does not", opt);
	}
	free(whole);
	free(help);
	free(usage);
}

/*
 * Real kernels: Debian's 7.2 source (kernels/linux/source.sh unpacks it),
 * the project's cswitch-inline patch, the default config (hotsim's
 * base.config, as the project's 7.2 pair): the images are those of the
 * project's own pair, and so is compare's output, line for line but for the
 * two lines naming the files.
 */
static char *without_file_lines(char *text)
{
	char *w = text;

	for (char *l = text; *l;) {
		size_t len = strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n');

		if (strncmp(l, "  base     ", 11) && strncmp(l, "  patched  ", 11)) {
			memmove(w, l, len);
			w += len;
		}
		l += len;
	}
	*w = 0;
	return text;
}

/* no suite init: a skipped test would leave its scratch dir behind */
Test(pair_kernel, the_projects_own_pair_from_the_debian_tree, .timeout = 7200)
{
	char cmd[2048], *src, *out, *mine, *theirs;

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	scratch();
	/* "VERSION DIR" of the pristine tree (unpacked under the build lock) */
	snprintf(cmd, sizeof(cmd), "c=${HOTSIM_CACHE:-$HOME/.cache/hotsim}; mkdir -p \"$c\" && "
		 "flock \"$c/.lock\" kernels/linux/source.sh 7.2 2>/dev/null");
	cr_assert_eq(hs_sh(cmd, &src, 4096), 0, "kernels/linux/source.sh 7.2 failed");
	cr_assert(strchr(src, ' '), "%s", src);
	src[strcspn(src, "\n")] = 0;
	/* the pair, its images copied out */
	snprintf(cmd, sizeof(cmd),
		 "%s pair %s --patch kernels/linux/patches/7.2/cswitch-inline.diff --out %s/out 2>%s/pair.log",
		 hs_bin(), strchr(src, ' ') + 1, dir, dir);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "hotsim pair failed (log %s/pair.log):\n%s", dir, out);
	cr_assert(strstr(out, "\nbase     "), "pair says where the images are:\n%s", out);
	cr_assert(strstr(out, "\npatched  "), "%.4000s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "grep -q 'rebuilt [0-9]* objects: [1-9][0-9]* depend on a patched file' %s/pair.log",
		 dir);
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0, "pair checks what the incremental build remade");
	/* the same bytes: the recipe is reproducible, in tree or out */
	snprintf(cmd, sizeof(cmd), "cmp %s/out/base.vmlinux %s && cmp %s/out/patched.vmlinux %s", dir,
		 hs_kernel("7.2-base"), dir, hs_kernel("7.2-cswitch-inline"));
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0, "the images differ from the project's own");
	/* the paths the patch moves (the bytes are equal already: this is the
	 * end-to-end check, not a second census of every path) */
	snprintf(cmd, sizeof(cmd), "%s compare %s/out/base.vmlinux %s/out/patched.vmlinux --path cswitch,sched-pipe", hs_bin(),
		 dir, dir);
	cr_assert_eq(hs_sh(cmd, &mine, MAX_OUT), 0);
	snprintf(cmd, sizeof(cmd), "%s compare %s %s --path cswitch,sched-pipe", hs_bin(), hs_kernel("7.2-base"),
		 hs_kernel("7.2-cswitch-inline"));
	cr_assert_eq(hs_sh(cmd, &theirs, MAX_OUT), 0);
	cr_assert_str_eq(without_file_lines(mine), without_file_lines(theirs),
			 "the pair compares unlike the project's own");
	free(mine);
	free(theirs);
	free(src);
	cleanup();
}
