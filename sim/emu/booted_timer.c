/*
 * booted_timer.c - time in the booted replay, as QEMU keeps it for the
 * guest it was booted in (-icount shift=0,sleep=off): the virtual counter
 * advances one nanosecond per instruction (62.5 MHz: one tick per 16), the
 * EL1 virtual timer asserts its PPI when the counter reaches CNTV_CVAL,
 * and when the guest idles - a debugger stop at a site, a wfi - the clock
 * jumps to the next timer deadline (QEMU's icount warp). The GIC CPU
 * interface holds what is pending and what is acknowledged; the runner
 * asks for an interrupt only when the instruction count reaches the next
 * event (r->next_event), so a run without one pays nothing.
 */
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/booted_internal.h"

#define SPURIOUS 1023u

/* The instruction count the clock follows: this CPU's, or on a machine of
 * more than one every CPU's together, as QEMU's -icount clock counts
 * whichever CPU runs. */
static uint64_t clock_icount(const struct hs_runner *r)
{
	const struct hs_booted *bt = bt_of(r);
	uint64_t n = 0;

	if (bt->ncpus <= 1)
		return r->icount;
	for (unsigned i = 0; i < bt->ncpus; i++)
		n += hs_rt_icount(bt->cpus[i]);
	return n;
}

static uint64_t hs_bt_counter(const struct hs_runner *r)
{
	const struct hs_booted *bt = bt_of(r);

	/* the instruction being executed counts (QEMU ends a TB at a timer
	 * read and counts it before the read) */
	return bt->counter0 + (clock_icount(r) - bt->icount0 + bt->phase0) * bt->cntfrq / 1000000000ULL;
}

/* The counter after `done` instructions from icount0. */
static uint64_t counter_after(const struct hs_booted *bt, uint64_t done)
{
	return bt->counter0 + (done + bt->phase0) * bt->cntfrq / 1000000000ULL;
}

/* The counter before the instruction being executed: when the timer's
 * line rises (QEMU fires a timer between two instructions, when the
 * instructions executed reach its deadline). */
static uint64_t counter_before(const struct hs_runner *r)
{
	const struct hs_booted *bt = bt_of(r);
	uint64_t now = clock_icount(r);

	return counter_after(bt, now > bt->icount0 ? now - 1 - bt->icount0 : 0);
}

/* The timer's output: enabled, not masked, the deadline reached by the
 * counter c. */
static int timer_asserted_at(const struct hs_booted *bt, uint64_t c)
{
	return (bt->ctl & 3) == 1 && c >= bt->cval;
}

static int timer_asserted(const struct hs_runner *r)
{
	return timer_asserted_at(bt_of(r), counter_before(r));
}

/* What the GIC signals, the timer's line as `asserted` says. */
static uint32_t pending(const struct hs_booted *bt, int asserted)
{
	uint32_t sgis = bt->sgi_pending & ~bt->sgi_active;

	/* one priority for all (Linux's GICD_INT_DEF_PRI): nothing preempts
	 * an active interrupt; among pending ones the lowest INTID wins */
	if (bt->timer_active || bt->sgi_active)
		return SPURIOUS;
	if (sgis)
		return (uint32_t)__builtin_ctz(sgis);
	return asserted ? TIMER_INTID : SPURIOUS;
}

uint32_t hs_bt_pending(const struct hs_runner *r)
{
	return pending(bt_of(r), timer_asserted(r));
}

/* Instructions from icount0 until the counter reaches cval. */
static uint64_t until_deadline(const struct hs_booted *bt)
{
	uint64_t d = bt->cval > bt->counter0 ? bt->cval - bt->counter0 : 0;
	uint64_t ns = (d * 1000000000ULL + bt->cntfrq - 1) / bt->cntfrq;

	return ns > bt->phase0 ? ns - bt->phase0 : 0;
}

void hs_bt_next_event(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if (hs_bt_pending(r) != SPURIOUS)
		r->next_event = 0;	/* deliverable now: ask before every instruction */
	else if ((bt->ctl & 3) == 1 && !bt->timer_active && !bt->sgi_active)
		/* asked before instruction X when the time before X reached the
		 * deadline: icount(X) - 1 - icount0 >= until_deadline */
		r->next_event = r->icount + (bt->icount0 + until_deadline(bt) - clock_icount(r));
	else
		r->next_event = NO_EVENT;
	/* a machine's CPU ends its slice there (machine_run.c) */
	if (bt->ncpus > 1 && bt->yield_at < r->next_event)
		r->next_event = bt->yield_at;
}

/* A turn's slice: the last one's yield is behind it (a turn that ends
 * at once, at the site, must not read as yielded again) */
void hs_bt_slice(struct hs_runner *r, uint64_t insns)
{
	bt_of(r)->yielded = bt_of(r)->kicked = 0;
	bt_of(r)->yield_at = r->icount + insns;
	hs_bt_next_event(r);
}

/* Instructions to the machine's next deadline, as QEMU 7.2 budgets a
 * CPU's turn (icount_get_limit: the whole distance, not a share of it).
 * A deadline reached since the round began whose timer QEMU has not run
 * leaves no budget: the round's remaining turns run nothing. */
uint64_t hs_bt_until_deadline(const struct hs_runner *r)
{
	const struct hs_booted *bt = bt_of(r);
	uint64_t at = UINT64_MAX, now = clock_icount(r);

	/* every CPU's armed timer, masked or not (QEMU arms it either way) */
	for (unsigned i = 0; i < (bt->ncpus > 1 ? bt->ncpus : 1); i++) {
		const struct hs_runner *c = bt->ncpus > 1 ? bt->cpus[i] : r;
		const struct hs_booted *o = bt_of(c);
		uint64_t due = o->icount0 + until_deadline(o);

		if (!(o->ctl & 1))
			continue;
		if (due <= now && !o->fired)
			return 0;
		if (due > now && due - now < at)
			at = due - now;
	}
	return at;
}

/* QEMU runs the timers due by now: each passed deadline has fired. */
void hs_bt_round(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t now = clock_icount(r);

	for (unsigned i = 0; i < (bt->ncpus > 1 ? bt->ncpus : 1); i++) {
		struct hs_booted *o = bt_of(bt->ncpus > 1 ? bt->cpus[i] : r);

		if (o->icount0 + until_deadline(o) <= now)
			o->fired = 1;
	}
}

int hs_bt_kicked(const struct hs_runner *r)
{
	return bt_of(r)->kicked;
}

int hs_bt_yield(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if (r->icount <= bt->yield_at)
		return 0;	/* the instruction at the count is the slice's last */
	bt->yield_at = NO_EVENT;
	bt->yielded = 1;
	r->reached_stop = 1;
	uc_emu_stop(r->uc);
	return 1;
}

/* The guest idles: its clock jumps to the timer's deadline, the way QEMU's
 * icount warp moves a stopped or halted guest to its next timer. */
static void jump_to_deadline(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if ((bt->ctl & 3) != 1 || counter_before(r) >= bt->cval)
		return;		/* no deadline ahead: QEMU has nothing to jump to */
	/* the instruction about to execute sees the deadline as its time */
	bt->counter0 = bt->cval;
	bt->phase0 = 0;
	bt->icount0 = clock_icount(r) - 1;
	hs_bt_next_event(r);
}

void hs_bt_warp(struct hs_runner *r)
{
	jump_to_deadline(r);
}

void hs_bt_wfx(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if (hs_bt_pending(r) != SPURIOUS) {
		/* an interrupt is pending (masked: the idle loop's wfi): the wfi
		 * completes at once, as QEMU's does (cpu_has_work); Unicorn's
		 * would halt and end the run, so it is stepped over */
		hs_rt_set_reg(r, UC_ARM64_REG_PC, hs_rt_reg(r, UC_ARM64_REG_PC) + 4);
		return;
	}
	if (bt->ncpus > 1) {
		/* another CPU runs until an interrupt comes for this one */
		bt->halted = 1;
		bt->woke_set = 0;
		bt->counts.halts++;
		r->reached_stop = 1;
		uc_emu_stop(r->uc);
		return;
	}
	jump_to_deadline(r);
}

/* wfe or yield on a machine of more than one CPU: QEMU's round-robin
 * (TCG without parallel CPUs) ends the CPU's turn right after it
 * (EXCP_YIELD), so a CPU spinning on a lock lets the holder run; the
 * architecture's event register plays no part there. */
void hs_bt_spin_hint(struct hs_runner *r)
{
	if (bt_of(r)->ncpus > 1)
		hs_bt_end_turn(r, 0);
}

int hs_bt_warp_idle(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t to = UINT64_MAX;

	if (bt->ncpus <= 1) {
		jump_to_deadline(r);
		return hs_bt_pending(r) != SPURIOUS;
	}
	/* the machine's one clock moves to the earliest deadline ahead */
	for (unsigned i = 0; i < bt->ncpus; i++) {
		const struct hs_booted *o = bt_of(bt->cpus[i]);

		if ((o->ctl & 3) == 1 && counter_before(bt->cpus[i]) < o->cval && o->cval < to)
			to = o->cval;
	}
	if (to == UINT64_MAX)
		return 0;
	for (unsigned i = 0; i < bt->ncpus; i++) {
		struct hs_booted *o = bt_of(bt->cpus[i]);

		o->counter0 = to;
		o->phase0 = 0;
		o->icount0 = clock_icount(r) - 1;
		hs_bt_next_event(bt->cpus[i]);
	}
	return 1;	/* a CPU's timer fires now */
}

void hs_bt_machine_clock(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	bt->icount0 = clock_icount(r);
	hs_bt_next_event(r);
}

/* Between turns no instruction is being executed: every one counted is
 * behind the clock, and a deadline the last turn ended at has fired
 * (QEMU runs it as the next round begins). */
int hs_bt_wakeable(const struct hs_runner *r)
{
	const struct hs_booted *bt = bt_of(r);
	uint64_t now = clock_icount(r);

	return pending(bt, timer_asserted_at(bt, counter_after(bt, now > bt->icount0 ? now - bt->icount0 : 0))) !=
	       SPURIOUS;
}

uint32_t hs_bt_gic_ack(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint32_t id = hs_bt_pending(r);

	if (id == TIMER_INTID)
		bt->timer_active = 1;
	else if (id < 16) {
		bt->sgi_active |= 1u << id;
		bt->sgi_pending &= ~(1u << id);
	}
	hs_bt_next_event(r);
	return id;
}

void hs_bt_gic_eoi(struct hs_runner *r, uint32_t intid)
{
	struct hs_booted *bt = bt_of(r);

	if (intid == TIMER_INTID)
		bt->timer_active = 0;
	else if (intid < 16)
		bt->sgi_active &= ~(1u << intid);
	hs_bt_next_event(r);
}

/* ICC_SGI1R_EL1: INTID [27:24], IRM [40] (every PE but this one), the
 * target list [15:0] in affinity Aff3.Aff2.Aff1 [55:48, 39:32, 23:16]:
 * this one CPU is 0.0.0.0. */
void hs_bt_gic_sgi(struct hs_runner *r, uint64_t v)
{
	struct hs_booted *bt = bt_of(r);
	unsigned n = bt->ncpus > 1 ? bt->ncpus : 1, me = bt->ncpus > 1 ? bt->self : 0;
	int irm = (v >> 40) & 1, aff0 = !((v >> 16) & 0xff) && !((v >> 32) & 0xff) && !((v >> 48) & 0xff);

	bt->counts.sgis++;
	if (bt->end_at_sgi && (irm || !aff0 || (v & 0xffff & ~(1u << me))))
		hs_bt_end_turn(r, 0);

	for (unsigned i = 0; i < n && i < 16; i++) {
		struct hs_runner *o = bt->ncpus > 1 ? bt->cpus[i] : r;

		if (irm ? i != me : aff0 && ((v >> i) & 1)) {
			struct hs_booted *to = bt_of(o);

			if (to->halted && !to->woke_set) {
				to->woke_set = 1;
				to->woke_from = me;
				to->woke_at = r->icount;
			}
			to->sgi_pending |= 1u << ((v >> 24) & 15);
			hs_bt_next_event(o);
		}
	}
	hs_bt_next_event(r);
}

/* A timer write on a machine of more than one CPU: when it makes this
 * timer the machine's earliest armed deadline, QEMU's timer list kicks the
 * running CPU out of its slice (qemu_timer_notify_cb), right after the
 * write (an I/O register ends its translation block). */
static void timer_written(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t now = clock_icount(r), mine = bt->icount0 + until_deadline(bt);

	hs_bt_next_event(r);
	/* a deadline written behind the clock asserts at once: QEMU arms
	 * no timer for it */
	bt->fired = mine <= now;
	if (bt->ncpus <= 1 || !(bt->ctl & 1) || mine <= now)
		return;
	for (unsigned i = 0; i < bt->ncpus; i++) {
		const struct hs_booted *o = bt_of(bt->cpus[i]);
		uint64_t due = o->icount0 + until_deadline(o);

		if (i != bt->self && (o->ctl & 1) && due > now && due <= mine)
			return;
	}
	hs_bt_end_turn(r, 1);
}

void hs_bt_end_turn_at_sgi(struct hs_runner *r, int on)
{
	bt_of(r)->end_at_sgi = on;
}

void hs_bt_end_turn(struct hs_runner *r, int kick)
{
	struct hs_booted *bt = bt_of(r);

	bt->yield_at = r->icount;	/* the instruction at the count is the turn's last */
	bt->kicked |= kick;
	r->next_event = r->icount;
}

/* 1: handled (value written to rt, or the write consumed), 0: Unicorn's. */
int hs_bt_sysreg(struct hs_runner *r, int rt, unsigned enc, int write)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t v = 0, now = hs_bt_counter(r);

	if (write && rt != UC_ARM64_REG_XZR)
		v = hs_rt_reg(r, rt);
	switch (enc) {
	case A64_SYSREG(3, 3, 14, 0, 1): case A64_SYSREG(3, 3, 14, 0, 2):	/* CNTPCT, CNTVCT */
	case A64_SYSREG(3, 3, 14, 0, 5): case A64_SYSREG(3, 3, 14, 0, 6):	/* the self-synchronising forms */
		if (write)
			return 0;
		v = now;
		break;
	case A64_SYSREG(3, 3, 14, 0, 0):				/* CNTFRQ */
		if (write)
			return 0;
		v = bt->cntfrq;
		break;
	case A64_SYSREG(3, 3, 14, 3, 1):				/* CNTV_CTL */
		if (write) {
			bt->ctl = v & 3;
			timer_written(r);
			return 1;
		}
		v = bt->ctl | ((bt->ctl & 1) && now >= bt->cval ? 4 : 0);
		break;
	case A64_SYSREG(3, 3, 14, 3, 2):				/* CNTV_CVAL */
		if (write) {
			bt->cval = v;
			timer_written(r);
			return 1;
		}
		v = bt->cval;
		break;
	case A64_SYSREG(3, 3, 14, 3, 0):				/* CNTV_TVAL */
		if (write) {
			bt->cval = now + (uint64_t)(int64_t)(int32_t)v;
			timer_written(r);
			return 1;
		}
		v = (uint32_t)(bt->cval - now);
		break;
	case A64_SYSREG(3, 0, 2, 0, 0):				/* TTBR0_EL1: switch_mm */
		if (write && hs_bt_set_user(r, v, 0))
			hs_rt_stop(r, "%s", hs_errmsg());
		return 0;
	case A64_SYSREG(3, 0, 1, 0, 0):				/* SCTLR_EL1: keep the MMU off */
		if (!write)
			return 0;
		hs_bt_set_cp(r, 3, 0, 1, 0, 0, v & ~1ULL);
		return 1;
	default:
		return 0;
	}
	if (rt != UC_ARM64_REG_XZR)
		hs_rt_set_reg(r, rt, v);
	return 1;
}
