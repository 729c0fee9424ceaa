/*
 * engine_inorder.c - in-order dual issue (Cortex-A53, Cortex-A55).
 *
 * Instructions issue in program order, up to issue_width per cycle, each at
 * the first cycle where
 *   - the front end has delivered it (frontend.c),
 *   - its operands are ready: result latency from the producer's issue, with
 *     the forwarding rules of the core: ALU results reach a load/store
 *     address only after alu_to_addr cycles (GCC53: "addresses are required
 *     early in Issue"), store data is read store_data_advance cycles late,
 *     branches read their operands branch_advance cycles late (QSDR: cmp and
 *     b.eq dual-issue); with alu_cascade, a simple ALU op may issue in the
 *     same cycle as the ALU op it depends on when that one's own inputs
 *     were ready a cycle earlier (QSDR arith.rs: 2 dependent adds in 1
 *     cycle, 3 in 2, 4 in 3; IB: a chain still costs 1 per add);
 *   - a unit of its kind is free (mul_pipes multipliers and div_units
 *     dividers with their occupancy, ldp on the LS pipe);
 *   - the pairing rules allow it next to the instruction already issued in
 *     that cycle: single-issue ops (mul on A53, ldp/stp, system ops) issue
 *     alone, slot-0-only ops (FP/NEON, div) cannot be the younger of a pair,
 *     at most mem_pipes memory ops (load_pipes loads, store_pipes stores),
 *     branch_pipes branches and fp_pipes FP/ASIMD ops per cycle;
 *   - serialisation allows it: DSB/ISB/ERET wait for every older instruction
 *     to complete, DMB for older memory ops; MSR/DSB/CSDB hold the pipe for
 *     their cost; ISB/ERET/exceptions restart the front end.
 * Loads that miss stall only their consumers (stall on use).
 *
 * Attribution: instruction i is charged issue(i) - issue(i-1) (the first one
 * issue + 1); a front-end redirect or a hold is charged to the instruction
 * that caused it (the branch, the ISB, the MSR). The tail after the last
 * issue (its redirect or hold) is charged to the last instruction, so the
 * charges sum to the total.
 *
 * The phases, one function each, per instruction: fetch (frontend.c),
 * issue_cycle (the constraints above), take_slot (pairing bookkeeping),
 * memory (account.c), write_results (ready cycles, causes, units,
 * serialisation), attribute (who the stall cycles belong to), then the
 * shared accounting and front-end step (account.c).
 */
#include <string.h>

#include "hotsim/err.h"
#include "frontend.h"
#include "model_internal.h"

#define R_UNCAL		0x01	/* value's latency came from an uncalibrated parameter */
#define R_CASCADE	0x02	/* producer may pair with a dependent simple ALU op */
#define R_ALU		0x04	/* produced by an ALU-class op: late for addresses */

struct io_state {
	uint64_t ready[A64_NREGS];
	uint64_t issued[A64_NREGS];
	uint8_t cause[A64_NREGS];
	uint8_t rfl[A64_NREGS];
	uint64_t cyc;			/* cycle of the last issue */
	uint64_t cnt;			/* this cycle's issue counts (enum hs_lane) */
	uint64_t unit_free[HS_NUNITS][HS_MAX_PIPES];	/* when each unit of a kind is free */
	uint64_t all_done, mem_done, posted_done;
	uint64_t hold_until;		/* nothing issues before this */
	size_t hold_owner;		/* in the stream: base + its record */
	uint8_t hold_uncal;
	size_t base;			/* the stream's records before this run */
};

/* A stream's pipeline between its runs (hs_model_run_on) */
struct io_cont {
	struct io_state st;
	struct hs_fe fe;
	uint64_t prev_issue;
	int redirect_open;
};

/* Earliest cycle operand s of op is usable, with the forwarding rules
 * (the operand's kind is the op's, hs_op_derive). */
static inline uint64_t operand_ready(const struct hs_model *m, const struct io_state *st,
				     const struct hs_op *op, unsigned s)
{
	unsigned r = op->src[s];
	uint64_t t = st->ready[r], is = st->issued[r], adv, a;

	switch (op->sk[s]) {
	case HS_SK_ADDR:
		/* an ALU result reaches the AGU alu_to_addr after its issue (a
		 * result is never ready before its issue: max with it is a no-op
		 * for the rest) */
		a = is + ((st->rfl[r] & R_ALU) ? (uint64_t)m->v[HS_P_ALU_TO_ADDR] : 0);
		return a > t ? a : t;
	case HS_SK_DATA:
	case HS_SK_BRANCH:
		adv = (uint64_t)m->v[op->sk[s] == HS_SK_DATA ? HS_P_STORE_DATA_ADV : HS_P_BRANCH_ADV];
		return t > is + adv ? t - adv : is;
	case HS_SK_CASCADE:
		/* a simple ALU op may pair with the ALU op it depends on */
		if ((st->rfl[r] & R_CASCADE) && is == st->cyc && (st->cnt & 0xff) == 1)
			return st->cyc;
		return t;
	default:
		return t;
	}
}

/* May op issue in the cycle already holding the ops st->cnt counts? */
static inline int can_pair(const struct io_state *st, const struct hs_op *op)
{
	return !op->nopair && !((st->cnt + op->pbias) & HS_LANE_TOPS);
}

/* Why an instruction issued when it did: the constraints that bound it. */
struct io_issue {
	uint64_t t;			/* the issue cycle */
	uint64_t t_dep, t_ser;		/* operands, serialisation */
	unsigned dep_reg;		/* the operand that was last ready */
};

/* Units of a kind: multipliers and dividers by parameter, the rest one. */
static unsigned nunits(const struct hs_model *m, unsigned unit)
{
	return unit == HS_U_MUL ? (unsigned)m->v[HS_P_MUL_PIPES] :
	       unit == HS_U_DIV ? (unsigned)m->v[HS_P_DIV_UNITS] : 1;
}

/* The unit of op's kind that is free first (only multipliers and
 * dividers come several to a core). */
static inline unsigned first_free(const struct hs_model *m, const struct io_state *st,
				  const struct hs_op *op)
{
	unsigned best = 0, unit = op->unit;

	if (unit != HS_U_MUL && unit != HS_U_DIV)
		return 0;
	for (unsigned k = 1; k < nunits(m, unit); k++)
		if (st->unit_free[unit][k] < st->unit_free[unit][best])
			best = k;
	return best;
}

/* issue: the first cycle every constraint allows, pairing included. */
static void issue_cycle(const struct hs_model *m, const struct io_state *st, const struct hs_op *op,
			const struct hs_fetch *f, size_t g, struct io_issue *is)
{
	uint64_t tt, t_unit = st->unit_free[op->unit][first_free(m, st, op)];

	is->t_dep = is->t_ser = 0;
	is->dep_reg = A64_R_NONE;
	for (unsigned s = 0; s < op->nsrc; s++) {
		uint64_t r = operand_ready(m, st, op, s);

		if (r > is->t_dep) {
			is->t_dep = r;
			is->dep_reg = op->src[s];
		}
	}
	if (op->fl & HS_OP_DRAIN)
		is->t_ser = st->all_done > st->posted_done ? st->all_done : st->posted_done;
	if ((op->fl & HS_OP_MEMBAR) && st->mem_done > is->t_ser)
		is->t_ser = st->mem_done;
	tt = st->cyc;
	if (f->t > tt)
		tt = f->t;
	if (is->t_dep > tt)
		tt = is->t_dep;
	if (t_unit > tt)
		tt = t_unit;
	if (is->t_ser > tt)
		tt = is->t_ser;
	if (st->hold_until > tt)
		tt = st->hold_until;
	if (g > 0 && tt == st->cyc && !can_pair(st, op))
		tt = st->cyc + 1;
	is->t = tt;
}

/* An op's issue counts (hs_op.pinc: a bit per enum hs_lane) as the lanes
 * it adds to, a byte of 1 per lane: one add per issued op. */
#define ONES1(b) ((uint64_t)(((b) >> 0) & 1) | (uint64_t)(((b) >> 1) & 1) << 8 | \
		  (uint64_t)(((b) >> 2) & 1) << 16 | (uint64_t)(((b) >> 3) & 1) << 24 | \
		  (uint64_t)(((b) >> 4) & 1) << 32 | (uint64_t)(((b) >> 5) & 1) << 40 | \
		  (uint64_t)(((b) >> 6) & 1) << 48 | (uint64_t)(((b) >> 7) & 1) << 56)
#define ONES4(b) ONES1(b), ONES1((b) + 1), ONES1((b) + 2), ONES1((b) + 3)
#define ONES16(b) ONES4(b), ONES4((b) + 4), ONES4((b) + 8), ONES4((b) + 12)
#define ONES64(b) ONES16(b), ONES16((b) + 16), ONES16((b) + 32), ONES16((b) + 48)
static const uint64_t lane_ones[256] = { ONES64(0), ONES64(64), ONES64(128), ONES64(192) };
#undef ONES64
#undef ONES16
#undef ONES4
#undef ONES1

/* A new cycle, or the next slot of the current one (g: the stream's
 * index). */
static void take_slot(struct io_state *st, const struct hs_op *op, uint64_t issue, size_t g,
		      uint16_t *ev)
{
	if (g == 0 || issue > st->cyc) {
		st->cyc = issue;
		st->cnt = 0;
	} else {
		*ev |= HS_EV_DUAL_ISSUED;
	}
	st->cnt += lane_ones[op->pinc];
}

/* results: when each destination is ready and why; units, memory order
 * and serialisation state after the instruction. */
static void write_results(const struct hs_model *m, struct io_state *st, const struct hs_op *op,
			  const struct io_issue *is, const struct hs_mem *mem, struct hs_insn_cost *e)
{
	uint64_t issue = is->t, done = issue + 1;
	/* it may cascade into a dependent ALU op if nothing it read was
	 * produced in the cycle before it issued */
	int cascade_ok = (op->fl & HS_OP_CASCADE) && (op->nsrc == 0 || is->t_dep < issue);

	uint8_t fl = (uint8_t)(((op->fl & HS_OP_UNCAL) ? R_UNCAL : 0) | (cascade_ok ? R_CASCADE : 0));
	uint16_t maxlat = 0;

	for (unsigned d = 0; d < op->ndst; d++) {
		unsigned r = op->dst[d];
		int wb = !!(op->wb_mask & (1u << d)), loaded = (op->dload >> d) & 1;
		uint64_t lat = op->dlat[d] + (loaded ? mem->extra : 0);

		st->ready[r] = issue + lat;
		st->issued[r] = issue;
		st->cause[r] = (mem->extra && loaded) ? mem->cause :
			       op->unit == HS_U_SYS ? HS_ST_SERIAL : HS_ST_DEP;
		st->rfl[r] = (uint8_t)(fl | (mem->uncal && !wb ? R_UNCAL : 0) |
				       (((op->dalu >> d) & 1) ? R_ALU : 0));
		done = issue + lat > done ? issue + lat : done;
		if (lat > maxlat)
			maxlat = (uint16_t)(lat > 0xffff ? 0xffff : lat);
	}
	if (e)
		e->lat = maxlat;
	if (op->fl & (HS_OP_LOAD | HS_OP_STORE)) {
		uint64_t md = issue + 1 + mem->extra;

		done = md > done ? md : done;
		st->mem_done = done > st->mem_done ? done : st->mem_done;
	}
	st->all_done = done > st->all_done ? done : st->all_done;
	if (op->busy) {
		st->unit_free[op->unit][first_free(m, st, op)] = issue + op->occ;
		/* one shared load/store pipe: an ldp or atomic blocks both */
		if ((op->unit == HS_U_LOAD || op->unit == HS_U_STORE) && m->v[HS_P_MEM_PIPES] <= 1)
			st->unit_free[HS_U_LOAD][0] = st->unit_free[HS_U_STORE][0] = issue + op->occ;
	}
	if ((op->fl & HS_OP_POSTED) && issue + op->cost > st->posted_done)
		st->posted_done = issue + op->cost;
}

/* The front end bound the issue: its own miss or exception entry here, a
 * redirect to the instruction that caused it. */
static void fe_stall(const struct hs_model *m, struct hs_model_result *res, struct hs_costs *costs,
		     struct hs_insn_cost *e, size_t i, const struct hs_fetch *f, uint64_t stall,
		     uint64_t *moved, uint64_t *uncal)
{
	uint64_t own = (uint64_t)f->miss_cycles + f->exc_cycles;
	uint64_t mine = own < stall ? own : stall, rest = stall - mine;

	if (mine) {
		hs_charge_stall(res, e, f->exc_cycles ? HS_ST_SERIAL : f->cause, mine);
		if (f->exc_cycles ? !m->p[HS_P_EXC_ENTRY].calibrated : f->miss_uncal)
			*uncal += mine;
	}
	if (rest && f->t_redirect && i > 0) {
		hs_move_charge(res, costs, e, i - 1, f->redirect_cause, rest, f->redirect_uncal);
		*moved += rest;
	} else if (rest) {
		hs_charge_stall(res, e, HS_ST_STRUCT, rest);
	}
}

/* attribute: whose stall cycles they are - the hold, the front end,
 * serialisation, an operand, else a unit (ties in that order). */
static void attribute(const struct hs_model *m, const struct io_state *st, const struct io_issue *is,
		      const struct hs_fetch *f, size_t i, uint64_t stall, struct hs_model_result *res,
		      struct hs_costs *costs, struct hs_insn_cost *e, uint64_t *moved, uint64_t *uncal)
{
	uint64_t issue = is->t, tb = is->t_dep > is->t_ser ? is->t_dep : is->t_ser;

	if (f->t > tb)
		tb = f->t;
	if (st->base + i > 0 && st->hold_until == issue && st->hold_until >= tb) {
		/* MSR/DSB/DMB/CSDB held the pipe: theirs (one of an earlier
		 * run's of the stream: here) */
		if (st->hold_owner >= st->base) {
			hs_move_charge(res, costs, e, st->hold_owner - st->base, HS_ST_SERIAL, stall,
				       st->hold_uncal);
			*moved = stall;
		} else {
			hs_charge_stall(res, e, HS_ST_SERIAL, stall);
		}
	} else if (f->t == issue && f->t >= is->t_dep && f->t >= is->t_ser) {
		fe_stall(m, res, costs, e, i, f, stall, moved, uncal);
	} else if (is->t_ser == issue) {
		hs_charge_stall(res, e, HS_ST_SERIAL, stall);
	} else if (is->t_dep == issue && is->dep_reg != A64_R_NONE) {
		hs_charge_stall(res, e, st->cause[is->dep_reg], stall);
		if (st->rfl[is->dep_reg] & R_UNCAL)
			*uncal += stall;
	} else {
		hs_charge_stall(res, e, HS_ST_STRUCT, stall);
	}
}

static int run(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
	       struct hs_costs *costs)
{
	struct io_state st;
	struct hs_fe fe;
	uint64_t prev_issue = 0;
	int redirect_open = 0;		/* the last instruction set a redirect */
	struct io_cont *k = m->cont;
	size_t n;

	if (m->cont_on && !k && !(k = m->cont = hs_calloc(1, sizeof(*k))))
		return -1;
	if (m->cont_on && m->cont_n) {
		st = k->st;
		fe = k->fe;
		prev_issue = k->prev_issue;
		redirect_open = k->redirect_open;
	} else {
		memset(&st, 0, sizeof(st));
		hs_fe_reset(m, &fe);
	}
	st.base = m->cont_on ? m->cont_n : 0;
	/* a stream's run leaves its last record to the next: it is here for
	 * the one before it (a branch's outcome is its successor's pc) */
	n = m->cont_on ? t->n - 1 : t->n;
	for (size_t i = 0; i < n; i++) {
		const struct hs_tinsn *rec = &t->v[i];
		struct hs_op tmp;
		const struct hs_op *op;
		struct hs_fetch f;
		struct io_issue is;
		struct hs_mem mem;
		uint64_t charge, nat, stall, moved = 0, uncal = 0;
		uint16_t ev = 0;
		struct hs_insn_cost *e = hs_cost_begin(costs, i);

		if (rec->sidx >= m->nops)
			return hs_bad_record(t, i);
		op = hs_record_op(m, &m->ops[rec->sidx], rec->flags, &tmp, HS_OP_SINGLE);
		hs_fe_fetch(m, &fe, hs_code_at(m, op->pc), rec->flags, &f, res);
		ev |= f.events;
		issue_cycle(m, &st, op, &f, st.base + i, &is);
		take_slot(&st, op, is.t, st.base + i, &ev);
		hs_mem_phase(m, rec, op, &ev, res, &mem);
		write_results(m, &st, op, &is, &mem, e);
		/* the charge, then who the stall belongs to */
		charge = st.base + i == 0 ? is.t + 1 : is.t - prev_issue;
		nat = st.base + i == 0 ? 0 : prev_issue + 1;
		stall = is.t > nat ? is.t - nat : 0;
		if (e) {
			e->issue = is.t;
			e->cycles = (uint32_t)charge;
			e->events = ev;
		}
		if (stall)
			attribute(m, &st, &is, &f, i, stall, res, costs, e, &moved, &uncal);
		hs_account_uncal(res, e, op, charge, moved, uncal);
		/* what follows this instruction */
		if (op->fl & (HS_OP_HOLD | HS_OP_MEMBAR)) {
			st.hold_until = is.t + (op->cost > 1 ? op->cost : 1);
			st.hold_owner = st.base + i;
			st.hold_uncal = !!(op->fl & HS_OP_UNCAL);
			hs_cost_pin(costs, i);
		}
		redirect_open = hs_control_phase(m, &fe, t, i, op, f.t, is.t, res, e);
		hs_fe_issued(&fe, is.t);
		prev_issue = is.t;
	}
	res->insns = n;
	if (m->cont_on) {
		/* the stream goes on: no tail */
		*k = (struct io_cont){ st, fe, prev_issue, redirect_open };
		m->cont_n = st.base + n;
		res->cycles = prev_issue + 1;
		return 0;
	}
	/* the tail: when the instruction after the trace could issue */
	res->cycles = hs_charge_tail(m, t, &fe, redirect_open, st.hold_until, st.hold_uncal,
				     t->n ? prev_issue + 1 : 0, res, costs);
	return 0;
}

const struct hs_engine hs_engine_inorder = { "in-order dual issue", run };
