/*
 * booted_overlay.c - the modelled core's patching over the state the
 * kernel built for its boot CPU (booted_state.c), and the check that
 * hotsim's patching for that boot CPU is what the kernel did to itself.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/backend_booted.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "paths/path_internal.h"
#include "vm/vm.h"

/* The CPU boot saw, for hotsim's patcher: QEMU's ID registers as the
 * snapshot recorded them, and from its boot CPU's identity in the core
 * file the MIDR and ID_AA64PFR0_EL1, which the gdbstub does not show.
 * Its errata and Spectre state follow from those, as for any core; the
 * platform is QEMU's virt, whose PSCI 0.2 offers no SMCCC 1.1. */
static void boot_core(struct hs_boot_state *b, const struct hs_core *core)
{
	const struct hs_snap_hdr *h = &b->snap.h;
	const struct hs_qemu_cpu *qc = &core->boot;
	unsigned n = 0, pfr0 = 0;

	for (unsigned i = 0; i < h->nidregs && n + 2 < HS_ARRAY_SIZE(b->idregs); i++) {
		if ((uint32_t)h->idregs[i].reg == HS_MIDR_EL1)
			continue;
		pfr0 |= (uint32_t)h->idregs[i].reg == HS_ID_AA64PFR0_EL1;
		b->idregs[n++] = (struct hs_idreg){ (uint32_t)h->idregs[i].reg, h->idregs[i].val };
	}
	if (!pfr0)
		b->idregs[n++] = (struct hs_idreg){ HS_ID_AA64PFR0_EL1, qc->pfr0 };
	b->idregs[n] = (struct hs_idreg){ 0, 0 };
	snprintf(b->boot_name, sizeof(b->boot_name), "qemu-%s", h->cpu);
	memset(&b->bootc, 0, sizeof(b->bootc));
	b->bootc.name = b->boot_name;
	b->bootc.full = b->boot_name;
	b->bootc.midr = (uint32_t)h->midr;
	b->bootc.idregs = b->idregs;
	b->bootc.no_smccc = 1;
}

/*
 * The overlay: wherever hotsim's patching for the modelled core differs
 * from its patching for the boot CPU, the modelled core's bytes replace
 * the booted kernel's (text, capability bitmaps, keys). Init memory is
 * skipped: boot freed it and reuses the pages. Where the two agree the
 * booted kernel's own bytes stay - including runtime constants and
 * static keys the running kernel set. The check counts text words where
 * the booted kernel differs from hotsim's patching for the boot CPU.
 */
static void note(struct hs_boot_state *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct hs_boot_state *b, const char *fmt, ...)
{
	va_list ap;

	if (b->nnotes >= HS_ARRAY_SIZE(b->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(b->notes[b->nnotes++], sizeof(b->notes[0]), fmt, ap);
	va_end(ap);
}

/* Patch the booted kernel and remember it (validation repeats it in QEMU). */
static int keep_patch(struct hs_boot_state *b, uint64_t va, const void *bytes, uint64_t len)
{
	const uint8_t *p = bytes;

	if (hs_bt_patch(b->r, va, bytes, len))
		return -1;
	for (uint64_t at = 0; at < len;) {
		uint32_t n = (uint32_t)(len - at > 60 ? 60 : len - at);
		struct hs_vm_patch *v = realloc(b->patches, (b->npatches + 1) * sizeof(*v));

		if (!v)
			return hs_fail("out of memory");
		b->patches = v;
		v[b->npatches].va = va + at;
		v[b->npatches].pa = hs_bt_pa(b->r, va + at);
		v[b->npatches].len = n;
		memcpy(v[b->npatches].bytes, p + at, n);
		b->npatches++;
		at += n;
	}
	return 0;
}

/* What ftrace's boot-time init writes over the NOPs the compiler left at
 * function entries (-fpatchable-function-entry): `mov x9, x30` in the
 * first, and with CALL_OPS the ops pointer in the two words before the
 * function. hotsim's patcher leaves them as NOPs. */
static int ftrace_word(const struct hs_image *img, uint64_t a, uint32_t booted)
{
	const struct hs_sym *f;

	if (a64_is_mov_x30_to_x9(booted))
		return 1;
	f = hs_sym_at(img, a + 8);
	if (!f || (f->addr != a + 8 && f->addr != a + 4))
		f = hs_sym_at(img, a + 4);
	return f && (f->addr == a + 8 || f->addr == a + 4) && f->type == STT_FUNC;
}

/* A word of a runtime constant hotsim could not settle (boot did). */
static int pending_site(const struct hs_patched *p, uint64_t a)
{
	for (size_t i = 0; i < p->rep.npending; i++) {
		const struct hs_rtconst_site *s = &p->rep.pending[i];
		unsigned n = hs_rtconst_ninsn(p->rep.rtconst[s->section].kind);

		if (a >= s->addr && a < s->addr + 4ULL * n)
			return 1;
	}
	return 0;
}

static int overlay(struct hs_boot_state *b, const struct hs_patched *pt)
{
	char where[128];
	const struct hs_image *img = pt->img;
	const struct hs_sym *ib = hs_sym_exact(img, "__init_begin"), *ie = hs_sym_exact(img, "__init_end");
	uint64_t init_lo = ib ? ib->addr - img->base : 0, init_hi = ie ? ie->addr - img->base : 0;
	struct hs_patched *bp = hs_patch(img, &b->bootc);
	int rc = 0;

	if (!bp)
		return -1;
	for (uint64_t a = img->text_start & ~3ULL; a + 4 <= img->text_end; a += 4096) {
		/* a page at a time: equal pages (nearly all) cost one memcmp */
		uint64_t end = (a | 4095) + 1 < img->text_end ? (a | 4095) + 1 : img->text_end;
		const uint8_t *live = hs_rt_host(b->r, a, end - a);
		const uint8_t *mine = bp->mem + (a - img->base);

		if ((a - img->base >= init_lo && a - img->base < init_hi) || !live || !memcmp(live, mine, end - a)) {
			a &= ~4095ULL;
			continue;
		}
		for (uint64_t w = a; w + 4 <= end; w += 4) {
			uint32_t lw, hw;

			memcpy(&lw, live + (w - a), 4);
			memcpy(&hw, mine + (w - a), 4);
			if (lw == hw)
				continue;
			if (pending_site(bp, w))
				b->check_rtconst++;
			else if (a64_is_nop(hw) && ftrace_word(img, w, lw))
				b->check_ftrace++;
			/* nop <-> b: a static key the running kernel flipped */
			else if ((a64_is_nop(lw) && a64_is_b(hw)) || (a64_is_nop(hw) && a64_is_b(lw)))
				b->check_keys++;
			else if (b->check_words++ < 4)
				note(b, "check: 0x%08x booted, 0x%08x hotsim at %s", lw, hw,
				     hs_addr_fmt(img, w, where, sizeof(where)));
		}
		a &= ~4095ULL;
	}
	for (uint64_t off = 0; off < img->span && !rc;) {
		uint64_t end = off;

		/* equal pages (nearly all) at memcmp speed */
		if (!(off & 4095) && off + 4096 <= img->span && !memcmp(pt->mem + off, bp->mem + off, 4096)) {
			off += 4096;
			continue;
		}
		if (pt->mem[off] == bp->mem[off] || (off >= init_lo && off < init_hi)) {
			off++;
			continue;
		}
		while (end < img->span && pt->mem[end] != bp->mem[end] && !(end >= init_lo && end < init_hi))
			end++;
		rc = keep_patch(b, img->base + off, pt->mem + off, end - off);
		b->overlay_bytes += (unsigned)(end - off);
		if (b->overlay_ranges++ < 6)
			note(b, "overlay %s: %llu bytes", hs_addr_fmt(img, img->base + off, where, sizeof(where)),
			     (unsigned long long)(end - off));
		off = end;
	}
	if (b->overlay_ranges > 6)
		note(b, "overlay: %u more ranges", b->overlay_ranges - 6);
	note(b, "check: hotsim's patching for QEMU's %s matches the text the kernel patched for itself "
	     "but for %u static-key sites the running kernel flipped, %u words of runtime constants "
	     "whose value only boot knows, %u words ftrace initialised at function entries, and %u "
	     "other words", b->snap.h.cpu, b->check_keys, b->check_rtconst, b->check_ftrace,
	     b->check_words);
	hs_patched_free(bp);
	return rc;
}

/* Each CPU's per-CPU offset (TPIDR_EL1, as boot set it): one CPU's from
 * its point, a machine's every CPU's. */
static unsigned cpu_offsets(const struct hs_boot_state *b, uint64_t *off, unsigned max)
{
	unsigned n = 0;
	const struct hs_snap_cpu *c = hs_snap_cpus(&b->snap, 0, &n);

	if (!c) {
		off[0] = b->snap.pts[0].regs.tpidr_el1;
		return 1;
	}
	for (unsigned i = 0; i < n && i < max; i++)
		off[i] = c[i].regs.tpidr_el1;
	return n < max ? n : max;
}

/* The modelled core's vectors in VBAR_EL1 and in every CPU's
 * this_cpu_vector (what boot's Spectre-BHB choice installs per CPU). */
static int vectors(struct hs_boot_state *b, const struct hs_patched *pt)
{
	char desc[64];
	const struct hs_sym *pv = hs_sym_exact(pt->img, "this_cpu_vector");
	uint64_t v = hs_path_vectors(pt->img, pt->core, desc, sizeof(desc)), off[HS_MACHINE_MAX_CPUS];
	unsigned n = cpu_offsets(b, off, HS_MACHINE_MAX_CPUS);

	if (!v)
		return hs_fail("%s: no vectors symbol", pt->img->path);
	b->vbar = v;
	snprintf(b->vdesc, sizeof(b->vdesc), "%s", desc);
	hs_bt_set_vbar(b->r, v);
	for (unsigned i = 0; pv && i < n; i++)
		if (keep_patch(b, off[i] + pv->addr, &v, 8))
			return -1;
	return 0;
}

/*
 * The Spectre-v2 callback boot keeps per CPU on a core the firmware
 * mitigates (hs_path_bp_hardening): QEMU's virt offers no SMCCC 1.1, so
 * the booted kernel left it NULL, and it is written for every CPU here as
 * the platform's firmware (platform.c) would have had boot write it. The
 * callback's own smc is kept as a patch of itself, so validation's QEMU,
 * which has no EL3, runs it as a NOP as it does the vectors'
 * (hs_validate_qpatches).
 */
static int bp_hardening(struct hs_boot_state *b, const struct hs_patched *pt)
{
	uint64_t var = 0, fn = hs_path_bp_hardening(pt->img, pt->core, &var), off[HS_MACHINE_MAX_CPUS];
	unsigned n = cpu_offsets(b, off, HS_MACHINE_MAX_CPUS);
	const struct hs_sym *f = hs_sym_at(pt->img, fn);
	const uint8_t *code;

	if (!fn)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (keep_patch(b, off[i] + var, &fn, 8))
			return -1;
	for (uint64_t a = fn; f && a + 4 <= fn + f->size; a += 4) {
		uint32_t w;

		if (!(code = hs_rt_host(b->r, a, 4)))
			break;
		memcpy(&w, code, 4);
		if (a64_is_smc0(w))
			return keep_patch(b, a, &w, 4);
	}
	return hs_fail("%s: the Spectre-v2 callback at 0x%llx has no smc #0", pt->img->path,
		       (unsigned long long)fn);
}

int hs_boot_overlay(struct hs_boot_state *b, const struct hs_patched *pt)
{
	boot_core(b, pt->core);
	return overlay(b, pt) || vectors(b, pt) || bp_hardening(b, pt) ? -1 : 0;
}
