/*
 * report_svg_forest.c - the compare picture's answer, a forest plot: each
 * result's move in percent of base as a dot, the 95% interval of the
 * difference (Welch) as its whisker, and behind it the layout band, the
 * moves layout alone can cause, around zero. A move is (I) improved or
 * (R) regressed when its whisker clears zero and its dot lies outside the
 * band (measure.h, struct ms_move); its colour says which. The numbers
 * the text table has are in columns on the right (report_svg_move.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_svg.h"

#define BAND "#cfdbe6"
#define ZEBRA "#f4f4f4"
#define ROW_H 22
#define PART_H 16

/* The columns right of the plot: the numbers' right edges, the verdict's
 * left one, and the picture's edge after it. */
struct cols {
	double delta, ci, cyc, verdict, end;
};

/* The x axis: lo..hi percent, ticks every step, drawn from x0. */
struct scale {
	double lo, hi, step, x0;
};

/* Every interval and band on the axis, and zero; about six ticks */
static void scale_of(struct scale *s, const struct svg_rows *r, const struct ms_compare *c, double x0)
{
	double lo = 0, hi = 0;

	for (int i = 0; i < r->n; i++) {
		struct svg_move m;

		if (svg_move(c, &r->v[i], &m))
			continue;
		lo = fmin(lo, m.mv.pct - m.ci);
		hi = fmax(hi, m.mv.pct + m.ci);
		if (m.banded) {
			lo = fmin(lo, m.band_lo);
			hi = fmax(hi, m.band_hi);
		}
	}
	if (hi - lo < 1e-9) {
		lo = -1;
		hi = 1;
	}
	s->step = svg_step((hi - lo) / 6);
	s->lo = floor(lo / s->step) * s->step;
	s->hi = ceil(hi / s->step) * s->step;
	s->x0 = x0;
}

static double x_of(const struct scale *s, double v)
{
	return s->x0 + SVG_PLOT_W * (v - s->lo) / (s->hi - s->lo);
}

/* Each column as wide as its widest text, its head's included */
static void cols_of(struct cols *k, const struct svg_layout *l, const struct svg_rows *r,
		    const struct ms_compare *c)
{
	double wd = svg_text_w("change", 12), wc = svg_text_w("\u00b195%", 12), wy = svg_text_w("cycles", 12);
	double wv = svg_text_w("verdict", 12);

	for (int i = 0; i < r->n; i++) {
		struct svg_move t;

		svg_move(c, &r->v[i], &t);
		wd = fmax(wd, svg_text_w(t.delta, 12));
		wc = fmax(wc, svg_text_w(t.ci_text, 12));
		wy = fmax(wy, svg_text_w(t.cyc, 12));
		wv = fmax(wv, svg_text_w(t.verdict, 12));
	}
	k->delta = l->x_plot + SVG_PLOT_W + SVG_GAP + wd;
	k->ci = k->delta + SVG_GAP + wc;
	k->cyc = k->ci + SVG_GAP + wy;
	k->verdict = k->cyc + SVG_GAP;
	k->end = k->verdict + wv + SVG_PAD;
}

double svg_forest_width(const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c)
{
	struct cols k;

	cols_of(&k, l, r, c);
	return k.end;
}

/* "+0.5%", "0%", "-10%": as many decimals as the step needs */
static void tick_text(char *buf, size_t len, const struct scale *s, long k)
{
	int dec = s->step >= 1 ? 0 : (int)ceil(-log10(s->step) - 1e-9);

	if (!k)
		snprintf(buf, len, "0%%");
	else
		snprintf(buf, len, "%+.*f%%", dec, k * s->step);
}

/* The tick numbers at baseline y, centred on their ticks */
static void ticks(FILE *f, const struct scale *s, double y)
{
	for (long k = lround(s->lo / s->step); k <= lround(s->hi / s->step); k++) {
		char t[32];

		tick_text(t, sizeof(t), s, k);
		svg_text(f, x_of(s, k * s->step), y, "text-anchor=\"middle\" font-size=\"11\"", t);
	}
}

/* The grid behind the rows y0..y1: a line per tick, zero darker */
static void grid(FILE *f, const struct scale *s, double y0, double y1)
{
	for (long k = lround(s->lo / s->step); k <= lround(s->hi / s->step); k++)
		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"%s\"/>\n", x_of(s, k * s->step), y0, y1,
			k ? "#e0e0e0" : "#000000");
	fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#000000\"/>\n", s->x0, y1, s->x0 + SVG_PLOT_W);
}

/* A legend item: a dot (r > 0), the band's swatch (r 0) or a whisker
 * (r < 0), then its words; wrapped to the next line at the edge. */
static void item(FILE *f, const struct svg_layout *l, double *x, double *y, double r, const char *ink,
		 const char *words)
{
	double w = 18 + svg_text_w(words, 12);

	if (*x + w > l->w - SVG_PAD && *x > SVG_PAD) {
		*x = SVG_PAD;
		*y += 18;
	}
	if (r > 0)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", *x + 6, *y - 4, r, ink);
	else if (!r)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n", *x, *y - 10, ink);
	else
		fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"%s\" "
			"stroke-width=\"1.5\"/>\n", *x, *y - 4,
			*x + 14, *x, *y - 8, *y, *x + 14, *y - 8, *y, ink);
	svg_text(f, *x + 18, *y, "", words);
	*x += w + 16;
}

static int layouts(const struct ms_compare *c)
{
	for (int i = 0; i < c->npairs; i++)
		if (ms_pair_ok(c, &c->pairs[i]) && c->pairs[i].base->noise_n)
			return c->pairs[i].base->noise_n;
	return 0;
}

static double legend(FILE *f, const struct svg_layout *l, const struct ms_compare *c, double y)
{
	double x = SVG_PAD;
	char rule[600];

	item(f, l, &x, &y, 4.5, INK_I, "(I) improved");
	item(f, l, &x, &y, 4.5, INK_R, "(R) regressed");
	item(f, l, &x, &y, 4.5, INK_N, "~ within noise");
	item(f, l, &x, &y, 2.5, INK_PART, "indented: a part of the row above");
	item(f, l, &x, &y, 0, BAND, "layout band");
	item(f, l, &x, &y, -1, "#000000", "95% interval");
	if (layouts(c))
		snprintf(rule, sizeof(rule), "Each row: the move of the mean in %% of base (dot), the 95%% interval "
			 "of the difference (Welch; none for one draw) and behind it the layout band: what %d layouts "
			 "of the code and data alone move the row by (the two images' ranges overlap, or under 0.5%%). "
			 "(I) or (R): the interval clears 0 and the dot is outside the band. Parts have no verdict.",
			 layouts(c));
	else
		snprintf(rule, sizeof(rule), "Each row: the move of the mean in %% of base (dot) and the 95%% "
			 "interval of the difference (Welch; none for one draw). No layout band (--noise 0): no move "
			 "is judged beyond noise.");
	return svg_wrap(f, SVG_PAD, y + 20, l->w - 2 * SVG_PAD, 15, 12, "fill=\"#424242\"", rule);
}

/* One row: its label, band, whisker, dot and numbers, with a tooltip */
static double row(FILE *f, const struct scale *s, const struct cols *k, const struct svg_layout *l,
		  const struct ms_compare *c, const struct svg_row *r, double y)
{
	double h = r->part ? PART_H : ROW_H, yc = y + h / 2, base = yc + (r->part ? 3.5 : 4);
	const char *font = r->part ? " font-size=\"11\"" : "";
	char attrs[120], tip[300];
	struct svg_move t;
	int ok = !svg_move(c, r, &t);
	double lo = x_of(s, t.mv.pct - t.ci), hi = x_of(s, t.mv.pct + t.ci);

	fprintf(f, "<g><title>");
	svg_esc(f, svg_move_tip(tip, sizeof(tip), r, &t));
	fprintf(f, "</title>\n");
	snprintf(attrs, sizeof(attrs), "fill=\"%s\"%s", r->part ? INK_PART : "#000000", font);
	svg_row_label(f, l, r, ok, base, attrs);
	if (t.banded)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			x_of(s, t.band_lo), y + 3, x_of(s, t.band_hi) - x_of(s, t.band_lo), h - 6, BAND);
	if (t.mv.tested)
		fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"%s\" "
			"stroke-width=\"1.5\"/>\n", lo, yc, hi, lo, yc - 4, yc + 4, hi, yc - 4, yc + 4, t.ink);
	if (ok)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x_of(s, t.mv.pct), yc,
			r->part ? 2.5 : 4.5, t.ink);
	snprintf(attrs, sizeof(attrs), "text-anchor=\"end\" fill=\"%s\"%s", t.ink, font);
	svg_text(f, k->delta, base, attrs, t.delta);
	svg_text(f, k->ci, base, attrs, t.ci_text);
	svg_text(f, k->cyc, base, attrs, t.cyc);
	svg_text(f, k->verdict, base, attrs + strlen("text-anchor=\"end\" "), t.verdict);
	fprintf(f, "</g>\n");
	return y + h;
}

/* Whole rows and their parts as bands of alternating shade, behind all */
static void zebra(FILE *f, const struct svg_layout *l, const struct svg_rows *r, double y)
{
	int group = 0;

	for (int i = 0; i < r->n; i++) {
		double h = r->v[i].part ? PART_H : ROW_H;

		/* a pair's states and its parts share their shade */
		group += !r->v[i].indent && (!i || r->v[i].p != r->v[i - 1].p);
		if (group % 2 == 0)
			fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"" ZEBRA "\"/>\n",
				SVG_PAD / 2, y, l->w - SVG_PAD, h);
		y += h;
	}
}

/* "11 unchanged results not shown (--all shows them)" */
static double folded(FILE *f, const struct svg_layout *l, const struct svg_rows *r, double y)
{
	char note[120];

	if (!r->folded)
		return y;
	snprintf(note, sizeof(note), "%d unchanged result%s not shown (--all shows them)", r->folded,
		 r->folded == 1 ? "" : "s");
	return svg_wrap(f, SVG_PAD, y + 14, l->w - 2 * SVG_PAD, 15, 12, "", note) - 14;
}

double svg_forest(FILE *f, const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c,
		  double y)
{
	struct scale s;
	struct cols k;
	double y0, y1;

	if (!r->n)	/* nothing moved: no plot, the note says so */
		return folded(f, l, r, y);
	y = legend(f, l, c, y);
	scale_of(&s, r, c, l->x_plot);
	cols_of(&k, l, r, c);
	/* the column heads, then the tick numbers on a line of their own:
	 * the last one's right half reaches past the plot */
	svg_text(f, k.delta, y + 8, "text-anchor=\"end\" font-weight=\"bold\"", "change");
	svg_text(f, k.ci, y + 8, "text-anchor=\"end\" font-weight=\"bold\"", "\u00b195%");
	svg_text(f, k.cyc, y + 8, "text-anchor=\"end\" font-weight=\"bold\"", "cycles");
	svg_text(f, k.verdict, y + 8, "font-weight=\"bold\"", "verdict");
	ticks(f, &s, y + 22);
	y0 = y1 = y + 28;
	for (int i = 0; i < r->n; i++)
		y1 += r->v[i].part ? PART_H : ROW_H;
	zebra(f, l, r, y0);
	grid(f, &s, y0, y1);
	y = y0;
	for (int i = 0; i < r->n; i++)
		y = row(f, &s, &k, l, c, &r->v[i], y);
	ticks(f, &s, y1 + 14);
	svg_text(f, s.x0, y1 + 30, "font-size=\"11\"", "\u2190 faster");
	svg_text(f, s.x0 + SVG_PLOT_W / 2, y1 + 30, "text-anchor=\"middle\" font-size=\"11\"",
		 "cycles per op, % of base");
	svg_text(f, s.x0 + SVG_PLOT_W, y1 + 30, "text-anchor=\"end\" font-size=\"11\"", "slower \u2192");
	return folded(f, l, r, y1 + 34);
}
