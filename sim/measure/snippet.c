/*
 * snippet.c - time a function of a small aarch64 ELF (`hotsim snippet`):
 * trace N consecutive calls from a harness of N `blr` instructions (so a
 * call costs its blr and the function, the return stack sees real calls and
 * no loop overhead is traced; see emu/calls.h), then cost the trace on a
 * core cold and warm, with each static instruction's share. No boot-time
 * patching: the function runs as the file holds it.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/calls.h"
#include "emu/runner.h"
#include "hotsim/err.h"
#include "hotsim/measure.h"

#define CALL_BUDGET 50000000ULL		/* instructions per traced run */

int ms_snippet_trace(const char *file, const char *entry, unsigned calls, const uint64_t *args,
		     int nargs, struct ms_snippet *out)
{
	struct hs_calls harness;

	memset(out, 0, sizeof(*out));
	if (!calls || calls > HS_CALLS_MAX)
		return hs_fail("--iterations needs 1..%d", HS_CALLS_MAX);
	out->calls = calls;
	if (!(out->img = hs_image_open(file)))
		return -1;
	if (!(out->fn = hs_sym_spec(out->img, entry, NULL)))
		return hs_fail("%s: no symbol '%.64s'", out->img->path, entry);
	if (!(out->r = hs_runner_new(out->img, out->img->mem, NULL)) ||
	    hs_calls_init(out->r, calls, &harness))
		return -1;
	hs_trace_init(&out->tr, hs_rt_dcache(out->r), MS_TRACE_CAP);
	return hs_calls_trace(out->r, &harness, out->fn->addr, args, nargs, calls, CALL_BUDGET, &out->tr);
}

void ms_snippet_free(struct ms_snippet *s)
{
	hs_trace_free(&s->tr);
	hs_runner_free(s->r);
	hs_image_close(s->img);
	memset(s, 0, sizeof(*s));
}

static int by_cycles(const void *a, const void *b, void *ctx)
{
	const struct ms_insn_share *g = ctx;
	uint64_t x = g[*(const uint32_t *)a].cycles, y = g[*(const uint32_t *)b].cycles;

	if (x != y)
		return x < y ? 1 : -1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

int ms_snippet_cost(const struct ms_snippet *s, struct hs_model *m, struct ms_snippet_cost *out)
{
	const struct hs_trace *t = &s->tr;
	struct hs_insn_cost *per;

	memset(out, 0, sizeof(*out));
	per = hs_calloc(t->n ? t->n : 1, sizeof(*per));
	out->share = hs_calloc(t->dc->n ? t->dc->n : 1, sizeof(*out->share));
	out->order = hs_calloc(t->dc->n ? t->dc->n : 1, sizeof(*out->order));
	if (!per || !out->share || !out->order ||
	    hs_model_cold(m, t, &out->cold, NULL) || hs_model_warm(m, t, MS_WARM_MAX, &out->warm, per)) {
		free(per);
		return -1;
	}
	/* the warm trace's cycles by static instruction, most expensive first */
	for (size_t i = 0; i < t->n; i++) {
		struct ms_insn_share *a = &out->share[t->v[i].sidx];

		a->cycles += per[i].cycles;
		a->count++;
		for (int k = 0; k < HS_NSTALLS; k++)
			a->stall[k] += per[i].stall[k];
	}
	for (uint32_t k = 0; k < t->dc->n; k++)
		if (out->share[k].count)
			out->order[out->n++] = k;
	qsort_r(out->order, out->n, sizeof(*out->order), by_cycles, out->share);
	free(per);
	return 0;
}

void ms_snippet_cost_free(struct ms_snippet_cost *c)
{
	free(c->share);
	free(c->order);
	memset(c, 0, sizeof(*c));
}
