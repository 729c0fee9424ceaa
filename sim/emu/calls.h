/* calls.h - tracing consecutive calls of one function (calls.c). */
#ifndef HOTSIM_EMU_CALLS_H
#define HOTSIM_EMU_CALLS_H

#include <stdint.h>

#include "emu/runner.h"
#include "hotsim/trace.h"

/*
 * Tracing calls for microbenchmarks and `hotsim snippet`: a harness of n
 * consecutive `blr x19` on the runner's harness page, and a stack. A traced
 * run of k <= n calls starts k instructions before the end of the harness,
 * so the trace is [blr, callee..., ret] x k: each call costs its blr, the
 * return stack and the BTAC see real calls, and the trace has no harness
 * loop overhead. x0..x7 hold args on the first call only (later calls see
 * what the previous one left); x19 must be preserved by the callee (AAPCS).
 */
#define HS_CALLS_MAX 4096

struct hs_calls {
	uint64_t harness;	/* address of the first blr */
	unsigned n;		/* blr instructions in it */
	uint64_t stack;		/* initial sp */
};

/* -1 (hs_errmsg) if the harness page or the heap is full, or n is 0 or
 * above HS_CALLS_MAX. */
int hs_calls_init(struct hs_runner *r, unsigned n, struct hs_calls *c);

/* Append ncalls consecutive calls of fn to tr; budget is per run. */
int hs_calls_trace(struct hs_runner *r, const struct hs_calls *c, uint64_t fn, const uint64_t *args,
		   int nargs, unsigned ncalls, uint64_t budget, struct hs_trace *tr);

#endif
