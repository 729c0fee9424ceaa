/*
 * model.h - pipeline cost models: one interface, one data file per core.
 *
 * A model consumes the dynamic stream of a path run (trace.h: instruction
 * class and registers from the A64 classifier, pc, data address, branch
 * outcome from the next record, sysreg and firmware events) and returns
 * cycles, with attribution per instruction: when it issued, how many cycles
 * it is charged and why (stall causes). Caches, TLBs and branch predictors
 * are model state: a cold run starts from flushed state, a warm run repeats
 * the trace until its cost converges.
 *
 * A core is a table (models/<core>.c: latencies, widths, penalties, cache
 * geometry, predictor sizes - every number with its source) plus an engine
 * (models/engine_*.c: in-order dual issue, out-of-order). Adding a core is a
 * new data file and one registry line; no other file changes.
 *
 * Parameters nobody publishes (barriers, MRS/MSR, exclusives, LSE atomics,
 * ERET, exception entry, firmware calls) are named, overridable
 * (`--param a55.isb=20`) and flagged uncalibrated; results say how many
 * cycles came from uncalibrated parameters.
 */
#ifndef HOTSIM_MODEL_H
#define HOTSIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/trace.h"

/* Why an instruction waited. */
enum hs_stall {
	HS_ST_DEP,		/* operand not ready (latency / forwarding) */
	HS_ST_STRUCT,		/* pipe, issue slot or queue busy */
	HS_ST_BRANCH,		/* branch mispredict / BTAC miss / return-stack miss */
	HS_ST_ICACHE,		/* instruction fetch miss (L1I, L2) */
	HS_ST_DCACHE,		/* data miss (L1D, L2, DRAM) */
	HS_ST_TLB,		/* micro/main TLB miss, table walk */
	HS_ST_SERIAL,		/* barrier, sysreg, exception entry/return, firmware */
	HS_NSTALLS
};

extern const char *const hs_stall_names[HS_NSTALLS];	/* "dep", "struct", ... */

/* Per dynamic instruction. The sum of cycles over a trace is the total. */
struct hs_insn_cost {
	uint64_t issue;		/* cycle it issued, from the start of the run */
	uint32_t cycles;	/* cycles charged to it */
	uint16_t lat;		/* result latency it was given (for timelines) */
	uint16_t stall[HS_NSTALLS];	/* of which stall cycles, by cause */
	uint16_t events;	/* HS_EV_* */
};

#define HS_EV_MISPREDICT	0x01
#define HS_EV_ICACHE_MISS	0x02
#define HS_EV_DCACHE_MISS	0x04
#define HS_EV_L2_MISS		0x08
#define HS_EV_TLB_MISS		0x10
#define HS_EV_DUAL_ISSUED	0x20	/* issued in the same cycle as the previous one */
#define HS_EV_UNCALIBRATED	0x40	/* its cost came from an uncalibrated parameter */

struct hs_model_result {
	uint64_t cycles;
	uint64_t insns;
	uint64_t stall[HS_NSTALLS];
	uint64_t uncalibrated_cycles;	/* cycles charged by uncalibrated parameters */
	unsigned mispredicts, icache_misses, dcache_misses, l2_misses, tlb_misses;
	unsigned unknown_insns;		/* unclassified encodings charged the default */
	unsigned warm_iterations;	/* repetitions until convergence (warm) */
	int converged;			/* warm: the last two repetitions agreed */
};

/* A named model parameter. */
struct hs_param {
	const char *name;	/* "isb", "l1d_latency", "mispredict_penalty" */
	double value;
	const char *unit;	/* "cycles", "entries", "bytes" */
	const char *source;	/* where the number comes from */
	int calibrated;		/* 0: nobody published it - a named guess */
	double lo, hi;		/* fitted to published boards (hotsim fit): the 95%
				 * range the cells allow; both 0 when not fitted */
	double guess;		/* fitted: the guess the fit moves from (it starts
				 * there and its bounds are factors of it, so
				 * re-running it gives the same value) */
	int timed;		/* a time outside the core's clock (the DRAM, the
				 * interrupt controller): value is cycles at the
				 * core file's clock_hz, and as many more at a
				 * faster clock (a board's) */
};

struct hs_model;

struct hs_core;		/* hotsim/core.h: resolved once, from its name, by the caller */

/* A fresh model (cold state) for a core; NULL with hs_errmsg() if the core
 * has no timing. */
struct hs_model *hs_model_new(const struct hs_core *core);
void hs_model_free(struct hs_model *m);

const char *hs_model_name(const struct hs_model *m);
const char *hs_model_description(const struct hs_model *m);
/* "in-order dual issue", "out-of-order" */
const char *hs_model_engine(const struct hs_model *m);

/* Parameters: list, and override by name ("isb" or "a55.isb"). */
size_t hs_model_nparams(const struct hs_model *m);
const struct hs_param *hs_model_param(const struct hs_model *m, size_t i);
int hs_model_set_param(struct hs_model *m, const char *name, double value);

/* Cost the traces as if the code (data) at or above a split address lay
 * delta bytes further on - what a change elsewhere in the kernel does to
 * a path's layout: the caches, TLBs and predictors see the moved
 * addresses. Deltas 0: as recorded. */
void hs_model_set_layout_shift(struct hs_model *m, uint64_t code_split, uint64_t code_delta,
			       uint64_t data_split, uint64_t data_delta);

/* hs_model_run on the records that follow the last hs_model_run_on's, a
 * stream costed a few records at a time as it is made: the pipeline goes
 * on as that run left it (what it held in flight, the issue and retire
 * clocks), and t's last record is not run - it is there for the one
 * before it, a branch whose outcome is its successor's pc, and the next
 * run begins with it. No tail is charged (the stream goes on), and a
 * stall a record owes to an earlier run's stays on it: each record costs
 * what one run of the whole stream charges it, but for those stalls.
 * res->insns is the records run. hs_model_reset and hs_model_cold start a
 * new stream. */
int hs_model_run_on(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		    struct hs_insn_cost *per);

/* Flush caches, TLBs and predictors (the cold state). */
void hs_model_reset(struct hs_model *m);

/*
 * Run the trace once through the pipeline from the model's current cache and
 * predictor state (which the run updates). per, if not NULL, has t->n
 * entries and receives the per-instruction attribution.
 */
int hs_model_run(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		 struct hs_insn_cost *per);

/*
 * The attribution of a long stream without an entry per record: a window.
 * v is a ring of mask + 1 entries (a power of two, at least 2); each
 * record's cost, once nothing can charge it any more, leaves through
 * fold(ctx, i, c, n): records i .. i + n - 1, their costs c[0 .. n - 1]
 * (a run of the ring, in record order, n >= 1). What still can: the instruction before the current
 * one (a redirect it caused is charged to it) and the owner of a hold (an
 * MSR, DSB, DMB... that later instructions waited for) - that one waits
 * aside until the next hold takes over or the run ends. So records are
 * folded in order but for hold owners, and every record exactly once; the
 * costs folded are the ones a whole array would hold. A typical row sums
 * its sampled operations this way as the run goes, in memory that does not
 * grow with the stream (fork's 5.8 million records: 186 MB as an array).
 */
struct hs_costs {
	struct hs_insn_cost *v;		/* the ring */
	size_t mask;			/* ring entries - 1; SIZE_MAX: v is a whole array */
	void (*fold)(void *ctx, size_t i, const struct hs_insn_cost *c, size_t n);
	void *ctx;
	/* the run's bookkeeping (the engines') */
	size_t next;			/* records below this were folded or wait aside */
	size_t pin;			/* the hold owner, SIZE_MAX none */
	int has_aside;			/* the pin left the ring: it is in aside */
	struct hs_insn_cost aside;
};

/* hs_model_cold with the attribution in a window (or, with mask SIZE_MAX
 * and no fold, a whole array: the same as per). */
int hs_model_cold_costs(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
			struct hs_costs *costs);

/* Cold: reset, then one run. */
int hs_model_cold(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		  struct hs_insn_cost *per);

/* Warm: reset, then repeat until two successive runs cost the same (at most
 * max_iter); per describes the last run. */
int hs_model_warm(struct hs_model *m, const struct hs_trace *t, unsigned max_iter,
		  struct hs_model_result *res, struct hs_insn_cost *per);

#endif
