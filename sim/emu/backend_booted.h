/*
 * backend_booted.h - a runner over a booted kernel's snapshot (sim/vm/snapshot.h):
 * the kernel's own RAM, mapped at every virtual address its page tables
 * map, with the MMU off (Unicorn 2.0.1 runs high kernel addresses flat).
 *
 * User code runs at EL1t, and hotsim performs the exception entry of an
 * svc and the eret to user space itself: Unicorn 2.0.1 does not rebuild its
 * translation flags when the host changes the exception level, and with
 * the MMU off the level changes nothing else user code can see. A write to
 * TTBR0_EL1 with a new table remaps the user half (switch_mm); the empty
 * table software PAN installs around uaccess leaves it as it is.
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

/* Put the runner at point k: RAM, registers, timer, GIC (an IRQ point has
 * the timer's INTID pending). Changes made since the last enter are
 * undone first; pc is the point's, or pc_override when non-zero. */
int hs_bt_enter(struct hs_runner *r, unsigned k, uint64_t pc_override);

/* The per-core overlay: patch bytes of the booted kernel at a virtual
 * address, before hs_bt_seal; they become part of every point's state. */
int hs_bt_patch(struct hs_runner *r, uint64_t va, const void *bytes, size_t len);
int hs_bt_seal(struct hs_runner *r);
/* VBAR_EL1 for every point (the overlay's vectors); 0: the snapshot's. */
void hs_bt_set_vbar(struct hs_runner *r, uint64_t vbar);

/* The guest physical address of a virtual one (0: not mapped). */
uint64_t hs_bt_pa(struct hs_runner *r, uint64_t va);
/* Start the next enter's counter here instead of the point's (validation:
 * QEMU's clock after a restore); 0 clears it. */
void hs_bt_counter_override(struct hs_runner *r, uint64_t counter);

/* End the run at the eret that returns to elr (the eret is traced). */
void hs_bt_stop_at_eret(struct hs_runner *r, uint64_t elr);

/* Counts for reports: user-half remaps (switch_mm) and svc entries. */
unsigned hs_bt_remaps(const struct hs_runner *r);

/* Pages written since the last enter (tests check the undo log is whole). */
uint64_t hs_bt_dirty_pages(const struct hs_runner *r);
/* 0 if RAM equals the sealed state of point k (tests; slow). */
int hs_bt_check_pristine(struct hs_runner *r, unsigned k);

#endif
