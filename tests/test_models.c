/*
 * test_models.c - the cost models' machinery (the microbenchmark
 * validation against published numbers is tests/test_models_bench.c):
 *
 *	models/registry	names, every parameter sourced, the uncalibrated ones
 *	models/params	overrides by "name" and "core.name", bad names and values
 *	models/cache	hit/miss counts on a hand-computed access pattern, TLBs
 *	models/bpred	conditional predictor, return stack, BTAC, BTIC
 *	models/trace	hand-built traces: exception entry, firmware calls,
 *			stubbed calls, emulated sysregs, ERET, ISB, unknown
 *			encodings, cache misses cold and warm
 *	models/window	the attribution window folds what a whole array holds
 *	models/path	a real kernel path (irq-el1 on the base kernel): cold
 *			> warm, convergence, per-instruction sums, determinism
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/model.h"
#include "hotsim/patch.h"
#include "hotsim/paths.h"
#include "../models/bpred.h"
#include "../models/cache.h"
#include "../sim/measure/machine_clock.h"
#include "testutil.h"


/* --- registry -------------------------------------------------------------------- */

static const struct hs_param *param(const struct hs_model *m, const char *name)
{
	for (size_t i = 0; i < hs_model_nparams(m); i++)
		if (!strcmp(hs_model_param(m, i)->name, name))
			return hs_model_param(m, i);
	return NULL;
}

Test(models, registry)
{
	static const char *const uncal[] = {
		"dmb", "dsb", "isb", "sb", "csdb", "mrs_tpidr", "mrs_sp_el0", "mrs_daif", "mrs_other",
		"msr_tpidr", "msr_sp_el0", "msr_daif", "msr_other", "msr_daif_imm", "pan", "ldxr",
		"stxr", "lse_atomic", "cas", "eret", "exception_entry", "firmware_call", "tlbi", "dc",
		"ic", "unknown_insn", NULL
	};

	for (int s = 0; s < HS_NSTALLS; s++)
		cr_assert(hs_stall_names[s] && *hs_stall_names[s]);
	cr_assert_not_null(hs_cores[0]);
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		char cortex[40];

		/* each core found by its name and as "cortex-<name>", once */
		snprintf(cortex, sizeof(cortex), "cortex-%s", hs_cores[c]->name);
		cr_assert_eq(hs_core_find(hs_cores[c]->name), hs_cores[c]);
		cr_assert_eq(hs_core_find(cortex), hs_cores[c]);
		for (int k = 0; k < c; k++)
			cr_assert_str_neq(hs_cores[k]->name, hs_cores[c]->name);

		cr_assert_not_null(m, "%s", hs_errmsg());
		cr_assert_str_eq(hs_model_name(m), hs_cores[c]->name);
		cr_assert(strlen(hs_model_description(m)) > 10);
		cr_assert(hs_model_nparams(m) > 60);
		for (size_t i = 0; i < hs_model_nparams(m); i++) {
			const struct hs_param *p = hs_model_param(m, i);

			cr_assert(p->name && *p->name && p->unit && *p->unit);
			/* every number has a source, with its confidence mark */
			cr_assert(p->source && strlen(p->source) > 3, "%s.%s", hs_cores[c]->name, p->name);
			cr_assert(p->source[0] == 'E' || p->source[0] == 'D' || p->source[0] == 'A' ||
				  p->source[0] == 'F', "%s.%s: source '%s' has no E/D/A/F mark", hs_cores[c]->name,
				  p->name, p->source);
			/* F marks the fitted (hotsim fit): a range and a guess */
			cr_assert_eq(p->source[0] == 'F', p->hi > 0 && p->guess > 0, "%s.%s", hs_cores[c]->name,
				     p->name);
			/* assumptions are uncalibrated, sourced numbers are not */
			cr_assert_eq(p->calibrated, p->source[0] != 'A', "%s.%s", hs_cores[c]->name,
				     p->name);
		}
		for (int k = 0; uncal[k]; k++) {
			const struct hs_param *p = param(m, uncal[k]);

			cr_assert_not_null(p, "%s lacks %s", hs_cores[c]->name, uncal[k]);
			/* nobody publishes it: a guess, or fitted to a board's cells */
			cr_assert(!p->calibrated || p->hi > 0, "%s.%s must be uncalibrated or fitted", hs_cores[c]->name,
				  uncal[k]);
		}
		cr_assert_null(hs_model_param(m, hs_model_nparams(m)));
		hs_model_free(m);
	}
	cr_assert_null(hs_core_find("a99"));
	cr_assert_null(hs_model_new(NULL));
	cr_assert(strstr(hs_errmsg(), "no timing model"), "%s", hs_errmsg());
}

Test(models, params)
{
	struct hs_model *m = hs_model_new(hs_core_find("a55"));
	double lvl;

	cr_assert_not_null(m);
	cr_assert_eq(hs_model_set_param(m, "isb", 20), 0, "%s", hs_errmsg());
	cr_assert_float_eq(param(m, "isb")->value, 20, 1e-9);
	cr_assert_eq(hs_model_set_param(m, "a55.isb", 21), 0, "%s", hs_errmsg());
	cr_assert_float_eq(param(m, "isb")->value, 21, 1e-9);
	/* another core's parameter, an unknown one: errors that list nothing */
	cr_assert_eq(hs_model_set_param(m, "a53.isb", 5), -1);
	cr_assert(strstr(hs_errmsg(), "a53.isb"), "%s", hs_errmsg());
	cr_assert_eq(hs_model_set_param(m, "no_such_thing", 1), -1);
	cr_assert(strstr(hs_errmsg(), "no_such_thing") && strlen(hs_errmsg()) < 120, "%s",
		  hs_errmsg());
	/* an impossible geometry is refused and the old value kept */
	cr_assert_eq(hs_model_set_param(m, "l1d_size", 1000), -1);
	cr_assert(strstr(hs_errmsg(), "l1d"), "%s", hs_errmsg());
	cr_assert_float_eq(param(m, "l1d_size")->value, 32768, 1e-9);
	cr_assert_eq(hs_model_set_param(m, "lat_alu", -1), -1);
	cr_assert_eq(hs_model_set_param(m, "lat_alu", 1000), -1);
	/* a valid geometry change works */
	cr_assert_eq(hs_model_set_param(m, "l1d_size", 65536), 0, "%s", hs_errmsg());
	/* a line handed over between cores passes the shared level (the A55's
	 * L3, behind its own L2): not sooner than that level serves it */
	lvl = param(m, "l2_latency")->value + param(m, "l3_latency")->value;
	cr_assert_eq(hs_model_set_param(m, "peer_latency", lvl - 1), -1);
	cr_assert(strstr(hs_errmsg(), "a55.peer_latency") && strstr(hs_errmsg(), "l3_latency"), "%s", hs_errmsg());
	cr_assert_eq(hs_model_set_param(m, "peer_latency", lvl), 0, "%s", hs_errmsg());
	hs_model_free(m);
}

/* --- cache and TLB ------------------------------------------------------------------ */

Test(models, cache_lru)
{
	struct hs_cache c;
	/* 4 lines of 64 bytes, 2 ways -> 2 sets; set = (addr / 64) % 2 */
	const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x040;	/* A, B, C: set 0; D: set 1 */
	const uint64_t seq[] = { A, B, A, C, B, A, D, D, B };
	/* hand-computed, LRU: A miss, B miss, A hit, C miss (evicts B), B miss
	 * (evicts A), A miss (evicts C), D miss, D hit, B hit */
	const int hit[] = { 0, 0, 1, 0, 0, 0, 0, 1, 1 };

	memset(&c, 0, sizeof(c));
	cr_assert_eq(hs_cache_init(&c, "t", 4, 2, 6), 0, "%s", hs_errmsg());
	for (unsigned i = 0; i < HS_ARRAY_SIZE(seq); i++)
		cr_assert_eq(hs_cache_access(&c, seq[i] + (i & 7) * 8), hit[i], "access %u", i);
	cr_assert_eq(c.hits, 3);
	cr_assert_eq(c.misses, 6);
	cr_assert(hs_cache_present(&c, A) && hs_cache_present(&c, B) && hs_cache_present(&c, D));
	cr_assert(!hs_cache_present(&c, C));
	hs_cache_flush(&c);
	cr_assert(!hs_cache_present(&c, A));
	cr_assert_eq(hs_cache_init(&c, "t", 6, 2, 6), -1);	/* 3 sets */
	hs_cache_free(&c);
}

Test(models, memsys)
{
	struct hs_memsys ms;
	struct hs_memcfg cfg = {
		.line = 64, .page = 4096, .l1i_size = 1024, .l1d_size = 1024, .l2_size = 4096,
		.l1i_assoc = 2, .l1d_assoc = 2, .l2_assoc = 4, .l2_lat = 10, .mem_lat = 100,
		.itlb = 2, .dtlb = 2, .tlb = 4, .tlb_assoc = 2, .tlb_lat = 2, .walk_lat = 20,
	};
	enum hs_level lv;
	int miss;

	memset(&ms, 0, sizeof(ms));
	cr_assert_eq(hs_mem_init(&ms, &cfg), 0, "%s", hs_errmsg());
	/* cold: memory (L2 10 + memory 100); then L1; evicted from L1 (1 KB,
	 * 2 ways: 8 sets of 64 B -> 512 B apart is the same set), still in L2 */
	cr_assert_eq(hs_mem_line(&ms, 0x10000, 0, &lv), 110u);
	cr_assert_eq(lv, HS_LV_MEM);
	cr_assert_eq(hs_mem_line(&ms, 0x10008, 0, &lv), 0u);
	cr_assert_eq(lv, HS_LV_L1);
	hs_mem_line(&ms, 0x10200, 0, &lv);
	hs_mem_line(&ms, 0x10400, 0, &lv);
	cr_assert_eq(hs_mem_line(&ms, 0x10000, 0, &lv), 10u);
	cr_assert_eq(lv, HS_LV_L2);
	/* TLB: walk (2 + 20), micro hit, micro miss that hits the main TLB */
	cr_assert_eq(hs_mem_translate(&ms, 0x1000, 0, &miss), 22u);
	cr_assert_eq(miss, 1);
	cr_assert_eq(hs_mem_translate(&ms, 0x1008, 0, &miss), 0u);
	cr_assert_eq(miss, 0);
	hs_mem_translate(&ms, 0x2000, 0, &miss);
	hs_mem_translate(&ms, 0x3000, 0, &miss);	/* micro TLB (2) drops 0x1000 */
	cr_assert_eq(hs_mem_translate(&ms, 0x1000, 0, &miss), 2u);
	cr_assert_eq(miss, 2);
	hs_mem_free(&ms);
}

/*
 * A line another core wrote (hs_mem_remote): the private copies are
 * stale, the writer's copy is handed over through the shared level's
 * snoop, in peer_lat cycles; with none given, in the shared level's own
 * latency. A line this core held (an L1 hit before) and one it never had
 * (not memory: the writer's copy is on chip) alike; once handed over it is
 * held (an L1 hit). Shared L2 (A53, A72, A73): 10 without a peer_lat;
 * private L2 and a shared L3 (A55, A76, N1): L2 and L3, 10 + 30, though L1
 * and L2 held it. An instruction fetch of the line is not the handover,
 * which waits for the data access.
 */
static void handed_over(unsigned shared_level, unsigned peer_lat, uint32_t want)
{
	struct hs_memsys ms;
	struct hs_memcfg cfg = {
		.line = 64, .page = 4096, .l1i_size = 1024, .l1d_size = 1024, .l2_size = 4096,
		.l3_size = shared_level == 3 ? 16384 : 0, .l1i_assoc = 2, .l1d_assoc = 2, .l2_assoc = 4,
		.l3_assoc = 4, .l2_lat = 10, .l3_lat = 30, .mem_lat = 100, .itlb = 2, .dtlb = 2, .tlb = 4,
		.tlb_assoc = 2, .tlb_lat = 2, .walk_lat = 20, .shared_level = shared_level, .peer_lat = peer_lat,
	};
	enum hs_level lv;

	memset(&ms, 0, sizeof(ms));
	cr_assert_eq(hs_mem_init(&ms, &cfg), 0, "%s", hs_errmsg());
	hs_mem_line(&ms, 0x10000, 0, &lv);
	cr_assert_eq(hs_mem_line(&ms, 0x10000, 0, &lv), 0u);
	hs_mem_remote(&ms, 0x10010);
	cr_assert_eq(hs_mem_line(&ms, 0x10020, 0, &lv), want, "shared L%u, peer %u", shared_level, peer_lat);
	cr_assert_eq(lv, HS_LV_PEER);
	cr_assert_eq(hs_mem_line(&ms, 0x10000, 0, &lv), 0u);
	hs_mem_remote(&ms, 0x20000);
	cr_assert_eq(hs_mem_line(&ms, 0x20000, 0, &lv), want);
	if (peer_lat) {
		hs_mem_remote(&ms, 0x30000);
		hs_mem_line(&ms, 0x30000, 1, &lv);
		cr_assert_neq(lv, HS_LV_PEER);
		cr_assert_eq(hs_mem_line(&ms, 0x30000, 0, &lv), peer_lat);
		cr_assert_eq(lv, HS_LV_PEER);
	}
	hs_mem_free(&ms);
}

Test(models, memsys_remote_lines)
{
	handed_over(2, 0, 10);
	handed_over(2, 70, 70);
	handed_over(3, 0, 40);
	handed_over(3, 70, 70);
}

/* --- branch prediction ------------------------------------------------------------------ */

Test(models, bpred)
{
	struct hs_bpred bp;
	unsigned mis = 0;

	memset(&bp, 0, sizeof(bp));
	/* bimodal (no history): counters start weakly not-taken */
	cr_assert_eq(hs_bp_init(&bp, 16, 0, 8, 1, 2), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_bp_cond(&bp, 0x100, 1), 1);	/* cold taken: mispredicted */
	cr_assert_eq(hs_bp_cond(&bp, 0x100, 1), 0);	/* learned */
	/* T,N,T,N... from weakly not-taken is always mispredicted by 2-bit counters */
	for (int i = 0; i < 20; i++)
		mis += (unsigned)hs_bp_cond(&bp, 0x204, !(i & 1));
	cr_assert_eq(mis, 20u);
	/* with 2 bits of global history the same pattern is learned */
	cr_assert_eq(hs_bp_init(&bp, 16, 2, 8, 1, 2), 0);
	mis = 0;
	for (int i = 0; i < 40; i++) {
		int m = hs_bp_cond(&bp, 0x200, !(i & 1));

		if (i >= 20)	/* after training */
			mis += (unsigned)m;
	}
	cr_assert_eq(mis, 0u);
	/* tags: two branches sharing a bimodal counter (0x100 and 0x140 with 16
	 * counters) with opposite outcomes settle in entries of their own */
	cr_assert_eq(hs_bp_init(&bp, 16, 0, 8, 1, 2), 0);
	mis = 0;
	for (int i = 0; i < 20; i++) {
		int a = hs_bp_cond(&bp, 0x100, 1), b = hs_bp_cond(&bp, 0x140, 0);

		if (i >= 2)
			mis += (unsigned)(a + b);
	}
	cr_assert_eq(mis, 0u);
	/* return stack of 2: the oldest of 3 pushes is lost; empty mispredicts */
	hs_bp_push(&bp, 0xa);
	hs_bp_push(&bp, 0xb);
	hs_bp_push(&bp, 0xc);
	cr_assert_eq(hs_bp_ret(&bp, 0xc), 0);
	cr_assert_eq(hs_bp_ret(&bp, 0xb), 0);
	cr_assert_eq(hs_bp_ret(&bp, 0xa), 1);
	/* BTAC: cold miss, same target hit, new target miss */
	cr_assert_eq(hs_bp_indirect(&bp, 0x300, 0x1000), 1);
	cr_assert_eq(hs_bp_indirect(&bp, 0x300, 0x1000), 0);
	cr_assert_eq(hs_bp_indirect(&bp, 0x300, 0x2000), 1);
	/* a single-entry BTIC: two alternating branches never hit */
	cr_assert_eq(hs_bp_btic(&bp, 0x400), 0);
	cr_assert_eq(hs_bp_btic(&bp, 0x400), 1);
	cr_assert_eq(hs_bp_btic(&bp, 0x500), 0);
	cr_assert_eq(hs_bp_btic(&bp, 0x400), 0);
	cr_assert_eq(hs_bp_init(&bp, 15, 0, 8, 1, 2), -1);
	hs_bp_free(&bp);
}

/* --- hand-built traces ---------------------------------------------------------------------- */

#define W_ADDX0	0x91000400u	/* add x0, x0, #1 */
#define W_NOP	0xd503201fu
#define W_ISB	0xd5033fdfu
#define W_ERET	0xd69f03e0u
#define W_BL2	0x94000002u	/* bl .+8 */
#define W_SMC	0xd4000003u	/* smc #0 */
#define W_MRS_TP 0xd538d080u	/* mrs x0, tpidr_el1 */
#define W_MRS_IAR 0xd538cc00u	/* mrs x0, icc_iar1_el1 */
#define W_LDR	0xf9400001u	/* ldr x1, [x0] */

struct tt {
	struct hs_dcache dc;
	struct hs_trace t;
};

static void tt_init(struct tt *x)
{
	hs_dcache_init(&x->dc);
	hs_trace_init(&x->t, &x->dc, 1u << 20);
}

static void tt_free(struct tt *x)
{
	hs_trace_free(&x->t);
	hs_dcache_free(&x->dc);
}

static void tt_push(struct tt *x, uint64_t pc, uint32_t word, uint64_t addr, uint32_t flags)
{
	long k = hs_dcache_get(&x->dc, pc, word);

	cr_assert_geq(k, 0);
	cr_assert_eq(hs_trace_push(&x->t, pc, (uint32_t)k), 0);
	x->t.v[x->t.n - 1].addr = addr;
	x->t.v[x->t.n - 1].flags = flags;
}

/* A straight-line trace: words[i] at base + 4 * i, with flags per index. */
static void tt_line(struct tt *x, const uint32_t *words, unsigned n, const uint32_t *flags)
{
	for (unsigned i = 0; i < n; i++)
		tt_push(x, 0x400000 + 4 * i, words[i], 0, flags ? flags[i] : 0);
}

static double pval(struct hs_model *m, const char *name)
{
	const struct hs_param *p = param(m, name);

	cr_assert_not_null(p, "%s", name);
	return p->value;
}

/* What a parameter adds to the uncalibrated share: its value, where it is
 * a guess */
static double puncal(struct hs_model *m, const char *name)
{
	const struct hs_param *p = param(m, name);

	cr_assert_not_null(p, "%s", name);
	return p->calibrated ? 0 : p->value;
}

/* Warm cycles of a trace on core c. */
static uint64_t warm(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res)
{
	struct hs_model_result r;

	cr_assert_eq(hs_model_warm(m, t, 8, &r, NULL), 0, "%s", hs_errmsg());
	if (res)
		*res = r;
	return r.cycles;
}

/*
 * A stream costed a few records at a time as it is made (hs_model_run_on,
 * a machine's turns by modelled time) charges what one run of the whole
 * stream does: each run goes on from the pipeline the last left, with the
 * record after its last there for a branch's outcome. Loads that miss, a
 * dependent chain and branches taken and not, cut into runs of 3: every
 * core's sum over the records is the whole run's, and the first run's
 * records cost the same (a stall cannot owe anything to an earlier run
 * there); cut into runs without going on, each run's pipeline starts
 * empty - what was in flight and which results were late are forgotten -
 * and the charges differ.
 */
#define W_CBNZ8	0xb5000040u	/* cbnz x0, .+8 */
Test(models, a_stream_costed_run_by_run_costs_what_one_run_does)
{
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *whole = hs_model_new(hs_cores[c]), *on = hs_model_new(hs_cores[c]);
		struct hs_insn_cost per[256], part[4];
		struct hs_model_result r;
		uint64_t sum = 0, sum_on = 0, pc = 0x400000;
		struct tt x;

		tt_init(&x);
		for (unsigned k = 0; k < 24; k++) {
			tt_push(&x, pc, W_LDR, 0x800000 + 4096 * k, 0);	/* a line of its own: a miss */
			tt_push(&x, pc + 4, W_ADDX0, 0, 0);
			tt_push(&x, pc + 8, W_ADDX0, 0, 0);
			tt_push(&x, pc + 12, W_CBNZ8, 0, 0);
			/* taken every other time: .+8, else straight on */
			pc = k & 1 ? pc + 20 : pc + 16;
			tt_push(&x, pc, W_NOP, 0, 0);
			pc += 4;
		}
		for (unsigned k = 0; k < 4; k++, pc += 4)	/* straight on to the end */
			tt_push(&x, pc, W_NOP, 0, 0);
		cr_assert_lt(x.t.n, 256u);
		cr_assert_eq(hs_model_cold(whole, &x.t, &r, per), 0, "%s", hs_errmsg());
		hs_model_reset(on);
		for (size_t from = 0; from + 1 < x.t.n; from += 3) {
			struct hs_trace s = x.t;
			size_t n = from + 3 < x.t.n - 1 ? 3 : x.t.n - 1 - from;

			s.v = x.t.v + from;
			s.n = n + 1;
			cr_assert_eq(hs_model_run_on(on, &s, &r, part), 0, "%s", hs_errmsg());
			cr_assert_eq(r.insns, n);
			for (size_t i = 0; i < n; i++) {
				/* a stall moves to the record before its own: not
				 * across the end of a run (it stays), nor here */
				sum_on += from + i < x.t.n - 3 ? part[i].cycles : 0;
				sum += from + i < x.t.n - 3 ? per[from + i].cycles : 0;
				if (from == 0)
					cr_expect_eq(part[i].cycles, per[i].cycles, "%s: record %zu", hs_cores[c]->name, i);
			}
		}
		cr_expect_eq(sum_on, sum, "%s: %llu run by run, %llu in one run", hs_cores[c]->name,
			     (unsigned long long)sum_on, (unsigned long long)sum);
		/* without going on: each run's pipeline empty, more cycles */
		hs_model_reset(on);
		sum_on = 0;
		for (size_t from = 0; from + 1 < x.t.n; from += 3) {
			struct hs_trace s = x.t;
			size_t n = from + 3 < x.t.n - 1 ? 3 : x.t.n - 1 - from;

			s.v = x.t.v + from;
			s.n = n;
			cr_assert_eq(hs_model_run(on, &s, &r, part), 0, "%s", hs_errmsg());
			for (size_t i = 0; i < n; i++)
				sum_on += from + i < x.t.n - 3 ? part[i].cycles : 0;
		}
		cr_expect_neq(sum_on, sum, "%s", hs_cores[c]->name);
		tt_free(&x);
		hs_model_free(whole);
		hs_model_free(on);
	}
}

Test(models, exception_entry_and_firmware)
{
	static const uint32_t w[] = { W_NOP, W_NOP, W_SMC, W_NOP };
	static const uint32_t exc[] = { HS_T_EXC_ENTRY, 0, HS_T_FIRMWARE, 0 };

	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct tt a, b;
		struct hs_model_result ra, rb;

		tt_init(&a);
		tt_init(&b);
		/* the same code, once without and once with the entry and a
		 * firmware-answered smc flagged */
		tt_line(&a, w, 4, NULL);
		tt_line(&b, w, 4, exc);
		warm(m, &a.t, &ra);
		warm(m, &b.t, &rb);
		/* an unflagged smc is an exception (exception_entry); the flagged
		 * one is the firmware round trip; the entry adds exception_entry */
		cr_expect_eq((double)rb.cycles - (double)ra.cycles, pval(m, "firmware_call"),
			     "%s: %llu vs %llu", hs_cores[c]->name, (unsigned long long)rb.cycles,
			     (unsigned long long)ra.cycles);
		cr_expect_geq(rb.uncalibrated_cycles, (uint64_t)(puncal(m, "exception_entry") + puncal(m, "firmware_call")));
		cr_expect_geq(rb.stall[HS_ST_SERIAL], (uint64_t)pval(m, "firmware_call") - 1, "%s: %llu",
			      hs_cores[c]->name, (unsigned long long)rb.stall[HS_ST_SERIAL]);
		tt_free(&a);
		tt_free(&b);
		hs_model_free(m);
	}
}

Test(models, stub_and_emulated_sysreg)
{
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct tt s, n, e, o;
		/* a stubbed bl costs the call instruction only: like a nop there */
		static const uint32_t ws[] = { W_ADDX0, W_BL2, W_ADDX0, W_ADDX0 };
		static const uint32_t wn[] = { W_ADDX0, W_NOP, W_ADDX0, W_ADDX0 };
		static const uint32_t fs[] = { 0, HS_T_STUB, 0, 0 };
		/* an emulated sysreg read costs as an "other" register */
		static const uint32_t we[] = { W_MRS_TP, W_ADDX0 };
		static const uint32_t wo[] = { W_MRS_IAR, W_ADDX0 };
		static const uint32_t fe[] = { HS_T_SYSREG_EMU, 0 };

		tt_init(&s);
		tt_init(&n);
		tt_init(&e);
		tt_init(&o);
		tt_line(&s, ws, 4, fs);
		tt_line(&n, wn, 4, NULL);
		tt_line(&e, we, 2, fe);
		tt_line(&o, wo, 2, NULL);
		cr_expect_eq(warm(m, &s.t, NULL), warm(m, &n.t, NULL), "%s stub", hs_cores[c]->name);
		cr_expect_eq(warm(m, &e.t, NULL), warm(m, &o.t, NULL), "%s emulated sysreg",
			     hs_cores[c]->name);
		tt_free(&s);
		tt_free(&n);
		tt_free(&e);
		tt_free(&o);
		hs_model_free(m);
	}
}

Test(models, eret_and_isb_costs)
{
	static const uint32_t w[] = { W_ADDX0, W_ISB, W_ADDX0, W_ERET };

	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		char name[32];
		uint64_t base, isb, eret;
		struct tt x;

		tt_init(&x);
		tt_line(&x, w, 4, NULL);
		base = warm(m, &x.t, NULL);
		/* "core.name" override: the cycles move by exactly the delta,
		 * warm or not (ERET is never predicted, ISB always refetches) */
		snprintf(name, sizeof(name), "%s.isb", hs_cores[c]->name);
		cr_assert_eq(hs_model_set_param(m, name, pval(m, "isb") + 20), 0, "%s", hs_errmsg());
		isb = warm(m, &x.t, NULL);
		cr_assert_eq(hs_model_set_param(m, "eret", pval(m, "eret") + 7), 0);
		eret = warm(m, &x.t, NULL);
		cr_expect_eq(isb, base + 20, "%s: isb %llu base %llu", hs_cores[c]->name,
			     (unsigned long long)isb, (unsigned long long)base);
		cr_expect_eq(eret, isb + 7, "%s: eret", hs_cores[c]->name);
		tt_free(&x);
		hs_model_free(m);
	}
}

Test(models, unknown_instructions)
{
	uint32_t unk = 0;
	struct a64_insn in;

	/* the first of a few unallocated words the decoder leaves unclassified */
	static const uint32_t cand[] = { 0x04000000u, 0x1e000000u, 0xe7000000u, 0xffffffffu };
	for (unsigned i = 0; i < HS_ARRAY_SIZE(cand) && !unk; i++)
		if (a64_decode(cand[i], 0x400000, &in) < 0 && in.cls == A64_C_UNKNOWN)
			unk = cand[i];
	cr_assert(unk, "no unclassified word among the candidates");
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		uint32_t w[] = { W_ADDX0, unk, W_ADDX0, unk, W_ADDX0 };
		struct hs_insn_cost per[5];
		struct hs_model_result r;
		struct tt x;

		tt_init(&x);
		tt_line(&x, w, 5, NULL);
		cr_assert_eq(hs_model_warm(m, &x.t, 8, &r, per), 0);
		cr_expect_eq(r.unknown_insns, 2u, "%s", hs_cores[c]->name);
		cr_expect(per[1].events & HS_EV_UNCALIBRATED);
		cr_expect_geq(r.uncalibrated_cycles, 2 * (uint64_t)pval(m, "unknown_insn"));
		tt_free(&x);
		hs_model_free(m);
	}
}

Test(models, data_misses_cold_and_warm)
{
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct hs_model_result cold, w;
		struct tt x;

		tt_init(&x);
		/* two loads on two lines, one load on the first line again */
		tt_push(&x, 0x400000, W_LDR, 0x800000, 0);
		tt_push(&x, 0x400004, W_LDR, 0x800040, 0);
		tt_push(&x, 0x400008, W_LDR, 0x800008, 0);
		cr_assert_eq(hs_model_cold(m, &x.t, &cold, NULL), 0);
		cr_expect_eq(cold.dcache_misses, 2u, "%s", hs_cores[c]->name);
		cr_expect_eq(cold.icache_misses, 1u, "%s", hs_cores[c]->name);
		cr_assert_eq(hs_model_warm(m, &x.t, 8, &w, NULL), 0);
		cr_expect_eq(w.dcache_misses + w.icache_misses, 0u, "%s", hs_cores[c]->name);
		/* run 1 misses, runs 2 and 3 agree */
		cr_expect(w.converged && w.warm_iterations == 3, "%s: %u runs", hs_cores[c]->name,
			  w.warm_iterations);
		cr_expect_gt(cold.cycles, w.cycles);
		tt_free(&x);
		hs_model_free(m);
	}
}

/*
 * The lines two CPUs share, fed in the order they ran (coherence.c): a
 * read of a line the other CPU wrote is remote once, until the other
 * writes it again; the writer's own accesses never are; a line nobody
 * wrote is never remote; one CPU alone has no remote access at all.
 */
#define W_STR	0xf9000001u	/* str x1, [x0] */
Test(models, coherence_of_two_cpus)
{
	struct tt c0, c1;
	struct hs_coherence *co = hs_coherence_new();
	size_t f0 = 0, f1 = 0;

	cr_assert_not_null(co);
	tt_init(&c0);
	tt_init(&c1);
	/* cpu0: write A, read B (nobody writes it) */
	tt_push(&c0, 0x400000, W_STR, 0x800000, 0);
	tt_push(&c0, 0x400004, W_LDR, 0x900000, 0);
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, f0, NULL, 0), 0);
	f0 = c0.t.n;
	/* cpu1: read A (remote), A's other half (held now), B; then write A */
	tt_push(&c1, 0x400000, W_LDR, 0x800008, 0);
	tt_push(&c1, 0x400004, W_LDR, 0x800038, 0);
	tt_push(&c1, 0x400008, W_LDR, 0x900000, 0);
	tt_push(&c1, 0x40000c, W_STR, 0x800000, 0);
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, f1, NULL, 0), 0);
	f1 = c1.t.n;
	/* cpu0: read A (remote: cpu1 wrote it), again (held) */
	tt_push(&c0, 0x400008, W_LDR, 0x800000, 0);
	tt_push(&c0, 0x40000c, W_LDR, 0x800000, 0);
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, f0, NULL, 0), 0);
	/* cpu0's first write: nobody else had the line; cpu1's write: it
	 * held the line already (its read fetched it) */
	cr_assert_eq(c0.t.v[0].flags | c0.t.v[1].flags, 0u);
	cr_assert_eq(c1.t.v[0].flags, HS_T_REMOTE);
	cr_assert_eq(c1.t.v[1].flags | c1.t.v[2].flags | c1.t.v[3].flags, 0u);
	cr_assert_eq(c0.t.v[2].flags, HS_T_REMOTE);
	cr_assert_eq(c0.t.v[3].flags, 0u);
	cr_assert_eq(hs_coherence_note(co, 8, &c0.t, 0, NULL, 0), -1);
	hs_coherence_free(co);
	tt_free(&c0);
	tt_free(&c1);
}

/*
 * A load of a line another CPU wrote (flagged HS_T_REMOTE) and the add that
 * uses it: the add waits for the line's handover, so each core's warm run
 * costs peer_latency cycles more than with the line in its L1 - and 400
 * more again with peer_latency 400 more. The handover is not sooner than
 * the core's shared level.
 */
#define W_ADDX2	0x8b010022u	/* add x2, x1, x1 */
Test(models, a_line_handed_over_costs_peer_latency)
{
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct hs_model_result held, remote, slower;
		double peer = pval(m, "peer_latency");
		struct tt x;

		tt_init(&x);
		tt_push(&x, 0x400000, W_LDR, 0x800000, 0);
		tt_push(&x, 0x400004, W_ADDX2, 0, 0);
		cr_assert_eq(hs_model_warm(m, &x.t, 8, &held, NULL), 0, "%s", hs_errmsg());
		x.t.v[0].flags = HS_T_REMOTE;
		cr_assert_eq(hs_model_warm(m, &x.t, 8, &remote, NULL), 0, "%s", hs_errmsg());
		cr_expect_eq(remote.cycles - held.cycles, (uint64_t)peer, "%s: %llu held, %llu handed over, peer %.0f",
			     hs_cores[c]->name, (unsigned long long)held.cycles, (unsigned long long)remote.cycles, peer);
		cr_expect_geq(peer, pval(m, "l2_latency"), "%s", hs_cores[c]->name);
		cr_assert_eq(hs_model_set_param(m, "peer_latency", peer + 400), 0, "%s", hs_errmsg());
		cr_assert_eq(hs_model_warm(m, &x.t, 8, &slower, NULL), 0, "%s", hs_errmsg());
		cr_expect_eq(slower.cycles - remote.cycles, 400u, "%s", hs_cores[c]->name);
		tt_free(&x);
		hs_model_free(m);
	}
}

/* --- the attribution window ------------------------------------------------------------------ */

/*
 * A spin-wait's end (coherence.c): cpu1 spins on a line (ldr, wfe, ldr,
 * wfe) until cpu0's store to it; its next read of the line is a release
 * naming cpu0's store and cpu1's first wfe. A read of a line another CPU
 * wrote long after a wfe, a store after one, and a read of a line nobody
 * else wrote are not releases.
 */
#define W_WFE	0xd503205fu
Test(models, coherence_finds_the_store_that_ends_a_spin)
{
	struct tt c0, c1;
	struct hs_coherence *co = hs_coherence_new();
	struct hs_release rel[4];
	size_t f0 = 0, f1 = 0;

	cr_assert_not_null(co);
	tt_init(&c0);
	tt_init(&c1);
	tt_push(&c0, 0x400000, W_STR, 0x800000, 0);		/* the flag, 0 */
	tt_push(&c0, 0x400004, W_STR, 0x900000, 0);		/* another line */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, f0, rel, 4), 0);
	f0 = c0.t.n;
	tt_push(&c1, 0x500000, W_LDR, 0x800000, 0);		/* 0: remote, no wfe yet */
	tt_push(&c1, 0x500004, W_WFE, 0, 0);			/* 1: the spin's first */
	tt_push(&c1, 0x500008, W_LDR, 0x800000, 0);		/* 2: held: still 0 */
	tt_push(&c1, 0x50000c, W_WFE, 0, 0);			/* 3 */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, f1, rel, 4), 0);
	f1 = c1.t.n;
	tt_push(&c0, 0x400008, W_ADDX0, 0, 0);			/* 2 */
	tt_push(&c0, 0x40000c, W_STR, 0x800000, 0);		/* 3: the flag, set */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, f0, rel, 4), 0);
	f0 = c0.t.n;
	tt_push(&c1, 0x500010, W_STR, 0x900000, 0);		/* 4: remote, but a store */
	tt_push(&c1, 0x500008, W_LDR, 0x800000, 0);		/* 5: sees it: released */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, f1, rel, 4), 1);
	cr_assert_eq(c1.t.v[4].flags, HS_T_REMOTE);
	cr_assert_eq(rel[0].writer, 0u);
	cr_assert_eq(rel[0].wrote, 3u);
	cr_assert_eq(rel[0].spin_from, 1u);
	cr_assert_eq(rel[0].at, 5u);
	f1 = c1.t.n;
	/* a wfe, then 16 other records, then a remote read: too far to be
	 * the spin's read */
	tt_push(&c0, 0x400010, W_STR, 0x800000, 0);
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, f0, rel, 4), 0);
	tt_push(&c1, 0x500014, W_WFE, 0, 0);
	for (int i = 0; i < 16; i++)
		tt_push(&c1, 0x500018, W_NOP, 0, 0);
	tt_push(&c1, 0x50001c, W_LDR, 0x800000, 0);
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, f1, rel, 4), 0);
	cr_assert_eq(c1.t.v[c1.t.n - 1].flags, HS_T_REMOTE);
	hs_coherence_free(co);
	tt_free(&c0);
	tt_free(&c1);
}

/*
 * A lock handed over (coherence.c): cpu0 releases a lock (stlr) and
 * stores the count beside it (plain); cpu1's exclusive read of the lock
 * word waits for the release - also when a read of the count fetched the
 * line just before -, its acquire read (ldar: it might have gone another
 * way) does not, nor does an exclusive read of the count, which no
 * release wrote, nor a second read of a release it has read. Each
 * handover names the releaser's own taking of the lock (its store-
 * exclusive) when the releaser took it last.
 */
#define W_STLR	0x889ffc01u	/* stlr w1, [x0] */
#define W_LDAXR	0x885ffc01u	/* ldaxr w1, [x0] */
#define W_LDAR	0x88dffc01u	/* ldar w1, [x0] */
#define W_STRW	0xb9000001u	/* str w1, [x0] */
#define W_STXR	0x88047c03u	/* stxr w4, w3, [x0] */
Test(models, coherence_finds_a_lock_handed_over)
{
	struct tt c0, c1;
	struct hs_coherence *co = hs_coherence_new();
	struct hs_release rel[4];

	cr_assert_not_null(co);
	tt_init(&c0);
	tt_init(&c1);
	tt_push(&c0, 0x400000, W_STRW, 0x800004, 0);		/* 0: the count */
	tt_push(&c0, 0x400004, W_STLR, 0x800000, 0);		/* 1: the unlock */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, 0, rel, 4), 0);
	tt_push(&c1, 0x500000, W_LDAR, 0x800000, 0);		/* 0: acquire: no */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, 0, rel, 4), 0);
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, 2, rel, 4), 0);
	tt_push(&c0, 0x400008, W_STLR, 0x800000, 0);		/* 2: again (cpu1 held it) */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, 2, rel, 4), 0);
	tt_push(&c1, 0x500004, W_LDAXR, 0x800004, 0);		/* 1: the count: no */
	tt_push(&c1, 0x500008, W_LDAXR, 0x800000, 0);		/* 2: the lock: handed over */
	tt_push(&c1, 0x50000c, W_LDAXR, 0x800000, 0);		/* 3: read already: no */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, 1, rel, 4), 1);
	cr_assert_eq(c1.t.v[1].flags, HS_T_REMOTE);
	cr_assert_eq(c1.t.v[2].flags | c1.t.v[3].flags, 0u);
	cr_assert_eq(rel[0].writer, 0u);
	cr_assert_eq(rel[0].wrote, 2u);
	cr_assert_eq(rel[0].at, 2u);
	cr_assert_eq(rel[0].spin, 0);
	cr_assert_eq(rel[0].took, 0u);				/* cpu0 never took it */
	tt_push(&c0, 0x40000c, W_STLR, 0x800000, 0);		/* 3: released again */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, 3, rel, 4), 0);
	tt_push(&c1, 0x500010, W_LDAXR, 0x800000, 0);		/* 4: handed over */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, 4, rel, 4), 1);
	cr_assert_eq(rel[0].wrote, 3u);
	cr_assert_eq(rel[0].at, 4u);
	/* each release names the releaser's own taking of the lock (its
	 * stxr, record + 1): cpu1 takes it and releases it, cpu0 takes it
	 * over and releases it */
	tt_push(&c1, 0x500014, W_STXR, 0x800000, 0);		/* 5: cpu1 takes it */
	tt_push(&c1, 0x500018, W_STLR, 0x800000, 0);		/* 6: and releases it */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, 5, rel, 4), 0);
	tt_push(&c0, 0x400010, W_LDAXR, 0x800000, 0);		/* 4: handed over */
	tt_push(&c0, 0x400014, W_NOP, 0, 0);			/* 5 */
	tt_push(&c0, 0x400018, W_STXR, 0x800000, 0);		/* 6: cpu0 takes it */
	tt_push(&c0, 0x40001c, W_STRW, 0x800004, 0);		/* 7: the count */
	tt_push(&c0, 0x400020, W_STLR, 0x800000, 0);		/* 8: the unlock */
	cr_assert_eq(hs_coherence_note(co, 0, &c0.t, 4, rel, 4), 1);
	cr_assert_eq(rel[0].wrote, 6u);
	cr_assert_eq(rel[0].took, 6u);
	tt_push(&c1, 0x50001c, W_LDAXR, 0x800000, 0);		/* 7: handed over */
	cr_assert_eq(hs_coherence_note(co, 1, &c1.t, 7, rel, 4), 1);
	cr_assert_eq(rel[0].wrote, 8u);
	cr_assert_eq(rel[0].took, 7u);
	hs_coherence_free(co);
	tt_free(&c0);
	tt_free(&c1);
}

#define W_MSR_TP 0xd518d080u	/* msr tpidr_el1, x0: holds later issue */
#define W_DSB	0xd5033f9fu	/* dsb sy: drains, holds */
#define W_CBNZ13 (0xb5000000u | ((0x7ffffu & (uint32_t)-12) << 5))	/* cbnz x0, .-48 */

struct folded {
	struct hs_insn_cost *v;
	unsigned *times;
	size_t n;
};

static void fold_into(void *ctx, size_t i, const struct hs_insn_cost *c, size_t n)
{
	struct folded *f = ctx;

	cr_assert_geq(n, 1);
	for (size_t k = 0; k < n; k++) {
		cr_assert_lt(i + k, f->n);
		f->v[i + k] = c[k];
		f->times[i + k]++;
	}
}

/*
 * A window of any size folds out exactly the costs a whole array holds:
 * every record once, the redirects charged to the instruction before and
 * the holds (MSR, DSB) to their owner (a ring of 2 keeps only the current
 * record and the one before it: an owner further back waits aside).
 */
Test(models, window_is_the_whole_array)
{
	/* each hold followed by more instructions than a small ring holds */
	static const uint32_t body[] = { W_LDR, W_MSR_TP, W_ADDX0, W_ADDX0, W_ADDX0, W_ADDX0, W_ADDX0,
					 W_DSB, W_ADDX0, W_ADDX0, W_ADDX0, W_ADDX0, W_CBNZ13 };
	struct tt x;

	tt_init(&x);
	for (unsigned it = 0; it < 300; it++)
		for (unsigned k = 0; k < HS_ARRAY_SIZE(body); k++)
			tt_push(&x, 0x400000 + 4 * k, body[k], k == 0 ? 0x100000 + (it * 4096u) % 65536 : 0, 0);
	tt_push(&x, 0x400000 + 4 * HS_ARRAY_SIZE(body), W_ADDX0, 0, 0);
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct hs_insn_cost *whole = calloc(x.t.n, sizeof(*whole));
		struct hs_model_result rw, rr;
		unsigned charged = 0;

		cr_assert_not_null(m);
		cr_assert_eq(hs_model_cold(m, &x.t, &rw, whole), 0, "%s", hs_errmsg());
		for (size_t ring = 2; ring <= 64; ring *= 4) {
			struct hs_insn_cost *v = calloc(ring, sizeof(*v));
			struct folded f = { calloc(x.t.n, sizeof(*f.v)), calloc(x.t.n, sizeof(*f.times)), x.t.n };
			struct hs_costs w = { .v = v, .mask = ring - 1, .fold = fold_into, .ctx = &f };

			cr_assert_eq(hs_model_cold_costs(m, &x.t, &rr, &w), 0, "%s", hs_errmsg());
			cr_expect_eq(memcmp(&rw, &rr, sizeof(rw)), 0, "%s ring %zu: totals", hs_cores[c]->name, ring);
			for (size_t i = 0; i < x.t.n; i++) {
				cr_assert_eq(f.times[i], 1u, "%s ring %zu: record %zu folded %u times",
					     hs_cores[c]->name, ring, i, f.times[i]);
				cr_assert_eq(memcmp(&f.v[i], &whole[i], sizeof(whole[i])), 0,
					     "%s ring %zu: record %zu differs", hs_cores[c]->name, ring, i);
			}
			/* the holds were charged to their owners */
			for (size_t i = 0; ring == 2 && i + 2 < x.t.n; i++)
				charged += (body[i % HS_ARRAY_SIZE(body)] == W_DSB ||
						body[i % HS_ARRAY_SIZE(body)] == W_MSR_TP) &&
					       whole[i].cycles > 1;
			free(f.v);
			free(f.times);
			free(v);
		}
		cr_expect_gt(charged, 0u, "%s: no hold owner was charged", hs_cores[c]->name);
		free(whole);
		hs_model_free(m);
	}
	tt_free(&x);
}

/* --- a real kernel path ------------------------------------------------------------------------ */

static uint64_t sum_cycles(const struct hs_insn_cost *per, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += per[i].cycles;
	return s;
}

Test(models, kernel_path, .timeout = 60)
{
	struct hs_image *img = hs_image_open(hs_kernel("7.2-base"));

	cr_assert_not_null(img, "%s (make kernels)", hs_errmsg());
	for (int c = 0; hs_cores[c]; c++) {
		const struct hs_core *core = hs_core_find(hs_cores[c]->name);
		struct hs_patched *pt = hs_patch(img, core);
		struct hs_model *m = hs_model_new(hs_cores[c]);
		struct hs_model_result cold, w1, w2, plain;
		struct hs_insn_cost *p1, *p2;
		struct hs_path_run pr;

		cr_assert_not_null(pt, "%s", hs_errmsg());
		cr_assert_eq(hs_path_run_alone(hs_path_find("irq-el1"), pt, HS_SRC_SYNTH, &(struct hs_run_opts){ .trace_limit = 1u << 20, .set = &hs_path_set_builtin }, &pr), 0);
		cr_assert(pr.ok, "%s", pr.why);
		p1 = calloc(pr.tr.n, sizeof(*p1));
		p2 = calloc(pr.tr.n, sizeof(*p2));
		cr_assert_eq(hs_model_cold(m, &pr.tr, &cold, p1), 0);
		cr_expect_eq(sum_cycles(p1, pr.tr.n), cold.cycles, "%s cold sum", core->name);
		cr_assert_eq(hs_model_warm(m, &pr.tr, 16, &w1, p1), 0);
		cr_assert_eq(hs_model_warm(m, &pr.tr, 16, &w2, p2), 0);
		/* cold costs more; warm converges; charges add up to the total */
		cr_expect_gt(cold.cycles, w1.cycles, "%s", core->name);
		cr_expect(w1.converged && w1.warm_iterations >= 2, "%s", core->name);
		cr_expect_eq(sum_cycles(p1, pr.tr.n), w1.cycles, "%s warm sum", core->name);
		cr_expect_eq(w1.insns, pr.tr.n);
		cr_expect_eq(w1.unknown_insns, 0u);
		/* the exception entry charges the uncalibrated share where it is a
		 * guess (the A72's is fitted: its share may be none) */
		cr_expect(w1.uncalibrated_cycles <= w1.cycles, "%s", core->name);
		cr_expect(w1.uncalibrated_cycles > 0 || param(m, "exception_entry")->calibrated, "%s", core->name);
		/* deterministic, with or without the per-instruction breakdown */
		cr_expect_eq(memcmp(&w1, &w2, sizeof(w1)), 0, "%s", core->name);
		cr_expect_eq(memcmp(p1, p2, pr.tr.n * sizeof(*p1)), 0, "%s", core->name);
		hs_model_reset(m);
		cr_assert_eq(hs_model_warm(m, &pr.tr, 16, &plain, NULL), 0);
		cr_expect_eq(memcmp(&w1, &plain, sizeof(w1)), 0, "%s", core->name);
		/* the stall breakdown never exceeds the total */
		{
			uint64_t st = 0;

			for (int k = 0; k < HS_NSTALLS; k++)
				st += w1.stall[k];
			cr_expect_leq(st, w1.cycles, "%s", core->name);
		}
		free(p1);
		free(p2);
		hs_path_run_free(&pr);
		hs_model_free(m);
		hs_patched_free(pt);
	}
	hs_image_close(img);
}

/*
 * A lock reached before its holder took it (machine_timeline.c): cpu0
 * runs 2 cycles a record, cpu1 1, and cpu1 takes three locks cpu0
 * released. In warm-up op 0 it reaches one (record 3, cycle 3) before
 * cpu0 took it (record 5, cycle 10): it waits for the release (record 6,
 * done at cycle 14), 11 cycles, but warm-up ops are not counted. In the
 * sampled op 2 it reaches one (record 12: cycle 12 + 11 = 23) before cpu0
 * took it (record 14, cycle 28) - the order flipped - and waits until 32;
 * then one (record 20: 20 + 11 + 9 = 40) cpu0 holds (taken at record 19,
 * cycle 38; released at 22, done at 46): a wait, the order kept. A lock
 * whose taking is unknown (record 25: cycle 51; released at 28, done at
 * 58) waits 7 and is no flip. So 4 reads waited, 1 flipped.
 */
Test(models, a_lock_reached_before_it_was_taken_is_an_order_flip)
{
	struct ms_machine_cost *mc = calloc(1, sizeof(*mc));
	struct ms_cpu_clock clk[2];
	struct tt x[2];
	struct hs_trace tr[2];
	const unsigned n = 30;

	cr_assert_not_null(mc);
	memset(clk, 0, sizeof(clk));
	for (unsigned c = 0; c < 2; c++) {
		struct ms_cpu_clock *k = &clk[c];

		tt_init(&x[c]);
		for (unsigned i = 0; i < n; i++)
			tt_push(&x[c], 0x400000 + 4 * i, W_NOP, 0, 0);
		tr[c] = x[c].t;
		k->pre = calloc(n + 1, sizeof(uint64_t));
		k->upre = calloc(n + 1, sizeof(uint64_t));
		k->ipre = calloc(n + 1, sizeof(uint64_t));
		k->icnt = calloc(n + 1, sizeof(*k->icnt));
		k->w = calloc(8, sizeof(*k->w));
		cr_assert(k->pre && k->upre && k->ipre && k->icnt && k->w);
		k->n = n;
		k->room = 8;
		for (unsigned i = 0; i <= n; i++)
			k->pre[i] = (c ? 1 : 2) * (uint64_t)i;
	}
	mc->run.ncpus = 2;
	mc->run.nops = 3;
	for (unsigned c = 0; c < 2; c++) {
		mc->run.op[0][c].insns = mc->run.op[1][c].insns = 5;
		mc->run.op[2][c].insns = 20;
	}
	mc->run.wake[0] = (struct hs_machine_wake){ .kind = HS_WAKE_LOCK, .cpu = 1, .from = 0, .at = 3,
						    .from_at = 6, .from_took = 5 + 1 };
	mc->run.wake[1] = (struct hs_machine_wake){ .kind = HS_WAKE_LOCK, .cpu = 1, .from = 0, .at = 12,
						    .from_at = 15, .from_took = 14 + 1 };
	mc->run.wake[2] = (struct hs_machine_wake){ .kind = HS_WAKE_LOCK, .cpu = 1, .from = 0, .at = 20,
						    .from_at = 22, .from_took = 19 + 1 };
	mc->run.wake[3] = (struct hs_machine_wake){ .kind = HS_WAKE_LOCK, .cpu = 1, .from = 0, .at = 25,
						    .from_at = 28 };
	mc->run.nwakes = 4;
	ms_machine_timeline(mc, clk, tr);
	cr_expect_eq(clk[1].nw, 4u);
	cr_expect_eq(clk[1].w[0].cycles, 11u);
	cr_expect_eq(clk[1].w[1].cycles, 9u);
	cr_expect_eq(clk[1].w[2].cycles, 6u);
	cr_expect_eq(clk[1].w[3].cycles, 7u);
	/* each wait carries the cycles of the ones before it: 11 + 9 + 6 */
	cr_expect_eq(clk[1].w[3].before, 26u);
	cr_expect_eq(mc->read_waits, 4u);
	cr_expect_eq(mc->order_flips, 1u);
	for (unsigned c = 0; c < 2; c++) {
		free(clk[c].pre);
		free(clk[c].upre);
		free(clk[c].ipre);
		free(clk[c].icnt);
		free(clk[c].w);
		tt_free(&x[c]);
	}
	free(mc);
}
