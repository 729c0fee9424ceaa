/*
 * booted_state.c - paths run from the state the kernel built for itself while
 * booting under QEMU (docs/booted-state.md): the snapshot for the core's
 * boot CPU, hotsim's own patching for the modelled core overlaid on it, a
 * run from a workload point to its eret, then the window and sub-rows the
 * path definition asks for.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "emu/backend_booted.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "paths/path_internal.h"
#include "paths/split.h"
#include "vm/vm.h"

#define BOOT_BUDGET 4000000ULL

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

/* The modelled core's vectors in VBAR_EL1 and in this_cpu_vector (what
 * boot's Spectre-BHB choice installs per CPU). */
static int vectors(struct hs_boot_state *b, const struct hs_patched *pt)
{
	char desc[64];
	const struct hs_sym *pv = hs_sym_exact(pt->img, "this_cpu_vector");
	uint64_t v = hs_path_vectors(pt->img, pt->core, desc, sizeof(desc));

	if (!v)
		return hs_fail("%s: no vectors symbol", pt->img->path);
	b->vbar = v;
	snprintf(b->vdesc, sizeof(b->vdesc), "%s", desc);
	hs_bt_set_vbar(b->r, v);
	if (pv)
		return keep_patch(b, b->snap.pts[0].regs.tpidr_el1 + pv->addr, &v, 8);
	return 0;
}

/*
 * What booting under QEMU's virt machine needs of the image, checked from
 * its symbols before QEMU is started: a Linux kernel with the GICv3 and
 * arch timer drivers, an ELF loader to exec the workload with, that can
 * unpack an initramfs (the workload) or, if it cannot, has the functions
 * hotsim plants it with (sim/vm/plant.c). And what
 * it needs of the boot CPU: the image's page size, and the same answer to
 * KPTI as the modelled core - a kernel that unmaps itself at EL0 builds
 * other page tables and entry trampolines, which no overlay of text can
 * turn into the other's.
 */
static int bootable(const struct hs_image *img, const struct hs_core *core)
{
	const struct hs_qemu_cpu *qc = &core->boot;
	const char *cpu = core->boot_cpu;
	char mwhy[64], bwhy[64];
	int mine, theirs;

	static const struct { const char *sym, *what; } need[] = {
		{ "linux_banner", "not a Linux kernel (no linux_banner)" },
		{ "gic_handle_irq@irq-gic-v3.c", "no GICv3 driver (CONFIG_ARM_GIC_V3)" },
		{ "arch_timer_handler_virt", "no arch timer driver (CONFIG_ARM_ARCH_TIMER)" },
	};
	char pwhy[120];

	for (size_t i = 0; i < HS_ARRAY_SIZE(need); i++)
		if (!hs_sym_spec(img, need[i].sym, NULL))
			return hs_fail("the image cannot boot under QEMU's virt machine: %s", need[i].what);
	/* it would boot, and then panic for want of an init it can exec */
	if (!hs_sym_exact(img, "load_elf_binary"))
		return hs_fail("the image cannot run the workload: it has no ELF loader (CONFIG_BINFMT_ELF is "
			       "not set: no load_elf_binary), so no program can start; not booted");
	/* no initramfs support: the workload is planted in its rootfs */
	if (!hs_sym_exact(img, "initrd_start") && hs_vm_plant_missing(img, pwhy, sizeof(pwhy)))
		return hs_fail("the image cannot boot under QEMU's virt machine: no initramfs support "
			       "(CONFIG_BLK_DEV_INITRD is not set) and %s", pwhy);
	/* decided before QEMU starts: a boot the CPU cannot do would only hang */
	if (qc->mmfr0 && !hs_mmfr0_has_granule(qc->mmfr0, img->page_size))
		return hs_fail("the image uses %uK pages and QEMU's %s has no %uK granule "
			       "(ID_AA64MMFR0_EL1 0x%llx, %s): not booted", img->page_size >> 10, cpu,
			       img->page_size >> 10, (unsigned long long)qc->mmfr0, qc->source);
	mine = hs_meltdown_affected(core->midr, hs_core_idreg(core, HS_ID_AA64PFR0_EL1), mwhy, sizeof(mwhy));
	theirs = hs_meltdown_affected(qc->midr, qc->pfr0, bwhy, sizeof(bwhy));
	if (mine != theirs && hs_sym_exact(img, "tramp_vectors"))
		return hs_fail("%s %s KPTI (%s) and QEMU's %s %s (%s): its booted kernel's page tables "
			       "would not be %s's, not booted", core->full, mine ? "needs" : "does not need",
			       mwhy, cpu, theirs ? "needs it" : "does not", bwhy, core->name);
	return 0;
}

/* The boot points the set's definitions name, once each, in their order:
 * one boot takes them all. */
static void hs_boot_points(const struct hs_path_set *set, struct hs_boot_point *v, struct hs_vm_points *out)
{
	const struct hs_path_def *const *defs = set->defs;
	unsigned n = 0;

	for (int i = 0; defs[i]; i++) {
		const struct hs_boot_point *p = defs[i]->boot.point;
		unsigned k;

		for (k = 0; p && k < n && strcmp(v[k].name, p->name); k++)
			;
		if (p && k == n && n < HS_SNAP_MAX_POINTS)
			v[n++] = *p;
	}
	out->v = v;
	out->n = n;
	out->wl = set->wl;
	out->ncpus = set->ncpus;
}

/* The points of set, the checks before a boot; the snapshot is the
 * caller's to load. */
static int begin(struct hs_boot_state *b, const struct hs_patched *pt, const struct hs_path_set *set)
{
	memset(b, 0, sizeof(*b));
	b->set = set;
	b->core = pt->core;
	if (!pt->core->boot_cpu)
		return hs_fail("no QEMU CPU is chosen for %s", pt->core->name);
	if (bootable(pt->img, pt->core))
		return -1;
	hs_boot_points(set, b->points, &b->pts);
	if (!b->pts.n)
		return hs_fail("no path definition names a boot point");
	return 0;
}

/* The snapshot loaded: the runner over it, with the core's overlay. */
static int finish(struct hs_boot_state *b, const struct hs_patched *pt)
{
	b->loaded = 1;
	boot_core(b, pt->core);
	if (!(b->r = hs_runner_booted(pt->img, &b->snap, pt->core)) || overlay(b, pt) || vectors(b, pt) ||
	    hs_bt_seal(b->r))
		return -1;
	/* "QEMU emulator version 7.2.22 (Debian ...)" -> "QEMU 7.2.22" */
	const char *v = strstr(b->snap.h.qemu, "version ");

	snprintf(b->desc, sizeof(b->desc), "booted under QEMU %.*s on %s; %s patching overlaid: %u bytes",
		 v ? (int)strcspn(v + 8, " ") : 0, v ? v + 8 : "", pt->core->boot_cpu, pt->core->name,
		 b->overlay_bytes);
	b->ok = 1;
	return 0;
}

int hs_boot_state_init(struct hs_boot_state *b, const struct hs_patched *pt, const struct hs_path_set *set)
{
	int booted = 0;

	if (begin(b, pt, set) || hs_vm_snapshot(pt->img, pt->core, &b->pts, &b->snap, &booted))
		return -1;
	b->booted_now = booted;
	return finish(b, pt);
}

int hs_boot_state_adopt(struct hs_boot_state *b, const struct hs_patched *pt, const struct hs_path_set *set,
			struct hs_snap *snap)
{
	if (begin(b, pt, set)) {
		hs_snap_free(snap);
		return -1;
	}
	b->snap = *snap;
	memset(snap, 0, sizeof(*snap));
	return finish(b, pt);
}

static void memo_free(struct replay_memo *m)
{
	hs_trace_free(&m->tr);
	free(m->ops);
	memset(m, 0, sizeof(*m));
}

void hs_boot_state_free(struct hs_boot_state *b)
{
	memo_free(&b->memo);
	free(b->patches);
	/* the other CPUs first: their RAM is b->r's */
	for (unsigned i = 0; i < HS_SNAP_MAX_CPUS; i++)
		hs_runner_free(b->peers[i]);
	hs_runner_free(b->r);
	if (b->loaded)
		hs_snap_free(&b->snap);
	memset(b, 0, sizeof(*b));
}

/* The snapshot's index of d's point; -1 with hs_errmsg() when the
 * snapshot lacks it (a snapshot taken for other definitions). */
static int point_of(const struct hs_boot_state *b, const struct hs_path_def *d)
{
	int k = hs_snap_find(&b->snap, d->boot.point->name);
	const char *skip = hs_snap_skipped(&b->snap, d->boot.point->name);

	if (k < 0 && skip)
		return hs_fail("the workload's operation fails in this kernel: %s", skip);
	if (k < 0)
		return hs_fail("%s: the snapshot has no %s point", d->name, d->boot.point->name);
	return k;
}

/* A workload label, else the first of a list of kernel functions
 * ("a|b"): the address, 0 when neither has it. */
static uint64_t site_addr(const struct hs_image *img, const char *spec)
{
	char buf[160], *save = NULL;
	uint64_t a = 0;

	if (!spec || !hs_workload_sym(spec, &a))
		return a;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *n = strtok_r(buf, "|", &save); n; n = strtok_r(NULL, "|", &save)) {
		const struct hs_sym *f = hs_sym_spec(img, n, NULL);

		if (f)
			return f->addr;
	}
	return 0;
}

uint64_t hs_boot_warp_site(const struct hs_boot_state *b, const struct hs_path_def *d)
{
	return d->boot.op.warp ? site_addr(hs_rt_image(b->r), d->boot.op.warp) : 0;
}

/* The operations of d from point k, as the replay counts them. */
static int op_spec(const struct hs_boot_state *b, const struct hs_path_def *d, int k, unsigned want,
		   struct hs_bt_opspec *spec)
{
	const struct hs_op_def *op = &d->boot.op;
	const struct hs_snap_point *p = &b->snap.pts[k];

	memset(spec, 0, sizeof(*spec));
	spec->want = want;
	if (op->kind == HS_OP_RANGE) {
		/* a path's own range starts at its point's site; with no end
		 * marker, each op ends where the next begins */
		spec->range_begin = op->range_begin ? op->range_begin : p->site;
		memcpy(spec->range_end, op->range_end, sizeof(spec->range_end));
		return 0;
	}
	spec->irq = op->kind == HS_OP_IRQ;
	spec->abort = op->kind == HS_OP_ABORT;
	spec->from_el = op->from_el;
	spec->site = p->site;
	/* an abort returns to the instruction that took it, to run it again */
	spec->end_elr = spec->abort ? p->site : p->site + 4;
	spec->want = want;
	if (op->end_site) {
		if (hs_workload_sym(op->end_site, &spec->end_elr))
			return hs_fail("%s: no %s in the workload", d->name, op->end_site);
		spec->end_elr += 4;
	}
	if (op->warp && !(spec->warp[0] = site_addr(hs_rt_image(b->r), op->warp)))
		return hs_fail("%s: neither the workload nor this image has %s", d->name, op->warp);
	return 0;
}

/* Keep only the first call of fn in each op: from its entry to its first
 * return (in whichever task). */
static int window(const struct hs_boot_state *b, const struct hs_path_def *d, struct hs_path_run *out)
{
	const struct hs_sym *f = hs_sym_lookup(hs_rt_image(b->r), d->boot.window, NULL);
	const struct hs_dcache *dc = hs_rt_dcache(b->r);

	if (!f)
		return hs_fail("no %s in this image", d->boot.window);
	for (unsigned k = 0; k < out->nops; k++) {
		size_t i = out->ops[k].begin, j, e = out->ops[k].end;

		while (i < e && hs_trace_pc(&out->tr, i) != f->addr)
			i++;
		for (j = i; j < e; j++) {
			uint64_t pc = hs_trace_pc(&out->tr, j);

			if (dc->v[out->tr.v[j].sidx].in.cls == A64_C_RET && pc >= f->addr &&
			    pc < f->addr + f->size)
				break;
		}
		if (i >= e || j >= e)
			return hs_fail("%s: %s %s in operation %u", d->name, f->name,
				       i >= e ? "is not called" : "does not return", k + 1);
		out->ops[k] = (struct hs_op_range){ i, j + 1 };
	}
	return 0;
}

/* Keep the run just made (trace, operations) for the next path that asks
 * for the same one; a failed copy only means no memo. */
static void memo_keep(struct hs_boot_state *b, int k, const struct hs_bt_opspec *spec,
		      const struct hs_trace *tr, const struct hs_bt_op *ops, unsigned n, uint64_t pc)
{
	struct replay_memo *m = &b->memo;

	memo_free(m);
	if (hs_trace_copy(&m->tr, tr))
		return;
	m->ops = malloc((n ? n : 1) * sizeof(*ops));
	if (!m->ops) {
		memo_free(m);
		return;
	}
	memcpy(m->ops, ops, n * sizeof(*ops));
	m->nops = n;
	m->point = k;
	m->spec = *spec;
	m->pc = pc;
	m->valid = 1;
}

/* Does another definition of the set replay what d does from point k? */
static int shared(const struct hs_boot_state *b, const struct hs_path_def *d, int k,
		  const struct hs_bt_opspec *spec)
{
	const struct hs_path_def *const *defs = b->set->defs;
	struct hs_bt_opspec other;

	for (int i = 0; defs[i]; i++)
		if (defs[i] != d && defs[i]->boot.point &&
		    !strcmp(defs[i]->boot.point->name, d->boot.point->name) &&
		    !op_spec(b, defs[i], k, spec->want, &other) && !memcmp(&other, spec, sizeof(other)))
			return 1;
	return 0;
}

/* The memo's run into out->tr, when it is the one asked for: 1 if used
 * (its operations stay in the memo until the next replay). */
static int memo_use(struct hs_boot_state *b, int k, const struct hs_bt_opspec *spec,
		    struct hs_path_run *out)
{
	struct replay_memo *m = &b->memo;
	size_t limit = out->tr.limit;

	if (!m->valid || m->point != k || memcmp(&m->spec, spec, sizeof(*spec)) ||
	    (limit && m->tr.n > limit) || out->tr.n)
		return 0;
	/* the run moves to out: a third definition asking for it replays */
	hs_trace_free(&out->tr);
	out->tr = m->tr;
	out->tr.limit = limit;
	memset(&m->tr, 0, sizeof(m->tr));
	m->valid = 0;
	return 1;
}

/* Replay warmup + samples operations from point k (or take the memo's). */
static int replay(struct hs_boot_state *b, const struct hs_path_def *d, int k,
		  const struct hs_bt_opspec *spec, struct hs_path_run *out, const struct hs_bt_op **found,
		  unsigned *n, uint64_t *pc)
{
	struct hs_run run = { .what = d->name, .stop = 1, .trace = &out->tr };

	if (memo_use(b, k, spec, out)) {
		*found = b->memo.ops;
		*n = b->memo.nops;
		*pc = b->memo.pc;
		return 0;
	}
	/* a runaway is far beyond any operation's length */
	run.budget = BOOT_BUDGET + (uint64_t)spec->want * 500000;
	hs_bt_set_ops(b->r, spec);
	if (hs_bt_enter(b->r, (unsigned)k))
		return -1;
	run.pc = b->snap.pts[k].regs.pc;
	if (hs_rt_run(b->r, &run)) {
		/* a user's marked range that never closes: say so, in its terms */
		if (spec->range_begin && (strstr(hs_errmsg(), "exceeds") || strstr(hs_errmsg(), "budget")))
			return hs_fail("an operation that does not end: the task did not reach a "
				       "hotsim_op_end() (%s)", hs_errmsg());
		return -1;
	}
	*found = hs_bt_ops(b->r, n);
	*pc = run.pc;
	if (shared(b, d, k, spec))
		memo_keep(b, k, spec, &out->tr, *found, *n, *pc);
	return 0;
}

/*
 * Run d from its point through warmup + samples consecutive operations
 * (all of them when full: validation compares the whole stream), then the
 * windows and sub-rows of each.
 */
static int booted_run(struct hs_boot_state *b, const struct hs_path_def *d, unsigned samples,
		      struct hs_path_run *out, int full)
{
	const struct hs_op_def *op = &d->boot.op;
	unsigned want = op->warmup + (samples ? samples : op->samples), n;
	const struct hs_bt_op *found = NULL;
	const struct hs_snap_point *p;
	struct hs_bt_opspec spec;
	uint64_t pc = 0;
	int k = point_of(b, d);

	if (k < 0 || op_spec(b, d, k, want, &spec) || replay(b, d, k, &spec, out, &found, &n, &pc))
		return -1;
	p = &b->snap.pts[k];
	if (n < want)
		return hs_fail("%s: the replay ended after %u of %u operations", d->name, n, want);
	if (!(out->ops = calloc(n, sizeof(*out->ops))))
		return hs_fail("out of memory");
	for (unsigned i = 0; i < n; i++)
		out->ops[i] = (struct hs_op_range){ found[i].begin, found[i].end };
	out->nops = n;
	out->warmup = op->warmup;
	out->entry = pc;
	snprintf(out->entry_desc, sizeof(out->entry_desc),
		 "the workload's svc at 0x%llx (%s point), %u operations (%u warm-up)",
		 (unsigned long long)pc, p->name, n, op->warmup);
	if (!full && d->boot.window && window(b, d, out))
		return -1;
	if (!full && d->boot.split) {
		struct hs_split sp = { .r = b->r, .img = hs_rt_image(b->r), .t = &out->tr };

		for (unsigned i = out->warmup; i < out->nops; i++)
			d->boot.split(&sp, out, out->ops[i].begin, out->ops[i].end);
	}
	out->booted = 1;
	snprintf(out->state, sizeof(out->state), "%s", b->desc);
	return 0;
}

int hs_path_booted(struct hs_boot_state *b, const struct hs_path_def *d, unsigned samples,
		   struct hs_path_run *out)
{
	return booted_run(b, d, samples, out, 0);
}

int hs_path_booted_full(struct hs_boot_state *b, const struct hs_path_def *d, unsigned samples,
			struct hs_path_run *out)
{
	return booted_run(b, d, samples, out, 1);
}
