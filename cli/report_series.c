/*
 * report_series.c - `hotsim series` as text for an email reply (72
 * columns): the commits, the table - a row per path and core, a column per
 * commit, Fastpath's (I)/(R) marks with compare's verdict rule, wrapped
 * into blocks of columns when the commits are many - the first commit of
 * every move and each step after it, and each step explained against its
 * parent. The cells and the words the three formats share are here too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "series_cli.h"

#define CELL 8		/* "+17.3(R)" */

/* The measured commit before k (not failed): what vs_parent compares to. */
static int parent_of(const struct ms_series *s, int k)
{
	while (--k > 0 && (!s->c[k].m || s->c[k].failed))
		;
	return k;
}

int series_cell(const struct series_report *r, int k, int row, struct ms_move *mv)
{
	const struct ms_series *s = r->s;

	if (!s->c[k].m || s->c[k].failed)
		return -1;
	return ms_series_move(s, r->vs_parent ? parent_of(s, k) : 0, k, row, mv);
}

int series_row_shown(const struct series_report *r, int row)
{
	struct ms_move mv;

	if (r->all)
		return 1;
	for (int i = 0; i < r->s->nsteps; i++)
		if (r->s->steps[i].row == row)
			return 1;
	for (int k = 1; k <= r->s->n; k++)
		if (!series_cell(r, k, row, &mv) && (mv.verdict == MS_IMPROVED || mv.verdict == MS_REGRESSED))
			return 1;
	return 0;
}

static int ceil_log2(int n)
{
	int b = 0;

	while ((1 << b) < n)
		b++;
	return b;
}

/* Distinct commits the steps are at. */
static int step_commits(const struct ms_series *s)
{
	int n = 0;

	for (int k = 1; k <= s->n; k++)
		for (int i = 0; i < s->nsteps; i++)
			if (s->steps[i].commit == k) {
				n++;
				break;
			}
	return n;
}

const char *series_built_words(char *buf, size_t len, const struct ms_series *s)
{
	int built = s->asked - s->c[0].asked, at = step_commits(s);

	if (s->every)
		snprintf(buf, len, "every commit: built %d of the %d commits and the base", built, s->n);
	else
		snprintf(buf, len,
			 "bisect: built %d of the %d commits and the base; %d rows moved, in steps at %d commits: "
			 "at most %d x ceil(log2 %d) + 2 = %d builds",
			 built, s->n, s->nmoved, at, at, s->n, at * ceil_log2(s->n) + 2);
	return buf;
}

/* A cell: the move in %, its mark; "." not measured, "x" failed, "n/a". */
static const char *cell_text(const struct series_report *r, int k, int row, char *buf, size_t len)
{
	const struct ms_row *x = ms_series_row(r->s, k, row);
	struct ms_move mv;

	if (r->s->c[k].failed)
		return "x";
	if (!x)
		return ".";
	if (!x->ok || series_cell(r, k, row, &mv))
		return "n/a";
	if (mv.verdict == MS_SAME)
		return "0";
	snprintf(buf, len, "%+.1f%s", mv.pct,
		 mv.verdict == MS_IMPROVED || mv.verdict == MS_REGRESSED ? rp_verdict(mv.verdict) : "");
	return buf;
}

static void commits(FILE *f, const struct ms_series *s)
{
	fprintf(f, "\ncommits\n");
	for (int k = 1; k <= s->n; k++) {
		char lead[32];
		int room;

		snprintf(lead, sizeof(lead), "  %2d %-16.16s", k, s->c[k].id);
		room = RP_TEXT_WIDTH - 1 - (int)strlen(lead);
		if ((int)strlen(s->c[k].subject) <= room)
			fprintf(f, "%s %s\n", lead, s->c[k].subject);
		else
			fprintf(f, "%s %.*s...\n", lead, room - 3, s->c[k].subject);
		if (s->c[k].failed)
			rp_wrap(f, "       ", "         ", s->c[k].why, RP_TEXT_WIDTH);
	}
}

static int name_width(const struct series_report *r)
{
	int w = 16;

	for (int i = 0; i < ms_series_nrows(r->s); i++)
		if (series_row_shown(r, i) && (int)strlen(ms_series_row(r->s, 0, i)->name) > w)
			w = (int)strlen(ms_series_row(r->s, 0, i)->name);
	return w;
}

/* The table, commits [from, to]. */
static void block(FILE *f, const struct series_report *r, int w, int from, int to)
{
	fprintf(f, "\n%-*s cpu   base", w, "path");
	for (int k = from; k <= to; k++)
		fprintf(f, " %*d", CELL, k);
	fputc('\n', f);
	for (int i = 0; i < ms_series_nrows(r->s); i++) {
		const struct ms_row *b = ms_series_row(r->s, 0, i);
		char buf[32];

		if (!series_row_shown(r, i))
			continue;
		fprintf(f, "%-*s %-3.3s ", w, b->name, b->core->name);
		if (b->ok)
			fprintf(f, "%6.0f", b->s[MS_TYPICAL].d.mean);
		else
			fprintf(f, "%6s", "n/a");
		for (int k = from; k <= to; k++)
			fprintf(f, " %*s", CELL, cell_text(r, k, i, buf, sizeof(buf)));
		fputc('\n', f);
	}
}

static void table(FILE *f, const struct series_report *r)
{
	int w = name_width(r), per = (RP_TEXT_WIDTH - (w + 11)) / (CELL + 1), shown = 0;

	if (per < 1)
		per = 1;
	for (int i = 0; i < ms_series_nrows(r->s); i++)
		shown += series_row_shown(r, i);
	fputc('\n', f);
	rp_wrap(f, "", "",
		r->vs_parent ? "typical cycles per op of the base, and each commit's change against its parent "
			       "(the measured commit before it), in %:"
			     : "typical cycles per op of the base, and each commit's change against it, in %:",
		RP_TEXT_WIDTH);
	rp_wrap(f, "", "",
		"(I) improved, (R) regressed - significant (Welch, p < 0.05) and beyond the layout band; "
		"0 unchanged; . not measured; x does not apply, build or boot; n/a cannot run",
		RP_TEXT_WIDTH);
	if (!shown)
		fprintf(f, "\nno commit moved a row (--all lists them)\n");
	for (int k = 1; shown && k <= r->s->n; k += per)
		block(f, r, w, k, k + per - 1 < r->s->n ? k + per - 1 : r->s->n);
	if (shown && !r->all && shown < ms_series_nrows(r->s))
		fprintf(f, "(%d more rows no commit moved: --all lists them)\n", ms_series_nrows(r->s) - shown);
}

/* "3 getpid-barrier  +17.3% (R)", and what it is against when not the
 * base, and the commits between that did not build. */
static void step_line(FILE *f, const struct ms_series *s, const struct ms_step *st)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "    %2d %-16.16s %+.1f%% %s", st->commit, s->c[st->commit].id,
			 st->mv.pct, rp_verdict(st->mv.verdict));

	if (st->from)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " against %d", st->from);
	fprintf(f, "%s\n", line);
	if (st->parent != st->commit - 1)
		fprintf(f, "       (somewhere in %d..%d: the commits between did not build)\n", st->parent + 1,
			st->commit);
}

/* Rows that moved from the base to the tip (lasting 1), or only between
 * (lasting 0: every mode), each with its steps. */
static int moves(FILE *f, const struct ms_series *s, int lasting, const char *title)
{
	int n = 0;

	for (int i = 0; i < s->nsteps; i++) {
		const struct ms_step *st = &s->steps[i];
		const struct ms_row *b = ms_series_row(s, 0, st->row);
		struct ms_move whole;

		if (i && s->steps[i - 1].row == st->row)
			continue;
		ms_series_move(s, 0, s->tip, st->row, &whole);
		if ((whole.verdict == MS_IMPROVED || whole.verdict == MS_REGRESSED) != lasting)
			continue;
		if (!n++)
			fprintf(f, "\n%s\n", title);
		if (lasting)
			fprintf(f, "  %s %s %+.1f%% %s\n", b->name, b->core->name, whole.pct, rp_verdict(whole.verdict));
		else
			fprintf(f, "  %s %s\n", b->name, b->core->name);
		for (int j = i; j < s->nsteps && s->steps[j].row == st->row; j++)
			step_line(f, s, &s->steps[j]);
	}
	return n;
}

const char *series_no_move(char *buf, size_t len, const struct ms_series *s)
{
	size_t used = 0;

	buf[0] = 0;
	for (int k = 1; k <= s->n; k++) {
		int first = 0;

		for (int i = 0; i < s->nsteps && !first; i++)
			first = s->steps[i].commit == k;
		if (!first && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? " " : "", k);
	}
	return used ? buf : "none";
}

static void explained(FILE *f, const struct series_report *r)
{
	for (int i = 0; i < r->nex; i++) {
		const struct ms_step *st = r->ex[i].step;

		fprintf(f, "\nstep %d (%s) against %d (%s): base is %d, patched is %d\n", st->commit,
			r->s->c[st->commit].id, st->parent, r->s->c[st->parent].id, st->parent, st->commit);
		rp_explain_text(f, &r->ex[i].d[0], &r->ex[i].d[1], r->limit, 1);
	}
}

void rp_series_text(FILE *f, const struct series_report *r)
{
	const struct ms_series *s = r->s;
	char text[1024];

	fprintf(f, "hotsim series: %d commits of %s\n", s->n, r->tree);
	rp_wrap(f, "  base     ", "           ", rp_identity(text, sizeof(text), s->c[0].m->img), RP_TEXT_WIDTH);
	rp_wrap(f, "  built    ", "           ", series_built_words(text, sizeof(text), s), RP_TEXT_WIDTH);
	if (s->tip)
		fprintf(f, "  tip      %d %s\n", s->tip, s->c[s->tip].id);
	else
		fprintf(f, "  tip      none: no commit builds\n");
	commits(f, s);
	table(f, r);
	if (!moves(f, s, 1, "moves from the base to the tip: the first commit of each, each step"))
		fprintf(f, "\nno row moved from the base to the tip\n");
	moves(f, s, 0, "moves that do not last to the tip");
	fputc('\n', f);
	rp_wrap(f, "first commit of no move: ", "  ", series_no_move(text, sizeof(text), s), RP_TEXT_WIDTH);
	explained(f, r);
	fprintf(f, "\ndeterministic: the same series gives byte-identical output\n");
}
