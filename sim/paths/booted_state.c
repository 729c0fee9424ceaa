/*
 * booted_state.c - paths run from the state the kernel built for itself while
 * booting under QEMU (docs/booted-state.md): the snapshot for the core's
 * boot CPU, hotsim's own patching for the modelled core overlaid on it
 * (booted_overlay.c), a run from a workload point to its eret, then the
 * window and sub-rows the path definition asks for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "emu/backend_booted.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/cgroup.h"
#include "hotsim/cpulist.h"
#include "hotsim/program.h"
#include "paths/path_internal.h"
#include "paths/split.h"
#include "vm/vm.h"

#define BOOT_BUDGET 4000000ULL

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
 * one boot takes them all. A machine of more than one CPU stops only at
 * its machine paths' points (every point of a set that has none: a
 * user's workload, each of whose marks may be a round trip): a stop that
 * finds another CPU with a task to run lets the round robin run it for as
 * long as the host takes to stop the machine (booted-state.md), so the
 * workload reaches the next point the same way every boot only when no
 * such stop came before it - ctx.yield's, whose second process never
 * blocks, would be one. */
static void hs_boot_points(const struct hs_path_set *set, struct hs_boot_point *v, struct hs_vm_points *out)
{
	const struct hs_path_def *const *defs = set->defs;
	unsigned n = 0;
	int machines = 0;

	for (int i = 0; set->ncpus > 1 && defs[i]; i++)
		machines |= defs[i]->boot.machine;
	for (int i = 0; defs[i]; i++) {
		const struct hs_boot_point *p = machines && !defs[i]->boot.machine ? NULL : defs[i]->boot.point;
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
	out->taskset = set->taskset;
	out->cgroup = set->cgroup;
	out->cmdline = set->cmdline;
	out->boot = set->boot;
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
	char cpus[64];

	b->loaded = 1;
	if (!(b->r = hs_runner_booted(pt->img, &b->snap, pt->core)) || hs_boot_overlay(b, pt) || hs_bt_seal(b->r))
		return -1;
	/* "QEMU emulator version 7.2.22 (Debian ...)" -> "QEMU 7.2.22" */
	const char *v = strstr(b->snap.h.qemu, "version ");

	snprintf(b->desc, sizeof(b->desc), "booted under QEMU %.*s on %s; %s patching overlaid: %u bytes",
		 v ? (int)strcspn(v + 8, " ") : 0, v ? v + 8 : "", pt->core->boot_cpu, pt->core->name,
		 b->overlay_bytes);
	/* a Debian program's boot: which build of it ran; pinned, how */
	hs_cpulist_format(b->set->taskset, cpus, sizeof(cpus));
	if (b->set->wl && b->set->wl->prog)
		snprintf(b->desc + strlen(b->desc), sizeof(b->desc) - strlen(b->desc), "; running %s from %s%s%s",
			 b->set->wl->prog->name, b->set->wl->file, cpus[0] ? " under taskset -c " : "", cpus);
	else if (cpus[0])
		snprintf(b->desc + strlen(b->desc), sizeof(b->desc) - strlen(b->desc),
			 "; the workload under taskset -c %s", cpus);
	if (b->set->cgroup)
		snprintf(b->desc + strlen(b->desc), sizeof(b->desc) - strlen(b->desc), "; in cgroup %s (%s)",
			 b->set->cgroup->path, b->set->cgroup->controllers);
	if (b->set->cmdline)
		snprintf(b->desc + strlen(b->desc), sizeof(b->desc) - strlen(b->desc), "; kernel parameters %s",
			 b->set->cmdline);
	if (b->set->boot)
		snprintf(b->desc + strlen(b->desc), sizeof(b->desc) - strlen(b->desc), "; boot %u (hotsim_boot=%u)",
			 b->set->boot, b->set->boot);
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
		return hs_fail(HS_SNAP_SKIPPED "%s", skip);
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

/* A program's op (program.h): it ends where the process at the point
 * returns from the svc of end_site, a function of the same library, whose
 * base the site gives; only that process begins and ends one. */
static int program_end(const struct hs_boot_state *b, const struct hs_path_def *d, const struct hs_snap_point *p,
		       struct hs_bt_opspec *spec)
{
	uint64_t site, end;

	if (!b->set->wl || !b->set->wl->prog || hs_program_svc(b->set->wl, d->boot.point->site, &site) ||
	    hs_program_svc(b->set->wl, d->boot.op.end_site, &end))
		return b->set->wl && b->set->wl->prog ? -1 : hs_fail("%s: its program was not booted", d->name);
	spec->end_elr = p->site - site + end + 4;
	spec->mm = HS_TTBR_BADDR(p->regs.ttbr0);
	return 0;
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
	if (op->end_site && p->kind == HS_POINT_CALL)
		return program_end(b, d, p, spec);
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
		 "%s%s svc at 0x%llx (%s point), %u operations (%u warm-up)",
		 p->kind == HS_POINT_CALL ? d->boot.point->site : "the workload's",
		 p->kind == HS_POINT_CALL ? "()'s" : "", (unsigned long long)pc, p->name, n, op->warmup);
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
