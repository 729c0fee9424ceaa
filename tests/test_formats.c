/*
 * test_formats.c - what run and compare print, for the three readers: text
 * for an email reply (every line fits 72 columns, no colour codes), markdown
 * for a pull request (well-formed tables, unchanged rows folded, the largest
 * move explained), and `hotsim --version` naming the build.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mdtable.h"
#include "hotsim/paths.h"
#include "testutil.h"

#define MAX_OUT (4 << 20)
#define MINI HS_FIXTURE("minikernel.elf")

static int hotsim(const char *args, char **out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", hs_bin(), args);
	return hs_sh(cmd, out, MAX_OUT);
}

/* The name column grows past its 17 for a longer path name (the benchmark
 * paths' sub-rows: signal.catch.sigreturn is 22): the table lines by as
 * much. The longest name the registry gives, whole path and sub-row. */
static size_t longest_name(void)
{
	size_t w = 17;

	for (int i = 0; hs_paths[i]; i++) {
		size_t n = strlen(hs_paths[i]->name);

		w = n > w ? n : w;
	}
	/* sub-rows: ".sigreturn" after signal.catch is the longest part name */
	return w < strlen("signal.catch.sigreturn") ? strlen("signal.catch.sigreturn") : w;
}

/* Every line at most 72 columns (bytes: the text is ASCII), but for the
 * widened name column; no escape code. */
static void email_shaped(const char *what, const char *out)
{
	int lineno = 1;
	size_t max = 72 + longest_name() - 17;

	cr_assert_null(strchr(out, '\033'), "%s: an escape (colour) code", what);
	for (const char *l = out; *l; lineno++) {
		size_t len = strcspn(l, "\n");

		cr_assert_leq(len, max, "%s: line %d is %zu columns:\n%.*s", what, lineno, len, (int)len, l);
		for (size_t i = 0; i < len; i++)
			cr_assert((unsigned char)l[i] < 0x80, "%s: line %d is not ASCII", what, lineno);
		l += len + (l[len] == '\n');
	}
}

static void markdown_tables(const char *what, const char *md, int *tables, int *rows)
{
	char why[256];

	cr_assert_eq(md_tables(md, tables, rows, why, sizeof(why)), 0, "%s: %s", what, why);
	cr_assert_null(strchr(md, '\033'), "%s: an escape code", what);
}

/* The checker itself: a table it must reject, and one it must accept. */
Test(formats, markdown_checker_rejects_a_ragged_table)
{
	int t, r;
	char why[256];

	cr_assert_eq(md_tables("| a | b |\n|---|---:|\n| 1 | 2 |\n", &t, &r, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(t, 1);
	cr_assert_eq(r, 1);
	cr_assert_eq(md_tables("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n", &t, &r, why, sizeof(why)), -1);
	cr_assert_eq(md_tables("| a | b |\n| 1 | 2 |\n", &t, &r, why, sizeof(why)), -1, "no separator row");
	cr_assert_eq(md_tables("| a \\| b |\n|---|\n", &t, &r, why, sizeof(why)), 0, "an escaped pipe is text");
}

/*
 * The documents' links (scripts/check-links, run by make lint too): the
 * project's own lead to their files and headings, and the checker refuses
 * a link to a heading that is not there (GitHub's anchor: lower case, the
 * punctuation dropped, blanks as hyphens, a repeated heading numbered), to
 * a missing file, and reads no code block.
 */
Test(formats, every_link_leads_to_its_file_and_heading)
{
	char dir[] = "/tmp/hotsim-links-XXXXXX", cmd[600], *out;
	FILE *f;

	cr_assert_eq(hs_sh("scripts/check-links 2>&1", &out, 1u << 20), 0, "%s", out);
	cr_assert(strstr(out, "every one leads to its file and heading"), "%s", out);
	free(out);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/a.md", dir);
	cr_assert_not_null(f = fopen(cmd, "w"));
	fputs("# A\n\n## Here, it is\n\n[1](#here-it-is) [2](b.md#two-1) [3](b.md#three) [4](c.md)\n"
	      "```\n[5](d.md)\n```\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/b.md", dir);
	cr_assert_not_null(f = fopen(cmd, "w"));
	fputs("# B\n\n## Two\n\n## Two\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "d=$(pwd); cd %s && \"$d\"/scripts/check-links a.md 2>&1", dir);
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 1, "%s", out);
	cr_assert(strstr(out, "a.md:5: b.md#three: b.md has no such heading"), "%s", out);
	cr_assert(strstr(out, "a.md:5: c.md: no such file"), "%s", out);
	cr_assert(strstr(out, "check-links: 2 of 4 links lead nowhere"), "%s", out);
	free(out);
	hs_rm_rf(dir);
}

/* Fast tier: a fixture pair where nothing can run still gives a text table
 * of 72 columns and well-formed markdown. */
static int npaths(void)
{
	int n = 0;

	while (hs_paths[n])
		n++;
	return n;
}

Test(formats, fixture_pair_text_and_markdown)
{
	char *out;
	int t, r;

	cr_assert_eq(hotsim("compare " MINI " " MINI " --cpu a53", &out), 0);
	email_shaped("compare (fixture)", out);
	cr_assert(strstr(out, "cannot run on base:"), "%.4000s", out);
	free(out);
	cr_assert_eq(hotsim("compare " MINI " " MINI " --cpu a53 --format markdown", &out), 0);
	markdown_tables("compare --format markdown (fixture)", out, &t, &r);
	cr_assert_eq(t, 1, "%.4000s", out);
	/* every path of the registry not run, a total per state shown (typical) */
	cr_assert_eq(r, npaths() + 1, "%.4000s", out);
	cr_assert(strstr(out, "**hotsim compare**: "), "%.4000s", out);
	cr_assert(strstr(out, "Not run:"), "%.4000s", out);
	free(out);
	cr_assert_eq(hotsim("run " MINI " --cpu a53 --format markdown", &out), 0);
	markdown_tables("run --format markdown (fixture)", out, &t, &r);
	cr_assert_eq(t, 1, "%.4000s", out);
	free(out);
}

Test(formats, markdown_only_where_offered)
{
	char cmd[512], *err;

	cr_assert_eq(hotsim("image " MINI " --format markdown", NULL), 2, "image has text and json only");
	snprintf(cmd, sizeof(cmd), "%s compare " MINI " " MINI " --format xml 2>&1", hs_bin());
	cr_assert_eq(hs_sh(cmd, &err, 4096), 2);
	cr_assert(strstr(err, "--format is text, markdown or json, not 'xml'"), "%s", err);
	free(err);
	/* --json is still --format json */
	cr_assert_eq(hotsim("compare " MINI " " MINI " --cpu a53 --path irq-el1 --json", &err), 0);
	cr_assert(strstr(err, "\"schema\": \"hotsim-compare/2\""), "%s", err);
	free(err);
}

Test(formats, version_names_the_build)
{
	char *out, *mk, want[64] = "", *p;
	size_t n;

	mk = (char *)hs_test_slurp("Makefile", &n);
	cr_assert(mk);
	p = strstr(mk, "\nHOTSIM_VERSION := ");
	cr_assert(p, "the Makefile sets HOTSIM_VERSION");
	sscanf(p + 19, "%40s", want);
	free(mk);
	cr_assert_eq(hotsim("--version", &out), 0);
	cr_assert(!strncmp(out, "hotsim ", 7) && !strncmp(out + 7, want, strlen(want)), "%.4000s", out);
	/* built in hotsim's own git checkout: git describe names the commit */
	if (hs_sh("test \"$(git rev-parse --show-toplevel 2>/dev/null)\" = \"$(pwd)\"", NULL, 0) == 0)
		cr_assert(strstr(out, " (git "), "%.4000s", out);
	cr_assert(strstr(out, "\n  compiler  gcc ") || strstr(out, "\n  compiler  clang "), "%.4000s", out);
	cr_assert(strstr(out, "\n  unicorn   2."), "%.4000s", out);
	cr_assert(strstr(out, "\n  capstone  "), "%.4000s", out);
	free(out);
}

/* Real kernels: the default compare of a real pair fits an email reply; the
 * markdown has the moved rows, the rest folded, totals and the explain of the
 * largest move, folded too. */
Test(formats, real_pair_text_fits_72_columns)
{
	char *out;

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	cr_assert_eq(hotsim("compare " HS_KPATH("7.2-base") " " HS_KPATH("7.2-cswitch-inline"), &out), 0);
	email_shaped("compare 7.2-base 7.2-cswitch-inline", out);
	/* the name column is as wide as the longest name (above) */
	cr_assert_geq(hs_row_value(out, "cswitch", "a53", "typical"), 0, "%.4000s", out);
	cr_assert_geq(hs_row_value(out, "total", "all", "typical"), 0, "%.4000s", out);
	free(out);
	cr_assert_eq(hotsim("compare " HS_KPATH("7.2-base") " " HS_KPATH("7.2-cswitch-inline") " --all", &out), 0);
	email_shaped("compare --all", out);
	free(out);
	cr_assert_eq(hotsim("run " HS_KPATH("7.2-base"), &out), 0);
	email_shaped("run 7.2-base", out);
	free(out);
}

Test(formats, real_pair_markdown)
{
	char *out, *fold, *ex;
	int t, r;

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	cr_assert_eq(hotsim("compare " HS_KPATH("7.2-base") " " HS_KPATH("7.2-cswitch-inline")
			    " --format markdown", &out), 0);
	markdown_tables("compare --format markdown", out, &t, &r);
	cr_assert_eq(t, 2, "the moved rows and the folded unchanged ones: %s", out);
	cr_assert(strstr(out, "| **total** | all | typical |"), "%.4000s", out);
	fold = strstr(out, "<details><summary>");
	cr_assert(fold && strstr(fold, " unchanged results</summary>"), "%.4000s", out);
	/* the largest move of a whole path (not a sub-row, not the census,
	 * which is a sum of sites), found here from the table itself */
	{
		char want[160], path[64] = "", cpu[8] = "", state[8] = "";
		long best = -1;

		for (const char *l = out; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			char a[64], b[8], c[8];
			long base, pat;

			if (sscanf(l, "| %63[^ |] | %7[^ |] | %7[^ |] | %ld | %ld |", a, b, c, &base, &pat) != 5 ||
			    strchr(a, '.') || a[0] == '*' || labs(pat - base) <= best)
				continue;
			best = labs(pat - base);
			strcpy(path, a), strcpy(cpu, b), strcpy(state, c);
		}
		cr_assert_gt(best, 0, "no whole-path row moved: %s", out);
		snprintf(want, sizeof(want), "<details><summary>where the cycles go: %s on %s, %s</summary>", path,
			 cpu, state);
		ex = strstr(out, want);
		cr_assert(ex, "expected %s in %s", want, out);
		snprintf(want, sizeof(want), "```text\nexplain %s on %s (%s, ", path, cpu, state);
		cr_assert(strstr(ex, want), "%s", ex);
	}
	cr_assert(strstr(ex, "```\n\n</details>"), "%s", ex);
	free(out);
	/* --explain given: that one, on every core asked for */
	cr_assert_eq(hotsim("compare " HS_KPATH("7.2-base") " " HS_KPATH("7.2-cswitch-inline")
			    " --format markdown --cpu a53,a55 --path irq-el1 --explain irq-el1", &out), 0);
	markdown_tables("compare --format markdown --explain", out, &t, &r);
	cr_assert(strstr(out, "--explain irq-el1 (typical)"), "%.4000s", out);
	cr_assert(strstr(out, "explain irq-el1 on a53") && strstr(out, "explain irq-el1 on a55"), "%.4000s", out);
	free(out);
}

/*
 * The example outputs in README.md and in docs/ are what hotsim prints
 * (what a fresh machine prints): scripts/readme-examples runs every marked
 * command and compares its output with the block below the marker, byte
 * for byte. Real kernels, booted state; the normal build runs it (under
 * the sanitizers it would take many minutes and prove nothing more).
 */
Test(formats, readme_examples_are_the_output, .timeout = 1800)
{
	char cmd[512], *out;

	if (getenv("HOTSIM_SAN"))
		cr_skip_test("QEMU-heavy and long: the normal build runs it");
	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	hs_kernel("7.2-irq-runtime-const");
	hs_kernel("7.2-percpu-nopreempt");
	snprintf(cmd, sizeof(cmd), "HOTSIM_BIN=%s scripts/readme-examples --check 2>&1", hs_bin());
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "%.4000s", out);
	cr_assert(strstr(out, "every one what hotsim prints"), "%.4000s", out);
	/* stale examples (a newer Debian source under them) are listed, not
	 * compared; at least one is compared: a check of nothing proves nothing */
	cr_assert(strstr(out, "readme-examples: ") &&
		  atoi(strstr(out, "readme-examples: ") + strlen("readme-examples: ")) > 0, "%.4000s", out);
	free(out);
}

/*
 * What makes an example stale rather than wrong is read from the output's
 * words, joined again where the text wrapped them: a kernel release, a
 * QEMU version, and a machine's snapshot ("(snapshot 1a2b3c4d)", which
 * QEMU boots irreproducibly); other hex after "snapshot" is no name.
 */
Test(formats, readme_examples_name_a_machines_snapshot)
{
	char *out;
	const char *py =
		"python3 -c 'import importlib.machinery as m, sys; "
		"r = m.SourceFileLoader(\"rx\", \"scripts/readme-examples\").load_module().releases; "
		"print(r(\"booted under QEMU 7.2.22 on x; a machine of 4 CPUs\\n           (snapshot \"\n"
		"\"1a2b3c4d), the\"), r(\"snapshot 1a2b3c4d5e and snapshot zz\"))' 2>&1";

	cr_assert_eq(hs_sh(py, &out, 4096), 0, "%s", out);
	cr_assert_str_eq(out, "['QEMU 7.2.22', 'snapshot 1a2b3c4d'] []\n");
	free(out);
}

/*
 * The pictures show what the table does: every result's move with its
 * interval (a whisker per sampled row: sched-pipe's whole row and six
 * parts, and cswitch, on every core), the layout bands, the verdict
 * legend; the timeline has its legend and a cycle axis that starts at the
 * window's first cycle. (tests/test_svg.c renders the picture.)
 */
Test(formats, svg_changes_have_intervals_bands_and_verdicts, .timeout = 600)
{
	char cmd[1024], *svg, *tl;
	size_t n;
	const char *file = "/tmp/hotsim-test-formats.svg", *tfile = "/tmp/hotsim-test-formats-timeline.svg";

	snprintf(cmd, sizeof(cmd), "compare %s %s --path sched-pipe,cswitch --svg %s --timeline cswitch "
		 "--window 0:30 --all > /dev/null", HS_KPATH("7.2-base"), HS_KPATH("7.2-cswitch-inline"), file);
	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");
	cr_assert_eq(hotsim(cmd, NULL), 0);
	svg = (char *)hs_test_slurp(file, &n);
	tl = (char *)hs_test_slurp(tfile, &n);
	cr_assert(svg && tl);
	cr_assert(strstr(svg, ">95% interval</text>") && strstr(svg, ">layout band</text>"), "legend");
	/* whiskers: one per sampled row, on every core: sched-pipe (7 rows:
	 * the whole and six parts) and cswitch; and the legend's */
	cr_assert_geq(hs_count(svg, "stroke-width=\"1.5\""), 1 + 8 * hs_ndefault_cores(), "%s", svg);
	cr_assert(strstr(svg, "within noise") || strstr(svg, "improved</text>") || strstr(svg, "regressed</text>"),
		  "a verdict on the whole rows");
	cr_assert(strstr(tl, "waiting (a stall") && strstr(tl, "issued, until its result is ready"), "%s", tl);
	cr_assert(strstr(tl, "cycle (from "), "a cycle axis: %s", tl);
	cr_assert(strstr(tl, "font-size=\"10\">0</text>"), "the axis starts at the window's first cycle");
	free(svg);
	free(tl);
	unlink(file);
	unlink(tfile);
}
