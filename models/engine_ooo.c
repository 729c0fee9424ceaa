/*
 * engine_ooo.c - a small out-of-order pipeline (Cortex-A73).
 *
 *   fetch     frontend.c (fetch width, queue, bubbles, I-cache, prediction)
 *   dispatch  in order, issue_width per cycle (decode/rename), into a window
 *             of rob_size: instruction i waits for i - rob_size to retire
 *   issue     out of order: the first cycle after dispatch at which the
 *             operands are ready and a unit of its class has a free slot
 *             (per-class calendars: alu_pipes ALUs, one multiply/divide
 *             pipe with the divider not pipelined, load_pipes/store_pipes
 *             and mem_pipes memory ops, branch_pipes branches, the FP pipes)
 *   complete  issue + latency (+ cache/TLB miss cycles for loads)
 *   retire    in order, retire_width per cycle
 * Mispredicted branches restart fetch when they execute; DSB/ISB/ERET and
 * exceptions execute at the head of the window (after everything older has
 * retired); MSR/DSB hold later issue for their cost; DMB holds later memory
 * ops until older ones completed plus its cost. Memory disambiguation and
 * store-to-load forwarding are not modelled (loads never wait for stores).
 *
 * Attribution: instruction i is charged retire(i) - retire(i-1) (the first
 * retire + 1); cycles beyond one go to what made it complete late. The tail
 * after the last retire (a pending redirect or hold) goes to the last one.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "model_internal.h"

#define ROB_MAX 512
#define CAL 1024		/* calendar ring, in cycles */

/* per-unit slot counts for a ring of cycles, stamped with run and cycle */
struct calendar {
	uint64_t stamp[HS_NUNITS + 1][CAL];
	uint8_t used[HS_NUNITS + 1][CAL];
};
#define U_MEM HS_NUNITS		/* extra row: all memory ops together */

struct ooo_state {
	uint64_t ready[A64_NREGS];
	uint8_t cause[A64_NREGS];
	uint8_t runcal[A64_NREGS];
	uint64_t rob[ROB_MAX];
	uint64_t disp_cyc, ret_cyc, last_retire;
	unsigned disp_n, ret_n;
	uint64_t div_free;
	uint64_t issue_block;		/* nothing issues before this (MSR/DSB) */
	size_t block_owner;
	uint8_t block_uncal;
	uint64_t membar_until;		/* memory ops wait for this (DMB) */
	uint64_t mem_done, posted_done;
};

static unsigned cap_of(const struct hs_model *m, unsigned u)
{
	switch (u) {
	case HS_U_ALU: case HS_U_SHIFT: case HS_U_FP: return (unsigned)m->v[HS_P_ALU_PIPES];
	case HS_U_LOAD: return (unsigned)m->v[HS_P_LOAD_PIPES];
	case HS_U_STORE: return (unsigned)m->v[HS_P_STORE_PIPES];
	case U_MEM: return (unsigned)m->v[HS_P_MEM_PIPES];
	case HS_U_BRANCH: return (unsigned)m->v[HS_P_BRANCH_PIPES];
	default: return 1;	/* multiply/divide pipe, system */
	}
}

static uint8_t *slot(struct calendar *cal, uint64_t gen, unsigned u, uint64_t c)
{
	unsigned k = (unsigned)(c % CAL);
	uint64_t st = gen << 40 | (c & ((1ULL << 40) - 1));

	if (cal->stamp[u][k] != st) {
		cal->stamp[u][k] = st;
		cal->used[u][k] = 0;
	}
	return &cal->used[u][k];
}

/* The unit rows an op needs: its own class (divide uses the multiply pipe),
 * plus the shared memory row for loads and stores. */
static unsigned rows_of(const struct hs_op *op, unsigned rows[2])
{
	unsigned u = op->unit == HS_U_DIV ? HS_U_MUL : op->unit == HS_U_SHIFT ? HS_U_ALU : op->unit;

	rows[0] = u;
	if (u == HS_U_LOAD || u == HS_U_STORE) {
		rows[1] = U_MEM;
		return 2;
	}
	return 1;
}

/* First cycle >= t where every row has a free unit; reserves it. */
static uint64_t book(const struct hs_model *m, struct calendar *cal, uint64_t gen,
		     const struct hs_op *op, uint64_t t)
{
	unsigned rows[2], n = rows_of(op, rows);

	for (;; t++) {
		unsigned ok = 1;

		for (unsigned k = 0; k < n && ok; k++)
			ok = *slot(cal, gen, rows[k], t) < cap_of(m, rows[k]);
		if (ok)
			break;
	}
	for (unsigned k = 0; k < n; k++)
		(*slot(cal, gen, rows[k], t))++;
	return t;
}


static void add_stall(struct hs_model_result *res, struct hs_insn_cost *per, size_t i,
		      unsigned cause, uint64_t c)
{
	if (c)
		hs_charge_stall(res, per, i, cause, c);
}

static int run(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
	       struct hs_insn_cost *per)
{
	struct ooo_state st;
	struct hs_fe fe;
	struct calendar *cal;
	unsigned rob = m->v[HS_P_ROB_SIZE] < 1 ? 1 : (unsigned)m->v[HS_P_ROB_SIZE];
	unsigned dw = (unsigned)m->v[HS_P_ISSUE_WIDTH], rw = (unsigned)m->v[HS_P_RETIRE_WIDTH];
	uint64_t gen, prev_r = 0, end;
	int redirect_open = 0;

	if (!m->scratch && !(m->scratch = hs_calloc(1, sizeof(struct calendar))))
		return -1;
	cal = m->scratch;
	gen = ++m->gen;
	memset(&st, 0, sizeof(st));
	hs_fe_reset(m, &fe);
	for (size_t i = 0; i < t->n; i++) {
		const struct hs_tinsn *rec = &t->v[i];
		struct hs_op tmp;
		const struct hs_op *op = hs_record_op(m, &m->ops[rec->sidx], rec->flags, &tmp, 0);
		struct hs_fetch f;
		uint64_t d, e, c, r, t_ops = 0, e0, lat = 0, data_ready = 0, charge, stall;
		unsigned dep_reg = A64_R_NONE, ecause = HS_ST_STRUCT;
		uint32_t mem_extra = 0;
		uint8_t mem_cause = HS_ST_DCACHE;
		uint16_t ev = 0;
		int mem_uncal = 0, d_fe = 0, e_ser = 0;
		uint64_t kept_uncal = 0, moved = 0;

		if (per)
			memset(&per[i], 0, sizeof(per[i]));
		/* dispatch */
		hs_fe_fetch(m, &fe, rec->pc, rec->flags, &f, res);
		ev |= f.events;
		d = st.disp_cyc + (st.disp_n >= dw ? 1 : 0);
		if (f.t > d) {
			d = f.t;
			d_fe = 1;
		}
		if (i >= rob && st.rob[(i - rob) % ROB_MAX] > d) {
			d = st.rob[(i - rob) % ROB_MAX];	/* window full */
			d_fe = 0;
		}
		if (d > st.disp_cyc || i == 0) {
			st.disp_cyc = d;
			st.disp_n = 0;
		}
		st.disp_n++;
		hs_fe_issued(&fe, d);

		/* issue */
		e0 = d + 1;
		for (unsigned s = 0; s < op->nsrc; s++) {
			unsigned rg = op->src[s];

			if (op->data_mask & (1u << s)) {
				/* store data is read by the store-data uop, later */
				if (st.ready[rg] > data_ready)
					data_ready = st.ready[rg];
				continue;
			}
			if (st.ready[rg] > t_ops) {
				t_ops = st.ready[rg];
				dep_reg = rg;
			}
		}
		if (t_ops > e0) {
			e0 = t_ops;
			ecause = HS_ST_DEP;
		}
		if ((op->fl & (HS_OP_DRAIN | HS_OP_HOLD)) && st.last_retire > e0) {
			/* system ops execute at the head of the window */
			e0 = st.last_retire;
			e_ser = 1;
		}
		if ((op->fl & HS_OP_DRAIN) && st.posted_done > e0) {
			e0 = st.posted_done;
			e_ser = 1;
		}
		if (st.issue_block > e0) {
			e0 = st.issue_block;
			e_ser = 2;
		}
		if ((op->fl & (HS_OP_LOAD | HS_OP_STORE)) && st.membar_until > e0) {
			e0 = st.membar_until;
			e_ser = 1;
		}
		if (op->unit == HS_U_DIV && st.div_free > e0)
			e0 = st.div_free;
		e = book(m, cal, gen, op, e0);
		if (op->unit == HS_U_DIV)
			st.div_free = e + op->occ;

		/* memory and results */
		if ((op->fl & (HS_OP_LOAD | HS_OP_STORE)) && rec->addr) {
			unsigned size = op->mem_size ? op->mem_size : 1;

			mem_extra = hs_data_access(m, rec->addr, size, !!(op->fl & HS_OP_STORE), &ev,
						   &mem_cause, &mem_uncal, res);
			if ((op->fl & HS_OP_LOAD) && size > 1 &&
			    ((rec->addr + size - 1) >> 3) - (rec->addr >> 3) + 1 > (size + 7) / 8)
				mem_extra += (uint32_t)m->v[HS_P_UNALIGNED_EXTRA];
		}
		for (unsigned k = 0; k < op->ndst; k++) {
			int wb = !!(op->wb_mask & (1u << k));
			uint64_t l = op->dlat[k] + ((op->fl & HS_OP_LOAD) && !wb ? mem_extra : 0);
			unsigned rg = op->dst[k];

			st.ready[rg] = e + l;
			st.cause[rg] = (mem_extra && !wb && (op->fl & HS_OP_LOAD)) ? mem_cause :
				       op->unit == HS_U_SYS ? HS_ST_SERIAL : HS_ST_DEP;
			st.runcal[rg] = (uint8_t)(!!(op->fl & HS_OP_UNCAL) || (mem_uncal && !wb));
			if (l > lat)
				lat = l;
		}
		c = e + (lat ? lat : 1);
		if ((op->fl & HS_OP_STORE) && data_ready > c)
			c = data_ready;		/* a store retires once its data is there */
		if (op->fl & (HS_OP_LOAD | HS_OP_STORE)) {
			uint64_t md = e + 1 + mem_extra;

			if (md > st.mem_done)
				st.mem_done = md;
		}
		if (op->fl & HS_OP_POSTED && e + op->cost > st.posted_done)
			st.posted_done = e + op->cost;
		if (op->fl & HS_OP_HOLD) {
			st.issue_block = e + (op->cost > 1 ? op->cost : 1);
			st.block_owner = i;
			st.block_uncal = !!(op->fl & HS_OP_UNCAL);
		}
		if (op->fl & HS_OP_MEMBAR) {
			st.membar_until = (st.mem_done > e ? st.mem_done : e) + op->cost;
			if (c < st.membar_until)
				c = st.membar_until;
		}
		if ((op->fl & HS_OP_REFETCH) && e + op->cost > c)
			c = e + op->cost;

		/* retire */
		r = c > st.last_retire ? c : st.last_retire;
		if (r == st.ret_cyc && st.ret_n >= rw && i > 0)
			r++;
		if (r > st.ret_cyc || i == 0) {
			st.ret_cyc = r;
			st.ret_n = 0;
		}
		st.ret_n++;
		st.last_retire = r;
		st.rob[i % ROB_MAX] = r;

		/* accounting */
		charge = i == 0 ? r + 1 : r - prev_r;
		stall = charge > 1 ? charge - 1 : 0;
		if (per) {
			per[i].issue = e;
			per[i].cycles = (uint32_t)charge;
			per[i].lat = (uint16_t)(lat > 0xffff ? 0xffff : lat);
			per[i].events = ev;
		}
		if (stall) {
			/* why it retired late, from the end backwards: its own
			 * latency (a miss, a serialising cost, a long op), then
			 * why it issued late, then why it dispatched late */
			uint64_t own = c > e + 1 ? c - e - 1 : 0, x, miss;

			x = own < stall ? own : stall;
			miss = mem_extra < x ? mem_extra : x;
			add_stall(res, per, i, mem_cause, miss);
			if (mem_uncal)
				kept_uncal += miss;
			add_stall(res, per, i,
				  (op->unit == HS_U_SYS || (op->fl & (HS_OP_REFETCH | HS_OP_DRAIN | HS_OP_HOLD |
								      HS_OP_MEMBAR))) ? HS_ST_SERIAL
										      : HS_ST_DEP,
				  x - miss);
			stall -= x;
			x = e > d + 1 ? e - d - 1 : 0;
			x = x < stall ? x : stall;
			if (x && e_ser == 2) {
				hs_move_charge(res, per, i, st.block_owner, HS_ST_SERIAL, x, st.block_uncal);
				moved += x;
			} else if (x && e_ser) {
				add_stall(res, per, i, HS_ST_SERIAL, x);
			} else if (x && ecause == HS_ST_DEP && dep_reg != A64_R_NONE) {
				add_stall(res, per, i, st.cause[dep_reg], x);
				if (st.runcal[dep_reg])
					kept_uncal += x;
			} else {
				add_stall(res, per, i, HS_ST_STRUCT, x);
			}
			stall -= x;
			if (stall && d_fe && f.t_redirect && i > 0 && !f.miss_cycles && !f.exc_cycles) {
				hs_move_charge(res, per, i, i - 1, f.redirect_cause, stall, f.redirect_uncal);
				moved += stall;
			} else if (stall && d_fe) {
				add_stall(res, per, i, f.exc_cycles ? HS_ST_SERIAL : f.cause, stall);
				if (f.exc_cycles ? !m->p[HS_P_EXC_ENTRY].calibrated : f.miss_uncal)
					kept_uncal += stall;
			} else {
				add_stall(res, per, i, HS_ST_STRUCT, stall);
			}
		}
		kept_uncal = (op->fl & HS_OP_UNCAL) ? charge - moved : kept_uncal;
		if (kept_uncal) {
			res->uncalibrated_cycles += kept_uncal;
			if (per)
				per[i].events |= HS_EV_UNCALIBRATED;
		}

		/* front end after it */
		redirect_open = 0;
		if (op->fl & HS_OP_REFETCH) {
			hs_fe_restart(&fe, e + op->cost, HS_ST_SERIAL, !!(op->fl & HS_OP_UNCAL));
			redirect_open = 1;
		} else if (op->bkind != HS_B_NONE) {
			uint16_t b = hs_fe_control(m, &fe, op, rec->pc, hs_trace_next_pc(t, i),
						   t->dc->v[rec->sidx].in.target, rec->flags, f.t, e, res);

			redirect_open = fe.redirected;
			if (per)
				per[i].events |= b;
		}
		if (op->fl & HS_OP_UNKNOWN)
			res->unknown_insns++;
		prev_r = r;
	}
	end = hs_charge_tail(m, t, &fe, redirect_open, st.issue_block, st.block_uncal,
			     t->n ? prev_r + 1 : 0, res, per);
	res->cycles = end;
	res->insns = t->n;
	return 0;
}

const struct hs_engine hs_engine_ooo = { "out-of-order", run };
