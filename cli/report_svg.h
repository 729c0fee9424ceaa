/*
 * report_svg.h - what the compare picture's files share (report_svg.c):
 * the rows it shows, in the text table's order, its columns, and text
 * measured before it is placed, so nothing is drawn past the right edge.
 */
#ifndef HOTSIM_CLI_REPORT_SVG_H
#define HOTSIM_CLI_REPORT_SVG_H

#include <stdio.h>

#include "hotsim/measure.h"

/* The picture grows with its longest text up to SVG_MAX_W; only past that
 * is a row name cut (with an ellipsis). */
#define SVG_PAD 10
#define SVG_MIN_W 760
#define SVG_MAX_W 1600
#define SVG_PLOT_W 400	/* the plot of the changes (and of the bars) */
#define SVG_GAP 14	/* between columns */

/* A row of the pictures: one result (pair, state), or a pair that cannot
 * run (one "n/a" row, as the table has). */
struct svg_row {
	const struct ms_pair *p;
	enum ms_state st;
	int part;	/* a sub-row: lighter, smaller, no verdict */
	int indent;	/* ... drawn under its whole row */
};

struct svg_rows {
	struct svg_row *v;
	int n;
	int folded;	/* unchanged results left out (without --all) */
	int nstates;	/* states shown: a state column only when > 1 */
};

/* The columns left of the plot, and the picture's width. */
struct svg_layout {
	int w;
	int name_chars;	/* the name column: its longest name, or cut to fit */
	double x_cpu, x_state, x_plot;
};

/* The rows in the table's order (largest change first), each whole row's
 * sub-rows under it; unchanged results folded unless all. -1: no memory. */
int svg_rows(struct svg_rows *r, const struct ms_compare *c, int all);
/* The columns for a name column name_chars wide */
void svg_columns(struct svg_layout *l, const struct svg_rows *r, int name_chars);
/* The row's name, core and (several states; state) its state */
void svg_row_label(FILE *f, const struct svg_layout *l, const struct svg_row *r, int state, double y,
		   const char *attrs);

/* Width in pixels of s at font size px: its characters (UTF-8) times a
 * monospace advance. */
double svg_text_w(const char *s, int px);
/* s in at most n characters; a longer one cut with an ellipsis at its end
 * (or at its start, keep_tail: a file name's end says the most) */
const char *svg_fit(char *buf, size_t len, const char *s, int n, int keep_tail);
/* How many characters of font size px fit in width pixels */
int svg_chars_in(double width, int px);
/* A round axis step near raw: 1, 2, 5 or 10 x 10^k */
double svg_step(double raw);
void svg_esc(FILE *f, const char *s);
/* The document's head: w x h pixels, white, 12 px monospace */
void svg_head(FILE *f, int w, int h);
/* <text x y attrs>s</text>, s escaped */
void svg_text(FILE *f, double x, double y, const char *attrs, const char *s);
/* s wrapped at spaces into lines at most width pixels wide, line_h apart
 * from baseline y; returns the y below the last line */
double svg_wrap(FILE *f, double x, double y, double width, int line_h, int px, const char *attrs, const char *s);

/* The verdicts' colours */
#define INK_I "#2e7d32"		/* (I) improved */
#define INK_R "#c62828"		/* (R) regressed */
#define INK_N "#616161"		/* within noise, not judged */
#define INK_PART "#9e9e9e"	/* sub-rows, unchanged, n/a */

/* What a row of the changes says (report_svg_move.c) */
struct svg_move {
	struct ms_move mv;
	double ci;			/* the interval's half-width, % of base (0: none) */
	int banded;			/* a layout band, band_lo..band_hi % around 0 */
	double band_lo, band_hi;
	char delta[24], ci_text[24], cyc[64], verdict[48];	/* the text columns */
	const char *ink;
};
/* -1 for a pair that cannot run (then only its verdict, "n/a: why") */
int svg_move(const struct ms_compare *c, const struct svg_row *r, struct svg_move *m);
/* The row's tooltip: "cswitch a53 typical: 1000 -> 1030 cycles, +3.00%
 * +-0.99%, layout band -1.00%..+1.00%, (R) regressed" */
const char *svg_move_tip(char *buf, size_t len, const struct svg_row *r, const struct svg_move *m);

/* The panels: the width each needs, and each drawn from y (returning the
 * y below it): the changes (report_svg_forest.c), then with --svg-bars
 * the absolute cycles (report_svg_bars.c). */
double svg_forest_width(const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c);
double svg_forest(FILE *f, const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c,
		  double y);
double svg_bars_width(const struct svg_layout *l);
double svg_bars(FILE *f, const struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c,
		double y);

#endif
