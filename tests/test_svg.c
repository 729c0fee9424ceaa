/*
 * test_svg.c - the compare picture (cli/report_svg*.c), drawn from a
 * comparison built by hand, so no kernel is needed: every row shows its
 * move, its interval, its layout band and its verdict, in the text table's
 * order; and rendered by a real renderer (rsvg-convert) on a canvas wider
 * than the picture says it is, nothing lies past its right edge.
 *
 * The numbers follow from the rules. Sampled rows have 61 samples a side
 * with the mean's variance 12.5 cycles^2 a side, so the difference's
 * standard error is 5 and Welch's df is 2 x 60 = 120: t(0.975, 120) =
 * 1.980 (published tables), the interval +-9.90 cycles. The layout band
 * of a move (cli/report_svg_forest.c, from ms_pair_beyond_noise) is
 * [-(q.hi - q.mean) - (b.mean - b.lo), (b.hi - b.mean) + (q.mean - q.lo)],
 * at least +-0.5% of b.lo.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/report.h"
#include "pngread.h"
#include "testutil.h"

#define SAMPLES 61

static char base_file[] = "/kernels/7.2-base/vmlinux", short_file[] = "/kernels/7.2-patched/vmlinux";
/* longer than any picture is wide: its start is cut, its end kept */
static char patched_file[] = "/a/very/deep/build/tree/of/a/ci/runner/workspace/that/names/every/level/of/"
			     "its/checkout/and/then/some/more/levels/to/pass/the/widest/picture/hotsim/draws/"
			     "linux-7.2-with-the-patch-under-review/arch/arm64/boot/vmlinux-patched";
static struct hs_image img_base = { .path = base_file, .version = "7.2.0" };
static struct hs_image img_patched = { .path = patched_file, .version = "7.2.0" };
static struct ms_image base, patched;
static struct ms_compare cmp;

static struct ms_row *row(struct ms_image *m, const char *name, const char *path, const char *cpu, int part)
{
	struct ms_row *r = &m->rows[m->nrows++];

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->path = path;
	r->core = hs_core_find(cpu);
	r->ok = 1;
	r->part = part;
	return r;
}

/* typical: sampled, the mean's variance va a side, its range over 9
 * layouts lo..hi; other states: one draw */
static void result(struct ms_row *r, enum ms_state st, double mean, double lo, double hi, double va)
{
	struct ms_result *s = &r->s[st];

	s->d.n = st == MS_TYPICAL && va ? SAMPLES : 1;
	s->d.mean = mean;
	s->d.sd = sqrt(va * SAMPLES);
	s->d.ci95 = 2 * sqrt(va);
	s->noise_lo = lo;
	s->noise_hi = hi;
	r->noise_n = lo < hi ? 9 : 0;
}

/* One row in both images: base b (range lo..hi), patched q (range
 * qlo..qhi); warm, when asked for, one draw of the same numbers. */
static void both(const char *name, const char *path, const char *cpu, int part, const double v[6], double va)
{
	struct ms_row *b = row(&base, name, path, cpu, part), *q = row(&patched, name, path, cpu, part);

	for (int st = MS_TYPICAL; st <= MS_WARM; st++) {
		result(b, (enum ms_state)st, v[0], v[1], v[2], va);
		result(q, (enum ms_state)st, v[3], v[4], v[5], va);
	}
}

/* warm: typical and warm; long_file: the patched image's file name wider
 * than the picture may be, else short (the rows set the width) */
static void build(int warm, int long_file)
{
	static const int typical[MS_NSTATES] = { [MS_TYPICAL] = 1 }, two[MS_NSTATES] = { 1, 1, 0 };

	memset(&base, 0, sizeof(base));
	memset(&patched, 0, sizeof(patched));
	base.img = &img_base;
	patched.img = &img_patched;
	img_patched.path = long_file ? patched_file : short_file;
	both("cswitch", "cswitch", "a53", 0, (double[]){ 1000, 995, 1005, 1030, 1025, 1035 }, 12.5);
	both("irq-el1", "irq-el1", "a55", 0, (double[]){ 1000, 990, 1010, 975, 965, 985 }, 12.5);
	both("fork", "fork", "a53", 0, (double[]){ 1000, 990, 1010, 1030, 1020, 1040 }, 200);
	both("sched-pipe", "sched-pipe", "a53", 0, (double[]){ 1000, 990, 1010, 1004, 994, 1014 }, 12.5);
	both("sched-pipe.switch", "sched-pipe", "a53", 1, (double[]){ 600, 595, 605, 603, 598, 608 }, 12.5);
	both("sched-pipe.write", "sched-pipe", "a53", 1, (double[]){ 500, 495, 505, 502, 497, 507 }, 12.5);
	/* a sum of sites: one draw, no band */
	both("percpu.census", "percpu", "a53", 0, (double[]){ 300, 0, 0, 310, 0, 0 }, 0);
	both("a-very-long-extra-path-name-for-testing", "a-very-long-extra-path-name-for-testing", "a55", 0,
	     (double[]){ 1000, 1000, 1002, 1015, 1014, 1016 }, 12.5);
	both("exec", "exec", "a53", 0, (double[]){ 800, 790, 810, 800, 790, 810 }, 12.5);
	patched.rows[patched.nrows - 1].ok = 0;
	row(&base, "user.mine", "user", "a55", 0)->s[MS_TYPICAL].d.n = 1;
	both("getpid", "getpid", "a53", 0, (double[]){ 500, 495, 505, 500, 495, 505 }, 12.5);
	ms_compare_build(&cmp, &base, &patched, warm ? two : typical);
}

/* The picture, written to /tmp/hotsim-test-svg-NAME.svg (each test its
 * own: they run in parallel) and read back */
static char *draw(const char *name, int all, int bars)
{
	char file[128];
	size_t n;
	char *s;

	snprintf(file, sizeof(file), "/tmp/hotsim-test-svg-%s.svg", name);
	cr_assert_eq(rp_svg(file, &cmp, all, bars), 0);
	s = (char *)hs_test_slurp(file, &n);
	cr_assert_not_null(s);
	unlink(file);
	return s;
}

/* The root's width="W": what the picture says it covers */
static int declared_width(const char *svg)
{
	const char *w = strstr(svg, "<svg ");

	cr_assert(w && strstr(w, " width=\""), "no root width");
	return atoi(strstr(w, " width=\"") + 8);
}

/*
 * The picture rendered by rsvg-convert on a white canvas 1.5 times as wide
 * as it declares (its root's width and viewBox widened, the drawing's
 * scale unchanged): the non-white pixels right of the declared width.
 */
static long past_right_edge(const char *name, const char *svg)
{
	int w = declared_width(svg), wide = w * 3 / 2;
	char from[64], to[64], cmd[512], wsvg[128], png_file[128], *out = NULL;
	const char *at, *box;
	struct png png;
	uint8_t *d;
	size_t n;
	long past = 0;
	FILE *f;

	snprintf(wsvg, sizeof(wsvg), "/tmp/hotsim-test-svg-%s-wide.svg", name);
	snprintf(png_file, sizeof(png_file), "/tmp/hotsim-test-svg-%s.png", name);
	f = fopen(wsvg, "w");

	cr_assert_not_null(f);
	at = strstr(svg, "<svg ");
	box = strstr(at, "viewBox=\"0 0 ");
	cr_assert_not_null(box);
	/* width="W" ... viewBox="0 0 W H": both widened */
	fwrite(svg, 1, (size_t)(strstr(at, " width=\"") - svg), f);
	fprintf(f, " width=\"%d\"", wide);
	at = strchr(strstr(at, " width=\"") + 8, '"') + 1;
	fwrite(at, 1, (size_t)(box - at), f);
	snprintf(from, sizeof(from), "viewBox=\"0 0 %d ", w);
	snprintf(to, sizeof(to), "viewBox=\"0 0 %d ", wide);
	cr_assert(!strncmp(box, from, strlen(from)), "viewBox not 0 0 %d: %.40s", w, box);
	fputs(to, f);
	fputs(box + strlen(from), f);
	cr_assert_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "rsvg-convert -b white -o %s %s 2>&1", png_file, wsvg);
	cr_assert_eq(hs_sh(cmd, &out, 4096), 0, "rsvg-convert (librsvg2-bin, scripts/deps.sh): %s", out ? out : "");
	free(out);
	d = hs_test_slurp(png_file, &n);
	cr_assert(d && png_read(d, n, &png) == 0, "not a PNG rsvg-convert writes");
	cr_assert_eq(png.w, (unsigned)wide, "rendered %u wide, not %d", png.w, wide);
	for (unsigned y = 0; y < png.h; y++)
		for (unsigned x = (unsigned)w; x < png.w; x++) {
			const uint8_t *p = png.rgba + ((size_t)y * png.w + x) * 4;

			past += p[0] < 255 || p[1] < 255 || p[2] < 255;
		}
	free(png.rgba);
	free(d);
	unlink(png_file);
	unlink(wsvg);
	return past;
}

static void fits(const char *what, const char *svg)
{
	long past = past_right_edge(what, svg);

	cr_assert_eq(past, 0, "%s: %ld pixels drawn past the declared width %d", what, past, declared_width(svg));
}

Test(svg, nothing_passes_the_right_edge_when_rendered)
{
	char *svg;

	build(0, 0);
	svg = draw("edge", 0, 0);
	fits("changes", svg);
	free(svg);
	build(0, 1);
	svg = draw("edge-file", 0, 0);
	fits("long-file", svg);
	cr_assert_eq(declared_width(svg), 1600, "the picture's width is bounded");
	free(svg);
	build(0, 0);
	svg = draw("edge-bars", 1, 1);
	fits("all-and-bars", svg);
	cr_assert(strstr(svg, ">cycles per operation</text>"), "the bars' panel");
	free(svg);
	build(1, 0);
	svg = draw("edge-states", 0, 0);
	fits("two-states", svg);
	free(svg);
}

/* Each row's tooltip holds its numbers: "name cpu state: base -> patched
 * cycles, move interval, layout band lo..hi, verdict"; and the same
 * numbers are the row's text columns. */
static void has_row(const char *svg, const char *title, const char *const cols[4])
{
	char want[300];

	snprintf(want, sizeof(want), "<g><title>%s</title>", title);
	cr_assert(strstr(svg, want), "no row %s", want);
	for (int i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), ">%s</text>", cols[i]);
		if (cols[i][0])
			cr_assert(strstr(strstr(svg, title), want), "%s: no %s after its title", title, want);
	}
}

Test(svg, every_row_shows_its_move_interval_band_and_verdict)
{
	char *svg;

	build(0, 1);
	svg = draw("rows", 0, 0);
	/* +30 of 1000, band [-(1035-1030)-(1000-995), (1005-1000)+(1030-1025)] = +-10 */
	has_row(svg, "cswitch a53 typical: 1000 -&gt; 1030 cycles, +3.00% \u00b10.99%, layout band -1.00%..+1.00%, "
		"(R) regressed", (const char *const[]){ "+3.00%", "\u00b10.99%", "1000 -&gt; 1030", "(R) regressed" });
	/* -25 of 1000, band +-20 */
	has_row(svg, "irq-el1 a55 typical: 1000 -&gt; 975 cycles, -2.50% \u00b10.99%, layout band -2.00%..+2.00%, "
		"(I) improved", (const char *const[]){ "-2.50%", "\u00b10.99%", "1000 -&gt; 975", "(I) improved" });
	/* beyond the band, but t = 30 / 20 = 1.5: not significant; the
	 * interval 1.980 x 20 = 39.6 cycles */
	has_row(svg, "fork a53 typical: 1000 -&gt; 1030 cycles, +3.00% \u00b13.96%, layout band -2.00%..+2.00%, "
		"~ within noise", (const char *const[]){ "+3.00%", "\u00b13.96%", "", "~ within noise" });
	has_row(svg, "sched-pipe a53 typical: 1000 -&gt; 1004 cycles, +0.40% \u00b10.99%, layout band -2.00%..+2.00%, "
		"~ within noise", (const char *const[]){ "+0.40%", "", "", "~ within noise" });
	/* parts: no band; 9.90 of 600 and of 500 */
	has_row(svg, "sched-pipe.switch a53 typical: 600 -&gt; 603 cycles, +0.50% \u00b11.65%, . part of its row",
		(const char *const[]){ "+0.50%", "\u00b11.65%", "600 -&gt; 603", ". part of its row" });
	has_row(svg, "sched-pipe.write a53 typical: 500 -&gt; 502 cycles, +0.40% \u00b11.98%, . part of its row",
		(const char *const[]){ "+0.40%", "\u00b11.98%", "", "" });
	/* one draw, no band: not judged */
	has_row(svg, "percpu.census a53 typical: 300 -&gt; 310 cycles, +3.33% one draw, - not judged",
		(const char *const[]){ "+3.33%", "one draw", "300 -&gt; 310", "- not judged" });
	/* band [-1, +3] cycles, widened to 0.5% of 1000 */
	has_row(svg, "a-very-long-extra-path-name-for-testing a55 typical: 1000 -&gt; 1015 cycles, +1.50% \u00b10.99%, "
		"layout band -0.50%..+0.50%, (R) regressed",
		(const char *const[]){ "+1.50%", "", "", "(R) regressed" });
	has_row(svg, "exec a53: n/a: cannot run on patched",
		(const char *const[]){ "n/a: cannot run on patched", "", "", "" });
	has_row(svg, "user.mine a55: n/a: absent in patched",
		(const char *const[]){ "n/a: absent in patched", "", "", "" });
	/* the bands: five whole rows have one, and the legend's swatch */
	cr_assert_eq(hs_count(svg, "fill=\"#cfdbe6\"/>"), 5 + 1, "%s", svg);
	/* the whiskers: seven sampled rows, and the legend's */
	cr_assert_eq(hs_count(svg, "stroke-width=\"1.5\""), 7 + 1);
	cr_assert(strstr(svg, "1 unchanged result not shown (--all shows them)"), "getpid is folded");
	/* the answer's line: of 11 pairs, 8 moved (the parts too), 2 cannot run */
	cr_assert(strstr(svg, ">2 regressed (R), 1 improved (I) of 11 results, 8 moved; 2 not run (n/a)</text>"),
		  "the summary");
	cr_assert_null(strstr(svg, "getpid"));
	cr_assert(strstr(svg, ">(I) improved</text>") && strstr(svg, ">layout band</text>") &&
		  strstr(svg, ">95% interval</text>"), "the legend");
	cr_assert(strstr(svg, ">patched: \u2026") && strstr(svg, "/boot/vmlinux-patched (7.2.0)</text>"),
		  "a file name too long for the picture: cut at its start");
	free(svg);
}

/* Largest change first, ties in registry order (the text table's order:
 * cli/report_table.c, ms_compare_build); the parts under their row; the
 * rows that cannot run after the ones that moved. */
Test(svg, rows_in_the_table_order_with_parts_under_their_row)
{
	static const char *const order[] = {
		"<title>cswitch ", "<title>fork ", "<title>irq-el1 ", "<title>a-very-long", "<title>percpu.census ",
		"<title>sched-pipe ", "<title>sched-pipe.switch ", "<title>sched-pipe.write ", "<title>exec ",
		"<title>user.mine ",
	};
	char *svg, *at;

	build(0, 0);
	svg = draw("order", 0, 0);
	at = svg;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		char *next = strstr(at, order[i]);

		cr_assert(next, "%s not after %s", order[i], i ? order[i - 1] : "the head");
		at = next;
	}
	free(svg);
}

/* Nothing moved (an image against itself): the picture says so, and
 * still fits */
Test(svg, nothing_moved_says_so)
{
	static const int typical[MS_NSTATES] = { [MS_TYPICAL] = 1 };
	char *svg;

	build(0, 0);
	ms_compare_build(&cmp, &base, &base, typical);
	svg = draw("none", 0, 0);
	cr_assert(strstr(svg, ">0 regressed (R), 0 improved (I) of 11 results, 0 moved</text>"), "%s", svg);
	cr_assert(strstr(svg, ">11 unchanged results not shown (--all shows them)</text>"));
	cr_assert_null(strstr(svg, "<title>"), "no row");
	fits("none", svg);
	free(svg);
}

Test(svg, same_input_same_bytes)
{
	char *a, *b;

	build(1, 1);
	a = draw("same", 1, 1);
	b = draw("same", 1, 1);
	cr_assert_str_eq(a, b);
	cr_assert(strstr(a, ">warm</text>") && strstr(a, ">one draw</text>"), "a state column, one-draw rows");
	free(a);
	free(b);
}
