/*
 * kstate.h - boot-like kernel state, built by running the kernel's own code.
 *
 * Rather than writing kernel objects field by field (offsets would have to
 * come from somewhere, and images without BTF are the common case), hotsim
 * does what boot does and lets the kernel fill in its own structures:
 *   1. per-CPU areas as setup_per_cpu_areas() lays them out (copies of
 *      .data..percpu, __per_cpu_offset[], TPIDR_EL1), one possible/online CPU;
 *   2. sched_init() run in the emulator (allocators answered by kshims),
 *      then the timer wheel, hrtimer bases and timekeeping (jiffies clock);
 *   3. two kernel threads A and B made the way fork makes them: a copy of the
 *      statically initialised init_task, a THREAD_SIZE-aligned stack,
 *      sched_fork(), the cpu_context copy_thread() would set (entry at
 *      ret_from_fork, body on hotsim's harness page), wake_up_new_task();
 *   4. schedule() from the idle task, then A and B yield to each other a few
 *      times, so both sleep inside __schedule() like any runnable task.
 * The state ends with A running, stopped at the call of its next yield().
 * The few layout facts needed come from offsets.h.
 */
#ifndef HOTSIM_KSTATE_H
#define HOTSIM_KSTATE_H

#include <stdint.h>

#include "emu/kshims.h"
#include "emu/offsets.h"
#include "hotsim/patch.h"
#include "emu/runner.h"

struct hs_kstate {
	struct hs_offsets off;
	struct hs_kshims shims;
	uint64_t pcpu_start;		/* __per_cpu_start */
	uint64_t pcpu_size;		/* static per-CPU bytes */
	uint64_t pcpu_chunk;		/* CPU 0's copy */
	uint64_t pcpu_offset;		/* __per_cpu_offset[0], TPIDR_EL1 */
	uint64_t init_task;
	uint64_t init_template;		/* init_task as the image initialises it */
	uint64_t task_flags;		/* offsetof(task_struct, flags) */
	uint64_t task[2];		/* A, B */
	uint64_t stack[2];		/* stack base (lowest address) of A, B */
	uint64_t loop_call[2];		/* pc of the yield() call in A's / B's loop */
	uint64_t irq_stack;
	uint64_t scs_init;		/* init_shadow_call_stack; 0: no shadow call stack */
	uint64_t scs_field;		/* offsetof(task_struct, thread_info.scs_base) */
	unsigned setup_insns;		/* instructions run to build the state */
};

/* Build the state; -1 with hs_errmsg() naming the step that failed. */
int hs_kstate_boot(struct hs_runner *r, struct hs_kstate *ks);

/* Settle the runtime constants patching left pending (rtconst_settle.c):
 * patch them with the value their variable has in the built state, poison
 * the sites of those that have none. */
int hs_rtconst_settle(struct hs_runner *r, const struct hs_patch_report *rep);

#endif
