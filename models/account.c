/*
 * account.c - what both engines share after an instruction is placed in
 * time: an unaligned access's extra, the charge of its cycles (and whose
 * stall they are), the uncalibrated share, and the tail of the run (the
 * front end's next step is frontend.c's). One file, so the two engines
 * cannot drift apart in how they attribute cycles.
 */
#include <string.h>

#include "frontend.h"
#include "model_internal.h"

void hs_mem_unaligned(const struct hs_model *m, struct hs_mem *out)
{
	out->extra += (uint32_t)m->v[HS_P_UNALIGNED_EXTRA];
	if (!m->p[HS_P_UNALIGNED_EXTRA].calibrated)
		out->uncal = 1;
}

/* Records [a, b) out of the ring, in runs the ring holds contiguously. */
static void fold_range(struct hs_costs *c, size_t a, size_t b)
{
	while (a < b) {
		size_t at = a & c->mask, n = b - a;

		if (n > c->mask + 1 - at)
			n = c->mask + 1 - at;	/* up to the ring's end */
		c->fold(c->ctx, a, &c->v[at], n);
		a += n;
	}
}

void hs_costs_slide(struct hs_costs *c, size_t i)
{
	size_t end = i - 1;

	/* the hold's owner, if it is among them, waits aside */
	if (c->pin >= c->next && c->pin < end) {
		fold_range(c, c->next, c->pin);
		c->aside = c->v[c->pin & c->mask];
		c->has_aside = 1;
		fold_range(c, c->pin + 1, end);
	} else {
		fold_range(c, c->next, end);
	}
	c->next = end;
}

void hs_costs_finish(struct hs_costs *c, size_t n)
{
	if (!c || !c->fold)
		return;
	/* an owner aside left the ring: it is below c->next */
	fold_range(c, c->next, n);
	if (c->has_aside)
		c->fold(c->ctx, c->pin, &c->aside, 1);
	c->has_aside = 0;
	c->next = n;
}

void hs_move_charge(struct hs_model_result *res, struct hs_costs *costs, struct hs_insn_cost *e,
		    size_t o, unsigned cause, uint64_t c, int uncal)
{
	struct hs_insn_cost *eo;

	res->stall[cause] += c;
	if (uncal)
		res->uncalibrated_cycles += c;
	if (!e)
		return;
	eo = hs_cost_of(costs, o);
	e->cycles -= (uint32_t)c;
	eo->cycles += (uint32_t)c;
	eo->stall[cause] = (uint16_t)(eo->stall[cause] + c > 0xffff ? 0xffff : eo->stall[cause] + c);
	if (uncal)
		eo->events |= HS_EV_UNCALIBRATED;
}

/*
 * The end of a run: when the instruction after the trace could issue. The
 * last instruction may still hold the machine (a redirect it caused, or a
 * serialising op's hold); that wait is charged to it. Returns the cycle.
 */
uint64_t hs_charge_tail(const struct hs_model *m, const struct hs_trace *t, const struct hs_fe *fe,
			int redirect_open, uint64_t hold, int hold_uncal, uint64_t end,
			struct hs_model_result *res, struct hs_costs *costs)
{
	size_t last = t->n - 1;
	uint64_t tail = end;
	unsigned cause = HS_ST_SERIAL;
	int uncal = 0;

	if (!t->n)
		return end;
	if (redirect_open && fe->redirect > tail) {
		tail = fe->redirect;
		cause = fe->redirect_cause;
		uncal = fe->redirect_uncal;
	}
	if (hold > tail) {
		tail = hold;
		cause = HS_ST_SERIAL;
		uncal = hold_uncal;
	}
	if (tail <= end)
		return end;
	res->stall[cause] += tail - end;
	if (uncal || (m->ops[t->v[last].sidx].fl & HS_OP_UNCAL))
		res->uncalibrated_cycles += tail - end;
	if (costs) {
		struct hs_insn_cost *e = hs_cost_of(costs, last);

		e->cycles += (uint32_t)(tail - end);
		e->stall[cause] = (uint16_t)(e->stall[cause] + (tail - end) > 0xffff ? 0xffff
										: e->stall[cause] + (tail - end));
	}
	return tail;
}
