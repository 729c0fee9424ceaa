/*
 * runner.c - the runner's lifecycle (see runner.h): Unicorn set-up, the
 * flat backend's memory (the patched image, hotsim's heap, harness and
 * sentinel pages), registers, stubs and shims, runs and calls. What
 * happens during a run is hooks.c; the booted backend is backend_booted.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "a64/encode.h"
#include "emu/runner.h"
#include "emu/runner_internal.h"

#define PAGE 4096ULL

const struct hs_image *hs_rt_image(const struct hs_runner *r) { return r->img; }
struct hs_dcache *hs_rt_dcache(struct hs_runner *r) { return &r->dc; }
uint64_t hs_rt_icount(const struct hs_runner *r) { return r->icount; }

void hs_rt_uncount(struct hs_runner *r)
{
	if (r->icount)
		r->icount--;
}
uint64_t hs_rt_user_exit(const struct hs_runner *r) { return r->user_exit; }

uint64_t hs_rt_reg(struct hs_runner *r, int reg)
{
	uint64_t v = 0;

	uc_reg_read(r->uc, reg, &v);
	return v;
}

void hs_rt_set_reg(struct hs_runner *r, int reg, uint64_t v)
{
	uc_reg_write(r->uc, reg, &v);
}

void hs_rt_set_cp(struct hs_runner *r, struct uc_arm64_cp_reg *cp)
{
	uc_reg_write(r->uc, UC_ARM64_REG_CP_REG, cp);
}

/* Unicorn's id of Xn (0..30; 31 is XZR). The one map: UC_ARM64_REG_X0 + n
 * holds only up to X28 - X29 and X30 (FP, LR) sit elsewhere in Unicorn's
 * enum, and X0 + 29 is V0. */
static int hs_uc_xreg(unsigned n)
{
	return n <= 28 ? UC_ARM64_REG_X0 + (int)n : n == 29 ? UC_ARM64_REG_X29 :
	       n == 30 ? UC_ARM64_REG_X30 : UC_ARM64_REG_XZR;
}

uint64_t hs_rt_x(struct hs_runner *r, unsigned n)
{
	return n < 31 ? hs_rt_reg(r, hs_uc_xreg(n)) : 0;
}

void hs_rt_set_x(struct hs_runner *r, unsigned n, uint64_t v)
{
	if (n < 31)
		hs_rt_set_reg(r, hs_uc_xreg(n), v);
}

void *hs_rt_host(struct hs_runner *r, uint64_t va, uint64_t len)
{
	return r->be->host(r, va, len);
}

/* The flat backend: the image copy, the heap and the harness page. */
static void *flat_host(struct hs_runner *r, uint64_t va, uint64_t len)
{
	if (va >= HS_HEAP_VA && va - HS_HEAP_VA <= HS_HEAP_SIZE && len <= HS_HEAP_SIZE - (va - HS_HEAP_VA))
		return r->heap + (va - HS_HEAP_VA);
	if (va >= HS_HARNESS_VA && va - HS_HARNESS_VA <= HS_HARNESS_SIZE &&
	    len <= HS_HARNESS_SIZE - (va - HS_HARNESS_VA))
		return r->harness + (va - HS_HARNESS_VA);
	return hs_at(r->img, r->mem, va, len);
}

int hs_rt_read64(struct hs_runner *r, uint64_t va, uint64_t *v)
{
	void *p = hs_rt_host(r, va, 8);

	if (!p)
		return hs_fail("read of unmapped 0x%llx", (unsigned long long)va);
	memcpy(v, p, 8);
	return 0;
}

int hs_rt_write64(struct hs_runner *r, uint64_t va, uint64_t v)
{
	void *p = hs_rt_host(r, va, 8);

	if (!p)
		return hs_fail("write to unmapped 0x%llx", (unsigned long long)va);
	memcpy(p, &v, 8);
	return 0;
}

int hs_rt_write32(struct hs_runner *r, uint64_t va, uint32_t v)
{
	void *p = hs_rt_host(r, va, 4);

	if (!p)
		return hs_fail("write to unmapped 0x%llx", (unsigned long long)va);
	memcpy(p, &v, 4);
	return 0;
}

uint64_t hs_rt_alloc(struct hs_runner *r, uint64_t size, uint64_t align)
{
	uint64_t at;

	if (!align)
		align = 16;
	at = (r->heap_used + align - 1) & ~(align - 1);
	if (at > HS_HEAP_SIZE || size > HS_HEAP_SIZE - at) {
		hs_fail("emulator heap exhausted (%llu bytes asked, %llu MiB heap)",
			(unsigned long long)size, (unsigned long long)(HS_HEAP_SIZE >> 20));
		return 0;
	}
	r->heap_used = at + size;
	memset(r->heap + at, 0, size);
	return HS_HEAP_VA + at;
}

uint64_t hs_rt_harness(struct hs_runner *r, const uint32_t *insns, unsigned n)
{
	uint64_t at = r->harness_used;

	if (at + 4ULL * n > HS_HARNESS_SIZE) {
		hs_fail("harness page full");
		return 0;
	}
	memcpy(r->harness + at, insns, 4ULL * n);
	r->harness_used += 4ULL * n;
	/* Unicorn caches translations: make sure new code is seen */
	uc_ctl_remove_cache(r->uc, HS_HARNESS_VA + at, HS_HARNESS_VA + at + 4ULL * n);
	return HS_HARNESS_VA + at;
}

void hs_rt_code_changed(struct hs_runner *r, uint64_t va, uint64_t len)
{
	uc_ctl_remove_cache(r->uc, va, va + len);
	for (uint64_t pc = va & ~3ULL; pc < va + len; pc += 4) {
		long idx = hs_dcache_find(&r->dc, pc);
		const void *p = hs_rt_host(r, pc, 4);
		uint32_t w;

		if (idx >= 0 && p) {
			memcpy(&w, p, 4);
			a64_decode(w, pc, &r->dc.v[idx].in);
		}
	}
}

int hs_rt_poison(struct hs_runner *r, uint64_t va, uint64_t len, const char *fmt, ...)
{
	va_list ap;

	if (r->npoison == HS_ARRAY_SIZE(r->poison))
		return hs_fail("more than %zu poisoned code ranges", HS_ARRAY_SIZE(r->poison));
	r->poison[r->npoison].lo = va;
	r->poison[r->npoison].hi = va + len;
	va_start(ap, fmt);
	vsnprintf(r->poison[r->npoison].why, sizeof(r->poison[0].why), fmt, ap);
	va_end(ap);
	if (!r->npoison || va < r->poison_lo)
		r->poison_lo = va;
	if (!r->npoison || va + len > r->poison_hi)
		r->poison_hi = va + len;
	r->npoison++;
	return 0;
}

static int add_fn(struct hs_runner *r, uint64_t addr, const char *name, hs_shim_fn fn, void *ctx,
		  uint64_t ret)
{
	struct hs_hookfn *f;

	for (unsigned i = 0; i < r->nfns; i++)
		if (r->fns[i].addr == addr) {
			r->fns[i].fn = fn;
			r->fns[i].ctx = ctx;
			r->fns[i].ret = ret;
			return 0;
		}
	if (r->nfns == HS_MAX_HOOKFNS)
		return hs_fail("too many stubs/shims (%d)", HS_MAX_HOOKFNS);
	f = &r->fns[r->nfns++];
	f->addr = addr;
	f->name = name;
	f->fn = fn;
	f->ctx = ctx;
	f->ret = ret;
	r->fn_lo = r->nfns == 1 || addr < r->fn_lo ? addr : r->fn_lo;
	r->fn_hi = r->nfns == 1 || addr > r->fn_hi ? addr : r->fn_hi;
	hs_rt_bloom_add(r, addr);
	return 0;
}

int hs_rt_stub(struct hs_runner *r, const char *sym, uint64_t ret)
{
	const struct hs_sym *s = hs_sym_spec(r->img, sym, NULL);

	if (!s)
		return 0;	/* not in this image: nothing to stub */
	return add_fn(r, s->addr, s->name, NULL, NULL, ret);
}

int hs_rt_shim(struct hs_runner *r, const char *sym, hs_shim_fn fn, void *ctx, int required)
{
	const struct hs_sym *s = hs_sym_lookup(r->img, sym, NULL);

	if (!s)
		return required ? hs_fail("%s: no function %s to shim", r->img->path, sym) : 0;
	return add_fn(r, s->addr, s->name, fn, ctx, 0);
}

void hs_rt_gic_raise(struct hs_runner *r, uint32_t intid)
{
	r->gic_pending = intid;
}

static int map(struct hs_runner *r, uint64_t va, uint64_t len, void *host)
{
	uc_err e = uc_mem_map_ptr(r->uc, va, len, UC_PROT_ALL, host);

	if (e != UC_ERR_OK)
		return hs_fail("unicorn: cannot map 0x%llx (+0x%llx): %s", (unsigned long long)va,
			       (unsigned long long)len, uc_strerror(e));
	return 0;
}

/*
 * hotsim's own pages must not cover the image. The kernel-half ones are
 * fixed (a kernel links far above them); the user-half exit page goes to
 * the first candidate no segment uses.
 */
static int overlaps_own(struct hs_runner *r)
{
	static const uint64_t user_candidates[] = { 0x400000, 0x10000000, 0x7fff0000000ULL };
	static const struct { uint64_t va, len; const char *what; } own[] = {
		{ HS_HEAP_VA, HS_HEAP_SIZE, "emulator heap" },
		{ HS_HARNESS_VA, HS_HARNESS_SIZE, "harness page" },
		{ HS_EXIT_VA, PAGE, "sentinel page" },
	};
	uint64_t lo = r->img->base, hi = r->img->base + r->img->span;

	for (size_t i = 0; i < HS_ARRAY_SIZE(own); i++)
		if (own[i].va < hi && lo < own[i].va + own[i].len)
			return hs_fail("%s: the image (0x%llx-0x%llx) covers hotsim's %s at 0x%llx",
				       r->img->path, (unsigned long long)lo, (unsigned long long)hi,
				       own[i].what, (unsigned long long)own[i].va);
	for (size_t i = 0; i < HS_ARRAY_SIZE(user_candidates); i++)
		if (user_candidates[i] >= hi || user_candidates[i] + PAGE <= lo) {
			r->user_exit = user_candidates[i];
			return 0;
		}
	return hs_fail("%s: no free user address for hotsim's exit page", r->img->path);
}

static const struct hs_backend flat_backend = {
	.name = "flat",
	.host = flat_host,
};

struct hs_runner *hs_rt_new_common(const struct hs_image *img, const struct hs_core *core)
{
	struct hs_runner *r = hs_calloc(1, sizeof(*r));
	uc_hook h;
	uc_err e;

	if (!r)
		return NULL;
	r->img = img;
	r->core = core;
	r->be = &flat_backend;
	r->next_event = UINT64_MAX;
	r->warp_lo = 1;
	r->warp_hi = 0;
	hs_dcache_init(&r->dc);
	e = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &r->uc);
	if (e != UC_ERR_OK) {
		hs_fail("unicorn: %s", uc_strerror(e));
		goto fail;
	}
	/* before any map or register access (Unicorn 2.0.1) */
	if (uc_ctl_set_cpu_model(r->uc, UC_CPU_ARM64_MAX) != UC_ERR_OK) {
		hs_fail("unicorn: cannot select the MAX cpu model");
		goto fail;
	}
	if (uc_hook_add(r->uc, &r->h_code, UC_HOOK_CODE, (void *)hs_rt_on_code, r, 1, 0) ||
	    uc_hook_add(r->uc, &r->h_mem, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)hs_rt_on_mem, r, 1, 0) ||
	    uc_hook_add(r->uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT, (void *)hs_rt_on_unmapped, r, 1, 0) ||
	    uc_hook_add(r->uc, &h, UC_HOOK_INTR, (void *)hs_rt_on_intr, r, 1, 0) ||
	    uc_hook_add(r->uc, &h, UC_HOOK_INSN, (void *)hs_rt_on_mrs, r, 1, 0, UC_ARM64_INS_MRS) ||
	    uc_hook_add(r->uc, &h, UC_HOOK_INSN, (void *)hs_rt_on_msr, r, 1, 0, UC_ARM64_INS_MSR) ||
	    uc_hook_add(r->uc, &h, UC_HOOK_INSN, (void *)hs_rt_on_sys, r, 1, 0, UC_ARM64_INS_SYS)) {
		hs_fail("unicorn: cannot install hooks");
		goto fail;
	}
	{
		/* DCZID_EL0 (S3_3_C0_C0_7): BS, log2 of the block in words; DZP */
		uc_arm64_cp_reg dczid = { .op0 = 3, .op1 = 3, .crn = 0, .crm = 0, .op2 = 7 };

		if (uc_reg_read(r->uc, UC_ARM64_REG_CP_REG, &dczid) == UC_ERR_OK && !(dczid.val & 0x10))
			r->zva_len = 4ULL << (dczid.val & 0xf);
	}
	hs_rt_sysreg_init(r);
	if (hs_kmsg_install(r))
		goto fail;
	return r;
fail:
	hs_runner_free(r);
	return NULL;
}

struct hs_runner *hs_runner_new(const struct hs_image *img, uint8_t *mem, const struct hs_core *core)
{
	struct hs_runner *r = hs_rt_new_common(img, core);

	if (!r)
		return NULL;
	/* The kernel writes its own image (data, bss): every runner gets a
	 * private copy so runs never see each other's state. */
	if (posix_memalign((void **)&r->mem, PAGE, img->span)) {
		hs_fail("out of memory for the image copy (%llu bytes)", (unsigned long long)img->span);
		goto fail;
	}
	memcpy(r->mem, mem, img->span);
	if (posix_memalign((void **)&r->heap, PAGE, HS_HEAP_SIZE) ||
	    posix_memalign((void **)&r->harness, PAGE, HS_HARNESS_SIZE) ||
	    posix_memalign((void **)&r->exitpage, PAGE, PAGE)) {
		hs_fail("out of memory for the emulator heap");
		goto fail;
	}
	memset(r->harness, 0, HS_HARNESS_SIZE);
	/* the sentinel page holds brk #0xdead in case it is ever executed */
	for (unsigned i = 0; i < PAGE / 4; i++)
		((uint32_t *)r->exitpage)[i] = a64_gen_brk(0xdead);
	if (overlaps_own(r) || map(r, img->base, img->span, r->mem) ||
	    map(r, HS_HEAP_VA, HS_HEAP_SIZE, r->heap) ||
	    map(r, HS_HARNESS_VA, HS_HARNESS_SIZE, r->harness) || map(r, HS_EXIT_VA, PAGE, r->exitpage) ||
	    map(r, r->user_exit, PAGE, r->exitpage))
		goto fail;
	/* the setup stack, for hs_rt_call() without one */
	r->setup_stack = hs_rt_alloc(r, 64 * 1024, PAGE);
	if (!r->setup_stack)
		goto fail;
	r->setup_stack += 64 * 1024;
	return r;
fail:
	hs_runner_free(r);
	return NULL;
}

void hs_runner_free(struct hs_runner *r)
{
	if (!r)
		return;
	if (r->snap.regs)
		uc_context_free(r->snap.regs);
	free(r->snap.mem);
	free(r->snap.heap);
	free(r->snap.harness);
	if (r->uc)
		uc_close(r->uc);
	if (r->be->free)
		r->be->free(r);
	hs_dcache_free(&r->dc);
	free(r->kind);
	free(r->mem);
	free(r->heap);
	free(r->harness);
	free(r->exitpage);
	free(r);
}

int hs_rt_run(struct hs_runner *r, const struct hs_run *run)
{
	if (r->hooks_off)
		return hs_fail("%s: the runner is in bare mode", run->what);
	uc_err e;
	char where[128];
	uint64_t pc;

	r->stop_msg[0] = 0;
	r->warn_msg[0] = 0;
	r->reached_stop = 0;
	r->stop_pc = run->stop ? run->stop : HS_EXIT_VA;
	r->stop_sp_min = run->stop_sp_min;
	r->stop_mm = run->stop_mm;
	r->stop_hits_left = run->stop_hits ? run->stop_hits : 1;
	r->budget = run->budget;
	r->budget_end = r->icount + run->budget;
	r->tr = run->trace;
	r->trace_from = run->trace_from;
	r->tracing = run->trace && !run->trace_from;
	r->csp = 0;
	e = uc_emu_start(r->uc, run->pc, HS_EXIT_VA, 0, 0);
	/* an abort the guest takes (a page fault): enter it, run on */
	while (e != UC_ERR_OK && !r->stop_msg[0] && r->be->take_abort && r->be->take_abort(r))
		e = uc_emu_start(r->uc, hs_rt_reg(r, UC_ARM64_REG_PC), HS_EXIT_VA, 0, 0);
	r->tracing = 0;
	r->tr = NULL;
	pc = hs_rt_reg(r, UC_ARM64_REG_PC);
	if (r->stop_msg[0])
		return hs_fail("%s: %s", run->what, r->stop_msg);
	if (e != UC_ERR_OK)
		return hs_fail("%s: unicorn: %s at %s", run->what, uc_strerror(e),
			       hs_addr_fmt(r->img, pc, where, sizeof(where)));
	if (!r->reached_stop && !(r->stop_pc == HS_EXIT_VA && pc == HS_EXIT_VA))
		return hs_fail("%s: stopped at %s before reaching its end", run->what,
			       hs_addr_fmt(r->img, pc, where, sizeof(where)));
	return 0;
}

int hs_rt_call(struct hs_runner *r, const char *what, uint64_t fn, const uint64_t *args, int nargs,
	       uint64_t sp, uint64_t budget, uint64_t *ret)
{
	struct hs_run run = { .what = what, .pc = fn, .budget = budget };

	for (int i = 0; i < nargs && i < 8; i++)
		hs_rt_set_x(r, (unsigned)i, args[i]);
	hs_rt_set_reg(r, UC_ARM64_REG_X30, HS_EXIT_VA);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, sp ? sp : r->setup_stack);
	if (hs_rt_run(r, &run))
		return -1;
	if (ret)
		*ret = hs_rt_reg(r, UC_ARM64_REG_X0);
	return 0;
}
