/*
 * booted_internal.h - the booted backend's state, shared by its three
 * files: backend_booted.c (memory: the walked tables, the undo log, the
 * overlay, entering a point), booted_exc.c (exception entry and return:
 * svc, IRQ, eret, and the operations a run counts) and booted_timer.c (the
 * virtual timer, its warps and the GIC CPU interface's pending state).
 * Nothing outside the backend includes it.
 */
#ifndef HOTSIM_EMU_BOOTED_INTERNAL_H
#define HOTSIM_EMU_BOOTED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/backend_booted.h"
#include "emu/runner_internal.h"

#define TIMER_INTID 27		/* the EL1 virtual timer's PPI */
#define NO_EVENT UINT64_MAX

struct bt_run {
	uint64_t va, pa, len;
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
	/* the undo log: each page's content before its first write */
	uint8_t *saved;			/* bitmap by page */
	uint32_t *undo_pfn;
	uint8_t *undo_data;
	size_t nundo, capundo;
	/* pages the overlay patched (hs_bt_patch), as sealed */
	uint32_t *sealed_pfn;
	uint8_t *sealed_data;
	size_t nsealed;
	/* the point the runner is at */
	int point;
	uint64_t vbar;			/* VBAR_EL1 to use (0: the snapshot's) */
	uint64_t sp_el1;		/* the kernel's SP while user code runs */
	unsigned remaps, svcs, irqs, warps;
	/* the virtual timer: counter = counter0 + (icount - icount0) / 16 at
	 * 62.5 MHz, QEMU's -icount shift=0 clock (booted_timer.c) */
	uint64_t counter0, icount0, cntfrq, cval, ctl;
	uint64_t counter_override;	/* validation: QEMU's clock, 0: the point's */
	/* the GIC CPU interface: what is acknowledged and not yet EOId */
	int timer_active;
	uint32_t sgi_pending, sgi_active;
	/* the operations of a run (booted_exc.c) */
	struct hs_bt_opspec spec;
	struct hs_bt_op *ops;
	unsigned nops, capops;
	int in_op;			/* an op has begun and not ended */
	uint64_t op_elr;		/* IRQ ops: where the open one returns */
	size_t op_begin;
	uint64_t stop_after;		/* the run ends at the eret target after the last op */
};

static inline struct hs_booted *bt_of(const struct hs_runner *r)
{
	return r->bes;
}

/* backend_booted.c */
void hs_bt_set_cp(struct hs_runner *r, int op0, int op1, int crn, int crm, int op2, uint64_t v);
uint64_t hs_bt_get_spsr(struct hs_runner *r);
int hs_bt_set_user(struct hs_runner *r, uint64_t ttbr0, int force);

/* booted_exc.c */
int hs_bt_svc_entry(struct hs_runner *r);
void hs_bt_eret(struct hs_runner *r);
int hs_bt_event(struct hs_runner *r, uint64_t pc);
void hs_bt_ops_reset(struct hs_booted *bt);

/* booted_timer.c */
uint64_t hs_bt_counter(const struct hs_runner *r);
int hs_bt_sysreg(struct hs_runner *r, int rt, unsigned enc, int write);
void hs_bt_next_event(struct hs_runner *r);
void hs_bt_warp(struct hs_runner *r);
/* pc is a range op's marker (hs_bt_opspec.range_*): begin or end an op. */
void hs_bt_range_mark(struct hs_runner *r, uint64_t pc);
void hs_bt_wfx(struct hs_runner *r);
/* the INTID an IRQ would deliver now (1023: none) */
uint32_t hs_bt_pending(const struct hs_runner *r);
uint32_t hs_bt_gic_ack(struct hs_runner *r);
void hs_bt_gic_eoi(struct hs_runner *r, uint32_t intid);
void hs_bt_gic_sgi(struct hs_runner *r, uint64_t v);

#endif
