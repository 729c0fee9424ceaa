/*
 * frontend.h - the front end's state and its per-record steps (models/
 * only): fetch, the queue slot an issue frees, and the control step after
 * a branch or a serialising op. Inline, because every record takes them;
 * what is not per record (a new line's lookups, the predictors, the
 * redirect) is frontend.c's. It uses struct hs_model, so it includes
 * model_internal.h itself.
 */
#ifndef HOTSIM_MODELS_FRONTEND_H
#define HOTSIM_MODELS_FRONTEND_H

#include "model_internal.h"

#define HS_FE_QMAX 64		/* a power of two: instruction j's slot is j % HS_FE_QMAX */
_Static_assert((HS_FE_QMAX & (HS_FE_QMAX - 1)) == 0, "HS_FE_QMAX: a power of two");

struct hs_fe {
	uint64_t cyc;		/* fetch cycle of the last instruction fetched */
	unsigned ngroup;	/* instructions fetched in that cycle */
	uint64_t redirect;	/* the next instruction cannot issue before this */
	uint8_t redirect_cause;	/* enum hs_stall of the redirect */
	uint8_t redirect_uncal;
	uint8_t redirected;	/* a redirect applies to the next instruction */
	uint64_t line, page;	/* last I-cache line / I-TLB page looked up (+1) */
	/* issue (dispatch) time of instruction j at q[j % HS_FE_QMAX]: the
	 * last fetch_queue (<= HS_FE_QMAX) are there */
	uint64_t q[HS_FE_QMAX];
	size_t n;		/* instructions fetched so far */
	unsigned width, qn;	/* fetch_width, fetch_queue (cached at reset) */
};

/* What the front end says about instruction i. */
struct hs_fetch {
	uint64_t t;		/* earliest issue (in-order) / dispatch (OoO) */
	uint64_t t_redirect;	/* part of t due to the previous instruction's redirect */
	uint8_t cause;		/* stall cause if t binds: HS_ST_BRANCH/ICACHE/TLB/SERIAL */
	uint8_t redirect_cause, redirect_uncal;
	uint8_t miss_uncal;	/* miss_cycles came from uncalibrated latencies */
	uint16_t events;	/* HS_EV_ICACHE_MISS, L2, TLB */
	uint32_t miss_cycles;	/* I-side miss latency included in t */
	uint32_t exc_cycles;	/* exception entry charged before it (uncalibrated) */
};

void hs_fe_reset(const struct hs_model *m, struct hs_fe *fe);
/* Fetch entered the I-cache line of pc (and maybe a page): the I-TLB and
 * I-cache lookups; 1 when they cost miss cycles (added to f). */
int hs_fe_line(struct hs_model *m, struct hs_fe *fe, uint64_t pc, struct hs_fetch *f,
	       struct hs_model_result *res);

/* Fetch the instruction at pc (record flags rflags); fills f. Inline, every
 * record: only a new line's lookups are a call (frontend.c). */
static inline void hs_fe_fetch(struct hs_model *m, struct hs_fe *fe, uint64_t pc, uint32_t rflags,
			       struct hs_fetch *f, struct hs_model_result *res)
{
	uint64_t t = fe->ngroup >= fe->width ? fe->cyc + 1 : fe->cyc, line = (pc >> m->mem.l1i.shift) + 1;
	int newgroup = 0;

	f->t_redirect = 0;
	f->cause = HS_ST_STRUCT;
	f->redirect_cause = f->redirect_uncal = f->miss_uncal = 0;
	f->events = 0;
	f->miss_cycles = f->exc_cycles = 0;
	if (fe->redirected) {
		/* the instruction before redirected fetch: not here before the redirect */
		f->redirect_cause = fe->redirect_cause;
		f->redirect_uncal = fe->redirect_uncal;
		if (fe->redirect >= t) {
			t = fe->redirect;
			f->t_redirect = t;
			f->cause = fe->redirect_cause;
		}
		fe->redirected = 0;
		newgroup = 1;
	}
	/* the queue is full until instruction n - q has issued (for n < q the
	 * slot is one no instruction has used yet: 0 from the reset) */
	if (fe->qn && fe->q[(fe->n - fe->qn) % HS_FE_QMAX] > t) {
		t = fe->q[(fe->n - fe->qn) % HS_FE_QMAX];
		f->cause = HS_ST_STRUCT;
		f->t_redirect = 0;
	}
	if (rflags & HS_T_EXC_ENTRY) {
		/* the exception is taken before this, the vector's first insn */
		f->exc_cycles = (uint32_t)m->v[HS_P_EXC_ENTRY];
		t += f->exc_cycles;
		f->cause = HS_ST_SERIAL;
		newgroup = 1;
	}
	if (line != fe->line) {
		/* a new line (the first fetch's too: fe->line starts 0) */
		fe->line = line;
		if (hs_fe_line(m, fe, pc, f, res)) {
			t += f->miss_cycles;
			newgroup = 1;
		}
	}
	/* a new fetch group after a redirect, an exception or a miss, or when
	 * t moved on (t never goes back) */
	if (newgroup || t > fe->cyc) {
		fe->cyc = t;
		fe->ngroup = 1;
	} else {
		fe->ngroup++;
	}
	fe->n++;
	f->t = t;
}
/* Instruction fetched last issued (dispatched) at t: frees its queue slot. */
static inline void hs_fe_issued(struct hs_fe *fe, uint64_t t)
{
	fe->q[(fe->n - 1) % HS_FE_QMAX] = t;
}

/* After instruction i resolves: restart or redirect the front end; 1 when
 * the redirect is still open (for the tail). Only branches, serialising
 * and unknown ops have anything to do: the rest return at once, inline;
 * the others are frontend.c's (the predictors and the redirect). */
int hs_control_slow(struct hs_model *m, struct hs_fe *fe, const struct hs_trace *t, size_t i,
		    const struct hs_op *op, uint64_t fetch_t, uint64_t resolve_t,
		    struct hs_model_result *res, struct hs_insn_cost *e);
static inline int hs_control_phase(struct hs_model *m, struct hs_fe *fe, const struct hs_trace *t,
				   size_t i, const struct hs_op *op, uint64_t fetch_t, uint64_t resolve_t,
				   struct hs_model_result *res, struct hs_insn_cost *e)
{
	if (!(op->fl & (HS_OP_REFETCH | HS_OP_UNKNOWN)) && op->bkind == HS_B_NONE)
		return 0;
	return hs_control_slow(m, fe, t, i, op, fetch_t, resolve_t, res, e);
}

#endif
