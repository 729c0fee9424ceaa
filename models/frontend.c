/*
 * frontend.c - instruction fetch, shared by the engines.
 *
 * Times are in issue coordinates: "fetched at t" means the instruction could
 * issue (in-order) or dispatch (OoO) at t at the earliest; the constant depth
 * of the fetch/decode stages drops out of every difference. What delays an
 * instruction here:
 *   - fetch bandwidth: fetch_width instructions per cycle, a group ends at
 *     a taken branch;
 *   - the fetch queue: at most fetch_queue instructions fetched and not yet
 *     issued, so fetch runs ahead of a stalled back end by that much only;
 *   - redirects: a predicted-taken branch restarts fetch 1 + bubble cycles
 *     after it was fetched (bubble 0 on a BTIC hit); a mispredicted one
 *     mispredict_penalty cycles after the cycle following its resolution;
 *     ISB/ERET/exceptions restart it at a time the engine says;
 *   - I-TLB and I-cache misses when fetch enters a new page / line;
 *   - exception entry (a record flagged HS_T_EXC_ENTRY) before its first
 *     instruction.
 */
#include <string.h>

#include "frontend.h"
#include "model_internal.h"

void hs_fe_reset(const struct hs_model *m, struct hs_fe *fe)
{
	memset(fe, 0, sizeof(*fe));
	fe->width = m->v[HS_P_FETCH_WIDTH] > 0 ? (unsigned)m->v[HS_P_FETCH_WIDTH] : 1;
	fe->qn = m->v[HS_P_FETCH_QUEUE] > HS_FE_QMAX ? HS_FE_QMAX : (unsigned)m->v[HS_P_FETCH_QUEUE];
}

int hs_fe_line(struct hs_model *m, struct hs_fe *fe, uint64_t pc, struct hs_fetch *f,
	       struct hs_model_result *res)
{
	struct hs_memsys *ms = &m->mem;
	uint64_t page = pc >> ms->itlb.shift, line = (pc >> ms->l1i.shift) + 1;
	enum hs_level lv;
	size_t at;
	uint32_t c = 0;
	int miss = 0;

	if (page + 1 != fe->page) {
		fe->page = page + 1;
		/* a micro-TLB hit without a scan: inline, as hs_mem_translate
		 * would take it */
		if (hs_cache_quick(&ms->itlb, page + 1, &at))
			hs_cache_take(&ms->itlb, page + 1, at);
		else
			c = hs_mem_translate(ms, pc, 1, &miss);
		if (miss) {
			f->miss_cycles += c;
			f->cause = HS_ST_TLB;
			if (miss == 1) {
				f->events |= HS_EV_TLB_MISS;
				res->tlb_misses++;
			}
		}
	}
	if (hs_cache_quick(&ms->l1i, line, &at)) {
		/* a hit without a scan: inline, as hs_mem_line would take it */
		hs_cache_take(&ms->l1i, line, at);
		c = 0;
		lv = HS_LV_L1;
	} else {
		c = hs_mem_line(ms, pc, 1, &lv);
	}
	f->miss_uncal = (uint8_t)hs_level_uncal(m, lv, miss);
	if (lv != HS_LV_L1) {
		f->miss_cycles += c;
		f->cause = HS_ST_ICACHE;
		f->events |= HS_EV_ICACHE_MISS;
		res->icache_misses++;
		if (lv != HS_LV_L2) {
			f->events |= HS_EV_L2_MISS;
			res->l2_misses++;
		}
	}
	return f->miss_cycles != 0;
}

/* A serialising instruction restarts fetch at t (ISB, ERET, firmware). */
static void restart(struct hs_fe *fe, uint64_t t, uint8_t cause, int uncal)
{
	fe->redirect = t;
	fe->redirect_cause = cause;
	fe->redirect_uncal = (uint8_t)!!uncal;
	fe->redirected = 1;
}

/* A predicted taken branch: fetch resumes 1 + bubble cycles after it; the
 * bubble is parameter pid (HS_NPARAMS: none, a BTIC hit). */
static void taken(struct hs_model *m, struct hs_fe *fe, uint64_t fetch_t, enum hs_pid pid)
{
	int bubble = pid < HS_NPARAMS ? m->v[pid] : 0;

	restart(fe, fetch_t + 1 + (uint64_t)(bubble > 0 ? bubble : 0), HS_ST_BRANCH,
		pid < HS_NPARAMS && bubble > 0 && !m->p[pid].calibrated);
}

/*
 * A branch is done: fetched at fetch_t, resolved at resolve_t (in-order:
 * issue; OoO: completion). next_pc is the following record's pc (0 at the
 * end of the trace). Sets the redirect for the next fetch; returns
 * HS_EV_MISPREDICT when mispredicted. Its one caller is below: one call a
 * branch, not two.
 */
static uint16_t predict(struct hs_model *m, struct hs_fe *fe, const struct hs_op *op,
			uint64_t pc, uint64_t next_pc, uint64_t target, uint32_t rflags,
			uint64_t fetch_t, uint64_t resolve_t, struct hs_model_result *res)
{
	struct hs_bpred *bp = &m->bp;
	int mis = 0;

	if (rflags & HS_T_STUB)
		return 0;	/* the callee was answered by the host: straight on */
	switch (op->bkind) {
	case HS_B_COND: {
		int tk = next_pc && next_pc == target && target != pc + 4;

		mis = hs_bp_cond(bp, pc, tk);
		if (!mis && tk)
			taken(m, fe, fetch_t, hs_bp_btic(bp, pc) ? HS_NPARAMS : HS_P_TAKEN_BUBBLE);
		break;
	}
	case HS_B_CALL:
		hs_bp_push(bp, pc + 4);
		/* fall through */
	case HS_B_DIRECT:
		taken(m, fe, fetch_t, hs_bp_btic(bp, pc) ? HS_NPARAMS : HS_P_TAKEN_BUBBLE);
		break;
	case HS_B_CALL_IND:
		hs_bp_push(bp, pc + 4);
		/* fall through */
	case HS_B_IND:
		mis = next_pc ? hs_bp_indirect(bp, pc, next_pc) : 0;
		if (!mis)
			taken(m, fe, fetch_t, op->bkind == HS_B_IND ? HS_P_BR_BUBBLE : HS_P_BLR_BUBBLE);
		break;
	case HS_B_RET:
		if (next_pc) {
			mis = hs_bp_ret(bp, next_pc);
		} else {
			/* the trace ends here: the caller is outside it; pop only */
			hs_bp_ret(bp, 0);
		}
		if (!mis)
			taken(m, fe, fetch_t, HS_P_RET_BUBBLE);
		break;
	default:
		return 0;	/* ERET and serialising ops restart fetch themselves */
	}
	if (!mis)
		return 0;
	res->mispredicts++;
	restart(fe, resolve_t + 1 + (uint64_t)m->v[HS_P_MISPREDICT], HS_ST_BRANCH,
		!m->p[HS_P_MISPREDICT].calibrated);
	return HS_EV_MISPREDICT;
}

/* After a branch, a serialising or an unknown op (hs_control_phase's slow
 * side): the redirect or restart it causes. */
int hs_control_slow(struct hs_model *m, struct hs_fe *fe, const struct hs_trace *t, size_t i,
		    const struct hs_op *op, uint64_t fetch_t, uint64_t resolve_t,
		    struct hs_model_result *res, struct hs_insn_cost *e)
{
	const struct hs_tinsn *rec = &t->v[i];
	int redirect_open = 0;

	if (op->fl & HS_OP_REFETCH) {
		restart(fe, resolve_t + op->cost, HS_ST_SERIAL, !!(op->fl & HS_OP_UNCAL));
		redirect_open = 1;
	} else if (op->bkind != HS_B_NONE) {
		/* the next record's pc from its descriptor (the line the next
		 * iteration reads anyway), not the decode cache */
		uint64_t next = i + 1 >= t->n ? 0 : t->v[i + 1].sidx < m->nops ? m->ops[t->v[i + 1].sidx].pc
							       : hs_trace_next_pc(t, i);
		/* the target from the descriptor too (the decode entry's
		 * line was a cache miss per branch) */
		uint64_t target = op->tgt ? op->pc + (uint64_t)(int64_t)op->tgt :
				  op->far ? t->dc->v[rec->sidx].in.target : 0;
		uint16_t ev = predict(m, fe, op, hs_code_at(m, op->pc),
				      next ? hs_code_at(m, next) : 0, target ? hs_code_at(m, target) : 0,
				      rec->flags, fetch_t, resolve_t, res);

		redirect_open = fe->redirected;
		if (e)
			e->events |= ev & HS_EV_MISPREDICT;
	}
	if (op->fl & HS_OP_UNKNOWN)
		res->unknown_insns++;
	return redirect_open;
}
