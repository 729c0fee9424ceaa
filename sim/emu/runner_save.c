/*
 * runner_save.c - returning a runner to a saved state (so one Unicorn
 * instance, with its translated code, serves many runs), and the bare mode
 * benchmarks use to measure Unicorn without hotsim's hooks.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/runner_internal.h"

/*
 * Save everything a run can change: registers, the image copy, the used
 * part of the heap, the harness page, the instruction count (counters are
 * derived from it, so a path's result must not depend on what ran before),
 * the GIC state and the stub table. Translated code is kept: reusing it is
 * the point of restoring instead of starting a new runner.
 */
int hs_rt_snapshot(struct hs_runner *r)
{
	if (!r->snap.regs && uc_context_alloc(r->uc, &r->snap.regs) != UC_ERR_OK)
		return hs_fail("unicorn: cannot allocate a context");
	free(r->snap.mem);
	free(r->snap.heap);
	free(r->snap.harness);
	r->snap.mem = hs_malloc(r->img->span);
	r->snap.heap = hs_malloc(r->heap_used ? r->heap_used : 1);
	r->snap.harness = hs_malloc(r->harness_used ? r->harness_used : 1);
	if (!r->snap.mem || !r->snap.heap || !r->snap.harness)
		return -1;
	if (uc_context_save(r->uc, r->snap.regs) != UC_ERR_OK)
		return hs_fail("unicorn: cannot save the context");
	memcpy(r->snap.mem, r->mem, r->img->span);
	memcpy(r->snap.heap, r->heap, r->heap_used);
	memcpy(r->snap.harness, r->harness, r->harness_used);
	r->snap.heap_used = r->heap_used;
	r->snap.harness_used = r->harness_used;
	r->snap.icount = r->icount;
	r->snap.nfns = r->nfns;
	r->snap.gic_pending = r->gic_pending;
	r->snap.icc[0] = r->icc_pmr;
	r->snap.icc[1] = r->icc_bpr1;
	r->snap.icc[2] = r->icc_ctlr;
	r->snap.icc[3] = r->icc_igrpen1;
	r->snap.valid = 1;
	return 0;
}

int hs_rt_restore(struct hs_runner *r)
{
	if (!r->snap.valid)
		return hs_fail("runner: no snapshot to restore");
	if (uc_context_restore(r->uc, r->snap.regs) != UC_ERR_OK)
		return hs_fail("unicorn: cannot restore the context");
	memcpy(r->mem, r->snap.mem, r->img->span);
	memcpy(r->heap, r->snap.heap, r->snap.heap_used);
	memcpy(r->harness, r->snap.harness, r->snap.harness_used);
	r->heap_used = r->snap.heap_used;
	r->harness_used = r->snap.harness_used;
	r->icount = r->snap.icount;
	r->nfns = r->snap.nfns;
	r->fn_lo = r->fn_hi = 0;
	memset(r->fn_bloom, 0, sizeof(r->fn_bloom));
	for (unsigned i = 0; i < r->nfns; i++) {
		if (!i || r->fns[i].addr < r->fn_lo)
			r->fn_lo = r->fns[i].addr;
		if (!i || r->fns[i].addr > r->fn_hi)
			r->fn_hi = r->fns[i].addr;
		hs_rt_bloom_add(r, r->fns[i].addr);
	}
	r->gic_pending = r->snap.gic_pending;
	r->icc_pmr = r->snap.icc[0];
	r->icc_bpr1 = r->snap.icc[1];
	r->icc_ctlr = r->snap.icc[2];
	r->icc_igrpen1 = r->snap.icc[3];
	return 0;
}

int hs_rt_bare(struct hs_runner *r, int on)
{
	/* Unicorn retranslates when hooks change: switch once, run many times */
	if (on && r->hooks_off == 0) {
		uc_hook_del(r->uc, r->h_code);
		uc_hook_del(r->uc, r->h_mem);
		r->hooks_off = 1;
	} else if (!on && r->hooks_off) {
		if (uc_hook_add(r->uc, &r->h_code, UC_HOOK_CODE, (void *)hs_rt_on_code, r, 1, 0) ||
		    uc_hook_add(r->uc, &r->h_mem, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)hs_rt_on_mem, r, 1, 0))
			return hs_fail("unicorn: cannot reinstall hooks");
		r->hooks_off = 0;
	}
	return 0;
}

int hs_rt_run_bare(struct hs_runner *r, uint64_t pc, uint64_t until)
{
	uc_err e;

	if (!r->hooks_off)
		return hs_fail("bare run with hooks installed (call hs_rt_bare first)");
	r->stop_msg[0] = 0;
	e = uc_emu_start(r->uc, pc, until, 0, 0);	/* a timeout costs a thread per run */
	if (e != UC_ERR_OK || r->stop_msg[0])
		return hs_fail("bare run: %s", r->stop_msg[0] ? r->stop_msg : uc_strerror(e));
	if (hs_rt_reg(r, UC_ARM64_REG_PC) != until)
		return hs_fail("bare run stopped before 0x%llx", (unsigned long long)until);
	return 0;
}
