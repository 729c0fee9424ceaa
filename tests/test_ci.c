/*
 * test_ci.c - the CI step (scripts/ci-compare.sh, docs/ci.md): on the
 * project's own cached pair it writes compare.json, .svg, .md and .txt and
 * exits as compare does (0; 1 when --fail-above trips, files written all the
 * same; 2 on errors); the markdown is well-formed tables; split into
 * shards and merged it leaves the same files; and the CI files in
 * docs/ci.md parse as YAML and call that one script.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdtable.h"
#include "testutil.h"

#define MAX_OUT (4 << 20)
#define PAIR HS_KPATH("7.2-base") " " HS_KPATH("7.2-cswitch-inline")

static char out[64];

static void scratch(void)
{
	snprintf(out, sizeof(out), "/tmp/hotsim-ci.XXXXXX");
	cr_assert_not_null(mkdtemp(out));
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	hs_sh(cmd, NULL, 0);
}

TestSuite(ci, .init = scratch, .fini = cleanup);

static int ci(const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "HOTSIM_BIN=%s scripts/ci-compare.sh %s 2>/dev/null", hs_bin(), args);
	return hs_sh(cmd, NULL, 0);
}

static char *file(const char *name)
{
	char path[256];
	size_t n;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", out, name);
	s = (char *)hs_test_slurp(path, &n);
	cr_assert_not_null(s, "%s not written", path);
	return s;
}

static void rm_outputs(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -f %s/compare.*", out);
	hs_sh(cmd, NULL, 0);
}

/* no suite init: a skipped test would leave its scratch dir behind */
Test(ci_kernel, the_projects_pair)
{
	char args[512], why[256], *s;
	int tables, rows;

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	scratch();
	/* no gate, and a gate no result reaches: 0 */
	snprintf(args, sizeof(args), "%s %s --fail-above 50", PAIR, out);
	cr_assert_eq(ci(args), 0);
	s = file("compare.json");
	cr_assert(strstr(s, "\"schema\": \"hotsim-compare/2\""), "%.400s", s);
	free(s);
	s = file("compare.svg");
	cr_assert(strstr(s, "<svg") && strstr(s, "</svg>"), "%.400s", s);
	free(s);
	s = file("compare.txt");
	cr_assert(!strncmp(s, "hotsim compare\n", 15), "%.400s", s);
	free(s);
	s = file("compare.md");
	cr_assert_eq(md_tables(s, &tables, &rows, why, sizeof(why)), 0, "compare.md: %s", why);
	cr_assert_geq(tables, 1);
	cr_assert_gt(rows, 2, "moved rows and totals");
	cr_assert(!strncmp(s, "**hotsim compare**: ", 20), "%.400s", s);
	free(s);
	/* the pair the other way round, with an L1I that cannot conflict: the
	 * switch gets significantly dearer beyond its layout band on the A53,
	 * (R), so --fail-above 0 trips - and the files (the comment above
	 * all) are still written */
	rm_outputs();
	snprintf(args, sizeof(args), "%s %s %s --path cswitch --param l1i_assoc=512 --fail-above 0",
		 HS_KPATH("7.2-cswitch-inline"), HS_KPATH("7.2-base"), out);
	cr_assert_eq(ci(args), 1);
	free(file("compare.json"));
	free(file("compare.svg"));
	free(file("compare.md"));
	/* errors: 2 */
	snprintf(args, sizeof(args), "%s /nonexistent %s", HS_KPATH("7.2-base"), out);
	cr_assert_eq(ci(args), 2);
	snprintf(args, sizeof(args), "%s %s --format json", PAIR, out);
	cr_assert_eq(ci(args), 2, "the script chooses the formats");
	cleanup();
}

/* The split form: two shards and their merge leave the four files the
 * one-job form leaves, byte for byte, and the merge's exit status is the
 * gate's (the reversed pair trips --fail-above 0, as above). */
Test(ci_kernel, sharded_script_is_the_script, .timeout = 600)
{
	static const char *const files[] = { "compare.json", "compare.md", "compare.txt", "compare.svg" };
	char args[768], one[64];
	const char *pair = HS_KPATH("7.2-cswitch-inline") " " HS_KPATH("7.2-base");
	const char *opts = "--path cswitch,irq-el0 --param l1i_assoc=512 --fail-above 0";

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	scratch();
	snprintf(one, sizeof(one), "%s", out);
	snprintf(args, sizeof(args), "%s %s/one %s", pair, one, opts);
	cr_assert_eq(ci(args), 1);
	for (int k = 1; k <= 2; k++) {
		snprintf(args, sizeof(args), "--shard %d/2 %s %s/split %s", k, pair, one, opts);
		cr_assert_eq(ci(args), 0, "a shard gates nothing");
	}
	snprintf(args, sizeof(args), "--merge %s/split %s/split/shard-2.json %s/split/shard-1.json", one, one, one);
	cr_assert_eq(ci(args), 1, "the merge is the gate");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char a[128], b[128];
		size_t na = 0, nb = 0;
		char *x, *y;

		snprintf(a, sizeof(a), "%s/one/%s", one, files[i]);
		snprintf(b, sizeof(b), "%s/split/%s", one, files[i]);
		x = (char *)hs_test_slurp(a, &na);
		y = (char *)hs_test_slurp(b, &nb);
		cr_assert(x && y, "%s or %s not written", a, b);
		cr_assert(na == nb && !memcmp(x, y, na), "%s: the merge wrote other bytes", files[i]);
		free(x);
		free(y);
	}
	snprintf(args, sizeof(args), "--shard 1/2 %s %s/split --shard 2/2", pair, one);
	cr_assert_eq(ci(args), 2, "the script chooses the shard itself");
	cleanup();
}

/* Fast tier: usage, and an image that is not one: 2, before anything runs. */
Test(ci, errors_exit_2)
{
	char args[512];

	cr_assert_eq(ci(""), 2);
	snprintf(args, sizeof(args), "/nonexistent /nonexistent %s", out);
	cr_assert_eq(ci(args), 2);
	cr_assert_eq(ci("--pair /nonexistent"), 2);
}

/* The workflows and the jobs in docs/ci.md: YAML; the compares run the
 * script with a gate, the series runs over the pull request's commits. */
Test(ci, docs_ci_yaml)
{
	size_t n;
	char *doc = (char *)hs_test_slurp("docs/ci.md", &n), path[256];
	int blocks = 0;

	cr_assert_not_null(doc);
	for (char *b = doc; (b = strstr(b, "```yaml\n")); blocks++) {
		char *e = strstr(b + 8, "\n```\n"), cmd[512], *err;
		FILE *f;

		cr_assert(e, "unterminated yaml block");
		snprintf(path, sizeof(path), "%s/ci-%d.yml", out, blocks);
		f = fopen(path, "w");
		cr_assert(f);
		fwrite(b + 8, 1, (size_t)(e - b - 8) + 1, f);
		fclose(f);
		*e = 0;
		/* the one-job forms, then the split ones (a shard per job, the
		 * merge), then the series over a pull request's commits */
		if (blocks >= 4) {
			cr_assert(strstr(b, "hotsim series ") && strstr(b, "--commits ") && strstr(b, "merge-base"),
				  "block %d does not run the series over the commits", blocks);
			cr_assert(strstr(b, "series.md") && strstr(b, "series.json"), "block %d", blocks);
		} else if (blocks < 2)
			cr_assert(strstr(b, "scripts/ci-compare.sh --pair "), "block %d does not call the script",
				  blocks);
		else
			cr_assert(strstr(b, "scripts/ci-compare.sh --shard ") && strstr(b, "/4") &&
				  strstr(b, "scripts/ci-compare.sh --merge out out/shard-*.json"),
				  "block %d does not shard and merge with the script", blocks);
		cr_assert(blocks >= 4 || strstr(b, "--fail-above "), "block %d has no gate", blocks);
		cr_assert(blocks >= 4 ||
			  (strstr(b, "compare.md") && strstr(b, "compare.json") && strstr(b, "compare.svg")));
		snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' %s 2>&1",
			 path);
		cr_assert_eq(hs_sh(cmd, &err, 4096), 0, "docs/ci.md block %d is not YAML: %s", blocks, err);
		free(err);
		b = e + 1;
	}
	cr_assert_eq(blocks, 6, "a GitHub workflow and a GitLab job, each in one job, split, and over a series");
	free(doc);
}
