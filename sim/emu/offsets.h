/*
 * offsets.h - the few kernel layout facts state synthesis needs, found in
 * what the image itself holds, never hard-coded for one build:
 *   - THREAD_SIZE: the extent of init_task's stack (__start_init_task ..
 *     __end_init_task in the linker script);
 *   - PT_REGS_SIZE: the frame the vector entry carves ("sub sp, sp, #N" at
 *     the start of kernel_ventry);
 *   - offsetof(task_struct, thread.cpu_context): the immediate cpu_switch_to
 *     adds to the task pointer;
 *   - offsetof(task_struct, stack) and active_mm: the slots of the
 *     statically initialised init_task that hold &init_stack / &init_mm
 *     after relocation;
 *   - sizeof(task_struct): the size of the init_task symbol.
 * When the image has BTF, each is cross-checked against it and a mismatch
 * is an error.
 */
#ifndef HOTSIM_OFFSETS_H
#define HOTSIM_OFFSETS_H

#include <stdint.h>

#include "hotsim/image.h"

struct hs_offsets {
	uint64_t thread_size;
	uint64_t pt_regs_size;
	uint64_t task_size;
	uint64_t task_stack;		/* offsetof(task_struct, stack) */
	uint64_t task_active_mm;	/* offsetof(task_struct, active_mm) */
	uint64_t task_cpu_context;	/* offsetof(task_struct, thread.cpu_context) */
	int btf_checked;		/* all of the above agreed with BTF */
	char how[6][96];		/* where each came from, for reports */
};

/* mem: a relocated (patched) memory image. -1 with hs_errmsg() naming what
 * could not be found and why. */
int hs_offsets_find(const struct hs_image *img, const uint8_t *mem, struct hs_offsets *o);

#endif
