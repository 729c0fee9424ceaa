/*
 * runner.h - run real kernel code of a patched image in Unicorn.
 *
 * Unicorn 2.0.1, MAX functional model (LSE, RCpc, PAN decode on it; core
 * differences live in boot-time patching and the cost models), EL1 with the
 * MMU off: the image is mapped flat at its link addresses, next to a heap for
 * synthesized kernel state, a harness page for hotsim's own small driver
 * code and a sentinel page that is never executed: a run ends when control
 * reaches its stop address (usually the sentinel). Every run has an
 * instruction budget. Faults, BUG/WARN traps and unknown system registers
 * stop the run with one line naming the path, the access and the pc as
 * symbol+offset, plus the call stack.
 */
#ifndef HOTSIM_RUNNER_H
#define HOTSIM_RUNNER_H

#include <stdint.h>

#include "hotsim/core.h"
#include "hotsim/image.h"
#include "hotsim/trace.h"

#define HS_HEAP_VA	0xffff000040000000ULL	/* linear-map-like addresses */
#define HS_HEAP_SIZE	(64ULL << 20)
#define HS_HARNESS_VA	0xffff0000f0000000ULL	/* hotsim's own code, 64 KiB */
#define HS_HARNESS_SIZE	0x10000ULL
#define HS_EXIT_VA	0xffff0000f0100000ULL	/* sentinel, never executed */
/* Where eret to EL0 lands: the same sentinel page, at a user address that
 * no loaded segment uses (a static executable links at 0x400000) -
 * hs_rt_user_exit() says which. */

struct hs_runner;

/* Host implementation of a kernel function: args in x[0..7], result in x[0]. */
typedef int (*hs_shim_fn)(struct hs_runner *r, void *ctx, uint64_t x[8]);

struct hs_runner *hs_runner_new(const struct hs_image *img, uint8_t *mem, const struct hs_core *core);
void hs_runner_free(struct hs_runner *r);

const struct hs_image *hs_rt_image(const struct hs_runner *r);
struct hs_dcache *hs_rt_dcache(struct hs_runner *r);

/* The user-space address of the sentinel page (eret to EL0 ends there). */
uint64_t hs_rt_user_exit(const struct hs_runner *r);

/* Zeroed emulator memory from the heap; 0 with hs_errmsg() when exhausted. */
uint64_t hs_rt_alloc(struct hs_runner *r, uint64_t size, uint64_t align);

/* Host pointer to len bytes of emulator memory (image or heap), or NULL. */
void *hs_rt_host(struct hs_runner *r, uint64_t va, uint64_t len);
int hs_rt_read64(struct hs_runner *r, uint64_t va, uint64_t *v);
int hs_rt_write64(struct hs_runner *r, uint64_t va, uint64_t v);
int hs_rt_write32(struct hs_runner *r, uint64_t va, uint32_t v);

/* The host changed code at [va, va+len): drop translations and decodes. */
void hs_rt_code_changed(struct hs_runner *r, uint64_t va, uint64_t len);

/* Code that must not execute: a run reaching [va, va+len) stops with why. */
int hs_rt_poison(struct hs_runner *r, uint64_t va, uint64_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append instructions to the harness page; returns their address. */
uint64_t hs_rt_harness(struct hs_runner *r, const uint32_t *insns, unsigned n);

/*
 * Calls to a function may be answered by the host: a stub returns ret at
 * once; a shim runs fn. Both are counted in the trace of the run that hit
 * them. The name is looked up with compiler suffixes resolved; a missing
 * symbol is not an error for stubs (optional) but is for shims when
 * required is set.
 */
int hs_rt_stub(struct hs_runner *r, const char *sym, uint64_t ret);
int hs_rt_shim(struct hs_runner *r, const char *sym, hs_shim_fn fn, void *ctx, int required);

/* Registers, by Unicorn id (UC_ARM64_REG_*). */
uint64_t hs_rt_reg(struct hs_runner *r, int reg);
void hs_rt_set_reg(struct hs_runner *r, int reg, uint64_t v);
/* Xn by number (XZR reads 0, takes nothing). */
uint64_t hs_rt_x(struct hs_runner *r, unsigned n);
void hs_rt_set_x(struct hs_runner *r, unsigned n, uint64_t v);
struct uc_arm64_cp_reg;
/* A system register by encoding (Unicorn's uc_arm64_cp_reg). */
void hs_rt_set_cp(struct hs_runner *r, struct uc_arm64_cp_reg *cp);

struct hs_run {
	const char *what;	/* path or setup step, for messages */
	uint64_t pc;		/* start */
	uint64_t stop;		/* run ends when pc reaches this (HS_EXIT_VA if 0) */
	uint64_t stop_sp_min;	/* with stop: only when sp >= this (0: any) */
	uint64_t stop_mm;	/* with stop: only in the address space whose
				 * TTBR0_EL1 base this is (HS_TTBR_BADDR; 0: any) */
	unsigned stop_hits;	/* stop the Nth time stop is reached (0, 1: first) */
	uint64_t budget;	/* instruction budget */
	struct hs_trace *trace;	/* NULL: untraced */
	uint64_t trace_from;	/* start tracing when pc first equals this (0: at once) */
};

/* TTBR0_EL1's table base: one process's address space (the ASID may change). */
#define HS_TTBR_BADDR(t) ((t) & 0x0000fffffffffffeULL)

/* 0, or -1 with hs_errmsg() naming what->, the pc and the call stack. */
int hs_rt_run(struct hs_runner *r, const struct hs_run *run);

/* Benchmarks: bare mode drops the per-instruction hooks (no trace, no
 * stubs, no budget - only for paths known to end) to measure Unicorn alone;
 * hs_rt_run_bare runs from pc until pc == until in that mode. */
int hs_rt_bare(struct hs_runner *r, int on);
int hs_rt_run_bare(struct hs_runner *r, uint64_t pc, uint64_t until);

/* Call fn(args...) with lr = sentinel on the given stack (0: the runner's own). */
int hs_rt_call(struct hs_runner *r, const char *what, uint64_t fn, const uint64_t *args,
	       int nargs, uint64_t sp, uint64_t budget, uint64_t *ret);

/* GICv3 CPU interface: the INTID ICC_IAR1_EL1 returns next (1023 after). */
void hs_rt_gic_raise(struct hs_runner *r, uint32_t intid);

/* Save / return to the complete emulated state (registers, memory, heap,
 * instruction count, stubs): one runner serves several runs from the same
 * starting point, keeping its translated code. */
int hs_rt_snapshot(struct hs_runner *r);
int hs_rt_restore(struct hs_runner *r);

/* Instructions executed so far by this runner (all runs). */
uint64_t hs_rt_icount(const struct hs_runner *r);
/* A run that ended at its stop pc did not execute the instruction there,
 * which the count holds: take it off (a run that resumes there counts it
 * again). */
void hs_rt_uncount(struct hs_runner *r);

#endif
