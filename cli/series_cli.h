/*
 * series_cli.h - what `hotsim series`'s files share: the hotsim-series script
 * that lists and builds the commits (series_build.c), the --explain runs of
 * the steps (cmd_series.c) and the reports (report_series*.c).
 */
#ifndef HOTSIM_CLI_SERIES_CLI_H
#define HOTSIM_CLI_SERIES_CLI_H

#include <limits.h>
#include <stdio.h>

#include "hotsim/series.h"
#include "options.h"

struct series_script {
	char script[PATH_MAX];
	const char *tree, *commits, *patches, *config, *cc;
};

/* --list into s (n, ids, subjects, what does not apply); -1 (hs_errmsg). */
int series_list(const struct series_script *sc, struct ms_series *s);
/* The builder (ms_series_builder.build): ctx is the series_script. */
int series_build(void *ctx, int k, char *path, size_t len, char *why, size_t wlen);

/* A step explained: commit against parent, path on the core it moved most. */
struct series_explain {
	const struct ms_step *step;
	const struct hs_path_def *def;
	struct ms_detail d[2];		/* parent, commit */
};

struct series_report {
	const struct ms_series *s;
	const char *tree;		/* as given */
	int vs_parent, all;
	long limit;			/* lines of each explain */
	struct series_explain *ex;
	int nex;
};

void rp_series_text(FILE *f, const struct series_report *r);
void rp_series_markdown(FILE *f, const struct series_report *r);
void rp_series_json(FILE *f, const struct series_report *r);

/* report_series.c, shared by the three: the commit a cell of commit k is
 * against (the base, or with vs_parent the measured commit before it), and
 * its move; -1 when the cell has no move (not measured, failed). */
int series_cell(const struct series_report *r, int k, int row, struct ms_move *mv);
/* Rows worth a line: a verdict in some commit's cell (all: every row). */
int series_row_shown(const struct series_report *r, int row);
/* What was built, and the bound bisect keeps. */
const char *series_built_words(char *buf, size_t len, const struct ms_series *s);
/* "1 2 4": the commits no move's step is at ("none"). */
const char *series_no_move(char *buf, size_t len, const struct ms_series *s);

#endif
