/*
 * irq_split.c - an IRQ in four sub-rows (irq-el0, irq-el1): .entry (vector
 * to the root handler), .handler (the root handler whole: GIC, domain,
 * flow handler, the timer and the tick, EOI), .softirq (what irq_exit runs
 * of the softirqs the tick raised) and .exit (the rest of irq_exit, the
 * return to the interrupted context, eret). .entry + .exit is what the
 * stubbed IRQ path measured before booted state.
 */
#include "paths/path_internal.h"
#include "irq_split.h"

void hs_irq_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
{
	static const char *const softirq[] = { "handle_softirqs", "__do_softirq", NULL };
	const struct hs_sym *sq = hs_split_sym(s, softirq);
	uint64_t var, root = 0;
	size_t r0, r1, s0, s1;
	int pe, ph, ps, px;

	/* the root handler is where the booted kernel's set_handle_irq() left
	 * its pointer (handle_arch_irq, whatever it is called; a runtime
	 * constant boot resolved from it holds the same value) */
	if (!hs_root_irq_vars(s->img, s->img->mem, &var, 1) || hs_split_read64(s, var, &root) || !root)
		return;
	r0 = hs_split_first_at(s, begin, end, root);
	if (r0 >= end || !hs_split_begin(out))
		return;
	r1 = hs_split_call_end(s, r0 + 1, end);
	s0 = sq ? hs_split_first_at(s, r1, end, sq->addr) : end;
	s1 = s0 < end ? hs_split_call_end(s, s0 + 1, end) : end;
	/* every sample has all four (.softirq empty after a tick that raised
	 * none), in this order */
	pe = hs_split_part(out, "entry");
	ph = hs_split_part(out, "handler");
	ps = hs_split_part(out, "softirq");
	px = hs_split_part(out, "exit");
	hs_split_mark(out, pe, begin, r0);
	hs_split_mark(out, ph, r0, r1);
	hs_split_mark(out, px, r1, end);
	if (s0 < end)
		hs_split_mark(out, ps, s0, s1);
}
