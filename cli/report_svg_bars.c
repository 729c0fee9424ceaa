/*
 * report_svg_bars.c - `compare --svg-bars`: below the changes, the same
 * rows in absolute cycles per operation - base and patched as bars, each
 * with its layout band behind it and the 95% interval of its mean. Where
 * the changes answer what moved, this shows what each path costs; a move
 * of a percent is too small to see in it, so it comes second and only
 * when asked for.
 */
#include <math.h>
#include <stdio.h>

#include "report_svg.h"

#define ROW_H 26
#define INK_BASE "#9e9e9e"
#define INK_PATCHED "#1565c0"

double svg_bars_width(const struct svg_layout *l)
{
	return l->x_plot + SVG_PLOT_W + 40;	/* the last tick's number, centred */
}

static double x_of(const struct svg_layout *l, double v, double max)
{
	return l->x_plot + SVG_PLOT_W * v / max;
}

/* A bar from zero, its layout band behind it (lighter) and its interval */
static void bar(FILE *f, const struct svg_layout *l, const struct ms_result *r, double max, double y,
		const char *fill, const char *band)
{
	if (r->noise_hi > r->noise_lo)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"%s\"/>\n",
			x_of(l, r->noise_lo, max), y - 2, x_of(l, r->noise_hi, max) - x_of(l, r->noise_lo, max), band);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>\n", l->x_plot, y,
		x_of(l, r->d.mean, max) - l->x_plot, fill);
	if (r->d.n > 1) {
		double lo = x_of(l, r->d.mean - r->d.ci95, max), hi = x_of(l, r->d.mean + r->d.ci95, max);

		fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"#000000\"/>\n", lo,
			y + 4, hi, lo, y, y + 8, hi, y, y + 8);
	}
}

/* The largest value drawn, and a round step of about six ticks to it */
static double scale_of(const struct svg_rows *r, const struct ms_compare *c, double *step)
{
	double max = 1;

	for (int i = 0; i < r->n; i++)
		for (int side = 0; side < 2 && ms_pair_ok(c, r->v[i].p); side++) {
			const struct ms_result *q = ms_pair_result(r->v[i].p, side, r->v[i].st);

			max = fmax(max, fmax(q->noise_hi, q->d.mean + q->d.ci95));
		}
	*step = svg_step(max / 6);
	return ceil(max / *step) * *step;
}

static double head(FILE *f, const struct svg_layout *l, double y)
{
	double x = SVG_PAD;

	svg_text(f, SVG_PAD, y + 18, "font-size=\"15\" font-weight=\"bold\"", "cycles per operation");
	y += 40;
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"8\" fill=\"" INK_BASE "\"/>\n", x, y - 8);
	svg_text(f, x + 16, y, "", "base");
	x += 16 + svg_text_w("base", 12) + 16;
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"8\" fill=\"" INK_PATCHED "\"/>\n", x, y - 8);
	svg_text(f, x + 16, y, "", "patched");
	return svg_wrap(f, SVG_PAD, y + 18, l->w - 2 * SVG_PAD, 15, 12, "fill=\"#424242\"",
			"Each mean with the 95% interval of its samples (whiskers) and, lighter behind it, its range "
			"over the layouts.") + 4;
}

double svg_bars(FILE *f, const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c,
		double y)
{
	double step, max = scale_of(r, c, &step), y0;

	y = y0 = head(f, l, y);
	for (double v = 0; v <= max + step / 2; v += step)
		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#e0e0e0\"/>\n", x_of(l, v, max), y0, y0 + r->n * ROW_H);
	for (int i = 0; i < r->n; i++, y += ROW_H) {
		const struct svg_row *w = &r->v[i];

		svg_row_label(f, l, w, ms_pair_ok(c, w->p), y + 16, w->part ? "fill=\"#9e9e9e\"" : "");
		if (!ms_pair_ok(c, w->p)) {
			svg_text(f, l->x_plot, y + 16, "fill=\"#9e9e9e\"", "n/a");
			continue;
		}
		bar(f, l, ms_pair_result(w->p, 0, w->st), max, y + 4, INK_BASE, "#e0e0e0");
		bar(f, l, ms_pair_result(w->p, 1, w->st), max, y + 14, INK_PATCHED, "#bbdefb");
	}
	for (double v = 0; v <= max + step / 2; v += step) {
		char t[32];

		snprintf(t, sizeof(t), "%.0f", v);
		svg_text(f, x_of(l, v, max), y + 14, "text-anchor=\"middle\" font-size=\"11\"", t);
	}
	return y + 20;
}
