/*
 * report_projection.c - sched-pipe in the units of `perf bench sched pipe`
 * (usecs/op, ops/s), with and without the periodic tick, as computed by
 * the library (hotsim/measure.h, ms_project).
 */
#include <stdio.h>

#include "hotsim/core.h"
#include "json.h"
#include "report.h"

void rp_projection_text(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	const char *last = "";

	if (!d->nproj)
		return;
	fprintf(f, "\nsched-pipe as `perf bench sched pipe` (one round trip = one op, warm; HZ: the tick "
		"added, irq-el1 x HZ x op time):\n");
	if (c->patched)
		fprintf(f, "%-4s %8s %5s %11s %11s %10s %8s %10s %10s\n", "cpu", "clock", "HZ", "base us/op",
			"patched", "delta us", "delta%", "base ops/s", "patched");
	else
		fprintf(f, "%-4s %8s %5s %11s %10s\n", "cpu", "clock", "HZ", "us/op", "ops/s");
	for (int i = 0; i < d->nproj; i++) {
		const struct ms_projection *p = &d->proj[i];
		char hz[16];

		snprintf(hz, sizeof(hz), p->hz ? "%u" : "-", p->hz);
		if (c->patched)
			fprintf(f, "%-4s %5.2f GHz %5s %11.3f %11.3f %+10.3f %+7.2f%% %10.0f %10.0f\n", p->cpu,
				p->clock_hz / 1e9, hz, p->us[0], p->us[1], p->delta_us, p->delta_pct, p->ops[0],
				p->ops[1]);
		else
			fprintf(f, "%-4s %5.2f GHz %5s %11.3f %10.0f\n", p->cpu, p->clock_hz / 1e9, hz, p->us[0],
				p->ops[0]);
		last = p->cpu;
	}
	(void)last;
	fprintf(f, "clocks: --freq, else each core's typical one:");
	for (int i = 0; i < d->nproj; i++) {
		const struct hs_core *core = hs_core_find(d->proj[i].cpu);

		if (d->proj[i].hz == 0 && core && core->clock_hz == d->proj[i].clock_hz)
			fprintf(f, " %s %s;", core->name, core->clock_source);
	}
	fprintf(f, "\n");
}

void rp_projection_json(struct json *j, const struct rp_details *d)
{
	json_begin_arr(j, "projection");
	for (int i = 0; i < d->nproj; i++) {
		const struct ms_projection *p = &d->proj[i];

		json_begin_obj(j, NULL);
		json_str(j, "path", "sched-pipe");
		json_str(j, "cpu", p->cpu);
		json_uint(j, "clock_hz", p->clock_hz);
		json_uint(j, "tick_hz", p->hz);
		json_num(j, p->both ? "base_us_per_op" : "us_per_op", p->us[0], 4);
		json_num(j, p->both ? "base_ops_per_s" : "ops_per_s", p->ops[0], 1);
		json_num(j, p->both ? "base_tick_cycles_per_op" : "tick_cycles_per_op", p->tick_cycles[0], 2);
		if (p->both) {
			json_num(j, "patched_us_per_op", p->us[1], 4);
			json_num(j, "patched_ops_per_s", p->ops[1], 1);
			json_num(j, "patched_tick_cycles_per_op", p->tick_cycles[1], 2);
			json_num(j, "delta_us_per_op", p->delta_us, 4);
			json_num(j, "delta_pct", p->delta_pct, 2);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}
