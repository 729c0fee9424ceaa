/*
 * report.h - what `run` and `compare` print: the reviewer's table (summary,
 * moved rows by size, unchanged rows folded, totals: the shape of
 * scripts/bloat-o-meter), JSON (schema hotsim-compare/2, hotsim-run/2), SVG
 * bars, and the --explain / --timeline views. The numbers come from the
 * library (hotsim/measure.h); these files only print them.
 */
#ifndef HOTSIM_CLI_REPORT_H
#define HOTSIM_CLI_REPORT_H

#include <stdio.h>

#include "hotsim/measure.h"
#include "options.h"

/* The --explain and --timeline runs, made before anything is printed. */
struct rp_details {
	const struct hs_path_def *explain, *timeline;	/* NULL: not asked for */
	enum ms_state state;				/* the state they are for */
	int ncores;
	struct ms_detail ex[16][2];	/* explain per core: base (or the image), patched */
	struct ms_detail tl[2];		/* timeline on the first core */
	struct opt_window win;
	long limit;			/* lines of explain */
	/* sched-pipe in usecs/op (project.c), when it ran */
	struct ms_projection proj[48];
	int nproj;
};

/* The text table fits 72 columns (an email reply): long lines are wrapped. */
#define RP_TEXT_WIDTH 72

void rp_table(FILE *f, const struct ms_compare *c, int all);
void rp_json(FILE *f, const struct ms_compare *c, const struct rp_details *d);
/* For a pull request: summary, a table of what moved, the rest folded, the
 * totals, and the explain of the largest move (d) folded. */
void rp_markdown(FILE *f, const struct ms_compare *c, const struct rp_details *d, int all);
/* compare's picture (report_svg.c): the changes as a forest plot, the
 * rows the table shows (all: unchanged ones too); bars: then the absolute
 * cycles. */
int rp_svg(const char *path, const struct ms_compare *c, int all, int bars);

/* The layout noise band (--noise) as text: every row's range, and
 * whether each move is larger than what layout alone does */
void rp_noise_text(FILE *f, const struct ms_compare *c, int layouts);

/* Different paths through unchanged code (report_diverge.c): a block after
 * the text table (returns how many rows have them), markdown items, and a
 * result's "diverged" object. */
int rp_diverge_text(FILE *f, const struct ms_compare *c);
void rp_diverge_markdown(FILE *f, const struct ms_compare *c);
struct json;
void rp_diverge_json(struct json *j, const struct ms_compare *c, const struct ms_pair *p);

/* The row-name column of the last text table (17, or the longest name). */
int rp_name_width(void);

/* The sched-pipe projection: text block, JSON array */
void rp_projection_text(FILE *f, const struct ms_compare *c, const struct rp_details *d);
struct json;
void rp_projection_json(struct json *j, const struct rp_details *d);

/* --explain / --timeline as text */
void rp_details_text(FILE *f, const struct ms_compare *c, const struct rp_details *d);
/* One image (p NULL) or base vs patched: where the cycles go - stalls,
 * functions (moved: only those whose cycles changed), the instructions of
 * those that moved most (limit lines). */
void rp_explain_text(FILE *f, const struct ms_detail *b, const struct ms_detail *p, long limit, int moved);
/* The functions of an explain as a JSON array "functions" (limit of them) */
void rp_json_functions(struct json *j, const struct ms_detail *b, const struct ms_detail *p, long limit);
int rp_timeline_svg(const char *path, const struct ms_detail *d, size_t from, size_t to);

/* "(I)", "(R)", "~" (within noise), "" (unchanged) */
const char *rp_verdict(enum ms_verdict v);
/* JSON's word for it: "improved", "regressed", "within_noise", ... */
const char *rp_verdict_word(enum ms_verdict v);
/* Markdown text: table pipes escaped, HTML's < > & as entities */
void rp_md_esc(FILE *f, const char *s);

/* Shared sentences (report_words.c) */
double rp_uncal_pct(const struct hs_model_result *r);
const char *rp_identity(char *buf, size_t len, const struct hs_image *img);
const char *rp_summary(char *buf, size_t len, const struct ms_compare *c);
/* uncal: what the uncalibrated column is called ("uncal", "uncal% b/p") */
const char *rp_footnote(char *buf, size_t len, const struct ms_compare *c, const char *uncal);
/* text after lead, word-wrapped to width; continuation lines after indent */
void rp_wrap(FILE *f, const char *lead, const char *indent, const char *text, int width);

#endif
