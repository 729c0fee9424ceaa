/*
 * backend_booted.c - the runner over a booted kernel's snapshot (see
 * backend_booted.h): the guest's RAM and where its addresses are, the
 * undo log that returns RAM to a point between runs, the overlay, the
 * registers, and entering a point. The mappings its page tables give are
 * booted_maps.c, misses and page faults booted_mmu.c, exceptions
 * booted_exc.c, time and the GIC booted_timer.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/booted_internal.h"
#include "emu/ptwalk.h"

/* RAM's unit here (the undo log, the console's page): the snapshot's
 * page and Unicorn's, whatever the guest's granule (that is ptwalk.c's) */
#define PAGE 4096ULL

/* --- memory -------------------------------------------------------------- */

/* RAM offset of a virtual address, or -1 (kernel runs are sorted by the
 * walk; user runs too, both walks visit addresses in order). */
static int64_t offset_of(struct hs_booted *bt, uint64_t va)
{
	const struct bt_run *run = hs_bt_find_run(&bt->kernel, va);

	if (!run)
		run = hs_bt_find_run(&bt->user, va);
	if (!run)
		return -1;
	return (int64_t)(run->pa - bt->ram_base + (va - run->va));
}

static void *host_of(struct hs_booted *bt, uint64_t va, uint64_t len)
{
	int64_t off = offset_of(bt, va);

	if (off < 0 || (uint64_t)off + len > bt->ram_size)
		return NULL;
	if (len && offset_of(bt, va + len - 1) != off + (int64_t)len - 1)
		return NULL;	/* crosses into another run */
	return bt->ram + off;
}

/* Log the page's first write since the last enter. */
int hs_bt_save_page(struct hs_booted *bt, uint64_t pfn)
{
	if (bt->saved[pfn >> 3] & (1u << (pfn & 7)))
		return 0;
	if (bt->nundo == bt->capundo) {
		size_t cap = bt->capundo ? 2 * bt->capundo : 1024;
		void *p = realloc(bt->undo_pfn, cap * sizeof(*bt->undo_pfn));

		if (!p)
			return hs_fail("out of memory for the undo log");
		bt->undo_pfn = p;
		bt->capundo = cap;
	}
	bt->saved[pfn >> 3] |= (uint8_t)(1u << (pfn & 7));
	bt->undo_pfn[bt->nundo++] = (uint32_t)pfn;
	return 0;
}

/* The sealed content of page pfn, NULL when the overlay did not seal it. */
static const uint8_t *sealed(const struct hs_booted *bt, uint64_t pfn)
{
	for (size_t i = 0; i < bt->nsealed && bt->sealed_data; i++)
		if (bt->sealed_pfn[i] == pfn)
			return bt->sealed_data + i * PAGE;
	return NULL;
}

/* The pristine content of page pfn: as the overlay sealed it, else the
 * snapshot's first point (its pages sorted by pfn), else zero. */
static const uint8_t *pristine(const struct hs_booted *bt, uint64_t pfn)
{
	static const uint8_t zero[PAGE];
	const struct hs_snap *snap = bt->snap;
	const uint8_t *sp = sealed(bt, pfn);
	uint32_t lo = 0, hi = bt->npoint0;

	if (sp)
		return sp;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (snap->pages[mid].pfn < pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < bt->npoint0 && snap->pages[lo].pfn == pfn)
		return snap->data + (size_t)lo * PAGE;
	return zero;
}

static void written(struct hs_runner *r, uint64_t va, uint64_t len)
{
	struct hs_booted *bt = bt_of(r);
	/* the RAM's owner undoes what every CPU of the machine wrote */
	struct hs_booted *log = bt->owner ? bt->owner : bt;

	for (uint64_t p = va & ~(PAGE - 1); p < va + len; p += PAGE) {
		int64_t off = offset_of(bt, p);

		if (off >= 0 && hs_bt_save_page(log, (uint64_t)off / PAGE))
			hs_rt_stop(r, "%s", hs_errmsg());
	}
}

/*
 * Every page the last run wrote gets its pristine content back by a copy.
 * Dropping a page of the mapped snapshot instead (MADV_DONTNEED, the file's
 * content comes back by itself) was a system call and a TLB flush a page,
 * then a fault to read it and another to write it in the next op: about
 * 5% of a cached compare's CPU time. The snapshot's own pages
 * the copies read are let go once after (one call), so the peak RSS does
 * not grow.
 */
static void undo(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	for (size_t i = 0; i < bt->nundo; i++) {
		uint64_t pfn = bt->undo_pfn[i];
		memcpy(bt->ram + pfn * PAGE, pristine(bt, pfn), PAGE);
		bt->saved[pfn >> 3] &= (uint8_t)~(1u << (pfn & 7));
	}
	if (bt->nundo)
		hs_snap_release(bt->snap);	/* the pages read back */
	bt->nundo = 0;
}

/* --- registers --------------------------------------------------------- */

void hs_bt_set_cp(struct hs_runner *r, int op0, int op1, int crn, int crm, int op2, uint64_t v)
{
	uc_arm64_cp_reg cp = { .crn = (uint32_t)crn, .crm = (uint32_t)crm, .op0 = (uint32_t)op0,
			       .op1 = (uint32_t)op1, .op2 = (uint32_t)op2, .val = v };

	uc_reg_write(r->uc, UC_ARM64_REG_CP_REG, &cp);
}

/* SPSR_EL1 has no Unicorn register id: by encoding */
uint64_t hs_bt_get_spsr(struct hs_runner *r)
{
	uc_arm64_cp_reg cp = { .crn = 4, .crm = 0, .op0 = 3, .op1 = 0, .op2 = 0 };

	uc_reg_read(r->uc, UC_ARM64_REG_CP_REG, &cp);
	return cp.val;
}

static void set_regs(struct hs_runner *r, const struct hs_snap_regs *s, uint64_t pc)
{
	struct hs_booted *bt = bt_of(r);
	int user = (s->pstate & 0xf) == 0;

	for (unsigned i = 0; i < 31; i++)
		hs_rt_set_x(r, i, s->x[i]);
	for (int i = 0; i < 32; i++) {
		uint8_t v[16];	/* Unicorn 2.0.1 takes the 128 bits as bytes */

		memcpy(v, s->v[i], 16);
		uc_reg_write(r->uc, UC_ARM64_REG_V0 + i, v);
	}
	hs_rt_set_reg(r, UC_ARM64_REG_FPCR, s->fpcr);
	hs_rt_set_reg(r, UC_ARM64_REG_FPSR, s->fpsr);
	hs_rt_set_reg(r, UC_ARM64_REG_ELR_EL1, s->elr);
	hs_bt_set_cp(r, 3, 0, 4, 0, 0, s->spsr);	/* SPSR_EL1 */
	hs_rt_set_reg(r, UC_ARM64_REG_ESR_EL1, s->esr);
	hs_rt_set_reg(r, UC_ARM64_REG_FAR_EL1, s->far);
	hs_rt_set_reg(r, UC_ARM64_REG_VBAR_EL1, bt->vbar ? bt->vbar : s->vbar);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDR_EL1, s->tpidr_el1);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDR_EL0, s->tpidr_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDRRO_EL0, s->tpidrro_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_TTBR0_EL1, s->ttbr0);
	hs_rt_set_reg(r, UC_ARM64_REG_TTBR1_EL1, s->ttbr1);
	hs_rt_set_reg(r, UC_ARM64_REG_MAIR_EL1, s->mair);
	hs_rt_set_reg(r, UC_ARM64_REG_CPACR_EL1, s->cpacr);
	hs_bt_set_cp(r, 3, 0, 2, 0, 2, s->tcr);		/* TCR_EL1 */
	hs_bt_set_cp(r, 3, 0, 1, 0, 0, s->sctlr & ~1ULL);	/* SCTLR_EL1, MMU off */
	hs_bt_set_cp(r, 3, 0, 13, 0, 1, s->contextidr);	/* CONTEXTIDR_EL1 */
	hs_bt_set_cp(r, 3, 0, 14, 1, 0, s->cntkctl);		/* CNTKCTL_EL1 */
	/* banked stack pointers, then the level, then the live one: the host
	 * writes do not move SP between banks (backend_booted.h) */
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL0, s->sp_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL1, s->sp_el1);
	hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, user ? (s->pstate & ~0xfULL) | 4 : s->pstate);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, user ? s->sp_el0 : s->sp_el1);
	bt->sp_el1 = s->sp_el1;
	hs_rt_set_reg(r, UC_ARM64_REG_PC, pc);
}

/* --- the runner ------------------------------------------------------------ */

static void *host(struct hs_runner *r, uint64_t va, uint64_t len)
{
	return host_of(bt_of(r), va, len);
}

static void code_seen(struct hs_runner *r, uint64_t pc)
{
	struct hs_booted *bt = bt_of(r);
	int64_t off = offset_of(bt, pc);

	if (off >= 0)
		bt->codepg[off / PAGE / 8] |= (uint8_t)(1u << ((off / PAGE) & 7));
}

/* dc zva of a kernel block Unicorn maps writable, on a page no code was
 * run from: zeroed (the user half's pages are mapped and marked accessed
 * when first touched, booted_mmu.c: Unicorn's way). The code hook has
 * logged the block's 512 bytes as written already (hooks.c), before the
 * instruction ran. */
static int zero(struct hs_runner *r, uint64_t va, uint64_t len)
{
	struct hs_booted *bt = bt_of(r);
	const struct bt_run *run = (va >> 63) ? hs_bt_find_run(&bt->kernel, va) : NULL;
	uint64_t off;

	if (len > 512 || !run || !(run->prot & UC_PROT_WRITE) || va + len - run->va > run->len)
		return 0;
	off = run->pa - bt->ram_base + (va - run->va);
	if (off + len > bt->ram_size || (bt->codepg[off / PAGE / 8] & (1u << ((off / PAGE) & 7))))
		return 0;
	memset(bt->ram + off, 0, len);
	return 1;
}

static void booted_free(struct hs_runner *r);

static void at_warp(struct hs_runner *r, uint64_t pc)
{
	const struct hs_booted *bt = bt_of(r);

	for (int i = 0; i < 4; i++)
		if (bt->spec.warp[i] == pc) {
			hs_bt_warp(r);
			return;
		}
	if (bt->spec.range_begin)
		hs_bt_range_mark(r, pc);
}

/* Widen [warp_lo, warp_hi] to hold w (the hook's one range check). */
static void watch(struct hs_runner *r, uint64_t w)
{
	if (!w)
		return;
	if (w < r->warp_lo || r->warp_lo > r->warp_hi)
		r->warp_lo = w;
	if (w > r->warp_hi)
		r->warp_hi = w;
}

static const struct hs_backend booted_backend = {
	.name = "booted",
	.host = host,
	.written = written,
	.zero = zero,
	.code_seen = code_seen,
	.svc = hs_bt_svc_entry,
	.el0_sysreg = hs_bt_el0_sysreg,
	.eret = hs_bt_eret,
	.sysreg = hs_bt_sysreg,
	.event = hs_bt_event,
	.at_warp = at_warp,
	.wfx = hs_bt_wfx,
	.spin_hint = hs_bt_spin_hint,
	.gic_ack = hs_bt_gic_ack,
	.gic_pending = hs_bt_pending,
	.gic_eoi = hs_bt_gic_eoi,
	.gic_sgi = hs_bt_gic_sgi,
	.fault = hs_bt_fault,
	.take_abort = hs_bt_take_abort,
	.tlbi = hs_bt_tlbi,
	.dsb = hs_bt_dsb,
	.free = booted_free,
};

struct hs_runner *hs_runner_booted(const struct hs_image *img, const struct hs_snap *snap,
				   const struct hs_core *core)
{
	struct hs_runner *r = hs_rt_new_common(img, core);
	struct hs_booted *bt;
	const struct hs_snap_regs *s0 = &snap->pts[0].regs;

	if (!r)
		return NULL;
	if (!(bt = r->bes = hs_calloc(1, sizeof(*bt))))
		goto fail;
	r->be = &booted_backend;
	snprintf(bt->what, sizeof(bt->what), "%s (booted on %s)", img->path, snap->h.cpu);
	bt->snap = snap;
	bt->ram_base = snap->h.ram_base;
	bt->ram_size = snap->h.ram_size;
	bt->tcr = s0->tcr;
	bt->ram = mmap(NULL, bt->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bt->ram == MAP_FAILED) {
		bt->ram = NULL;
		hs_fail("out of memory for the guest RAM (%llu MiB)", (unsigned long long)(bt->ram_size >> 20));
		goto fail;
	}
	bt->saved = hs_calloc(bt->ram_size / PAGE / 8 + 1, 1);
	bt->codepg = hs_calloc(bt->ram_size / PAGE / 8 + 1, 1);
	if (!bt->saved || !bt->codepg)
		goto fail;
	if (!hs_snap_map_point0(snap, bt->ram))
		hs_snap_fill_ram(snap, 0, bt->ram);
	while (bt->npoint0 < snap->h.npages && snap->pages[bt->npoint0].point == 0)
		bt->npoint0++;
	if (hs_bt_map_first(r, s0->ttbr1) || hs_bt_set_user(r, s0->ttbr0, 1))
		goto fail;
	if (!bt->kernel.n) {
		hs_fail("%s: TTBR1_EL1 maps nothing", bt->what);
		goto fail;
	}
	bt->cntfrq = s0->cntfrq ? s0->cntfrq : 62500000;
	bt->point = -1;
	return r;
fail:
	hs_runner_free(r);
	return NULL;
}

/* Page pfn is part of the sealed state (kept as it is when sealed). */
static int seal_page(struct hs_booted *bt, uint32_t pfn)
{
	void *np;

	for (size_t i = 0; i < bt->nsealed; i++)
		if (bt->sealed_pfn[i] == pfn)
			return 0;
	if (!(np = realloc(bt->sealed_pfn, (bt->nsealed + 1) * sizeof(*bt->sealed_pfn))))
		return hs_fail("out of memory");
	bt->sealed_pfn = np;
	bt->sealed_pfn[bt->nsealed++] = pfn;
	return 0;
}

int hs_bt_patch(struct hs_runner *r, uint64_t va, const void *bytes, size_t len)
{
	struct hs_booted *bt = bt_of(r);
	uint8_t *p = host_of(bt, va, len);

	if (!p)
		return hs_fail("%s: overlay at 0x%llx outside the mapped kernel", bt->what,
			       (unsigned long long)va);
	memcpy(p, bytes, len);
	for (uint64_t a = va & ~(PAGE - 1); a < va + len; a += PAGE)
		if (seal_page(bt, (uint32_t)((uint64_t)offset_of(bt, a) / PAGE)))
			return -1;
	return 0;
}

int hs_bt_seal(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	/* the overlay was written through host pointers, not logged: it
	 * stays, and the log starts empty; its pages - and any page written
	 * before (logged) - are the pristine RAM's from now on (undo) */
	for (size_t i = 0; i < bt->nundo; i++)
		if (seal_page(bt, bt->undo_pfn[i]))
			return -1;
	bt->nundo = 0;
	memset(bt->saved, 0, bt->ram_size / PAGE / 8 + 1);
	free(bt->sealed_data);
	bt->sealed_data = malloc(bt->nsealed * PAGE + 1);
	if (!bt->sealed_data)
		return hs_fail("out of memory");
	for (size_t i = 0; i < bt->nsealed; i++)
		memcpy(bt->sealed_data + i * PAGE, bt->ram + (uint64_t)bt->sealed_pfn[i] * PAGE, PAGE);
	return 0;
}

/* A CPU at point k with the registers s (the point's own, or another
 * CPU's of the machine: its RAM entered by the first runner). */
int hs_bt_enter_cpu(struct hs_runner *r, unsigned k, const struct hs_snap_regs *s)
{
	struct hs_booted *bt = bt_of(r);

	/* each point's tables are its own: walk both halves again */
	if (hs_bt_set_kernel(r, s->ttbr1) || hs_bt_set_user(r, s->ttbr0, 1))
		return -1;
	hs_bt_uart_idle(bt);	/* whatever the last run wrote */
	set_regs(r, s, s->pc);
	bt->point = (int)k;
	/* alone until hs_bt_machine() joins it to the machine entered next
	 * (the last machine's runner array is its caller's, gone) */
	bt->cpus = NULL;
	bt->ncpus = bt->self = 0;
	/* the guest stopped at the point: QEMU resumes it at its next timer
	 * deadline (the point's counter is its CNTV_CVAL), so the tick comes
	 * at once */
	bt->counter0 = s->counter;
	bt->phase0 = 0;
	bt->icount0 = r->icount;
	bt->cval = s->cntv_cval;
	bt->ctl = s->cntv_ctl & 3;
	bt->timer_active = 0;
	bt->sgi_pending = bt->sgi_active = 0;
	bt->halted = bt->yielded = bt->kicked = bt->fired = bt->woke_set = 0;
	bt->yield_at = NO_EVENT;
	memset(&bt->counts, 0, sizeof(bt->counts));
	memset(&bt->abort, 0, sizeof(bt->abort));
	bt->stale = bt->nreprot = 0;
	r->tlb_stale = 0;
	hs_bt_ops_reset(bt);
	r->next_flags = 0;
	hs_bt_next_event(r);
	/* pages a previous run wrote may hold code Unicorn translated */
	uc_ctl_remove_cache(r->uc, 0, ~0ULL);
	return 0;
}

int hs_bt_enter(struct hs_runner *r, unsigned k)
{
	struct hs_booted *bt = bt_of(r);
	const struct hs_snap *snap = bt->snap;
	const struct hs_snap_regs *s = &snap->pts[k].regs;

	if (k >= snap->h.npoints)
		return hs_fail("%s: no point %u in the snapshot", bt->what, k);
	undo(r);
	/* point k's own pages, logged so the next enter undoes them too */
	for (uint32_t i = 0; i < snap->h.npages; i++)
		if (snap->pages[i].point == (uint32_t)k && k != 0) {
			uint64_t pfn = snap->pages[i].pfn;

			if (hs_bt_save_page(bt, pfn))
				return -1;
			memcpy(bt->ram + pfn * PAGE, snap->data + (size_t)i * PAGE, PAGE);
		}
	return hs_bt_enter_cpu(r, k, s);
}

void hs_bt_set_vbar(struct hs_runner *r, uint64_t vbar)
{
	bt_of(r)->vbar = vbar;
}

uint64_t hs_bt_pa(struct hs_runner *r, uint64_t va)
{
	int64_t off = offset_of(bt_of(r), va);

	return off < 0 ? 0 : bt_of(r)->ram_base + (uint64_t)off;
}

void hs_bt_set_ops(struct hs_runner *r, const struct hs_bt_opspec *spec)
{
	struct hs_booted *bt = bt_of(r);

	bt->spec = *spec;
	r->warp_lo = 1;
	r->warp_hi = 0;
	for (int i = 0; i < 4; i++)
		watch(r, spec->warp[i]);
	watch(r, spec->range_begin);
	for (int i = 0; i < 8; i++)
		watch(r, spec->range_end[i]);
}

const struct hs_bt_op *hs_bt_ops(const struct hs_runner *r, unsigned *n)
{
	*n = bt_of(r)->nops;
	return bt_of(r)->ops;
}

static void booted_free(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if (!bt)
		return;
	r->bes = NULL;
	if (bt->ram && !bt->owner)
		munmap(bt->ram, bt->ram_size);
	free(bt->kernel.v);
	free(bt->user.v);
	free(bt->uart);
	free(bt->saved);
	free(bt->undo_pfn);
	free(bt->codepg);
	free(bt->sealed_pfn);
	free(bt->sealed_data);
	free(bt->ops);
	free(bt);
}

struct hs_runner *hs_runner_booted_peer(struct hs_runner *first, const struct hs_core *core)
{
	const struct hs_booted *f = bt_of(first);
	struct hs_runner *r = hs_rt_new_common(first->img, core);
	struct hs_booted *bt;
	const struct hs_snap_regs *s0 = &f->snap->pts[0].regs;

	if (!r)
		return NULL;
	if (!(bt = r->bes = hs_calloc(1, sizeof(*bt))))
		goto fail;
	r->be = &booted_backend;
	snprintf(bt->what, sizeof(bt->what), "%s", f->what);
	bt->snap = f->snap;
	bt->ram_base = f->ram_base;
	bt->ram_size = f->ram_size;
	bt->tcr = f->tcr;
	bt->ram = f->ram;
	bt->owner = bt_of(first);
	bt->vbar = f->vbar;
	bt->saved = hs_calloc(bt->ram_size / PAGE / 8 + 1, 1);
	bt->codepg = hs_calloc(bt->ram_size / PAGE / 8 + 1, 1);
	if (!bt->saved || !bt->codepg)
		goto fail;
	bt->npoint0 = f->npoint0;
	if (hs_bt_map_first(r, s0->ttbr1) || hs_bt_set_user(r, s0->ttbr0, 1))
		goto fail;
	bt->cntfrq = f->cntfrq;
	bt->point = -1;
	return r;
fail:
	hs_runner_free(r);
	return NULL;
}

void hs_bt_machine(struct hs_runner **cpus, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		bt_of(cpus[i])->cpus = cpus;
		bt_of(cpus[i])->ncpus = n;
		bt_of(cpus[i])->self = i;
	}
	/* one clock from the point's counter: every CPU's instructions */
	for (unsigned i = 0; i < n; i++)
		hs_bt_machine_clock(cpus[i]);
}

void hs_bt_set_gic(struct hs_runner *r, uint32_t pending, uint32_t active)
{
	struct hs_booted *bt = bt_of(r);

	bt->sgi_pending = pending & 0xffffu;
	bt->sgi_active = active & 0xffffu;
	bt->timer_active = !!(active & (1u << TIMER_INTID));
	hs_bt_next_event(r);
}

int hs_bt_halted(const struct hs_runner *r)
{
	return bt_of(r)->halted;
}

void hs_bt_halt(struct hs_runner *r)
{
	bt_of(r)->halted = 1;
	bt_of(r)->woke_set = 0;
}

int hs_bt_woken_by(const struct hs_runner *r, unsigned *from, uint64_t *at)
{
	const struct hs_booted *bt = bt_of(r);

	*from = bt->woke_from;
	*at = bt->woke_at;
	return bt->woke_set;
}

void hs_bt_set_clock(struct hs_runner *r, uint64_t ns)
{
	struct hs_booted *bt = bt_of(r);

	uint64_t period = 1000000000ULL / bt->cntfrq;	/* QEMU 7.2: 16 ns */

	bt->counter0 = ns / period;
	bt->phase0 = ns % period;
	hs_bt_next_event(r);
}

int hs_bt_yielded(const struct hs_runner *r)
{
	return bt_of(r)->yielded;
}

void hs_bt_resume(struct hs_runner *r)
{
	bt_of(r)->halted = bt_of(r)->yielded = 0;
	hs_bt_next_event(r);	/* the others' instructions moved the clock */
}

void hs_bt_counts(const struct hs_runner *r, struct hs_bt_counts *c)
{
	*c = bt_of(r)->counts;
}
