/*
 * backend_booted.h - a runner over a booted kernel's snapshot (sim/vm/snapshot.h):
 * the kernel's own RAM, mapped at every virtual address its page tables
 * map, with the MMU off (Unicorn 2.0.1 runs high kernel addresses flat).
 *
 * User code runs at EL1t, and hotsim performs the exception entry of an
 * svc and the eret to user space itself: Unicorn 2.0.1 does not rebuild its
 * translation flags when the host changes the exception level, and with
 * the MMU off the level changes nothing else user code can see. A write to
 * TTBR0_EL1 with a new table switches the user half (switch_mm: what it
 * maps otherwise is unmapped, its pages mapped at first touch); the empty
 * table software PAN installs around uaccess leaves it as it is. The
 * mappings are the MMU's TLB (booted_mmu.c): a miss walks the tables
 * again, and a page fault is an abort the guest takes.
 *
 * The runner starts at one of the snapshot's points (hs_bt_enter), pages
 * the run writes are restored on the next enter, so one runner, with its
 * translated code, serves every path of an image on one core.
 */
#ifndef HOTSIM_EMU_BOOTED_H
#define HOTSIM_EMU_BOOTED_H

#include <stddef.h>
#include <stdint.h>

#include "emu/runner.h"
#include "vm/snapshot.h"

struct hs_runner *hs_runner_booted(const struct hs_image *img, const struct hs_snap *snap,
				   const struct hs_core *core);

/* What a CPU did since it entered its point: SGIs it sent (ICC_SGI1R_EL1
 * writes), interrupts it took, wfi it halted in. */
struct hs_bt_counts {
	unsigned sgis, irqs, halts;
};
void hs_bt_counts(const struct hs_runner *r, struct hs_bt_counts *c);

/* Another CPU of the same machine: a runner over first's RAM. */
struct hs_runner *hs_runner_booted_peer(struct hs_runner *first, const struct hs_core *core);
/* The machine's CPUs, each runner told the others (SGIs reach them; a wfi
 * with nothing pending halts the runner: hs_bt_halted). */
void hs_bt_machine(struct hs_runner **cpus, unsigned n);
int hs_bt_halted(const struct hs_runner *r);
/* A CPU halted at the point (its registers past its wfi). */
void hs_bt_halt(struct hs_runner *r);
/* A machine's CPU: the SGIs pending and the interrupts active at its GIC
 * at the point (the snapshot's redistributor: ISPENDR0, ISACTIVER0) - an
 * IPI sent just before the stop is taken as the CPU unmasks, as in QEMU.
 * The timer's pending state is its counter's. */
void hs_bt_set_gic(struct hs_runner *r, uint32_t pending, uint32_t active);
/* The clock at the point, QEMU's virtual clock in nanoseconds (before
 * hs_bt_machine bases it on the machine's instruction count). */
void hs_bt_set_clock(struct hs_runner *r, uint64_t ns);
/* Stopped at the end of its slice: insns more instructions from now
 * (hs_bt_slice). Instructions to the machine's next timer deadline
 * (UINT64_MAX: none armed). */
int hs_bt_yielded(const struct hs_runner *r);
void hs_bt_slice(struct hs_runner *r, uint64_t insns);
uint64_t hs_bt_until_deadline(const struct hs_runner *r);
/* The turn ended at its own timer write or broadcast TLB invalidation,
 * which kicked every CPU (QEMU's rr_kick_vcpu_thread). A round of turns begins: QEMU runs the timers
 * whose deadline has passed (icount_handle_deadline). */
int hs_bt_kicked(const struct hs_runner *r);
/* on: a CPU's turn ends at each SGI it sends to another, so the CPU it
 * woke runs next (a machine replayed with the woken CPU first) */
void hs_bt_end_turn_at_sgi(struct hs_runner *r, int on);
void hs_bt_round(struct hs_runner *r);
void hs_bt_resume(struct hs_runner *r);
/* An interrupt is pending for a halted CPU: it resumes past its wfi
 * (hs_bt_resume). Every CPU halted: QEMU moves the clock to the next timer
 * deadline; hs_bt_warp_idle does for one CPU (1: its timer now fires). */
int hs_bt_wakeable(const struct hs_runner *r);
/* A halted CPU: 1 when an SGI came since it halted, with the sending CPU
 * and its instruction count then (the first such SGI: the one that wakes
 * it); 0 when none did (its timer wakes it). */
int hs_bt_woken_by(const struct hs_runner *r, unsigned *from, uint64_t *at);
int hs_bt_warp_idle(struct hs_runner *r);
/* hs_bt_enter with the registers of another CPU at point k (its RAM is
 * the first runner's, entered already). */
int hs_bt_enter_cpu(struct hs_runner *r, unsigned k, const struct hs_snap_regs *s);

/* Put the runner at point k: RAM, registers, the timer as QEMU resumes a
 * stopped guest (its clock at the next deadline: the tick is due at once),
 * the GIC with nothing active. Changes made since the last enter are
 * undone first. */
int hs_bt_enter(struct hs_runner *r, unsigned k);

/*
 * What one operation of a run is, and how many the run ends after. The
 * replay runs on from the point through consecutive operations, taking
 * the ticks QEMU would take (the virtual timer from the instruction
 * count, interrupts at the instruction QEMU takes them, its warp when a
 * debugger stop or a wfi idles the guest).
 */
struct hs_bt_opspec {
	int irq;		/* 0: from the svc at site to the eret that returns to
				 * end_elr; 1: an IRQ taken from EL from_el, to its eret */
	int abort;		/* 1: from the abort the instruction at site takes (a
				 * page fault) to the eret that returns to end_elr */
	uint64_t site, end_elr;
	int from_el;
	/* where a stop warps the clock (the boot stops there, so the next tick
	 * is due at once): up to 4 addresses, 0 unused */
	uint64_t warp[4];
	/* a range (a user workload's markers, irq 0 and site 0): from the EL0
	 * instruction at range_begin to the next of range_end[] the task
	 * reaches (that one not in the op); 0 unused */
	uint64_t range_begin, range_end[8];
	unsigned want;		/* the run ends after this many operations */
	/* svc ops: begun and ended only in this address space (TTBR0_EL1's
	 * table base, HS_TTBR_BADDR) - a program whose processes share the
	 * site's library code (program.h); 0: any */
	uint64_t mm;
};
struct hs_bt_op {
	size_t begin, end;	/* records [begin, end) of the run's trace */
};
void hs_bt_set_ops(struct hs_runner *r, const struct hs_bt_opspec *spec);
/* The operations the last run found, in order. */
const struct hs_bt_op *hs_bt_ops(const struct hs_runner *r, unsigned *n);

/* The per-core overlay: patch bytes of the booted kernel at a virtual
 * address, before hs_bt_seal; they become part of every point's state. */
int hs_bt_patch(struct hs_runner *r, uint64_t va, const void *bytes, size_t len);
int hs_bt_seal(struct hs_runner *r);
/* VBAR_EL1 for every point (the overlay's vectors); 0: the snapshot's. */
void hs_bt_set_vbar(struct hs_runner *r, uint64_t vbar);

/* The guest physical address of a virtual one (0: not mapped). */
uint64_t hs_bt_pa(struct hs_runner *r, uint64_t va);

#endif
