/* booted_internal.h - the booted runner's state (booted.c), and the hooks
 * runner.c and sysreg.c call into it. */
#ifndef HOTSIM_EMU_BOOTED_INTERNAL_H
#define HOTSIM_EMU_BOOTED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/booted.h"

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
	uint64_t counter0, icount0, cntfrq, cval, ctl;
	uint64_t counter_override;	/* validation: QEMU's clock, 0: the point's */
	uint64_t sp_el1;		/* the kernel's SP while user code runs */
	uint64_t stop_elr;
	int stop_set;
	unsigned remaps, svcs;
};

struct hs_runner;

void hs_bt_free(struct hs_booted *bt);
void *hs_bt_host(struct hs_booted *bt, uint64_t va, uint64_t len);
int64_t hs_bt_offset(struct hs_booted *bt, uint64_t va);
/* runner.c: a store (or dc zva) is about to write [va, va + len) */
void hs_bt_written(struct hs_runner *r, uint64_t va, uint64_t len);
/* runner.c: svc from user code (interrupt hook), eret (code hook) */
int hs_bt_svc(struct hs_runner *r);
void hs_bt_eret(struct hs_runner *r);
/* sysreg.c: timer, counters, TTBR0, SCTLR; enc is A64_SYSREG() */
int hs_bt_sysreg(struct hs_runner *r, int rt, unsigned enc, int write);

#endif
