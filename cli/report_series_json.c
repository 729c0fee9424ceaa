/*
 * report_series_json.c - `hotsim series --format json` (schema
 * hotsim-series/1): the commits, every row's cell per commit (its move
 * against the base, or the parent with --vs-parent), the moves with their
 * steps, and each step's explain as functions.
 */
#include <stdio.h>

#include "json.h"
#include "report.h"
#include "series_cli.h"

static void commits(struct json *j, const struct ms_series *s)
{
	json_begin_arr(j, "commits");
	for (int k = 0; k <= s->n; k++) {
		json_begin_obj(j, NULL);
		json_int(j, "k", k);
		json_str(j, "id", s->c[k].id);
		json_str(j, "subject", s->c[k].subject);
		json_bool(j, "built", s->c[k].asked);
		json_str(j, "measured", !s->c[k].m ? "no" : s->c[k].full ? "every_row" : "moved_rows");
		json_str(j, "failed", s->c[k].failed ? s->c[k].why : NULL);
		if (s->c[k].m)
			json_str(j, "build_id", s->c[k].m->img->build_id);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void move(struct json *j, const struct ms_move *mv)
{
	json_num(j, "delta", mv->delta, 2);
	json_num(j, "pct", mv->pct, 3);
	json_num(j, "p", mv->p, 6);
	json_str(j, "verdict", rp_verdict_word(mv->verdict));
}

static void rows(struct json *j, const struct series_report *r)
{
	json_begin_arr(j, "rows");
	for (int i = 0; i < ms_series_nrows(r->s); i++) {
		const struct ms_row *b = ms_series_row(r->s, 0, i);

		if (!series_row_shown(r, i))
			continue;
		json_begin_obj(j, NULL);
		json_str(j, "name", b->name);
		json_str(j, "cpu", b->core->name);
		json_num(j, "base", b->ok ? b->s[MS_TYPICAL].d.mean : 0, 2);
		json_begin_arr(j, "cells");
		for (int k = 1; k <= r->s->n; k++) {
			struct ms_move mv;

			if (series_cell(r, k, i, &mv))
				continue;
			json_begin_obj(j, NULL);
			json_int(j, "k", k);
			move(j, &mv);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void steps(struct json *j, const struct ms_series *s)
{
	json_begin_arr(j, "steps");
	for (int i = 0; i < s->nsteps; i++) {
		const struct ms_step *st = &s->steps[i];
		const struct ms_row *b = ms_series_row(s, 0, st->row);
		struct ms_move whole;

		ms_series_move(s, 0, s->tip, st->row, &whole);
		json_begin_obj(j, NULL);
		json_str(j, "name", b->name);
		json_str(j, "cpu", b->core->name);
		json_int(j, "commit", st->commit);
		json_int(j, "parent", st->parent);
		json_int(j, "against", st->from);
		move(j, &st->mv);
		json_bool(j, "lasts_to_tip", whole.verdict == MS_IMPROVED || whole.verdict == MS_REGRESSED);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void explains(struct json *j, const struct series_report *r)
{
	json_begin_arr(j, "explain");
	for (int i = 0; i < r->nex; i++) {
		const struct ms_step *st = r->ex[i].step;

		json_begin_obj(j, NULL);
		json_int(j, "commit", st->commit);
		json_int(j, "parent", st->parent);
		json_str(j, "path", r->ex[i].def->name);
		json_str(j, "cpu", r->ex[i].d[0].pt->core->name);
		json_uint(j, "parent_cycles", r->ex[i].d[0].res.cycles);
		json_uint(j, "commit_cycles", r->ex[i].d[1].res.cycles);
		rp_json_functions(j, &r->ex[i].d[0], &r->ex[i].d[1], r->limit);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void rp_series_json(FILE *f, const struct series_report *r)
{
	const struct ms_series *s = r->s;
	struct json j;

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", "hotsim-series/1");
	json_str(&j, "tree", r->tree);
	json_str(&j, "mode", s->every ? "every" : "bisect");
	json_str(&j, "cells_against", r->vs_parent ? "parent" : "base");
	json_int(&j, "built", s->asked - s->c[0].asked);
	json_int(&j, "tip", s->tip);
	json_int(&j, "moved_rows", s->nmoved);
	commits(&j, s);
	rows(&j, r);
	steps(&j, s);
	explains(&j, r);
	json_end_obj(&j);
	json_finish(&j);
}
