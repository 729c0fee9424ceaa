/*
 * booted.c - paths run from the state the kernel built for itself while
 * booting under QEMU (README, "Booted state"): the snapshot for the core's
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

#include "emu/booted.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "paths/path_internal.h"
#include "vm/vm.h"

#define BOOT_BUDGET 4000000ULL

/* The CPU boot saw, for hotsim's patcher: QEMU's ID registers as the
 * snapshot recorded them, and from its boot CPU's identity in the core
 * file the MIDR and ID_AA64PFR0_EL1, which the gdbstub does not show.
 * Its errata and Spectre state follow from those, as for any core; the
 * platform is QEMU's virt, whose PSCI 0.2 offers no SMCCC 1.1. */
static void boot_core(struct hs_boot_state *b)
{
	const struct hs_snap_hdr *h = &b->snap.h;
	const struct hs_qemu_cpu *qc = hs_qemu_cpu_find(h->cpu);
	unsigned n = 0, pfr0 = 0;

	for (unsigned i = 0; i < h->nidregs && n + 2 < HS_ARRAY_SIZE(b->idregs); i++) {
		if ((uint32_t)h->idregs[i].reg == HS_MIDR_EL1)
			continue;
		pfr0 |= (uint32_t)h->idregs[i].reg == HS_ID_AA64PFR0_EL1;
		b->idregs[n++] = (struct hs_idreg){ (uint32_t)h->idregs[i].reg, h->idregs[i].val };
	}
	if (!pfr0 && qc)
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

	if (booted == 0xaa1e03e9u)
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
			else if (hw == 0xd503201fu && ftrace_word(img, w, lw))
				b->check_ftrace++;
			/* nop <-> b: a static key the running kernel flipped */
			else if ((lw == 0xd503201fu && (hw & 0xfc000000u) == 0x14000000u) ||
				 (hw == 0xd503201fu && (lw & 0xfc000000u) == 0x14000000u))
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
		return keep_patch(b, b->snap.h.regs[0].tpidr_el1 + pv->addr, &v, 8);
	return 0;
}

/*
 * What booting under QEMU's virt machine needs of the image, checked from
 * its symbols before QEMU is started: a Linux kernel that can unpack an
 * initramfs (the workload) with the GICv3 and arch timer drivers. And what
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
		{ "initrd_start", "no initramfs support (CONFIG_BLK_DEV_INITRD is not set)" },
		{ "gic_handle_irq@irq-gic-v3.c", "no GICv3 driver (CONFIG_ARM_GIC_V3)" },
		{ "arch_timer_handler_virt", "no arch timer driver (CONFIG_ARM_ARCH_TIMER)" },
	};

	for (size_t i = 0; i < HS_ARRAY_SIZE(need); i++)
		if (!hs_sym_spec(img, need[i].sym, NULL))
			return hs_fail("the image cannot boot under QEMU's virt machine: %s", need[i].what);
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

int hs_boot_state_init(struct hs_boot_state *b, const struct hs_patched *pt)
{
	return hs_boot_state_init_keep(b, pt, NULL);
}

int hs_boot_state_init_keep(struct hs_boot_state *b, const struct hs_patched *pt, const char *keep_dir)
{
	int booted = 0;

	memset(b, 0, sizeof(*b));
	if (!pt->core->boot_cpu)
		return hs_fail("no QEMU CPU is chosen for %s", pt->core->name);
	if (bootable(pt->img, pt->core))
		return -1;
	if (hs_vm_snapshot_keep(pt->img, pt->core->boot_cpu, keep_dir, &b->snap, &booted))
		return -1;
	b->loaded = 1;
	b->booted_now = booted;
	boot_core(b);
	if (!(b->r = hs_runner_booted(pt->img, &b->snap, pt->core)) || overlay(b, pt) || vectors(b, pt) ||
	    hs_bt_seal(b->r))
		return -1;
	/* "QEMU emulator version 7.2.22 (Debian ...)" -> "QEMU 7.2.22" */
	const char *v = strstr(b->snap.h.qemu, "version ");

	snprintf(b->desc, sizeof(b->desc), "booted under QEMU %.*s on %s; %s patching overlaid: %u bytes",
		 v ? (int)strcspn(v + 8, " ") : 0, v ? v + 8 : "", pt->core->boot_cpu, pt->core->name,
		 b->overlay_bytes);
	(void)booted;
	b->ok = 1;
	return 0;
}

void hs_boot_state_free(struct hs_boot_state *b)
{
	free(b->patches);
	hs_runner_free(b->r);
	if (b->loaded)
		hs_snap_free(&b->snap);
	memset(b, 0, sizeof(*b));
}

/* Where the path's first instruction is, and the ELR of its last eret. */
static void ends(const struct hs_boot_state *b, const struct hs_path_def *d, uint64_t *pc,
		 uint64_t *elr)
{
	enum hs_snap_point k = (enum hs_snap_point)(d->boot.point - 1);
	const struct hs_snap_regs *s = &b->snap.h.regs[k];

	if (k == HS_SP_IRQ_EL0 || k == HS_SP_IRQ_EL1) {
		*pc = b->vbar + (k == HS_SP_IRQ_EL0 ? 0x480 : 0x280);
		*elr = s->elr;
	} else {
		*pc = s->pc;
		*elr = s->pc + 4;
	}
	if (d->boot.end == HS_BOOT_END_READ)
		*elr = b->snap.h.read_site + 4;
}

/* The record after every svc is an exception entry (the models charge it). */
static void flag_entries(struct hs_runner *r, struct hs_trace *t, int starts_at_vector)
{
	const struct hs_dcache *dc = hs_rt_dcache(r);

	if (starts_at_vector && t->n)
		t->v[0].flags |= HS_T_EXC_ENTRY;
	for (size_t i = 1; i < t->n; i++)
		if ((dc->v[t->v[i - 1].sidx].in.word & 0xffe0001fu) == 0xd4000001u)	/* svc */
			t->v[i].flags |= HS_T_EXC_ENTRY;
}

/* The end (exclusive) of the call that starts at record i: the record
 * after the ret that leaves it (tail calls leave through their callee). */
static size_t call_end(const struct hs_runner *r, const struct hs_trace *t, size_t i)
{
	const struct hs_dcache *dc = hs_rt_dcache((struct hs_runner *)r);
	int depth = 0;

	for (; i < t->n; i++) {
		int cls = dc->v[t->v[i].sidx].in.cls;

		if (cls == A64_C_CALL || cls == A64_C_CALL_IND)
			depth++;
		else if (cls == A64_C_RET && depth-- == 0)
			return i + 1;
	}
	return t->n;
}

static size_t first_at(const struct hs_trace *t, size_t from, uint64_t pc)
{
	for (size_t i = from; i < t->n; i++)
		if (t->v[i].pc == pc)
			return i;
	return t->n;
}

/* Keep only the first call of fn: from its entry to its first return. */
static int window(const struct hs_boot_state *b, const struct hs_path_def *d, struct hs_path_run *out)
{
	const struct hs_sym *f = hs_sym_lookup(b->r ? hs_rt_image(b->r) : NULL, d->boot.window, NULL);
	const struct hs_dcache *dc = hs_rt_dcache(b->r);
	size_t i, j;

	if (!f)
		return hs_fail("no %s in this image", d->boot.window);
	i = first_at(&out->tr, 0, f->addr);
	for (j = i; j < out->tr.n; j++) {
		uint64_t pc = out->tr.v[j].pc;

		if (dc->v[out->tr.v[j].sidx].in.cls == A64_C_RET && pc >= f->addr && pc < f->addr + f->size)
			break;
	}
	if (i >= out->tr.n || j >= out->tr.n)
		return hs_fail("%s: %s %s on this path", d->name, f->name,
			       i >= out->tr.n ? "is not called" : "does not return");
	memmove(out->tr.v, out->tr.v + i, (j + 1 - i) * sizeof(*out->tr.v));
	out->tr.n = j + 1 - i;
	out->entry = f->addr;
	return 0;
}

/* A sub-row, and the records [b, e) that belong to it. */
static int part(struct hs_path_run *out, const char *label)
{
	for (unsigned i = 0; i < out->nparts; i++)
		if (!strcmp(out->part_names[i], label))
			return (int)i;
	if (out->nparts >= HS_ARRAY_SIZE(out->part_names))
		return -1;
	snprintf(out->part_names[out->nparts], sizeof(out->part_names[0]), "%s", label);
	return (int)out->nparts++;
}

static void mark(struct hs_path_run *out, int p, size_t b, size_t e)
{
	for (size_t i = b; i < e && i < out->tr.n && p >= 0; i++)
		out->part_of[i] = (uint8_t)p;
}

/*
 * An IRQ in four: .entry (vector to the root handler), .handler (the root
 * handler whole: GIC, domain, flow handler, the timer and the tick, EOI),
 * .softirq (what irq_exit runs of the softirqs the tick raised) and .exit
 * (the rest of irq_exit, the return to the interrupted context, eret).
 * .entry + .exit is what the stubbed IRQ path measured before booted state.
 */
static void irq_parts(struct hs_boot_state *b, struct hs_path_run *out)
{
	const struct hs_image *img = hs_rt_image(b->r);
	const struct hs_sym *hai = hs_sym_exact(img, "handle_arch_irq");
	const struct hs_sym *sq = hs_sym_lookup(img, "handle_softirqs", NULL);
	uint64_t root = 0;
	size_t r0, r1, s0, s1;
	int pe, ph, ps, px;

	if (!sq)
		sq = hs_sym_lookup(img, "__do_softirq", NULL);
	if (!hai || hs_rt_read64(b->r, hai->addr, &root) || !root)
		return;
	r0 = first_at(&out->tr, 0, root);
	if (r0 >= out->tr.n || !(out->part_of = calloc(out->tr.n, 1)))
		return;
	r1 = call_end(b->r, &out->tr, r0 + 1);
	s0 = sq ? first_at(&out->tr, r1, sq->addr) : out->tr.n;
	s1 = s0 < out->tr.n ? call_end(b->r, &out->tr, s0 + 1) : out->tr.n;
	pe = part(out, "entry");
	ph = part(out, "handler");
	ps = s0 < out->tr.n ? part(out, "softirq") : -1;
	px = part(out, "exit");
	mark(out, pe, 0, r0);
	mark(out, ph, r0, r1);
	mark(out, px, r1, out->tr.n);
	mark(out, ps, s0, s1);
	if (ps < 0)
		hs_path_note(out, "no softirq ran after this tick");
}

/* The first of a function's names this image has. */
static const struct hs_sym *any_sym(const struct hs_image *img, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		const struct hs_sym *s = hs_sym_lookup(img, names[i], NULL);

		if (s)
			return s;
	}
	return NULL;
}

enum { PP_USER, PP_WRITE, PP_WAKEUP, PP_READ_BLOCK, PP_SWITCH, PP_READ_RETURN };

/* What the syscall entered at record i is: write or read (the first of
 * their entry points it reaches). */
static int syscall_kind(const struct hs_trace *t, size_t i, uint64_t wr, uint64_t rd)
{
	for (; i < t->n; i++) {
		if (t->v[i].pc == wr)
			return PP_WRITE;
		if (t->v[i].pc == rd)
			return PP_READ_BLOCK;
	}
	return PP_WRITE;
}

/*
 * One round trip of the ping-pong, every record in one phase:
 *   .user         the two processes' own instructions
 *   .write        the write() syscalls, less the wakeups in them
 *   .wakeup       try_to_wake_up() of a reader asleep in read()
 *   .read         read() from its svc until it returns or blocks
 *   .switch       __schedule, from its entry to the other task's return
 *   .return       read() after its task was woken, to the eret
 * A switch resumes the other task in whatever phase it left (B starts
 * asleep in read()): with wakeup preemption A's write() is cut short by
 * the switch to B and finished after the switch back.
 */
static void pipe_parts(struct hs_boot_state *b, struct hs_path_run *out)
{
	static const char *const names[] = { "user", "write", "wakeup", "read", "switch", "return" };
	static const char *const wr_names[] = { "ksys_write", "__arm64_sys_write", NULL };
	static const char *const rd_names[] = { "ksys_read", "__arm64_sys_read", NULL };
	const struct hs_image *img = hs_rt_image(b->r);
	const struct hs_dcache *dc = hs_rt_dcache(b->r);
	const struct hs_sym *sched = hs_sym_lookup(img, "__schedule", NULL);
	const struct hs_sym *ttwu = hs_sym_lookup(img, "try_to_wake_up", NULL);
	const struct hs_sym *wr = any_sym(img, wr_names), *rd = any_sym(img, rd_names);
	unsigned switches = 0, wakeups = 0, in_switch = 0, task = 0;
	int cur = PP_USER, id[6], saved[2] = { PP_USER, PP_READ_RETURN };

	if (!sched || !ttwu || !wr || !rd || !(out->part_of = calloc(out->tr.n ? out->tr.n : 1, 1)))
		return;
	for (int k = 0; k < 6; k++)
		id[k] = part(out, names[k]);
	for (size_t i = 0; i < out->tr.n; i++) {
		uint64_t pc = out->tr.v[i].pc;
		const struct a64_insn *in = &dc->v[out->tr.v[i].sidx].in;

		if (pc < img->base) {
			out->part_of[i] = (uint8_t)id[PP_USER];
			if ((in->word & 0xffe0001fu) == 0xd4000001u)	/* svc */
				cur = syscall_kind(&out->tr, i + 1, wr->addr, rd->addr);
			continue;
		}
		if (!in_switch && pc == sched->addr) {
			in_switch = 1;
			switches++;
			saved[task] = cur;
		}
		if (in_switch) {
			out->part_of[i] = (uint8_t)id[PP_SWITCH];
			if (in->cls == A64_C_RET && pc >= sched->addr && pc < sched->addr + sched->size) {
				in_switch = 0;
				task ^= 1;
				cur = saved[task] == PP_READ_BLOCK ? PP_READ_RETURN : saved[task];
			}
			continue;
		}
		if (pc == ttwu->addr) {
			size_t e = call_end(b->r, &out->tr, i + 1);

			mark(out, id[PP_WAKEUP], i, e);
			wakeups++;
			i = e - 1;
			continue;
		}
		out->part_of[i] = (uint8_t)id[cur == PP_USER ? PP_WRITE : cur];
	}
	hs_path_note(out, "one round trip: %u switches, %u wakeups", switches, wakeups);
}

static int booted_run(struct hs_boot_state *b, const struct hs_path_def *d, struct hs_path_run *out,
		      int full)
{
	enum hs_snap_point k = (enum hs_snap_point)(d->boot.point - 1);
	struct hs_run run = { .what = d->name, .stop = 1, .budget = BOOT_BUDGET, .trace = &out->tr };
	uint64_t elr;
	char where[128];

	ends(b, d, &run.pc, &elr);
	b->stop_elr = elr;
	if (hs_bt_enter(b->r, k, run.pc))
		return -1;
	hs_bt_stop_at_eret(b->r, elr);
	if (hs_rt_run(b->r, &run))
		return -1;
	flag_entries(b->r, &out->tr, k == HS_SP_IRQ_EL0 || k == HS_SP_IRQ_EL1);
	out->entry = run.pc;
	if (k == HS_SP_IRQ_EL0 || k == HS_SP_IRQ_EL1)
		snprintf(out->entry_desc, sizeof(out->entry_desc), "%s+0x%x (the tick, from %s)", b->vdesc,
			 k == HS_SP_IRQ_EL0 ? 0x480 : 0x280,
			 hs_addr_fmt(hs_rt_image(b->r), b->snap.h.regs[k].elr, where, sizeof(where)));
	else
		snprintf(out->entry_desc, sizeof(out->entry_desc), "the workload's svc at 0x%llx (%s point)",
			 (unsigned long long)run.pc, hs_snap_point_names[k]);
	if (!full && d->boot.window && window(b, d, out))
		return -1;
	if (!full && d->boot.irq_parts)
		irq_parts(b, out);
	if (!full && d->boot.pipe_parts)
		pipe_parts(b, out);
	out->booted = 1;
	snprintf(out->state, sizeof(out->state), "%s", b->desc);
	return 0;
}

int hs_path_booted(struct hs_boot_state *b, const struct hs_path_def *d, struct hs_path_run *out)
{
	return booted_run(b, d, out, 0);
}

int hs_path_booted_full(struct hs_boot_state *b, const struct hs_path_def *d, struct hs_path_run *out)
{
	return booted_run(b, d, out, 1);
}
