/*
 * validate_internal.h - what the two validations share (validate.c: one
 * CPU, from the cached snapshot; validate_machine.c: every CPU of a
 * machine, from validation's own boot).
 */
#ifndef HOTSIM_PATHS_VALIDATE_INTERNAL_H
#define HOTSIM_PATHS_VALIDATE_INTERNAL_H

#include "hotsim/paths.h"
#include "hotsim/trace.h"
#include "paths/path_internal.h"
#include "vm/vm.h"

/* QEMU's copy of the overlay: firmware calls become NOPs (QEMU's virt has
 * no EL3 firmware to answer the SMCCC calls hotsim answers; the pcs are
 * the same). When the modelled core's vectors are not the boot CPU's,
 * QEMU's VBAR_EL1 becomes the model's in the saved machine (record.c:
 * the gdbstub cannot write it, and a branch in each vector slot would be
 * an instruction the replay does not run - a nanosecond of QEMU's clock
 * per exception). */
struct qpatches {
	struct hs_vm_patch *v;
	size_t n;
	uint64_t vbar, vbar_was;	/* the model's VBAR and QEMU's; 0: the same */
};
int hs_validate_qpatches(const struct hs_boot_state *b, struct qpatches *q);

/* What QEMU's recording from d's point is given: the machine kept in dir,
 * the overlay. */
void hs_validate_recording(const struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
			   const struct hs_path_def *d, struct hs_vm_recording *w);

/* The replay's stream t against QEMU's pcs q: identical, or where not. */
void hs_validate_compare(const struct hs_trace *t, const uint64_t *q, size_t nq, struct hs_validation *v);

/* Every CPU of a machine of more than one (set->ncpus), QEMU's machines
 * kept in dir. */
int hs_validate_machine(const struct hs_patched *pt, const struct hs_path_set *set, const char *dir,
			const struct hs_path_def *const *defs, int ndefs, struct hs_validation *out);

#endif
