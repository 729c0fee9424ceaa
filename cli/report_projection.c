/*
 * report_projection.c - the paths that mirror a benchmark (def->bench) in
 * its units (usecs/op, ops/s), with and without the periodic tick, as
 * computed by the library (hotsim/measure.h, ms_project): one table for
 * them all.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/core.h"
#include "json.h"
#include "report.h"

/* What each projected path mirrors, once per path. */
static void benchmarks_note(FILE *f, const struct rp_details *d)
{
	char note[1600];
	size_t n = (size_t)snprintf(note, sizeof(note), "benchmarks:");

	for (int i = 0; i < d->nproj && n < sizeof(note); i++)
		if (!i || d->proj[i].def != d->proj[i - 1].def) {
			const struct hs_bench_def *b = d->proj[i].def->bench;

			n += (size_t)snprintf(note + n, sizeof(note) - n, "%s %s: `%s`, %s%s%s", i ? ";" : "",
					      d->proj[i].def->name, b->benchmark, b->op, b->versus ? "; " : "",
					      b->versus ? b->versus : "");
		}
	rp_wrap(f, "", "  ", note, RP_TEXT_WIDTH);
}

/* Where each typical clock comes from; a --freq clock needs no source,
 * but says what it changed beside the projection. */
static void clocks_note(FILE *f, const struct rp_details *d)
{
	char note[1200], seen[16][8];
	size_t n = (size_t)snprintf(note, sizeof(note), "clocks: --freq, else each core's typical one");
	int k = 0, freq = 0;

	for (int i = 0; i < d->nproj && n < sizeof(note); i++) {
		const struct hs_core *core = d->proj[i].core;
		int dup = 0;

		freq |= !d->proj[i].hz && core->clock_hz != d->proj[i].clock_hz;
		for (int j = 0; j < k; j++)
			dup |= !strcmp(seen[j], core->name);
		if (dup || k == 16 || d->proj[i].hz || core->clock_hz != d->proj[i].clock_hz)
			continue;
		snprintf(seen[k], sizeof(seen[k]), "%s", core->name);
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%s%s: %s", k++ ? "; " : " (", core->name,
				      core->clock_source);
	}
	if (k && n < sizeof(note))
		n += (size_t)snprintf(note + n, sizeof(note) - n, ")");
	if (freq && n < sizeof(note))
		n += (size_t)snprintf(note + n, sizeof(note) - n, "; a core at a --freq clock is measured there: the "
				      "DRAM's and the IPI's times in its cycles (hotsim models: the times)");
	if (n < sizeof(note))
		snprintf(note + n, sizeof(note) - n, ".");
	rp_wrap(f, "", "  ", note, RP_TEXT_WIDTH);
}

static void projection_row(FILE *f, const struct ms_compare *c, const struct ms_projection *p,
			   const char *name)
{
	char hz[16], clk[16], pct[16], ci[16];

	snprintf(hz, sizeof(hz), p->hz ? "%u" : "-", p->hz);
	snprintf(clk, sizeof(clk), "%.2fGHz", p->clock_hz / 1e9);
	snprintf(pct, sizeof(pct), "%+.2f%%", p->delta_pct);
	if (c->patched) {
		snprintf(ci, sizeof(ci), p->delta_ci95 > 0 ? "%.3f" : "-", p->delta_ci95);
		fprintf(f, "%-15.15s %-3s %7s %4s %7.3f %7.3f %+7.3f %6s %7s\n", name, p->core->name, clk, hz,
			p->us[0], p->us[1], p->delta_us, ci, pct);
	} else {
		snprintf(ci, sizeof(ci), p->us_ci95[0] > 0 ? "%.3f" : "-", p->us_ci95[0]);
		fprintf(f, "%-15.15s %-3s %7s %4s %7.3f %6s %8.0f\n", name, p->core->name, clk, hz, p->us[0], ci,
			p->ops[0]);
	}
}

/*
 * One table for every path that mirrors a benchmark: us per op at a
 * clock, a HZ row adding the tick for the paths that ask for it; which
 * benchmark each mirrors and where the clocks come from below it.
 */
void rp_projection_text(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	char what[400];
	const char *tick = NULL;

	if (!d->nproj)
		return;
	for (int i = 0; i < d->nproj; i++)
		tick = d->proj[i].tick && d->proj[i].hz ? d->proj[i].tick : tick;
	fprintf(f, "\n");
	snprintf(what, sizeof(what), "us per op at the core's clock (%s%s)%s%s%s",
		 ms_state_names[d->proj[0].state],
		 d->proj[0].state == MS_TYPICAL ? ": the mean, +-95 its interval" : "",
		 tick ? "; a HZ row adds the tick (" : "", tick ? tick : "", tick ? " x HZ x op time)" : "");
	rp_wrap(f, "as the benchmarks count them: ", "  ", what, RP_TEXT_WIDTH);
	if (c->patched)
		fprintf(f, "%-15s %-3s %7s %4s %7s %7s %7s %6s %7s\n", "path", "cpu", "clock", "HZ", "us/op",
			"patched", "delta", "+-95", "delta%");
	else
		fprintf(f, "%-15s %-3s %7s %4s %7s %6s %8s\n", "path", "cpu", "clock", "HZ", "us/op", "+-95",
			"ops/s");
	for (int i = 0; i < d->nproj; i++)
		projection_row(f, c, &d->proj[i], d->proj[i].def->name);
	benchmarks_note(f, d);
	clocks_note(f, d);
}

void rp_projection_json(struct json *j, const struct rp_details *d)
{
	json_begin_arr(j, "projection");
	for (int i = 0; i < d->nproj; i++) {
		const struct ms_projection *p = &d->proj[i];

		json_begin_obj(j, NULL);
		json_str(j, "path", p->def->name);
		json_str(j, "cpu", p->core->name);
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
