/*
 * report.h - what `run` and `compare` print: the table (bloat-o-meter
 * style old/new/delta), JSON (versioned schema, see README), SVG bars, and
 * the --explain / --timeline views.
 */
#ifndef HOTSIM_CLI_REPORT_H
#define HOTSIM_CLI_REPORT_H

#include <stdio.h>

#include "hotsim/measure.h"

/* A row of the comparison: the same (name, cpu) in both images. */
struct rp_pair {
	const struct ms_row *base, *patched;	/* either may be NULL (absent) */
	const char *name, *cpu;
};

struct rp_compare {
	const struct ms_image *base, *patched;	/* patched NULL for `run` */
	struct rp_pair pairs[MS_MAX_ROWS * 2];
	int npairs;
	char warnings[8][400];
	int nwarnings;
	int want_warm, want_cold;
};

/* Pair rows by (name, cpu) in base order, then rows only in patched. */
void rp_pair_rows(struct rp_compare *c);

/* Warnings when the images differ in more than code. */
void rp_identity_warnings(struct rp_compare *c);

/* delta% of patched over base; 0 when base is 0 */
double rp_delta_pct(uint64_t base, uint64_t patched);

void rp_table(FILE *f, const struct rp_compare *c);
void rp_json(FILE *f, const struct rp_compare *c);
int rp_svg(const char *path, const struct rp_compare *c);

/* --explain: per function, then per instruction, base vs patched. */
void rp_explain(FILE *f, const struct ms_detail *base, const struct ms_detail *patched, long limit);
void rp_explain_one(FILE *f, const struct ms_detail *d, long limit);
/* --timeline: pipeline timeline of records [from, to) of one run. */
void rp_timeline(FILE *f, const char *label, const struct ms_detail *d, size_t from, size_t to);
int rp_timeline_svg(const char *path, const struct ms_detail *d, size_t from, size_t to);

#endif
