/*
 * model_internal.h - what the cost models share (models/ only).
 *
 * A core is data: one table of named parameters (struct hs_param: value,
 * unit, source, calibrated) indexed by HS_P_*, plus the engine that runs it.
 * Every latency, issue rule, width, cache and predictor size and penalty is a
 * parameter, so `hotsim models` lists all of them and `--param` overrides any
 * of them. Engines never hold numbers of their own.
 *
 * Adding a core: a new models/<core>.c defining `const struct hs_core
 * hs_core_<core>` (identity, engine, the HS_P_* entries it has a source
 * for) and one line in models/registry.c. A parameter the file leaves out
 * takes the engines' default (defaults.c), listed as uncalibrated. A core
 * derived from another (n1.c from a76.c) names it as .params_base and
 * lists only the entries whose value or source differ: the others are
 * that core's.
 *
 * Adding a parameter: one X() line below, its default with the reason for
 * it in defaults.c, and the engine code that reads it; only the cores with
 * a better number than the default need an entry.
 *
 * The pieces:
 *   ops.c        static instruction -> struct hs_op (class, latencies, pipes,
 *                issue rules, which parameter it costs), cached per decode-
 *                cache entry so the engines do no decoding per record
 *   frontend.c   fetch: fetch width, queue, taken-branch bubbles, I-cache and
 *                I-TLB, branch prediction outcome -> when the next instruction
 *                can issue; after a branch or a serialising op, the redirect
 *                (shared by both engines; its state and the inline per-record
 *                steps are frontend.h's)
 *   defaults.c   the value of every parameter a core file does not set
 *   cache.c      set-associative LRU caches and TLBs, the memory hierarchy
 *   bpred.c      conditional predictor, BTIC, BTAC, return stack
 *   account.c    what both engines share after placing an instruction in
 *                time: charges and who a stall belongs to, the uncalibrated
 *                share, the tail (the memory access is inline, below, into
 *                cache.c)
 *   engine_inorder.c, engine_ooo.c   the pipelines, as named phases
 */
#ifndef HOTSIM_MODEL_INTERNAL_H
#define HOTSIM_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bpred.h"
#include "cache.h"
#include "hotsim/model.h"

/*
 * Parameters: X(ID, "name", "unit", CLOCK). The order is the listing order.
 * Groups: front end and prediction, issue/pipes, latencies, memory, and the
 * serialising/system costs nobody publishes (the last group; each core marks
 * those uncalibrated). CLOCK says what a number of cycles counts: CORE, the
 * core's own cycles (its pipeline, its caches), the same at any clock;
 * TIME, a time spent outside the core's clock domain (the DRAM, the
 * interrupt controller), written as cycles at the core file's clock_hz -
 * at another clock (a board's, or a --freq clock: ms_at_clock) it is as
 * many more cycles as that clock is faster.
 */
#define HS_PARAM_LIST(X) \
	/* front end, branch prediction */ \
	X(ISSUE_WIDTH, "issue_width", "insns/cycle", CORE) \
	X(FETCH_WIDTH, "fetch_width", "insns/cycle", CORE) \
	X(FETCH_QUEUE, "fetch_queue", "insns", CORE) \
	X(TAKEN_BUBBLE, "taken_bubble", "cycles", CORE) \
	X(RET_BUBBLE, "ret_bubble", "cycles", CORE) \
	X(BLR_BUBBLE, "blr_bubble", "cycles", CORE) \
	X(BR_BUBBLE, "br_bubble", "cycles", CORE) \
	X(BTIC_ENTRIES, "btic_entries", "entries", CORE) \
	X(MISPREDICT, "mispredict_penalty", "cycles", CORE) \
	X(BP_ENTRIES, "bp_entries", "2-bit counters", CORE) \
	X(BP_HISTORY, "bp_history", "bits", CORE) \
	X(BTAC_ENTRIES, "btac_entries", "entries", CORE) \
	X(RAS_DEPTH, "ras_depth", "entries", CORE) \
	/* issue rules, pipes, window */ \
	X(ROB_SIZE, "rob_size", "uops", CORE) \
	X(RETIRE_WIDTH, "retire_width", "insns/cycle", CORE) \
	X(ALU_PIPES, "alu_pipes", "pipes", CORE) \
	X(LOAD_PIPES, "load_pipes", "pipes", CORE) \
	X(STORE_PIPES, "store_pipes", "pipes", CORE) \
	X(MEM_PIPES, "mem_pipes", "ops/cycle", CORE) \
	X(BRANCH_PIPES, "branch_pipes", "branches/cycle", CORE) \
	X(MUL_PIPES, "mul_pipes", "pipes", CORE) \
	X(DIV_UNITS, "div_units", "units", CORE) \
	X(FP_PIPES, "fp_pipes", "pipes", CORE) \
	X(FP_ON_ALU, "fp_on_alu_pipes", "bool", CORE) \
	X(FP_SLOT0, "fp_slot0_only", "bool", CORE) \
	X(ALU_CASCADE, "alu_cascade", "bool", CORE) \
	X(MUL_SINGLE, "mul_single_issue", "bool", CORE) \
	X(PAIR_SINGLE, "ldp_stp_single_issue", "bool", CORE) \
	X(SHIFT_REG_TPUT, "shift_reg_per_cycle", "insns/cycle", CORE) \
	X(HAS_PAUTH, "has_pauth", "bool", CORE) \
	X(NOP_TPUT, "nop_per_cycle", "insns/cycle", CORE) \
	X(CHEAP_LSL, "cheap_lsl_max", "shift amount", CORE) \
	X(CHEAP_LOGIC, "cheap_logic_shift", "bool", CORE) \
	X(SHIFT_ON_MUL, "shift_ops_on_mul", "bool", CORE) \
	X(LOAD_PASS_STORE, "load_pass_store", "bool", CORE) \
	/* latencies (cycles from issue to a dependent issue) and occupancies */ \
	X(LAT_ALU, "lat_alu", "cycles", CORE) \
	X(LAT_ALU_SHIFT, "lat_alu_shift", "cycles", CORE) \
	X(LAT_BITFIELD, "lat_bitfield", "cycles", CORE) \
	X(LAT_SHIFT_REG, "lat_shift_reg", "cycles", CORE) \
	X(LAT_MUL, "lat_mul", "cycles", CORE) \
	X(LAT_MUL32, "lat_mul32", "cycles", CORE) \
	X(LAT_MADD, "lat_madd", "cycles", CORE) \
	X(LAT_MULL, "lat_mull", "cycles", CORE) \
	X(LAT_MULH, "lat_mulh", "cycles", CORE) \
	X(OCC_MUL, "occ_mul", "cycles", CORE) \
	X(OCC_MADD, "occ_madd", "cycles", CORE) \
	X(OCC_MULH, "occ_mulh", "cycles", CORE) \
	X(LAT_DIV32, "lat_div32", "cycles", CORE) \
	X(LAT_DIV64, "lat_div64", "cycles", CORE) \
	X(LAT_CRC, "lat_crc", "cycles", CORE) \
	X(LAT_LOAD, "lat_load", "cycles", CORE) \
	X(LAT_LOAD_NARROW, "lat_load_narrow", "cycles", CORE) \
	X(LAT_LDP2, "lat_ldp2", "cycles", CORE) \
	X(OCC_LDP, "occ_ldp", "cycles", CORE) \
	X(UNALIGNED_EXTRA, "unaligned_extra", "cycles", CORE) \
	X(REGOFF_EXTRA, "regoff_load_extra", "cycles", CORE) \
	X(ALU_TO_ADDR, "alu_to_addr", "cycles", CORE) \
	X(STORE_DATA_ADV, "store_data_advance", "cycles", CORE) \
	X(BRANCH_ADV, "branch_advance", "cycles", CORE) \
	X(LAT_FP, "lat_fp", "cycles", CORE) \
	/* caches, TLBs, memory */ \
	X(LINE_BYTES, "line_bytes", "bytes", CORE) \
	X(L1I_SIZE, "l1i_size", "bytes", CORE) \
	X(L1I_ASSOC, "l1i_assoc", "ways", CORE) \
	X(L1D_SIZE, "l1d_size", "bytes", CORE) \
	X(L1D_ASSOC, "l1d_assoc", "ways", CORE) \
	X(L2_SIZE, "l2_size", "bytes", CORE) \
	X(L2_ASSOC, "l2_assoc", "ways", CORE) \
	X(L2_LATENCY, "l2_latency", "cycles", CORE) \
	X(L3_SIZE, "l3_size", "bytes", CORE) \
	X(L3_ASSOC, "l3_assoc", "ways", CORE) \
	X(L3_LATENCY, "l3_latency", "cycles", CORE) \
	X(SHARED_LEVEL, "shared_level", "level", CORE) \
	X(MEM_LATENCY, "mem_latency", "cycles", TIME) \
	X(IPREFETCH, "iprefetch_lines", "lines", CORE) \
	X(ITLB_ENTRIES, "itlb_entries", "entries", CORE) \
	X(DTLB_ENTRIES, "dtlb_entries", "entries", CORE) \
	X(TLB_ENTRIES, "tlb_entries", "entries", CORE) \
	X(TLB_ASSOC, "tlb_assoc", "ways", CORE) \
	X(TLB_LATENCY, "tlb_latency", "cycles", CORE) \
	X(WALK_LATENCY, "walk_latency", "cycles", CORE) \
	X(PAGE_BYTES, "page_bytes", "bytes", CORE) \
	/* serialising and system operations (uncalibrated on every core) */ \
	X(DMB, "dmb", "cycles", CORE) \
	X(DMB_LD, "dmb_ld", "cycles", CORE) \
	X(DMB_ST, "dmb_st", "cycles", CORE) \
	X(DSB, "dsb", "cycles", CORE) \
	X(ISB, "isb", "cycles", CORE) \
	X(SB, "sb", "cycles", CORE) \
	X(CSDB, "csdb", "cycles", CORE) \
	X(MRS_TPIDR, "mrs_tpidr", "cycles", CORE) \
	X(MRS_SP_EL0, "mrs_sp_el0", "cycles", CORE) \
	X(MRS_DAIF, "mrs_daif", "cycles", CORE) \
	X(MRS_OTHER, "mrs_other", "cycles", CORE) \
	X(MSR_TPIDR, "msr_tpidr", "cycles", CORE) \
	X(MSR_SP_EL0, "msr_sp_el0", "cycles", CORE) \
	X(MSR_DAIF, "msr_daif", "cycles", CORE) \
	X(MSR_OTHER, "msr_other", "cycles", CORE) \
	X(MSR_DAIF_IMM, "msr_daif_imm", "cycles", CORE) \
	X(PAN, "pan", "cycles", CORE) \
	X(LDXR, "ldxr", "cycles", CORE) \
	X(STXR, "stxr", "cycles", CORE) \
	X(LSE_ATOMIC, "lse_atomic", "cycles", CORE) \
	X(CAS, "cas", "cycles", CORE) \
	X(ERET, "eret", "cycles", CORE) \
	X(EXC_ENTRY, "exception_entry", "cycles", CORE) \
	X(FIRMWARE, "firmware_call", "cycles", CORE) \
	X(TLBI, "tlbi", "cycles", CORE) \
	X(DC, "dc", "cycles", CORE) \
	X(IC, "ic", "cycles", CORE) \
	X(SYS_OTHER, "sys_other", "cycles", CORE) \
	X(UNKNOWN_INSN, "unknown_insn", "cycles", CORE) \
	X(IPI_LATENCY, "ipi_latency", "cycles", TIME) \
	X(WFI_EXIT, "wfi_exit", "cycles", CORE) \
	X(PEER_LATENCY, "peer_latency", "cycles", CORE)

enum hs_pid {
#define HS_PID_ENUM(id, name, unit, clock) HS_P_##id,
	HS_PARAM_LIST(HS_PID_ENUM)
#undef HS_PID_ENUM
	HS_NPARAMS
};

/* Central names and units, indexed by HS_P_* (model.c). */
extern const char *const hs_param_name[HS_NPARAMS];
extern const char *const hs_param_unit[HS_NPARAMS];
extern const int hs_param_timed[HS_NPARAMS];	/* CLOCK is TIME */

/* What a core gets for a parameter its file does not set (defaults.c):
 * every entry uncalibrated, with the reason for the value. */
extern const struct hs_param hs_param_defaults[HS_NPARAMS];

/* Pipe counts are at most this (model.c checks; the engines size by it). */
#define HS_MAX_PIPES 8

/*
 * Core tables write entries as HS_CAL(ID, value, "source") for a number with
 * a source and HS_UNCAL(ID, value, "why this guess") for a named assumption;
 * name and unit are filled in from the central list when a model is created.
 */
#define HS_CAL(id, v, src) [HS_P_##id] = { NULL, (v), NULL, (src), 1, 0, 0 }
#define HS_UNCAL(id, v, src) [HS_P_##id] = { NULL, (v), NULL, (src), 0, 0, 0 }
/* fitted to a board's published cells (docs/calibration.md): calibrated,
 * with the 95% range the cells allow and the guess the fit moved from */
#define HS_FIT(id, v, guess, lo, hi, src) [HS_P_##id] = { NULL, (v), NULL, (src), 1, (lo), (hi), (guess) }

struct hs_model;

/* A pipeline engine. run() follows hs_model_run()'s contract. */
struct hs_engine {
	const char *name;
	int (*run)(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		   struct hs_costs *costs);
};

/* -1: record i of t names no decode-cache entry (the engines check each
 * record as they reach it: one pass over the stream, not two). */
int hs_bad_record(const struct hs_trace *t, size_t i);

extern const struct hs_engine hs_engine_inorder;
extern const struct hs_engine hs_engine_ooo;



/* --- static instruction descriptors (ops.c) ------------------------------ */

/* what an instruction occupies */
enum hs_unit {
	HS_U_ALU, HS_U_SHIFT, HS_U_MUL, HS_U_DIV, HS_U_LOAD, HS_U_STORE, HS_U_BRANCH, HS_U_FP,
	HS_U_SYS,
	HS_NUNITS
};
/* out-of-order issue calendar rows beyond the units' (engine_ooo.c) */
#define HS_ROW_MEM HS_NUNITS		/* every memory op: mem_pipes a cycle */
#define HS_ROW_NOP (HS_NUNITS + 1)	/* NOPs retired on no pipe: nop_per_cycle */
#define HS_NROWS (HS_NUNITS + 2)

/* branch kinds, for the front end */
enum hs_bkind {
	HS_B_NONE, HS_B_COND, HS_B_DIRECT, HS_B_CALL, HS_B_CALL_IND, HS_B_IND, HS_B_RET, HS_B_ERET
};

/* op flags */
#define HS_OP_SINGLE	0x0001	/* in-order: issues alone (takes both slots) */
#define HS_OP_SLOT0	0x0002	/* in-order: only as the older of a pair */
#define HS_OP_CASCADE	0x0004	/* simple ALU: may dual-issue with a dependent ALU op */
#define HS_OP_UNCAL	0x0008	/* its cost comes from an uncalibrated parameter */
#define HS_OP_LOAD	0x0010	/* reads memory (cache access, load latency) */
#define HS_OP_STORE	0x0020	/* writes memory */
#define HS_OP_DRAIN	0x0040	/* waits until all older instructions completed */
#define HS_OP_REFETCH	0x0080	/* the front end restarts after it (cost cycles later) */
#define HS_OP_HOLD	0x0100	/* later instructions wait cost cycles after its issue */
#define HS_OP_MEMBAR	0x0200	/* orders memory: later memory ops wait for older ones */
#define HS_OP_POSTED	0x0400	/* completes cost cycles later in the background (tlbi, dc) */
#define HS_OP_UNKNOWN	0x0800	/* unclassified encoding */
#define HS_OP_DIV	0x1000	/* non-pipelined: occupies its unit for its latency */
#define HS_OP_EXC	0x2000	/* svc/brk...: an exception entry follows */
#define HS_OP_NOP	0x4000	/* does nothing (nop, hints, PAC without PAuth) */

/* 64 bytes, a cache line each (m->ops is aligned): the engines read one
 * per record, from tens of thousands. */
struct hs_op {
	uint64_t pc;		/* identity of the decode-cache entry it was built from */
	uint16_t fl;		/* HS_OP_* */
	uint8_t unit;		/* enum hs_unit */
	uint8_t bkind;		/* enum hs_bkind */
	uint8_t occ;		/* cycles its unit stays busy (pipelined: 1) */
	uint8_t nsrc, ndst;
	uint8_t addr_mask;	/* bit i: src[i] is an address operand */
	uint8_t data_mask;	/* bit i: src[i] is store data (needed late) */
	uint8_t src[6], dst[4];
	uint8_t dlat[4];	/* result latency per dst */
	uint8_t wb_mask;	/* bit i: dst[i] is a writeback base */
	uint8_t mem_size;	/* bytes accessed */
	uint16_t cost;		/* serial/system cost in cycles (param) */
	uint8_t param;		/* enum hs_pid the cost came from (HS_NPARAMS: none) */
	/* derived from the fields above (hs_op_derive), so that the engines
	 * ask one question per operand or result, not four */
	uint8_t sk[6];		/* per src: enum hs_src_kind */
	uint8_t dload;		/* bit d: dst d is loaded (a miss delays it) */
	uint8_t dalu;		/* bit d: dst d is an ALU result, late for an address */
	uint8_t busy;		/* it occupies its unit beyond its issue cycle */
	uint8_t nopair;		/* in-order: never the younger of a pair */
	uint8_t pinc;		/* in-order: the issue counts it takes, a bit per hs_lane */
	uint8_t far;		/* its target is not pc + tgt (tgt 0): the decode entry's */
	uint8_t row;		/* out-of-order: its calendar row (a unit's, HS_ROW_NOP) */
	uint8_t row_mem;	/* ... and it takes a HS_ROW_MEM slot too (loads, stores) */
	uint8_t row_occ;	/* ... for this many cycles (a divide: 1, the divider is apart) */
	int32_t tgt;		/* branch (adr, literal) target - pc, 0: none */
	uint64_t pbias;		/* in-order: its caps (hs_lane) */
};
_Static_assert(sizeof(struct hs_op) == 64, "struct hs_op: one cache line (fields fill its holes)");

/*
 * The in-order engine's issue counts of the current cycle, one byte lane
 * each in a uint64_t: an op adds its pinc, and pairs with what the cycle
 * holds only when no count it is limited by has reached its cap - with
 * pbias holding 0x80 - cap in those lanes, (counts + pbias) has a lane's
 * top bit set exactly then. One add and one test where a switch on the
 * op's kind was (a branch the host mispredicts).
 */
enum hs_lane { HS_LN_SLOTS, HS_LN_SINGLE, HS_LN_MEM, HS_LN_LD, HS_LN_ST, HS_LN_BR, HS_LN_SHIFT, HS_LN_FP };
#define HS_LANE(l, v) ((uint64_t)(v) << (8 * (l)))
#define HS_LANE_TOPS 0x8080808080808080ULL

/* How a source operand is read (in-order forwarding rules). */
enum hs_src_kind {
	HS_SK_PLAIN,		/* at its ready cycle */
	HS_SK_CASCADE,		/* ... or with the simple ALU op producing it */
	HS_SK_ADDR,		/* an address: an ALU result alu_to_addr after it issued */
	HS_SK_DATA,		/* store data, store_data_advance late */
	HS_SK_BRANCH		/* a branch operand, branch_advance late */
};

/* Fill the derived fields of op from the rest (after any change to them). */
void hs_op_derive(const struct hs_model *m, struct hs_op *op);

/* Make m->ops cover every entry of the trace's decode cache (checked by
 * pc/word, so a reused decode cache is rebuilt). -1 on allocation failure. */
int hs_ops_sync(struct hs_model *m, const struct hs_trace *t);

/* --- the model ---------------------------------------------------------------- */

struct hs_model {
	const struct hs_core *desc;
	struct hs_param p[HS_NPARAMS];	/* current values; name/unit/source */
	int v[HS_NPARAMS];		/* values rounded to integers, for the engines */
	struct hs_memsys mem;		/* caches and TLBs (cache.h) */
	struct hs_bpred bp;		/* predictors (bpred.h) */
	/* static descriptors, by decode-cache index */
	struct hs_op *ops;
	uint32_t *words;		/* each descriptor's instruction word (sync checks) */
	size_t nops, capops;
	const struct hs_dcache *ops_dc;
	const struct hs_static *ops_dcv;	/* its entry array when last synced */
	int ops_stale;			/* parameters changed: rebuild all */
	/* engine scratch (the OoO unit calendars), allocated on first use */
	void *scratch;
	uint32_t gen;			/* run counter: stamps scratch entries */
	/* a stream costed run by run (hs_model_run_on): this run goes on from
	 * the last one's pipeline, which the engine keeps in cont (allocated
	 * on first use) with the records before it, cont_n (0: none yet) */
	int cont_on;
	void *cont;
	size_t cont_n;
	/* layout: code (data) at or above its split point is seen by the
	 * caches and predictors moved by its delta (hs_model_set_layout_shift) */
	uint64_t code_split, code_delta, data_split, data_delta;
	uint8_t level_uncal[HS_NLEVELS][3];	/* hs_level_uncal_of by level and TLB miss */
};

static inline uint64_t hs_code_at(const struct hs_model *m, uint64_t pc)
{
	return pc >= m->code_split ? pc + m->code_delta : pc;
}

static inline uint64_t hs_data_at(const struct hs_model *m, uint64_t a)
{
	return a >= m->data_split ? a + m->data_delta : a;
}

/* --- data side (cache.c helpers bound to the model) ---------------------------- */

/* What a record's data access cost beyond an L1 hit. */
struct hs_mem {
	uint32_t extra;			/* cycles beyond an L1 hit */
	uint8_t cause;			/* of those cycles */
	int uncal;			/* an uncalibrated parameter priced them */
};

/*
 * A data access of size bytes at addr: fills out with the extra cycles
 * beyond an L1 hit (TLB miss, L1 miss...), their cause (HS_ST_DCACHE when
 * none) and whether an uncalibrated latency priced them; adds events.
 */
void hs_data_access(struct hs_model *m, uint64_t addr, unsigned size, uint16_t *events,
		    struct hs_model_result *res, struct hs_mem *out);

/* Would the latency of a miss served at lv (or a TLB miss) use an
 * uncalibrated parameter? */
int hs_level_uncal_of(const struct hs_model *m, enum hs_level lv, int tlb_miss);
/* ... from the table hs_model_configure made of it (per access: a lookup) */
static inline int hs_level_uncal(const struct hs_model *m, enum hs_level lv, int tlb_miss)
{
	return m->level_uncal[lv][tlb_miss];
}

/* --- shared accounting ----------------------------------------------------------- */

/*
 * The attribution goes to a struct hs_costs (model.h): a whole array or a
 * window. Engines name the current record's entry e (NULL: no attribution
 * asked for) and reach any other record through hs_cost_of().
 */

/* Records [c->next, i - 1) leave the window (account.c). */
void hs_costs_slide(struct hs_costs *c, size_t i);
/* The run is over: every record left is final (account.c). */
void hs_costs_finish(struct hs_costs *c, size_t n);

/* Record i's entry: in the ring, or aside when it is the pinned owner that
 * left it. */
static inline struct hs_insn_cost *hs_cost_of(struct hs_costs *c, size_t i)
{
	return c->has_aside && i == c->pin ? &c->aside : &c->v[i & c->mask];
}

/* The entry of record i, which the engine is about to place, zeroed: what
 * can no longer be charged leaves the window first. NULL: no attribution. */
static inline struct hs_insn_cost *hs_cost_begin(struct hs_costs *c, size_t i)
{
	struct hs_insn_cost *e;

	if (!c)
		return NULL;
	if (i - c->next > c->mask)
		hs_costs_slide(c, i);
	e = &c->v[i & c->mask];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Record i now owns a hold later instructions may be charged for; the
 * previous owner, if it waits aside, is final. */
static inline void hs_cost_pin(struct hs_costs *c, size_t i)
{
	if (!c)
		return;
	if (c->has_aside) {
		c->fold(c->ctx, c->pin, &c->aside, 1);
		c->has_aside = 0;
	}
	c->pin = i;
}

/* Charge c cycles of cause to the entry e (may be NULL). */
static inline void hs_charge_stall(struct hs_model_result *res, struct hs_insn_cost *e,
				   unsigned cause, uint64_t c)
{
	res->stall[cause] += c;
	if (e) {
		uint32_t s = e->stall[cause] + (uint32_t)c;

		e->stall[cause] = s > 0xffff ? 0xffff : (uint16_t)s;
	}
}

/* Move c stall cycles of cause from the current instruction (entry e) to
 * the instruction o that caused them (a branch, ISB, MSR... whose redirect
 * or hold delayed it). */
void hs_move_charge(struct hs_model_result *res, struct hs_costs *costs, struct hs_insn_cost *e,
		    size_t o, unsigned cause, uint64_t c, int uncal);

/* 8-byte datapath chunks touched beyond what an aligned access needs. */
static inline int hs_unaligned(uint64_t addr, unsigned size)
{
	return size > 1 && ((addr + size - 1) >> 3) - (addr >> 3) + 1 > (size + 7) / 8;
}
/* A load that needs more datapath chunks than aligned: unaligned_extra (account.c). */
void hs_mem_unaligned(const struct hs_model *m, struct hs_mem *out);

/* The memory phase of a record: its data access beyond an L1 hit. Inline
 * to the cache model's call (a third of the records access memory). */
static inline void hs_mem_phase(struct hs_model *m, const struct hs_tinsn *rec, const struct hs_op *op,
				uint16_t *ev, struct hs_model_result *res, struct hs_mem *out)
{
	unsigned size;

	/* no access, or an L1 hit (no latency priced: calibrated) */
	out->extra = 0;
	out->cause = HS_ST_DCACHE;
	out->uncal = 0;
	if (!(op->fl & (HS_OP_LOAD | HS_OP_STORE)) || !rec->addr)
		return;
	size = op->mem_size ? op->mem_size : 1;
	if (rec->flags & HS_T_REMOTE)
		hs_mem_remote(&m->mem, hs_data_at(m, rec->addr));
	if (!hs_mem_data_quick(&m->mem, hs_data_at(m, rec->addr), size))
		hs_data_access(m, hs_data_at(m, rec->addr), size, ev, res, out);
	if ((op->fl & HS_OP_LOAD) && hs_unaligned(rec->addr, size))
		hs_mem_unaligned(m, out);
}

/* The uncalibrated share of an instruction's charge (entry e): all of an
 * uncalibrated op's own charge, else the stall cycles an uncalibrated
 * latency caused (kept). */
static inline void hs_account_uncal(struct hs_model_result *res, struct hs_insn_cost *e,
				    const struct hs_op *op, uint64_t charge, uint64_t moved, uint64_t kept)
{
	if (op->fl & HS_OP_UNCAL)
		kept = charge - moved;
	if (!kept)
		return;
	res->uncalibrated_cycles += kept;
	if (e)
		e->events |= HS_EV_UNCALIBRATED;
}

struct hs_fe;			/* frontend.h */

/* When the instruction after the trace could issue, charging any wait the
 * last instruction still causes to it. */
uint64_t hs_charge_tail(const struct hs_model *m, const struct hs_trace *t, const struct hs_fe *fe,
			int redirect_open, uint64_t hold, int hold_uncal, uint64_t end,
			struct hs_model_result *res, struct hs_costs *costs);

/* The descriptor of one record: the static one, or a copy adjusted for
 * firmware calls and emulated sysregs (ops.c; both engines). */
const struct hs_op *hs_record_op_adjusted(const struct hs_model *m, const struct hs_op *op,
					  uint32_t rflags, struct hs_op *tmp, unsigned fw_flags);
static inline const struct hs_op *hs_record_op(const struct hs_model *m, const struct hs_op *op,
					       uint32_t rflags, struct hs_op *tmp, unsigned fw_flags)
{
	if (!(rflags & (HS_T_FIRMWARE | HS_T_SYSREG_EMU)))
		return op;
	return hs_record_op_adjusted(m, op, rflags, tmp, fw_flags);
}

#endif
