/*
 * booted_internal.h - the booted backend's state, shared by its files:
 * backend_booted.c (memory: RAM, the undo log, the overlay, entering a
 * point), booted_maps.c (the walked tables as mappings), booted_mmu.c
 * (misses, page faults, tlbi), booted_exc.c (exception entry and return:
 * svc, IRQ, eret, and the operations a run counts) and booted_timer.c (the
 * virtual timer, its warps and the GIC CPU interface's pending state).
 * Nothing outside the backend includes it.
 */
#ifndef HOTSIM_EMU_BOOTED_INTERNAL_H
#define HOTSIM_EMU_BOOTED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/backend_booted.h"
#include "emu/ptwalk.h"
#include "emu/runner_internal.h"

#define TIMER_INTID 27		/* the EL1 virtual timer's PPI */
#define NO_EVENT UINT64_MAX

struct bt_run {
	uint64_t va, pa, len;
	uint32_t prot;			/* UC_PROT_*: what Unicorn lets through */
};

/* Translation table descriptor bits (Arm ARM D8.3, VMSAv8-64 descriptors) */
#define HS_PT_RDONLY	(1ULL << 7)	/* AP[2]: read-only at every level */
#define HS_PT_AF	(1ULL << 10)	/* access flag */
#define HS_PT_DBM	(1ULL << 51)	/* dirty bit modifier: writable, clean */
#define HS_PT_UXN	(1ULL << 54)	/* no execution at EL0 */
#define HS_PT_UXNTABLE	(1ULL << 60)	/* table descriptors: UXN below */
#define HS_PT_APTABLE_RO (1ULL << 62)	/* APTable[1]: read-only below */
#define HS_TCR_HA	(1ULL << 39)	/* hardware sets the access flag */
#define HS_TCR_HD	(1ULL << 40)	/* hardware records dirty state (DBM) */

/* The abort a miss ended in, entered after the run stops (booted_mmu.c). */
struct bt_abort {
	int pending;
	int fetch;			/* an instruction abort (its pc never ran) */
	uint64_t elr, far;
	uint32_t esr;
};

struct bt_runs {
	struct bt_run *v;
	size_t n, cap;
};

struct hs_booted {
	char what[600];			/* "vmlinux (booted on cortex-a53)" */
	const struct hs_snap *snap;
	uint8_t *ram;
	uint64_t ram_base, ram_size, tcr;
	struct bt_runs kernel, user;	/* mapped now; sorted by address */
	/* the virt machine's PL011 (the console), where the kernel maps it:
	 * a page of its registers, idle (see map_uart) */
	uint64_t uart_va;
	uint32_t *uart;
	uint64_t user_table;		/* the TTBR0 table user is from */
	uint64_t user_ttbr, kernel_ttbr;	/* the TTBR values user and kernel are from */
	/* the MMU (booted_mmu.c): an abort to enter, halves a tlbi made
	 * stale (1 user, 2 kernel), pages to re-protect after a hardware
	 * dirty-state update */
	struct bt_abort abort;
	unsigned stale;
	struct { uint64_t va, pa, len; uint32_t prot; } reprot[8];
	unsigned nreprot;
	/* the undo log: the pages written since the last enter. Their content
	 * before is the pristine RAM's - the snapshot's first point with the
	 * overlay sealed in - so only their numbers are kept and an undo
	 * copies them back from there (a copy of each page was 96 MB for a
	 * distro kernel's fork) */
	uint8_t *saved;			/* bitmap by page */
	uint8_t *codepg;		/* bitmap by page: Unicorn ran code from it */
	uint32_t *undo_pfn;
	size_t nundo, capundo;
	uint32_t npoint0;		/* the snapshot's pages of point 0 (the first ones) */
	/* pages the overlay patched (hs_bt_patch), as sealed */
	uint32_t *sealed_pfn;
	uint8_t *sealed_data;
	size_t nsealed;
	/* the point the runner is at */
	int point;
	uint64_t vbar;			/* VBAR_EL1 to use (0: the snapshot's) */
	uint64_t sp_el1;		/* the kernel's SP while user code runs */
	/* the virtual timer: counter = counter0 + (icount - icount0) / 16 at
	 * 62.5 MHz, QEMU's -icount shift=0 clock (booted_timer.c) */
	uint64_t counter0, icount0, cntfrq, cval, ctl;
	/* nanoseconds the clock was past counter0's tick at icount0: known
	 * where QEMU's saved machine gives its clock (hs_bt_set_clock), else 0 */
	uint64_t phase0;
	/* the GIC CPU interface: what is acknowledged and not yet EOId */
	int timer_active;
	uint32_t sgi_pending, sgi_active;
	/* halted: the first SGI sent to it since, by whom and at which of the
	 * sender's instructions (hs_bt_woken_by) */
	int woke_set;
	unsigned woke_from;
	uint64_t woke_at;
	/* the operations of a run (booted_exc.c) */
	struct hs_bt_opspec spec;
	struct hs_bt_op *ops;
	unsigned nops, capops;
	int in_op;			/* an op has begun and not ended */
	uint64_t op_elr;		/* IRQ ops: where the open one returns */
	size_t op_begin;
	uint64_t stop_after;		/* the run ends at the eret target after the last op */
	/* a machine of more than one CPU: every CPU's runner (this one is
	 * cpus[self]), sharing one RAM; the array is the machine's caller's,
	 * valid from hs_bt_machine() to the next enter */
	struct hs_runner **cpus;
	unsigned ncpus, self;
	int halted;			/* stopped at a wfi with nothing to take */
	int yielded;			/* stopped for another CPU's timer */
	int kicked;			/* ... by its own kick (hs_bt_end_turn) */
	int end_at_sgi;			/* a turn ends at each SGI it sends to another */
	int fired;			/* its deadline passed and QEMU ran its timer */
	uint64_t yield_at;		/* icount the slice ends after (hs_bt_slice) */
	struct hs_bt_counts counts;	/* since the last enter */
	struct hs_booted *owner;	/* the runner whose RAM this is, or NULL: its own */
};

static inline struct hs_booted *bt_of(const struct hs_runner *r)
{
	return r->bes;
}

/* backend_booted.c */
void hs_bt_set_cp(struct hs_runner *r, int op0, int op1, int crn, int crm, int op2, uint64_t v);
uint64_t hs_bt_get_spsr(struct hs_runner *r);
int hs_bt_save_page(struct hs_booted *bt, uint64_t pfn);

/* booted_maps.c */
int hs_bt_map_first(struct hs_runner *r, uint64_t ttbr1);	/* the kernel half, the console */
int hs_bt_set_user(struct hs_runner *r, uint64_t ttbr0, int force);
int hs_bt_rewalk_user(struct hs_runner *r);
int hs_bt_set_kernel(struct hs_runner *r, uint64_t ttbr1);
const struct bt_run *hs_bt_find_run(const struct bt_runs *rs, uint64_t va);
int hs_bt_put_page(struct hs_runner *r, struct bt_runs *rs, uint64_t va, uint64_t pa, uint64_t len,
		   uint32_t prot);
void hs_bt_uart_idle(struct hs_booted *bt);

/* booted_mmu.c */
static inline int hs_bt_hi(uint64_t va)
{
	return (int)(va >> 63);
}
uint32_t hs_bt_user_prot(uint64_t desc, uint64_t tattr);
int hs_bt_fault(struct hs_runner *r, int type, uint64_t addr, int size);
void hs_bt_tlbi(struct hs_runner *r, uint32_t word, uint64_t xt);
void hs_bt_dsb(struct hs_runner *r);
void hs_bt_reprotect(struct hs_runner *r);

/* booted_exc.c */
int hs_bt_svc_entry(struct hs_runner *r);
int hs_bt_el0_sysreg(struct hs_runner *r, uint64_t pc, const struct a64_insn *in);
void hs_bt_eret(struct hs_runner *r);
int hs_bt_event(struct hs_runner *r, uint64_t pc);
void hs_bt_ops_reset(struct hs_booted *bt);
int hs_bt_take_abort(struct hs_runner *r);

/* booted_timer.c */
int hs_bt_sysreg(struct hs_runner *r, int rt, unsigned enc, int write);
void hs_bt_next_event(struct hs_runner *r);
/* The CPU's slice is over: stop before pc (1). */
int hs_bt_yield(struct hs_runner *r);
/* A machine's CPU: its clock based at the machine's instruction count. */
void hs_bt_machine_clock(struct hs_runner *r);
void hs_bt_warp(struct hs_runner *r);
/* pc is a range op's marker (hs_bt_opspec.range_*): begin or end an op. */
void hs_bt_range_mark(struct hs_runner *r, uint64_t pc);
void hs_bt_wfx(struct hs_runner *r);
void hs_bt_spin_hint(struct hs_runner *r);
/* The machine's CPU ends its turn after the instruction executing;
 * kick: it kicked every CPU (each other one begins a round of its own). */
void hs_bt_end_turn(struct hs_runner *r, int kick);
/* the INTID an IRQ would deliver now (1023: none) */
uint32_t hs_bt_pending(const struct hs_runner *r);
uint32_t hs_bt_gic_ack(struct hs_runner *r);
void hs_bt_gic_eoi(struct hs_runner *r, uint32_t intid);
void hs_bt_gic_sgi(struct hs_runner *r, uint64_t v);

#endif
