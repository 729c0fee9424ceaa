/*
 * report_series_md.c - `hotsim series --format markdown`, for a pull
 * request: the commits, the table (a column per commit, Fastpath's marks
 * in bold), the first commit of every move with its steps, and each step's
 * explain folded.
 */
#include <stdio.h>

#include "report.h"
#include "series_cli.h"

static void commits(FILE *f, const struct ms_series *s)
{
	fprintf(f, "\n| # | commit | subject | |\n|---:|---|---|---|\n");
	for (int k = 1; k <= s->n; k++) {
		fprintf(f, "| %d | `%s` | ", k, s->c[k].id);
		rp_md_esc(f, s->c[k].subject);
		fputs(" | ", f);
		rp_md_esc(f, s->c[k].failed ? s->c[k].why : "");
		fputs(" |\n", f);
	}
}

static void cell(FILE *f, const struct series_report *r, int k, int row)
{
	struct ms_move mv;

	if (r->s->c[k].failed)
		fputs(" x |", f);
	else if (!ms_series_row(r->s, k, row))
		fputs(" . |", f);
	else if (series_cell(r, k, row, &mv))
		fputs(" n/a |", f);
	else if (mv.verdict == MS_IMPROVED || mv.verdict == MS_REGRESSED)
		fprintf(f, " **%+.1f%% %s** |", mv.pct, rp_verdict(mv.verdict));
	else if (mv.verdict == MS_SAME)
		fputs(" 0 |", f);
	else
		fprintf(f, " %+.1f%% |", mv.pct);
}

static void table(FILE *f, const struct series_report *r)
{
	fprintf(f, "\n| path | cpu | base |");
	for (int k = 1; k <= r->s->n; k++)
		fprintf(f, " %d |", k);
	fprintf(f, "\n|---|---|---:|");
	for (int k = 1; k <= r->s->n; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (int i = 0; i < ms_series_nrows(r->s); i++) {
		const struct ms_row *b = ms_series_row(r->s, 0, i);

		if (!series_row_shown(r, i))
			continue;
		fprintf(f, "| %s | %s |", b->name, b->core->name);
		if (b->ok)
			fprintf(f, " %.0f |", b->s[MS_TYPICAL].d.mean);
		else
			fputs(" n/a |", f);
		for (int k = 1; k <= r->s->n; k++)
			cell(f, r, k, i);
		fputc('\n', f);
	}
}

static void moves(FILE *f, const struct ms_series *s)
{
	int n = 0;

	for (int i = 0; i < s->nsteps; i++) {
		const struct ms_step *st = &s->steps[i];
		const struct ms_row *b = ms_series_row(s, 0, st->row);
		struct ms_move whole;

		if (i && s->steps[i - 1].row == st->row)
			continue;
		if (!n++)
			fprintf(f, "\n**First commit of every move** (and each step after it)\n\n");
		ms_series_move(s, 0, s->tip, st->row, &whole);
		fprintf(f, "- `%s` %s: %+.1f%% %s to the tip:", b->name, b->core->name, whole.pct,
			rp_verdict(whole.verdict));
		for (int j = i; j < s->nsteps && s->steps[j].row == st->row; j++) {
			const struct ms_step *x = &s->steps[j];

			fprintf(f, "%s **%d** `%s` %+.1f%% %s", j > i ? ";" : "", x->commit, s->c[x->commit].id,
				x->mv.pct, rp_verdict(x->mv.verdict));
			if (x->from)
				fprintf(f, " against %d", x->from);
		}
		fputc('\n', f);
	}
	if (!n)
		fprintf(f, "\nNo row moved.\n");
}

static void explained(FILE *f, const struct series_report *r)
{
	for (int i = 0; i < r->nex; i++) {
		const struct ms_step *st = r->ex[i].step;

		fprintf(f, "\n<details><summary>commit %d (%s) against %d: %s on %s</summary>\n\n```text", st->commit,
			r->s->c[st->commit].id, st->parent, r->ex[i].def->name, r->ex[i].d[0].pt->core->name);
		rp_explain_text(f, &r->ex[i].d[0], &r->ex[i].d[1], r->limit, 1);
		fprintf(f, "```\n\n</details>\n");
	}
}

void rp_series_markdown(FILE *f, const struct series_report *r)
{
	char text[1024];

	fprintf(f, "**hotsim series**: %d commits of `%s`; ", r->s->n, r->tree);
	rp_md_esc(f, series_built_words(text, sizeof(text), r->s));
	fputc('\n', f);
	commits(f, r->s);
	table(f, r);
	moves(f, r->s);
	fprintf(f, "\nFirst commit of no move: %s\n", series_no_move(text, sizeof(text), r->s));
	explained(f, r);
	fprintf(f, "\n<sub>typical cycles per op of the base; each commit's change against %s; (I)/(R): "
		   "significant (Welch, p < 0.05) and beyond the layout band; deterministic: the same series "
		   "gives byte-identical output</sub>\n",
		r->vs_parent ? "its parent" : "the base");
}
