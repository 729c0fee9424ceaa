/*
 * report_projection.c - the paths that mirror a benchmark (def->bench) in
 * its units (usecs/op, ops/s), with and without the periodic tick, as
 * computed by the library (hotsim/measure.h, ms_project): one table per
 * path.
 */
#include <stdio.h>

#include "hotsim/core.h"
#include "json.h"
#include "report.h"

/* The rows of one path's table: [from, *to). */
static void projection_table(FILE *f, const struct ms_compare *c, const struct rp_details *d, int from,
			     int to)
{
	const struct ms_projection *p0 = &d->proj[from];
	char note[1200], title[160], what[400];
	size_t n = 0;

	fprintf(f, "\n");
	snprintf(title, sizeof(title), "%s as `%s`: ", p0->def->name, p0->def->bench->benchmark);
	if (p0->tick)
		snprintf(what, sizeof(what), "%s (%s%s); us/op and ops/s at the core's clock; a HZ row adds "
			 "the tick (%s x HZ x op time)", p0->def->bench->op, ms_state_names[p0->state],
			 p0->state == MS_TYPICAL ? ": the mean, +-95% its interval" : "", p0->tick);
	else
		snprintf(what, sizeof(what), "%s (%s); us/op and ops/s at the core's clock", p0->def->bench->op,
			 ms_state_names[p0->state]);
	rp_wrap(f, title, "  ", what, RP_TEXT_WIDTH);
	if (c->patched)
		fprintf(f, "%-3s %7s %4s %7s %7s %7s %6s %7s %8s\n", "cpu", "clock", "HZ", "us/op", "patched",
			"delta", "+-95", "delta%", "ops/s");
	else
		fprintf(f, "%-3s %7s %4s %7s %6s %8s\n", "cpu", "clock", "HZ", "us/op", "+-95", "ops/s");
	for (int i = from; i < to; i++) {
		const struct ms_projection *p = &d->proj[i];
		char hz[16], clk[16], pct[16], ci[16];

		snprintf(hz, sizeof(hz), p->hz ? "%u" : "-", p->hz);
		snprintf(clk, sizeof(clk), "%.2fGHz", p->clock_hz / 1e9);
		snprintf(pct, sizeof(pct), "%+.2f%%", p->delta_pct);
		if (c->patched) {
			snprintf(ci, sizeof(ci), p->delta_ci95 > 0 ? "%.3f" : "-", p->delta_ci95);
			fprintf(f, "%-3s %7s %4s %7.3f %7.3f %+7.3f %6s %7s %8.0f\n", p->cpu, clk, hz, p->us[0],
				p->us[1], p->delta_us, ci, pct, p->ops[1]);
		} else {
			snprintf(ci, sizeof(ci), p->us_ci95[0] > 0 ? "%.3f" : "-", p->us_ci95[0]);
			fprintf(f, "%-3s %7s %4s %7.3f %6s %8.0f\n", p->cpu, clk, hz, p->us[0], ci, p->ops[0]);
		}
	}
	/* where each typical clock comes from; a --freq clock needs no source */
	n = (size_t)snprintf(note, sizeof(note), "clocks: --freq, else each core's typical one");
	for (int i = from, k = 0; i < to && n < sizeof(note); i++) {
		const struct hs_core *core = hs_core_find(d->proj[i].cpu);

		if (d->proj[i].hz == 0 && core && core->clock_hz == d->proj[i].clock_hz)
			n += (size_t)snprintf(note + n, sizeof(note) - n, "%s%s: %s", k++ ? "; " : " (", core->name,
					      core->clock_source);
		if (i == to - 1 && k && n < sizeof(note))
			n += (size_t)snprintf(note + n, sizeof(note) - n, ")");
	}
	if (n < sizeof(note))
		snprintf(note + n, sizeof(note) - n, ".");
	rp_wrap(f, "", "  ", note, RP_TEXT_WIDTH);
}

void rp_projection_text(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	for (int i = 0, j; i < d->nproj; i = j) {
		for (j = i + 1; j < d->nproj && d->proj[j].def == d->proj[i].def; j++)
			;
		projection_table(f, c, d, i, j);
	}
}

void rp_projection_json(struct json *j, const struct rp_details *d)
{
	json_begin_arr(j, "projection");
	for (int i = 0; i < d->nproj; i++) {
		const struct ms_projection *p = &d->proj[i];

		json_begin_obj(j, NULL);
		json_str(j, "path", p->def->name);
		json_str(j, "cpu", p->cpu);
		json_uint(j, "clock_hz", p->clock_hz);
		json_uint(j, "tick_hz", p->hz);
		json_str(j, "state", ms_state_names[p->state]);
		json_num(j, p->both ? "base_us_per_op" : "us_per_op", p->us[0], 4);
		json_num(j, p->both ? "base_us_per_op_ci95" : "us_per_op_ci95", p->us_ci95[0], 4);
		json_num(j, p->both ? "base_ops_per_s" : "ops_per_s", p->ops[0], 1);
		json_num(j, p->both ? "base_tick_cycles_per_op" : "tick_cycles_per_op", p->tick_cycles[0], 2);
		if (p->both) {
			json_num(j, "patched_us_per_op", p->us[1], 4);
			json_num(j, "patched_ops_per_s", p->ops[1], 1);
			json_num(j, "patched_tick_cycles_per_op", p->tick_cycles[1], 2);
			json_num(j, "patched_us_per_op_ci95", p->us_ci95[1], 4);
			json_num(j, "delta_us_per_op", p->delta_us, 4);
			json_num(j, "delta_us_per_op_ci95", p->delta_ci95, 4);
			json_num(j, "delta_pct", p->delta_pct, 2);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}
