/*
 * booted_exc.c - exception entry and return in the booted replay, and the
 * operations a run counts (backend_booted.h, struct hs_bt_opspec).
 *
 * User code runs at EL1t and hotsim performs the hardware's part of an
 * exception itself: Unicorn 2.0.1 does not rebuild its translation flags
 * when the host changes the exception level, and with the MMU off the
 * level changes nothing else user code can see. An svc enters at the
 * lower-EL synchronous vector, an interrupt at the IRQ vector of the level
 * it interrupts, before the instruction QEMU would take it before (the
 * timer: booted_timer.c); eret returns to EL0t (as EL1t) or EL1h.
 *
 * An operation is, per the run's spec, either A's svc at the site to the
 * eret that returns to the end address, or an IRQ taken from one level to
 * the eret that returns from it. The run ends at the target of the eret
 * that ends the last one (untraced).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/booted_internal.h"

#define MODE_EL1T 4		/* hotsim's user mode */
#define MODE_EL1H 5
#define DAIF_ALL 0x3c0ULL
#define PSTATE_I 0x80ULL

static size_t trace_len(const struct hs_runner *r)
{
	return r->tr ? r->tr->n : 0;
}

/* In the op's address space (spec.mm), or it has none. */
static int in_mm(struct hs_runner *r)
{
	uint64_t mm = bt_of(r)->spec.mm;

	return !mm || HS_TTBR_BADDR(hs_rt_reg(r, UC_ARM64_REG_TTBR0_EL1)) == mm;
}

static void op_begin(struct hs_booted *bt, size_t at, uint64_t elr)
{
	bt->in_op = 1;
	bt->op_begin = at;
	bt->op_elr = elr;
}

/* The op ends after the eret at the trace's end; the last one ends the run
 * where that eret goes. */
static void op_end(struct hs_runner *r, uint64_t elr)
{
	struct hs_booted *bt = bt_of(r);

	bt->in_op = 0;
	if (bt->nops == bt->capops) {
		unsigned cap = bt->capops ? 2 * bt->capops : 64;
		void *v = realloc(bt->ops, cap * sizeof(*bt->ops));

		if (!v) {
			hs_rt_stop(r, "out of memory for the run's operations");
			return;
		}
		bt->ops = v;
		bt->capops = cap;
	}
	bt->ops[bt->nops++] = (struct hs_bt_op){ bt->op_begin, trace_len(r) };
	if (bt->spec.want && bt->nops >= bt->spec.want) {
		/* a pc write from a hook restarts Unicorn at the new pc and eats
		 * a uc_emu_stop: end the run when that pc comes, untraced */
		r->stop_pc = elr;
		r->stop_sp_min = 0;
		r->stop_hits_left = 1;
	}
}

void hs_bt_range_mark(struct hs_runner *r, uint64_t pc)
{
	struct hs_booted *bt = bt_of(r);

	if (pc == bt->spec.range_begin && bt->in_op && !bt->spec.range_end[0]) {
		/* no end marker: a loop's next iteration ends the op; after the
		 * last one the run stops here, before the next executes */
		op_end(r, pc);
		if (bt->spec.want && bt->nops >= bt->spec.want) {
			r->stop_pc = 0;
			r->reached_stop = 1;
			r->icount--;
			uc_emu_stop(r->uc);
			return;
		}
	}
	if (pc == bt->spec.range_begin && !bt->in_op) {
		op_begin(bt, trace_len(r), 0);
		return;
	}
	for (int i = 0; bt->in_op && i < 8 && bt->spec.range_end[i]; i++)
		if (pc == bt->spec.range_end[i]) {
			/* the end marker is not the op's: the run, when it has
			 * them all, ends after it */
			op_end(r, pc + 4);
			return;
		}
}

void hs_bt_ops_reset(struct hs_booted *bt)
{
	bt->nops = 0;
	bt->in_op = 0;
}

/*
 * The hardware's part of taking an exception to EL1h, whatever raised it:
 * ELR, SPSR (EL0t for hotsim's EL1t user mode), D, A, I and F masked, the
 * stack of EL1 when it comes from user code, and the vector of kind for
 * the level it was taken from; the next record is an exception entry.
 */
static void enter_el1(struct hs_runner *r, uint64_t ps, uint64_t elr, unsigned kind)
{
	struct hs_booted *bt = bt_of(r);
	int user = (ps & 0xf) == MODE_EL1T;

	hs_rt_set_reg(r, UC_ARM64_REG_ELR_EL1, elr);
	if (user) {
		hs_rt_set_reg(r, UC_ARM64_REG_SP_EL0, hs_rt_reg(r, UC_ARM64_REG_SP));
		hs_bt_set_cp(r, 3, 0, 4, 0, 0, ps & ~0xfULL);			/* SPSR: EL0t */
		hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, (ps & 0xf0000000ULL) | DAIF_ALL | MODE_EL1H);
		hs_rt_set_reg(r, UC_ARM64_REG_SP, bt->sp_el1);
		hs_rt_set_reg(r, UC_ARM64_REG_SP_EL1, bt->sp_el1);
	} else {
		hs_bt_set_cp(r, 3, 0, 4, 0, 0, ps);					/* SPSR: EL1h */
		hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, (ps & 0xf0000000ULL) | DAIF_ALL | MODE_EL1H);
	}
	hs_rt_set_reg(r, UC_ARM64_REG_PC,
		      hs_rt_reg(r, UC_ARM64_REG_VBAR_EL1) + a64_vector_offset(user ? 0 : 1, kind));
	r->next_flags |= HS_T_EXC_ENTRY;
}

/* svc from "user" code (EL1t): the entry the hardware would make from EL0. */
int hs_bt_svc_entry(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t pc = hs_rt_reg(r, UC_ARM64_REG_PC), ps = hs_rt_reg(r, UC_ARM64_REG_PSTATE);
	uint32_t word = 0;
	const void *p = hs_rt_host(r, pc - 4, 4);

	if ((ps & 0xf) != MODE_EL1T) {
		char where[128];

		hs_rt_stop(r, "svc at EL1 at %s", hs_addr_fmt(r->img, pc - 4, where, sizeof(where)));
		return -1;
	}
	if (p)
		memcpy(&word, p, 4);
	/* the svc is the op's first record (traced before it raised) */
	if (!bt->spec.irq && pc - 4 == bt->spec.site && !bt->in_op && in_mm(r))
		op_begin(bt, trace_len(r) ? trace_len(r) - 1 : 0, 0);
	hs_rt_set_reg(r, UC_ARM64_REG_ESR_EL1, 0x56000000ULL | a64_imm16(word));
	enter_el1(r, ps, pc, A64_VEC_SYNC);
	return 0;
}

/*
 * A system register instruction in user code that EL0 may not execute:
 * only op1 3 names EL0's own registers (TPIDR_EL0, CTR_EL0, CNTVCT_EL0,
 * the FP and PSTATE fields, cache maintenance that Linux's SCTLR_EL1
 * lets through). Any other - glibc's start reading MIDR_EL1 when HWCAP_CPUID
 * says the kernel emulates it - is UNDEFINED at EL0: QEMU raises the
 * uncategorized exception (ESR EC 0, IL) before it executes, to the
 * lower-EL synchronous vector, where Linux emulates the read. It is
 * traced, as QEMU's plugin sees it start.
 */
int hs_bt_el0_sysreg(struct hs_runner *r, uint64_t pc, const struct a64_insn *in)
{
	uint64_t ps = hs_rt_reg(r, UC_ARM64_REG_PSTATE);

	if ((ps & 0xf) != MODE_EL1T || A64_SYSREG_OP1(in->sysreg) == 3)
		return 0;
	hs_rt_set_reg(r, UC_ARM64_REG_ESR_EL1, 0x02000000ULL);
	enter_el1(r, ps, pc, A64_VEC_SYNC);
	hs_bt_next_event(r);
	return 1;
}

/* An interrupt, before the instruction at pc executes: the entry to the
 * IRQ vector of the level it interrupts. */
static void irq_entry(struct hs_runner *r, uint64_t pc, uint64_t ps)
{
	struct hs_booted *bt = bt_of(r);
	int user = (ps & 0xf) == MODE_EL1T;

	if (bt->spec.irq && bt->spec.from_el == (user ? 0 : 1) && !bt->in_op)
		op_begin(bt, trace_len(r), pc);
	enter_el1(r, ps, pc, A64_VEC_IRQ);
}

/*
 * The abort a miss ended in (booted_mmu.c), after the run stopped at the
 * instruction that took it: the entry the hardware makes, to the
 * synchronous vector of the level it was taken from. A load or store that
 * aborts did not execute (QEMU's instruction count leaves it out, and so
 * does the clock here); it is traced, as QEMU's plugin sees it start. 1:
 * entered, the run goes on at the vector.
 */
int hs_bt_take_abort(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	struct bt_abort a = bt->abort;

	if (!a.pending)
		return 0;
	bt->abort.pending = 0;
	if (!a.fetch && r->icount)
		r->icount--;
	if (bt->spec.abort && !bt->in_op && a.elr == bt->spec.site)
		op_begin(bt, trace_len(r) ? trace_len(r) - 1 : 0, 0);
	hs_rt_set_reg(r, UC_ARM64_REG_ESR_EL1, a.esr);
	hs_rt_set_reg(r, UC_ARM64_REG_FAR_EL1, a.far);
	enter_el1(r, hs_rt_reg(r, UC_ARM64_REG_PSTATE), a.elr, A64_VEC_SYNC);
	hs_bt_next_event(r);
	return 1;
}

int hs_bt_event(struct hs_runner *r, uint64_t pc)
{
	uint64_t ps;

	if (bt_of(r)->nreprot)
		hs_bt_reprotect(r);
	/* another CPU's timer fired: it runs now (the instruction at pc waits) */
	if (bt_of(r)->ncpus > 1 && hs_bt_yield(r))
		return 1;

	if (hs_bt_pending(r) == 1023) {
		hs_bt_next_event(r);
		return 0;
	}
	ps = hs_rt_reg(r, UC_ARM64_REG_PSTATE);
	if (ps & PSTATE_I) {
		r->next_event = r->icount;	/* masked: ask again before the next one */
		return 0;
	}
	irq_entry(r, pc, ps);
	bt_of(r)->counts.irqs++;
	/* still pending until the handler acknowledges it (masked meanwhile) */
	hs_bt_next_event(r);
	return 1;
}

/* eret, before it executes: return to user code at EL1t, or to EL1h. */
void hs_bt_eret(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t spsr = hs_bt_get_spsr(r), elr = hs_rt_reg(r, UC_ARM64_REG_ELR_EL1);

	switch (spsr & 0x1f) {
	case 0:		/* EL0t */
		bt->sp_el1 = hs_rt_reg(r, UC_ARM64_REG_SP);
		hs_rt_set_reg(r, UC_ARM64_REG_SP_EL1, bt->sp_el1);
		hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, (spsr & ~0x1fULL) | MODE_EL1T);
		hs_rt_set_reg(r, UC_ARM64_REG_SP, hs_rt_reg(r, UC_ARM64_REG_SP_EL0));
		break;
	case MODE_EL1H:
		hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, spsr);
		break;
	default:
		hs_rt_stop(r, "eret to mode 0x%llx (hotsim returns to EL0t and EL1h only)",
			   (unsigned long long)(spsr & 0x1f));
		return;
	}
	hs_rt_set_reg(r, UC_ARM64_REG_PC, elr);
	/* IRQs may be unmasked again: QEMU takes a pending one before the
	 * first instruction eret returns to */
	hs_bt_next_event(r);
	if (bt->in_op && (bt->spec.irq ? elr == bt->op_elr : elr == bt->spec.end_elr && in_mm(r)))
		op_end(r, elr);
}
