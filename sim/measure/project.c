/*
 * project.c - cycles to the units kernel developers quote for the
 * benchmarks the paths mirror (def->bench; `perf bench sched pipe`):
 * usecs/op and ops/s (see measure.h). The assumptions are those of
 * docs/seeds.md: one core, warm caches, a clock the user gives
 * or the core's typical one, and the tick (the path flagged def->tick) as
 * its cost spread over the ops it interrupts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/core.h"
#include "hotsim/err.h"
#include "hotsim/measure.h"

int ms_parse_clock(const char *arg, struct ms_clock *c)
{
	const char *eq = strchr(arg, '='), *num = eq ? eq + 1 : arg;
	char *end;
	double v;

	memset(c, 0, sizeof(*c));
	if (eq) {
		if ((size_t)(eq - arg) >= sizeof(c->core) || eq == arg)
			return hs_fail("--freq: bad core in '%s'", arg);
		memcpy(c->core, arg, (size_t)(eq - arg));
		if (!hs_core_find(c->core))
			return hs_fail("--freq %s: unknown cpu '%s' (known: %s)", arg, c->core, hs_core_names());
	}
	v = strtod(num, &end);
	if (end == num || v <= 0)
		return hs_fail("--freq expects [core=]frequency (1.8GHz, 800MHz), got '%s'", arg);
	if (!strcasecmp(end, "ghz"))
		v *= 1e9;
	else if (!strcasecmp(end, "mhz"))
		v *= 1e6;
	else if (*end && strcasecmp(end, "hz"))
		return hs_fail("--freq: unit of '%s' is not GHz, MHz or Hz", arg);
	if (v < 1e6 || v > 1e11)
		return hs_fail("--freq: %s is not a CPU clock", arg);
	c->hz = (uint64_t)(v + 0.5);
	return 0;
}

static const struct ms_row *row_of(const struct ms_compare *c, const char *name,
				   const struct hs_core *core, int patched)
{
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct ms_row *r = patched ? p->patched : p->base;

		if (r && r->ok && !strcmp(p->name, name) && p->core == core)
			return r;
	}
	return NULL;
}

static const struct hs_path_def *def_of(const struct ms_pair *p)
{
	return p->base ? p->base->def : p->patched ? p->patched->def : NULL;
}

/* Pair k is the first of its definition's (each definition projected once). */
static int first_of_def(const struct ms_compare *c, int k)
{
	const struct hs_path_def *d = def_of(&c->pairs[k]);

	for (int i = 0; d && i < k; i++)
		if (def_of(&c->pairs[i]) == d)
			return 0;
	return d != NULL;
}

static uint64_t clock_of(const struct hs_core *core, const struct ms_clock *clocks, int n)
{
	uint64_t hz = core->clock_hz;

	for (int i = 0; i < n; i++)
		if (!clocks[i].core[0] || !strcmp(clocks[i].core, core->name))
			hz = clocks[i].hz;
	return hz;
}

int ms_clock_params(const struct hs_core *const *cores, int ncores, const struct ms_clock *clocks, int nclocks,
		    struct ms_param *out, int max)
{
	int n = 0;

	for (int i = 0; i < ncores && n >= 0; i++) {
		int k = ms_clock_times(cores[i], clock_of(cores[i], clocks, nclocks), out + n, max - n);

		n = k < 0 ? -1 : n + k;
	}
	return n;
}

int ms_project(const struct ms_compare *c, const struct ms_clock *clocks, int nclocks,
	       const unsigned *hz, int nhz, struct ms_projection *out, int max)
{
	const struct hs_path_def *tick = hs_path_tick();
	enum ms_state st = MS_NSTATES;
	int n = 0;

	/* the first state the comparison shows: typical, else warm, else cold */
	for (int s = MS_NSTATES - 1; s >= 0; s--)
		if (c->want[s])
			st = (enum ms_state)s;
	if (st == MS_NSTATES)
		return 0;
	/* path by path (in the order measured), each core as measured */
	for (int di = 0; di < c->npairs; di++)
	for (int i = 0; i < c->npairs && first_of_def(c, di); i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct hs_path_def *d = def_of(&c->pairs[di]);
		uint64_t f = clock_of(p->core, clocks, nclocks);

		/* the path's own row (not a sub-row), with a benchmark */
		if (!d->bench || strcmp(p->name, d->name) || !f)
			continue;
		for (int k = -1; k < nhz && n < max; k++) {
			struct ms_projection *x = &out[n];
			int ok = 0;

			memset(x, 0, sizeof(*x));
			x->def = d;
			x->tick = tick ? tick->name : NULL;
			x->core = p->core;
			x->clock_hz = f;
			x->hz = k < 0 ? 0 : hz[k];
			x->state = st;
			x->both = c->patched != NULL;
			for (int side = 0; side <= x->both; side++) {
				const struct ms_row *op = row_of(c, d->name, p->core, side);
				const struct ms_row *irq = tick ? row_of(c, tick->name, p->core, side) : NULL;
				double cyc;

				if (!op || (x->hz && !irq))
					break;
				cyc = op->s[st].d.mean;
				/* ticks per op = HZ x op time; each costs a tick */
				x->tick_cycles[side] = x->hz ? irq->s[st].d.mean * x->hz * cyc / (double)f : 0;
				cyc += x->tick_cycles[side];
				x->us[side] = cyc / (double)f * 1e6;
				x->us_ci95[side] = op->s[st].d.ci95 / (double)f * 1e6;
				x->ops[side] = 1e6 / x->us[side];
				ok++;
			}
			if (ok != x->both + 1)
				continue;
			if (x->both) {
				struct ms_welch w;
				const struct ms_row *b = row_of(c, d->name, p->core, 0), *q = row_of(c, d->name, p->core, 1);

				x->delta_us = x->us[1] - x->us[0];
				x->delta_pct = 100.0 * x->delta_us / x->us[0];
				if (!ms_welch(&b->s[st].d, &q->s[st].d, &w))
					x->delta_ci95 = w.ci95 / (double)f * 1e6;
			}
			n++;
		}
	}
	return n;
}
