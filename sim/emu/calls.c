/*
 * calls.c - trace consecutive calls of a function from a harness of blr
 * instructions (model.h): how microbenchmarks and `hotsim snippet` produce
 * the traces they feed to the models.
 */
#include <stdlib.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "a64/encode.h"
#include "emu/calls.h"

#define BLR_X19 a64_gen_blr(19)
#define CALLS_STACK (256 * 1024)

int hs_calls_init(struct hs_runner *r, unsigned n, struct hs_calls *c)
{
	uint32_t *w;

	if (!n || n > HS_CALLS_MAX)
		return hs_fail("calls harness: %u calls (1..%d)", n, HS_CALLS_MAX);
	w = hs_malloc(n * sizeof(*w));
	if (!w)
		return -1;
	for (unsigned i = 0; i < n; i++)
		w[i] = BLR_X19;
	c->harness = hs_rt_harness(r, w, n);
	free(w);
	if (!c->harness)
		return -1;
	c->n = n;
	c->stack = hs_rt_alloc(r, CALLS_STACK, 4096);
	if (!c->stack)
		return -1;
	c->stack += CALLS_STACK;
	return 0;
}

int hs_calls_trace(struct hs_runner *r, const struct hs_calls *c, uint64_t fn, const uint64_t *args,
		   int nargs, unsigned ncalls, uint64_t budget, struct hs_trace *tr)
{
	struct hs_run run = { .what = "snippet", .budget = budget, .trace = tr };

	if (!ncalls || ncalls > c->n)
		return hs_fail("%u calls asked of a harness of %u", ncalls, c->n);
	for (unsigned i = 0; i < 8; i++)
		hs_rt_set_x(r, i, (int)i < nargs ? args[i] : 0);
	hs_rt_set_x(r, 19, fn);
	hs_rt_set_x(r, 30, HS_EXIT_VA);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, c->stack);
	run.pc = c->harness + 4ULL * (c->n - ncalls);
	run.stop = c->harness + 4ULL * c->n;
	return hs_rt_run(r, &run);
}
