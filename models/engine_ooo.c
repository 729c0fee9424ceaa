/*
 * engine_ooo.c - an out-of-order pipeline (Cortex-A73, A72, A76, Neoverse N1).
 *
 *   fetch     frontend.c (fetch width, queue, bubbles, I-cache, prediction)
 *   dispatch  in order, issue_width per cycle (decode/rename), into a window
 *             of rob_size: instruction i waits for i - rob_size to retire
 *   issue     out of order: the first cycle after dispatch at which the
 *             operands are ready and a unit of its class has a free slot
 *             (per-class calendars: alu_pipes ALUs, mul_pipes multiply
 *             pipes, on which divides issue to div_units dividers that are
 *             not pipelined, load_pipes/store_pipes and mem_pipes memory
 *             ops, branch_pipes branches, fp_pipes FP/ASIMD pipes - or the
 *             ALU pipes with fp_on_alu_pipes - and system ops one at a time);
 *             an op holds its unit for its occupancy (occ_mul, occ_ldp...),
 *             and NOPs retire nop_per_cycle a cycle on no pipe where set
 *   complete  issue + latency (+ cache/TLB miss cycles for loads)
 *   retire    in order, retire_width per cycle
 * Mispredicted branches restart fetch when they execute; DSB/ISB/ERET and
 * exceptions execute at the head of the window (after everything older has
 * retired); MSR/DSB hold later issue for their cost; DMB holds later memory
 * ops until older ones completed plus its cost. Memory disambiguation and
 * store-to-load forwarding are not modelled: loads pass older stores, or,
 * where firmware has turned that off (load_pass_store 0: TF-A's
 * CVE-2018-3639 workaround on the A72, CPUACTLR_EL1[55]), a load issues no
 * earlier than the cycle after every older store issued (its address
 * known), a wait counted as serialisation.
 *
 * Attribution: instruction i is charged retire(i) - retire(i-1) (the first
 * retire + 1); cycles beyond one go to what made it complete late. The tail
 * after the last retire (a pending redirect or hold) goes to the last one.
 *
 * The phases, one function each: dispatch, issue, complete (results,
 * memory order, serialisation), retire, attribute; the memory access, the
 * uncalibrated share and the front end's next step are account.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "frontend.h"
#include "model_internal.h"

#define ROB_MAX 512
#define CAL 1024		/* calendar ring, in cycles */

/* per-unit slot counts for a ring of cycles: a word per (row, cycle),
 * the count in its low byte under a stamp of run and cycle, so a lookup
 * is one load (a stamp array beside a count array was two cache lines);
 * row-major, so a slot is row << 10 | cycle % CAL, no multiply by the
 * row count (2.5% on the A73's sched-pipe stream) */
#define NROWS HS_NROWS		/* the units', HS_ROW_MEM and HS_ROW_NOP */
#define GEN_BITS 16		/* runs a stamp tells apart; the ring is cleared when they wrap */
struct calendar {
	uint64_t w[NROWS][CAL];
	unsigned cap[NROWS];		/* slots per cycle of each row (cap_of), this run's */
};

struct ooo_state {
	uint64_t ready[A64_NREGS];
	uint8_t cause[A64_NREGS];
	uint8_t runcal[A64_NREGS];
	uint64_t rob[ROB_MAX];
	uint64_t disp_cyc, ret_cyc, last_retire;
	unsigned disp_n, ret_n;
	uint64_t div_free[HS_MAX_PIPES];	/* when each divider is free */
	uint64_t issue_block;		/* nothing issues before this (MSR/DSB) */
	size_t block_owner;		/* in the stream: base + its record */
	uint8_t block_uncal;
	size_t base;			/* the stream's records before this run */
	uint64_t membar_until;		/* memory ops wait for this (DMB) */
	uint64_t mem_done, posted_done;
	uint64_t stores_issued;		/* the cycle after the last older store issued */
	unsigned rob_size, issue_width, retire_width;	/* the core's, read once a run */
	int loads_wait;			/* !load_pass_store */
};

/* A stream's pipeline between its runs (hs_model_run_on): the calendar
 * stays the model's, under the stream's stamp */
struct ooo_cont {
	struct ooo_state st;
	struct hs_fe fe;
	uint64_t gen, prev_r;
	int redirect_open;
};

static unsigned cap_of(const struct hs_model *m, unsigned u)
{
	switch (u) {
	case HS_U_ALU: case HS_U_SHIFT: return (unsigned)m->v[HS_P_ALU_PIPES];
	case HS_U_MUL: case HS_U_DIV: return (unsigned)m->v[HS_P_MUL_PIPES];
	case HS_U_FP: return (unsigned)m->v[HS_P_FP_PIPES];
	case HS_U_LOAD: return (unsigned)m->v[HS_P_LOAD_PIPES];
	case HS_U_STORE: return (unsigned)m->v[HS_P_STORE_PIPES];
	case HS_ROW_MEM: return (unsigned)m->v[HS_P_MEM_PIPES];
	case HS_U_BRANCH: return (unsigned)m->v[HS_P_BRANCH_PIPES];
	case HS_ROW_NOP: return (unsigned)m->v[HS_P_NOP_TPUT];
	default: return 1;	/* system ops serialise: one at a time */
	}
}

/* The (cycle c, row u) word, its count reset if it was another run's or
 * another lap's of the ring. Counts stay below cap (at most 255). */
static inline uint64_t *slot(struct calendar *cal, uint64_t gen, unsigned u, uint64_t c)
{
	uint64_t *w = &cal->w[u][c % CAL];
	uint64_t st = gen | (c << 8 & ((1ULL << 48) - 1));	/* gen: the run's, << 48 */

	if ((*w & ~0xffULL) != st)
		*w = st;
	return w;
}

/*
 * First cycle >= t where every row has a free unit for the op's occupancy
 * (occ cycles: a multiply that is not fully pipelined, ldp on both halves
 * of a load pipe, an atomic's read-modify-write); reserves it. A divide
 * takes its multiply pipe for one cycle: the divider itself is div_free.
 */
static inline uint64_t book(struct calendar *cal, uint64_t gen, const struct hs_op *op, uint64_t t)
{
	unsigned rows[2] = { op->row, HS_ROW_MEM }, n = 1u + op->row_mem, occ = op->row_occ;

	if (occ == 1 && n == 1) {
		/* nearly every op: one cycle on one row */
		for (;; t++) {
			uint64_t *a = slot(cal, gen, rows[0], t);

			if ((*a & 0xff) < cal->cap[rows[0]]) {
				(*a)++;
				return t;
			}
		}
	}
	if (occ == 1) {
		/* a load or store: its own row and the memory row, same cycle */
		for (;; t++) {
			uint64_t *a = slot(cal, gen, rows[0], t), *b;

			if ((*a & 0xff) >= cal->cap[rows[0]])
				continue;
			b = slot(cal, gen, rows[1], t);
			if ((*b & 0xff) >= cal->cap[rows[1]])
				continue;
			(*b)++;
			(*a)++;
			return t;
		}
	}
	for (;; t++) {
		unsigned ok = 1;

		for (unsigned k = 0; k < n && ok; k++)
			for (unsigned c = 0; c < occ && ok; c++)
				ok = (*slot(cal, gen, rows[k], t + c) & 0xff) < cal->cap[rows[k]];
		if (ok)
			break;
	}
	for (unsigned k = 0; k < n; k++)
		for (unsigned c = 0; c < occ; c++)
			(*slot(cal, gen, rows[k], t + c))++;
	return t;
}

static void add_stall(struct hs_model_result *res, struct hs_insn_cost *e, unsigned cause, uint64_t c)
{
	if (c)
		hs_charge_stall(res, e, cause, c);
}

/* One instruction's way through the pipeline. */
struct ooo_insn {
	uint64_t d, e, c, r;		/* dispatch, issue (execute), complete, retire */
	int d_fe;			/* dispatch waited for the front end */
	int e_ser;			/* issue waited: 1 serialisation, 2 a hold */
	unsigned ecause, dep_reg;	/* issue waited for an operand (HS_ST_DEP, which) */
	uint64_t lat;			/* longest result latency */
};

/* dispatch: in order, issue_width per cycle, into the window of rob_size
 * (i: the stream's index). */
static void dispatch(struct ooo_state *st, const struct hs_fetch *f, size_t i,
		     struct ooo_insn *x)
{
	unsigned rob = st->rob_size;
	uint64_t d = st->disp_cyc + (st->disp_n >= st->issue_width ? 1 : 0);

	x->d_fe = 0;
	if (f->t > d) {
		d = f->t;
		x->d_fe = 1;
	}
	if (i >= rob && st->rob[(i - rob) % ROB_MAX] > d) {
		d = st->rob[(i - rob) % ROB_MAX];	/* window full */
		x->d_fe = 0;
	}
	if (d > st->disp_cyc || i == 0) {
		st->disp_cyc = d;
		st->disp_n = 0;
	}
	st->disp_n++;
	x->d = d;
}

/* issue: operands ready, serialisation and holds, a free unit; returns
 * when the store data is ready (read later, by the store-data uop). */
static uint64_t issue(const struct hs_model *m, struct ooo_state *st, struct calendar *cal,
		      uint64_t gen, const struct hs_op *op, struct ooo_insn *x)
{
	uint64_t e0 = x->d + 1, t_ops = 0, data_ready = 0;

	x->ecause = HS_ST_STRUCT;
	x->dep_reg = A64_R_NONE;
	x->e_ser = 0;
	for (unsigned s = 0; s < op->nsrc; s++) {
		unsigned rg = op->src[s];

		if (op->data_mask & (1u << s)) {
			if (st->ready[rg] > data_ready)
				data_ready = st->ready[rg];
			continue;
		}
		if (st->ready[rg] > t_ops) {
			t_ops = st->ready[rg];
			x->dep_reg = rg;
		}
	}
	if (t_ops > e0) {
		e0 = t_ops;
		x->ecause = HS_ST_DEP;
	}
	if (op->fl & (HS_OP_DRAIN | HS_OP_HOLD)) {
		if (st->last_retire > e0) {
			/* system ops execute at the head of the window */
			e0 = st->last_retire;
			x->e_ser = 1;
		}
		if ((op->fl & HS_OP_DRAIN) && st->posted_done > e0) {
			e0 = st->posted_done;
			x->e_ser = 1;
		}
	}
	if (st->issue_block > e0) {
		e0 = st->issue_block;
		x->e_ser = 2;
	}
	if ((op->fl & (HS_OP_LOAD | HS_OP_STORE)) && st->membar_until > e0) {
		e0 = st->membar_until;
		x->e_ser = 1;
	}
	if ((op->fl & HS_OP_LOAD) && st->loads_wait && st->stores_issued > e0) {
		e0 = st->stores_issued;
		x->e_ser = 1;
	}
	if (op->unit == HS_U_DIV) {
		/* the divider free first; it stays busy for the divide's latency */
		unsigned d = 0;

		for (unsigned k = 1; k < (unsigned)m->v[HS_P_DIV_UNITS]; k++)
			if (st->div_free[k] < st->div_free[d])
				d = k;
		if (st->div_free[d] > e0)
			e0 = st->div_free[d];
		x->e = book(cal, gen, op, e0);
		st->div_free[d] = x->e + op->occ;
		return data_ready;
	}
	x->e = book(cal, gen, op, e0);
	if (st->loads_wait && (op->fl & HS_OP_STORE) && x->e + 1 > st->stores_issued)
		st->stores_issued = x->e + 1;
	return data_ready;
}

/* complete: results, memory order, holds and barriers after it. */
static void complete(struct ooo_state *st, const struct hs_op *op, const struct hs_mem *mem,
		     uint64_t data_ready, size_t i, struct ooo_insn *x, struct hs_costs *costs)
{
	uint64_t e = x->e;
	uint8_t cause = op->unit == HS_U_SYS ? HS_ST_SERIAL : HS_ST_DEP, uncal = !!(op->fl & HS_OP_UNCAL);

	x->lat = 0;
	for (unsigned k = 0; k < op->ndst; k++) {
		int loaded = (op->dload >> k) & 1;	/* not a writeback: the miss delays it */
		uint64_t l = op->dlat[k] + (loaded ? mem->extra : 0);
		unsigned rg = op->dst[k];

		st->ready[rg] = e + l;
		st->cause[rg] = (mem->extra && loaded) ? mem->cause : cause;
		st->runcal[rg] = (uint8_t)(uncal || (mem->uncal && !((op->wb_mask >> k) & 1)));
		if (l > x->lat)
			x->lat = l;
	}
	x->c = e + (x->lat ? x->lat : 1);
	if (!(op->fl & (HS_OP_LOAD | HS_OP_STORE | HS_OP_POSTED | HS_OP_HOLD | HS_OP_MEMBAR | HS_OP_REFETCH)))
		return;		/* most ops: nothing after it waits for it but its results */
	if ((op->fl & HS_OP_STORE) && data_ready > x->c)
		x->c = data_ready;	/* a store retires once its data is there */
	if ((op->fl & (HS_OP_LOAD | HS_OP_STORE)) && e + 1 + mem->extra > st->mem_done)
		st->mem_done = e + 1 + mem->extra;
	if ((op->fl & HS_OP_POSTED) && e + op->cost > st->posted_done)
		st->posted_done = e + op->cost;
	if (op->fl & HS_OP_HOLD) {
		st->issue_block = e + (op->cost > 1 ? op->cost : 1);
		st->block_owner = st->base + i;
		st->block_uncal = !!(op->fl & HS_OP_UNCAL);
		hs_cost_pin(costs, i);
	}
	if (op->fl & HS_OP_MEMBAR) {
		st->membar_until = (st->mem_done > e ? st->mem_done : e) + op->cost;
		if (x->c < st->membar_until)
			x->c = st->membar_until;
	}
	if ((op->fl & HS_OP_REFETCH) && e + op->cost > x->c)
		x->c = e + op->cost;
}

/* retire: in order, retire_width per cycle (i: the stream's index). */
static void retire(struct ooo_state *st, size_t i, struct ooo_insn *x)
{
	uint64_t r = x->c > st->last_retire ? x->c : st->last_retire;

	if (r == st->ret_cyc && st->ret_n >= st->retire_width && i > 0)
		r++;
	if (r > st->ret_cyc || i == 0) {
		st->ret_cyc = r;
		st->ret_n = 0;
	}
	st->ret_n++;
	st->last_retire = r;
	st->rob[i % ROB_MAX] = r;
	x->r = r;
}

/* attribute: why it retired late, from the end backwards - its own latency
 * (a miss, a serialising cost, a long op), then why it issued late, then
 * why it dispatched late. */
static void attribute(const struct hs_model *m, const struct ooo_state *st, const struct hs_op *op,
		      const struct ooo_insn *x, const struct hs_fetch *f, const struct hs_mem *mem,
		      size_t i, uint64_t stall, struct hs_model_result *res, struct hs_costs *costs,
		      struct hs_insn_cost *e, uint64_t *moved, uint64_t *uncal)
{
	uint64_t own = x->c > x->e + 1 ? x->c - x->e - 1 : 0, y, miss;
	int serial = op->unit == HS_U_SYS ||
		     (op->fl & (HS_OP_REFETCH | HS_OP_DRAIN | HS_OP_HOLD | HS_OP_MEMBAR));

	y = own < stall ? own : stall;
	miss = mem->extra < y ? mem->extra : y;
	add_stall(res, e, mem->cause, miss);
	if (mem->uncal)
		*uncal += miss;
	add_stall(res, e, serial ? HS_ST_SERIAL : HS_ST_DEP, y - miss);
	stall -= y;
	y = x->e > x->d + 1 ? x->e - x->d - 1 : 0;
	y = y < stall ? y : stall;
	if (y && x->e_ser == 2 && st->block_owner >= st->base) {
		hs_move_charge(res, costs, e, st->block_owner - st->base, HS_ST_SERIAL, y, st->block_uncal);
		*moved += y;
	} else if (y && x->e_ser) {
		/* a hold of an earlier run's of the stream too: here */
		add_stall(res, e, HS_ST_SERIAL, y);
	} else if (y && x->ecause == HS_ST_DEP && x->dep_reg != A64_R_NONE) {
		add_stall(res, e, st->cause[x->dep_reg], y);
		if (st->runcal[x->dep_reg])
			*uncal += y;
	} else {
		add_stall(res, e, HS_ST_STRUCT, y);
	}
	stall -= y;
	if (stall && x->d_fe && f->t_redirect && i > 0 && !f->miss_cycles && !f->exc_cycles) {
		hs_move_charge(res, costs, e, i - 1, f->redirect_cause, stall, f->redirect_uncal);
		*moved += stall;
	} else if (stall && x->d_fe) {
		add_stall(res, e, f->exc_cycles ? HS_ST_SERIAL : f->cause, stall);
		if (f->exc_cycles ? !m->p[HS_P_EXC_ENTRY].calibrated : f->miss_uncal)
			*uncal += stall;
	} else {
		add_stall(res, e, HS_ST_STRUCT, stall);
	}
}

/* A run from an empty pipeline: the calendar's stamp for it (a new one) */
static uint64_t begin(struct hs_model *m, struct calendar *cal, struct ooo_state *st, struct hs_fe *fe)
{
	uint64_t gen = ++m->gen & ((1u << GEN_BITS) - 1);

	if (!gen)
		memset(cal->w, 0, sizeof(cal->w));	/* stamps of 2^16 runs ago would match */
	memset(st, 0, sizeof(*st));
	st->rob_size = m->v[HS_P_ROB_SIZE] < 1 ? 1 : (unsigned)m->v[HS_P_ROB_SIZE];
	st->issue_width = (unsigned)m->v[HS_P_ISSUE_WIDTH];
	st->retire_width = (unsigned)m->v[HS_P_RETIRE_WIDTH];
	st->loads_wait = !m->v[HS_P_LOAD_PASS_STORE];
	hs_fe_reset(m, fe);
	return gen << 48;	/* where slot() wants it */
}

static int run(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
	       struct hs_costs *costs)
{
	struct ooo_state st;
	struct hs_fe fe;
	struct calendar *cal;
	uint64_t gen, prev_r = 0;
	int redirect_open = 0;
	struct ooo_cont *k = m->cont;
	size_t n;

	if (!m->scratch && !(m->scratch = hs_calloc(1, sizeof(struct calendar))))
		return -1;
	if (m->cont_on && !k && !(k = m->cont = hs_calloc(1, sizeof(*k))))
		return -1;
	cal = m->scratch;
	for (unsigned u = 0; u < NROWS; u++)
		cal->cap[u] = cap_of(m, u);
	if (m->cont_on && m->cont_n) {
		/* the stream goes on: its pipeline, its calendar's stamp */
		st = k->st;
		fe = k->fe;
		gen = k->gen;
		prev_r = k->prev_r;
		redirect_open = k->redirect_open;
	} else {
		gen = begin(m, cal, &st, &fe);
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
		struct ooo_insn x;
		struct hs_mem mem;
		uint64_t data_ready, charge, moved = 0, uncal = 0;
		uint16_t ev = 0;
		struct hs_insn_cost *e = hs_cost_begin(costs, i);

		if (rec->sidx >= m->nops)
			return hs_bad_record(t, i);
		op = hs_record_op(m, &m->ops[rec->sidx], rec->flags, &tmp, 0);
		hs_fe_fetch(m, &fe, hs_code_at(m, op->pc), rec->flags, &f, res);
		ev |= f.events;
		dispatch(&st, &f, st.base + i, &x);
		hs_fe_issued(&fe, x.d);
		data_ready = issue(m, &st, cal, gen, op, &x);
		hs_mem_phase(m, rec, op, &ev, res, &mem);
		complete(&st, op, &mem, data_ready, i, &x, costs);
		retire(&st, st.base + i, &x);
		charge = st.base + i == 0 ? x.r + 1 : x.r - prev_r;
		if (e) {
			e->issue = x.e;
			e->cycles = (uint32_t)charge;
			e->lat = (uint16_t)(x.lat > 0xffff ? 0xffff : x.lat);
			e->events = ev;
		}
		if (charge > 1)
			attribute(m, &st, op, &x, &f, &mem, i, charge - 1, res, costs, e, &moved, &uncal);
		hs_account_uncal(res, e, op, charge, moved, uncal);
		redirect_open = hs_control_phase(m, &fe, t, i, op, f.t, x.e, res, e);
		prev_r = x.r;
	}
	res->insns = n;
	if (m->cont_on) {
		/* the stream goes on: no tail */
		*k = (struct ooo_cont){ st, fe, gen, prev_r, redirect_open };
		m->cont_n = st.base + n;
		res->cycles = prev_r + 1;
		return 0;
	}
	res->cycles = hs_charge_tail(m, t, &fe, redirect_open, st.issue_block, st.block_uncal,
				     t->n ? prev_r + 1 : 0, res, costs);
	return 0;
}

const struct hs_engine hs_engine_ooo = { "out-of-order", run };
