/* runner_internal.h - the runner's state, shared by runner.c and sysreg.c. */
#ifndef HOTSIM_RUNNER_INTERNAL_H
#define HOTSIM_RUNNER_INTERNAL_H

#include <stdarg.h>
#include <unicorn/unicorn.h>

#include "emu/runner.h"

#define HS_MAX_HOOKFNS 128
#define HS_CSTACK 64

struct hs_hookfn {
	uint64_t addr;
	const char *name;
	hs_shim_fn fn;		/* NULL: plain stub returning ret */
	void *ctx;
	uint64_t ret;
};

struct hs_runner;

/*
 * What differs between the two kinds of runner, behind one interface (the
 * way QEMU's MemoryRegionOps hide what backs memory): a flat runner over
 * a patched image with hotsim's synthesized state (runner.c), and one over
 * a booted kernel's snapshot (backend_booted.c). The hooks call these and never
 * ask which kind they serve. NULL members: nothing to do.
 */
enum { HS_FAULT_NONE, HS_FAULT_MAPPED, HS_FAULT_ABORT };

struct hs_backend {
	const char *name;
	/* host pointer to len bytes of emulator memory, or NULL */
	void *(*host)(struct hs_runner *r, uint64_t va, uint64_t len);
	/* a store (or dc zva) is about to write [va, va + len) */
	void (*written)(struct hs_runner *r, uint64_t va, uint64_t len);
	/* dc zva of the block [va, va + len): zero it here and say 1, or 0
	 * for Unicorn to (hooks.c, hs_rt_on_sys: why) */
	int (*zero)(struct hs_runner *r, uint64_t va, uint64_t len);
	/* the code hook meets pc's decode entry for the first time: Unicorn
	 * has translated code from its page */
	void (*code_seen)(struct hs_runner *r, uint64_t pc);
	/* svc from user code: perform the exception entry (0), or -1 */
	int (*svc)(struct hs_runner *r);
	/* an MRS, MSR or SYS about to execute (traced): 1 when it traps from
	 * user code and the backend took the exception instead */
	int (*el0_sysreg)(struct hs_runner *r, uint64_t pc, const struct a64_insn *in);
	/* eret, before it executes */
	void (*eret)(struct hs_runner *r);
	/* MRS/MSR of an implemented register: 1 handled, 0 Unicorn's */
	int (*sysreg)(struct hs_runner *r, int rt, unsigned enc, int write);
	/* the instruction count reached r->next_event, before the instruction
	 * at pc executes: 1 when the backend redirected (an interrupt taken,
	 * pc written) and the instruction did not execute */
	int (*event)(struct hs_runner *r, uint64_t pc);
	/* pc is in [r->warp_lo, r->warp_hi]: the backend's stop sites */
	void (*at_warp)(struct hs_runner *r, uint64_t pc);
	/* wfi is about to execute */
	void (*wfx)(struct hs_runner *r);
	/* wfe or yield, a spin-wait's hint, is about to execute */
	void (*spin_hint)(struct hs_runner *r);
	/* the GIC CPU interface, when the backend models its interrupts:
	 * acknowledge (IAR: the INTID, 1023 none), the highest pending
	 * (HPPIR), end (EOIR/DIR), and ICC_SGI1R_EL1 written */
	uint32_t (*gic_ack)(struct hs_runner *r);
	uint32_t (*gic_pending)(const struct hs_runner *r);
	void (*gic_eoi)(struct hs_runner *r, uint32_t intid);
	void (*gic_sgi)(struct hs_runner *r, uint64_t v);
	/* an access Unicorn has no mapping (or too little permission) for:
	 * HS_FAULT_MAPPED when the backend mapped it (the access goes on),
	 * HS_FAULT_ABORT when the guest takes an abort for it (the run
	 * stops and take_abort enters it), HS_FAULT_NONE: a fault reported */
	int (*fault)(struct hs_runner *r, int type, uint64_t addr, int size);
	/* the abort fault() asked for: exception entry, pc written (1), or 0 */
	int (*take_abort)(struct hs_runner *r);
	/* tlbi (EL1) with Xt's value, and the dsb that completes it */
	void (*tlbi)(struct hs_runner *r, uint32_t word, uint64_t xt);
	void (*dsb)(struct hs_runner *r);
	void (*free)(struct hs_runner *r);
};

struct hs_runner {
	uc_engine *uc;
	uint64_t zva_len;	/* DCZID_EL0's block, bytes (0: dc zva prohibited) */
	const struct hs_backend *be;	/* never NULL */
	void *bes;			/* the backend's own state */
	const struct hs_image *img;
	uint8_t *mem;		/* patched image memory (mapped) */
	const struct hs_core *core;
	uint8_t *heap, *harness, *exitpage;
	uint64_t heap_used, harness_used, setup_stack;
	uint64_t user_exit;	/* user VA of the sentinel page */

	struct hs_hookfn fns[HS_MAX_HOOKFNS];
	unsigned nfns;
	uint64_t fn_lo, fn_hi;

	struct hs_dcache dc;
	long dc_last;			/* the last instruction's index in dc (decoded()) */
	/* per dc entry: what the code hook does for it beyond tracing
	 * (hooks.c, HK_*: most instructions nothing - one test) */
	uint8_t *kind;
	size_t nkind;
	/* the stubs' and shims' addresses, hashed: most pcs are not one */
	uint64_t fn_bloom[4];
	uc_hook h_code, h_mem;
	int hooks_off;		/* bare mode (benchmarks) */

	/* backend events (hooks.c asks cheaply, the backend decides) */
	uint64_t next_event;		/* icount; UINT64_MAX: none */
	uint64_t warp_lo, warp_hi;	/* pc range of the backend's stop sites; lo > hi: none */
	uint32_t next_flags;		/* HS_T_* for the next traced record (an exception entry) */
	int tlb_stale;			/* a tlbi ran: the backend's dsb hook is due */

	/* the current run */
	struct hs_trace *tr;
	int tracing;
	uint64_t trace_from;
	uint64_t icount, budget, budget_end;
	uint64_t stop_pc, stop_sp_min, stop_mm;
	unsigned stop_hits_left;
	int reached_stop;
	char stop_msg[1024];
	char warn_msg[256];	/* the last __warn_printk() text (kmsg.c) */
	uint64_t cstack[HS_CSTACK];
	int csp;

	/* a saved state to return to (hs_rt_snapshot / hs_rt_restore) */
	struct {
		int valid;
		uc_context *regs;
		uint8_t *mem, *heap, *harness;
		uint64_t heap_used, harness_used, icount;
		unsigned nfns;
		uint32_t gic_pending;
		uint64_t icc[4];
	} snap;

	/* code that must not run (pending runtime constants): [lo, hi) + why */
	struct { uint64_t lo, hi; char why[240]; } poison[128];
	unsigned npoison;
	uint64_t poison_lo, poison_hi;	/* hull of all of them */

	/* emulated GICv3 CPU interface */
	uint32_t gic_pending;
	uint64_t icc_pmr, icc_bpr1, icc_ctlr, icc_igrpen1;
	unsigned gic_eois;
};

void hs_rt_stop(struct hs_runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A runner with Unicorn, hooks, system registers and kmsg shims, and no
 * memory mapped yet (runner.c; hs_runner_new and hs_runner_booted). */
struct hs_runner *hs_rt_new_common(const struct hs_image *img, const struct hs_core *core);

/* the hooks (hooks.c; the code and memory ones re-added by bare mode) */
void hs_rt_on_code(uc_engine *uc, uint64_t pc, uint32_t size, void *ud);
void hs_rt_on_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ud);
bool hs_rt_on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ud);
void hs_rt_on_intr(uc_engine *uc, uint32_t intno, void *ud);
uint32_t hs_rt_on_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud);
uint32_t hs_rt_on_msr(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud);
uint32_t hs_rt_on_sys(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud);

/* A stub or shim at addr: its bit in fn_bloom (a pc whose bit is clear is
 * none of them). */
static inline unsigned hs_rt_bloom_bit(uint64_t pc)
{
	return (unsigned)((pc >> 2) ^ (pc >> 10)) & 255;
}
static inline void hs_rt_bloom_add(struct hs_runner *r, uint64_t addr)
{
	unsigned b = hs_rt_bloom_bit(addr);

	r->fn_bloom[b >> 6] |= 1ULL << (b & 63);
}

/* sysreg.c */
void hs_rt_sysreg_init(struct hs_runner *r);
uint32_t hs_rt_sysreg_hook(struct hs_runner *r, uc_engine *uc, uc_arm64_reg rt,
			   const uc_arm64_cp_reg *cp, int write);
int hs_rt_emulate_sysreg(struct hs_runner *r, uint64_t pc, uint32_t word);
int hs_rt_firmware_call(struct hs_runner *r);

/* kmsg.c */
int hs_kmsg_install(struct hs_runner *r);
void hs_kmsg_trap(struct hs_runner *r, uint64_t pc, const char *stack, char *out, size_t len);

#endif
