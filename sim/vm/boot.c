/*
 * boot.c - boot an image under QEMU and take the snapshot at every point
 * the caller names (point.h; the workload's sites: kernels/workload/init.c).
 *
 * QEMU starts stopped; hotsim puts breakpoints on the labelled svc
 * instructions of every point and lets the guest run. At each stop it
 * reads the registers through the gdbstub and RAM where QEMU keeps it
 * (boot_ram.c: its memfd, mapped, only the extents the guest wrote; else
 * QMP's pmemsave), then moves on (a machine of several CPUs boots again
 * for each point instead: walk_points). A guest that panics, halts or hangs on the way is
 * caught there (guest_end.c). With -icount the guest runs the same
 * instructions every time, so the same image, CPU and points give the
 * same snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/a64.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "hotsim/cpulist.h"
#include "hotsim/program.h"
#include "vm/boot_ram.h"
#include "vm/snapshot.h"
#include "vm/vm.h"


/* The ID registers the kernel's capability detection reads, as QEMU
 * implements them for this CPU (MIDR is not visible through the gdbstub:
 * the core file gives its boot CPU's, struct hs_qemu_cpu). */
static int read_idregs(struct hs_qemu *q, struct hs_snap_hdr *h)
{
	static const struct { const char *names; uint32_t reg; } ids[] = {
		{ "ID_AA64PFR0_EL1", HS_SYS_REG(3, 0, 0, 4, 0) },
		{ "ID_AA64PFR1_EL1", HS_SYS_REG(3, 0, 0, 4, 1) },
		{ "ID_AA64ZFR0_EL1", HS_SYS_REG(3, 0, 0, 4, 4) },
		{ "ID_AA64DFR0_EL1", HS_SYS_REG(3, 0, 0, 5, 0) },
		{ "ID_AA64ISAR0_EL1", HS_SYS_REG(3, 0, 0, 6, 0) },
		{ "ID_AA64ISAR1_EL1", HS_SYS_REG(3, 0, 0, 6, 1) },
		{ "ID_AA64ISAR2_EL1", HS_SYS_REG(3, 0, 0, 6, 2) },
		{ "ID_AA64MMFR0_EL1", HS_SYS_REG(3, 0, 0, 7, 0) },
		{ "ID_AA64MMFR1_EL1", HS_SYS_REG(3, 0, 0, 7, 1) },
		{ "ID_AA64MMFR2_EL1", HS_SYS_REG(3, 0, 0, 7, 2) },
		{ "CTR_EL0", HS_SYS_REG(3, 3, 0, 0, 1) },
		{ "CLIDR_EL1|CLIDR", HS_SYS_REG(3, 1, 0, 0, 1) },
		{ "REVIDR_EL1", HS_SYS_REG(3, 0, 0, 0, 6) },
	};

	h->nidregs = 0;
	for (size_t i = 0; i < HS_ARRAY_SIZE(ids); i++) {
		uint64_t v;

		if (hs_vm_reg(q, ids[i].names, &v))
			continue;	/* absent: reads as zero */
		h->idregs[h->nidregs].reg = ids[i].reg;
		h->idregs[h->nidregs].val = v;
		h->nidregs++;
	}
	return 0;
}

static int write_inputs(const struct hs_image *img, const struct hs_vm_boot *b, char *kernel, char *initrd,
			size_t len)
{
	snprintf(kernel, len, "%s/Image", b->dir);
	snprintf(initrd, len, "%s/initramfs.cpio", b->dir);
	if (hs_vm_write_flat_image(img, kernel))
		return -1;
	return hs_vm_write_initramfs(initrd, hs_workload_elf, hs_workload_elf_size, b);
}

/* A kernel that ignores -initrd gets the same files in its own rootfs. */
static int plant_files(struct hs_qemu *q, const struct hs_vm_ends *ends, const struct hs_vm_boot *b)
{
	struct hs_vm_file files[4] = { { "/init", hs_workload_elf, hs_workload_elf_size } };
	unsigned n = 1;

	if (b->wl)
		files[n++] = (struct hs_vm_file){ "/user", b->wl->elf, b->wl->size };
	if (b->taskset)
		files[n++] = (struct hs_vm_file){ "/taskset", hs_taskset_elf, hs_taskset_elf_size };
	if (b->cgroup)
		files[n++] = (struct hs_vm_file){ "/cgroup", hs_cgroup_elf, hs_cgroup_elf_size };
	return hs_vm_plant(q, ends, files, n, b->timeout_s);
}

/* Take the point the guest stopped at as the next one (index
 * s->h.npoints): registers, RAM, and the checks of its kind. */
/* A machine of more than one CPU: every CPU at point k, into its row of
 * s->cpus (sized for every point by the caller). */
static int take_cpus(struct hs_qemu *q, struct hs_snap *s, uint32_t k)
{
	struct hs_snap_cpu *c = s->cpus + (size_t)k * s->h.ncpus;

	if (!s->h.ncpus)
		return 0;
	if (hs_vm_read_cpus(q, c, s->h.ncpus))
		return -1;
	/* as the point's own registers: the time it resumes at */
	for (unsigned i = 0; i < s->h.ncpus; i++)
		c[i].regs.counter = s->pts[k].regs.cntv_cval;
	return 0;
}

static int take_point(struct hs_qemu *q, const struct hs_vm_boot *b, struct hs_snap *s, struct hs_boot_pages *p)
{
	uint32_t k = s->h.npoints;
	struct hs_snap_regs *r = &s->pts[k].regs;

	if (hs_vm_read_regs(q, r) || (k == 0 && read_idregs(q, &s->h)) ||
	    hs_boot_take_ram(q, b->dir, b->whole_ram, s->h.ram_size, k, p))
		return -1;
	/* the stopped guest's clock jumps to its next timer deadline (QEMU's
	 * icount warp): that is the time it resumes at, the tick due at once */
	r->counter = r->cntv_cval;
	if (take_cpus(q, s, k))
		return -1;
	s->h.npoints++;
	return 0;
}

/* Save the machine at the current stop as <point>.mig (keep_dir): what
 * validation restores, and its clock to the nanosecond. */
static int keep_machine(struct hs_qemu *q, const struct hs_vm_boot *b, const char *name, uint64_t *clock_ns)
{
	char path[400];

	if (!b->keep_dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.mig", b->keep_dir, name);
	return hs_qmp_migrate(q, path) || hs_mig_clock(path, clock_ns) ? -1 : 0;
}

/* "the getpid point" / "the points user.a, user.b": those not taken yet. */
static const char *pending(const struct hs_vm_boot *b, const struct hs_snap *s, char *buf, size_t len)
{
	char list[240] = "";
	size_t n = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < b->npoints && n < sizeof(list); i++) {
		int taken = 0;

		for (unsigned j = 0; j < s->h.npoints; j++)
			taken |= !strcmp(s->pts[j].name, b->points[i].name);
		taken |= hs_snap_skipped(s, b->points[i].name) != NULL;
		if (!taken)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", k++ ? ", " : "",
					      b->points[i].name);
	}
	if (k > 1)
		snprintf(buf, len, "the points %s", list);
	else
		snprintf(buf, len, "the %s point", list);
	return buf;
}

/* A guest string at va (at most len - 1 bytes), NUL-terminated */
static int guest_str(struct hs_qemu *q, uint64_t va, char *buf, size_t len)
{
	memset(buf, 0, len);
	for (size_t i = 0; i + 1 < len; i++)
		if (hs_rsp_read(q, va + i, &buf[i], 1))
			return -1;
		else if (!buf[i])
			break;
	return 0;
}

/* The workload stopped at hs_at_skip: the operation at site x0 cannot run
 * in this kernel, for reason x1 (user_op.h). Its point is recorded as
 * skipped, with why; 1 if it was one still to take. */
static int skipped(struct hs_qemu *q, const struct hs_vm_boot *b, struct hs_snap *s)
{
	char site[64], why[sizeof(s->h.skipped[0].why)];
	uint64_t x0, x1;

	if (hs_rsp_reg64(q, "x0", &x0) || hs_rsp_reg64(q, "x1", &x1) || guest_str(q, x0, site, sizeof(site)) ||
	    guest_str(q, x1, why, sizeof(why)))
		return -1;
	for (unsigned i = 0; i < b->npoints; i++) {
		if (!b->points[i].site || strcmp(b->points[i].site, site) || hs_snap_find(s, b->points[i].name) >= 0 ||
		    hs_snap_skipped(s, b->points[i].name) || s->h.nskipped == HS_SNAP_MAX_SKIPPED)
			continue;
		snprintf(s->h.skipped[s->h.nskipped].name, sizeof(s->h.skipped[0].name), "%s", b->points[i].name);
		snprintf(s->h.skipped[s->h.nskipped++].why, sizeof(why), "%s", why);
		return 1;
	}
	return 0;
}

/*
 * A machine's point is taken where every CPU but the site's is halted in
 * wfi, as between a benchmark's round trips on an otherwise idle machine.
 * QEMU's round robin can reach the site while another CPU is inside an
 * IRQ (a tick), and a wakeup from there finds no idle CPU: the replay
 * would keep both sides of the round trip on the site's CPU until its
 * turn ends. Such a hit is let pass - the site's breakpoint moves to the
 * instruction after it, and back when that is reached (the svc returned)
 * - at most BUSY_HITS times a point, and only a point its path reaches
 * once an operation (each_op: a round trip's loop); then it is taken as it
 * is (state shows each CPU). Only the CPUs the workload may run on count:
 * a pinned workload's wakeups go to no other, whatever it runs, and each
 * hit let pass is a stop the run goes on from, where the host's timing can
 * decide the rest (walk_points). 1: let pass.
 */
#define BUSY_HITS 16
static int let_pass(struct hs_qemu *q, const struct hs_vm_boot *b, const struct hs_snap *s, uint64_t *sites,
		    unsigned i, unsigned *passed, uint64_t *after)
{
	int awake;

	if (!s->h.ncpus || passed[i] == BUSY_HITS || !b->points[i].each_op)
		return 0;
	for (unsigned j = 0; j < b->npoints; j++)
		if (sites[j] == sites[i] + 4)
			return 0;
	if ((awake = hs_vm_cpus_awake(q, s->h.ncpus, b->taskset)) <= 0)
		return awake;
	passed[i]++;
	after[i] = sites[i] + 4;
	return hs_rsp_break(q, sites[i], 0) || hs_rsp_break(q, after[i], 1) ? -1 : 1;
}

/*
 * A program's boot (program.h): its points' sites are in a library whose
 * address the runner learns from the program's own process. The boot
 * stops at the runner's hs_at_program - x0 the library's base, x1 the
 * program's pid - and arms each site there (its offset in the library:
 * sites[i] holds it until then, the base added now).
 */
static int program_at(struct hs_qemu *q, const struct hs_vm_boot *b, const struct hs_vm_ends *ends,
		      uint64_t *sites, int only)
{
	Elf64_Sym at;
	uint64_t pc, base;
	int rc;

	if (hs_elf_sym(b->wl->elf, b->wl->size, "the program runner", SHT_SYMTAB, "hs_at_program", &at) ||
	    hs_rsp_break(q, at.st_value, 1))
		return -1;
	if ((rc = hs_vm_run(q, ends, b->timeout_s, b->wl->prog->argv[0], &pc)))
		return rc;
	if (pc != at.st_value)
		return hs_fail("the guest stopped at 0x%llx before %s ran", (unsigned long long)pc,
			       b->wl->prog->argv[0]);
	if (hs_rsp_reg64(q, "x0", &base) || hs_rsp_break(q, at.st_value, 0))
		return -1;
	for (unsigned i = 0; i < b->npoints; i++) {
		if (b->points[i].kind != HS_POINT_CALL)
			continue;
		sites[i] += base;
		if ((only < 0 || (unsigned)only == i) && hs_rsp_break(q, sites[i], 1))
			return -1;
	}
	return 0;
}

/* Whether this run takes point i: every point (only < 0) or the one. */
static int armed(const struct hs_vm_boot *b, const struct hs_snap *s, int only, unsigned i)
{
	return (only < 0 || (unsigned)only == i) && !hs_snap_skipped(s, b->points[i].name);
}

/* The points this run takes (only: one, or every point when < 0), in the
 * order the workload reaches them (all their breakpoints armed at once),
 * or skipped where the workload says this kernel cannot run its
 * operation. -2: the guest ended or hung first. */
static int take_run(struct hs_qemu *q, const struct hs_vm_boot *b, const struct hs_vm_ends *ends,
		    struct hs_snap *s, uint64_t *sites, struct hs_boot_pages *p, int only)
{
	unsigned left = 0, passed[HS_SNAP_MAX_POINTS] = { 0 }, first = s->h.npoints;
	uint64_t skip = 0, after[HS_SNAP_MAX_POINTS] = { 0 };
	int rearm = 0, rc;
	char names[300];

	/* a program's sites are armed once its library is mapped */
	for (unsigned i = 0; i < b->npoints; i++)
		if (armed(b, s, only, i) && ++left && b->points[i].kind != HS_POINT_CALL &&
		    hs_rsp_break(q, sites[i], 1))
			return -1;
	/* a machine skips before it boots (skip_lacking) */
	if (b->ncpus <= 1 && !hs_workload_sym("hs_at_skip", &skip) && hs_rsp_break(q, skip, 1))
		return -1;
	if (b->wl && b->wl->prog && (rc = program_at(q, b, ends, sites, only)))
		return rc;
	while (left) {
		uint64_t pc;
		unsigned i;
		/* none reached yet: the workload, not a list of every point */
		const char *goal = s->h.npoints == first && only < 0 && b->npoints > 1 ? "the workload" :
				   pending(b, s, names, sizeof(names));

		if ((rc = hs_vm_run(q, ends, s->h.npoints > first ? 60 : b->timeout_s, goal, &pc)))
			return rc;
		/* QEMU's gdbstub stops again at a breakpoint it resumes from: the
		 * skip label's is lifted when hit, and armed again at the next
		 * point, for an operation skipped after that one */
		if (skip && pc == skip) {
			if ((rc = skipped(q, b, s)) < 0 || hs_rsp_break(q, skip, 0))
				return -1;
			left -= (unsigned)rc;
			rearm = 1;
			continue;
		}
		if (rearm && hs_rsp_break(q, skip, 1))
			return -1;
		rearm = 0;
		/* a passed hit's call returned: its site is armed again */
		for (i = 0; i < b->npoints && after[i] != pc; i++)
			;
		if (i < b->npoints) {
			after[i] = 0;
			if (hs_rsp_break(q, pc, 0) || hs_rsp_break(q, sites[i], 1))
				return -1;
			continue;
		}
		for (i = 0; i < b->npoints && (sites[i] != pc || !armed(b, s, only, i)); i++)
			;
		if (i == b->npoints)
			return hs_fail("the guest stopped at 0x%llx, at no point's site", (unsigned long long)pc);
		if ((rc = let_pass(q, b, s, sites, i, passed, after)) < 0)
			return -1;
		if (rc)
			continue;
		memset(&s->pts[s->h.npoints], 0, sizeof(s->pts[0]));
		snprintf(s->pts[s->h.npoints].name, sizeof(s->pts[0].name), "%s", b->points[i].name);
		s->pts[s->h.npoints].kind = b->points[i].kind;
		s->pts[s->h.npoints].site = sites[i];
		if (hs_rsp_break(q, pc, 0) || take_point(q, b, s, p) ||
		    keep_machine(q, b, b->points[i].name, &s->pts[s->h.npoints - 1].clock_ns))
			return -1;
		left--;
	}
	return 0;
}

/*
 * A machine does not stop where the workload says it cannot run an
 * operation: a stop that finds another CPU with a task to run lets QEMU's
 * round robin run it for as long as the host takes to stop the machine
 * (docs/booted-state.md), and the boot would be the host's from there. Its
 * points whose operation needs a function the image lacks are skipped
 * before it boots, saying what the kernel lacks.
 */
static void skip_lacking(const struct hs_image *img, const struct hs_vm_boot *b, struct hs_snap *s)
{
	for (unsigned i = 0; b->ncpus > 1 && i < b->npoints; i++) {
		const struct hs_boot_point *p = &b->points[i];

		if (!p->needs || hs_sym_exact(img, p->needs) || s->h.nskipped == HS_SNAP_MAX_SKIPPED)
			continue;
		snprintf(s->h.skipped[s->h.nskipped].name, sizeof(s->h.skipped[0].name), "%s", p->name);
		snprintf(s->h.skipped[s->h.nskipped++].why, sizeof(s->h.skipped[0].why), HS_VM_LACKS,
			 p->needs_what ? p->needs_what : p->needs, p->needs);
	}
}

/*
 * One QEMU run from power-on to the points it takes (only: one, or every
 * point when < 0); sites as hs_vm_boot_image found them (a program's are
 * offsets: program_at adds its library's base to this run's copy).
 */
static int qemu_run(const struct hs_image *img, const struct hs_vm_boot *b, const struct hs_qemu_cfg *cfg,
		    struct hs_snap *s, const uint64_t *sites, struct hs_boot_pages *p, int only)
{
	uint64_t run_sites[HS_SNAP_MAX_POINTS];
	struct hs_vm_ends ends;
	struct hs_qemu q;
	int rc;

	memcpy(run_sites, sites, sizeof(run_sites));
	if (hs_qemu_start(&q, cfg))
		return -1;
	rc = hs_vm_ends_arm(&q, img, &ends);
	if (!rc && !hs_sym_exact(img, "initrd_start") && b->wl && b->wl->prog)
		rc = hs_fail("this kernel has no initramfs support (no initrd_start): %s's libraries "
			     "cannot come with it", b->wl->prog->name);
	else if (!rc && !hs_sym_exact(img, "initrd_start"))	/* it ignores -initrd (plant.c) */
		rc = plant_files(&q, &ends, b);
	if (!rc)
		rc = take_run(&q, b, &ends, s, run_sites, p, only);
	hs_qemu_stop(&q);
	return rc;
}

/*
 * Every point; fills s (its pages on the heap). One CPU takes them all in
 * one run: it records (qemu.c), which holds the clock at each stop to the
 * instructions run, so its stops decide nothing. A machine cannot record;
 * a stop its boot goes on from can decide the rest of it by the host's
 * timing, even with the other CPUs idle at it (docs/booted-state.md), so
 * it boots once for each point, every run ending at its one stop. Later
 * points keep the pages that differ from the first's, as in one run.
 */
static int walk_points(const struct hs_image *img, const struct hs_vm_boot *b, const struct hs_qemu_cfg *cfg,
		       struct hs_snap *s, const uint64_t *sites)
{
	struct hs_boot_pages p = { 0 };
	int rc = 0;

	if (b->ncpus <= 1)
		rc = qemu_run(img, b, cfg, s, sites, &p, -1);
	for (unsigned i = 0; b->ncpus > 1 && i < b->npoints && !rc; i++)
		if (!hs_snap_skipped(s, b->points[i].name))
			rc = qemu_run(img, b, cfg, s, sites, &p, (int)i);
	free(p.base);
	s->h.npages = (uint32_t)p.n;
	s->pages = p.idx;
	s->data = p.data;
	if (rc) {
		free(p.idx);
		free(p.data);
		s->pages = NULL;
		s->data = NULL;
	}
	return rc;
}

int hs_vm_taskset_fits(unsigned ncpus, uint64_t taskset)
{
	if (taskset && !hs_taskset_elf_size)
		return hs_fail("this hotsim was built without /taskset (apt-get install gcc-aarch64-linux-gnu, "
			       "then make)");
	return hs_cpulist_fits(taskset, ncpus);
}

int hs_vm_cgroup_fits(const struct hs_cgroup *cg)
{
	if (cg && !hs_cgroup_elf_size)
		return hs_fail("this hotsim was built without /cgroup (apt-get install gcc-aarch64-linux-gnu, "
			       "then make)");
	return 0;
}

int hs_vm_boot_image(const struct hs_image *img, const struct hs_vm_boot *b, struct hs_snap *s)
{
	struct hs_qemu_cfg cfg = { 0 };
	char kernel[300], initrd[300];
	uint64_t sites[HS_SNAP_MAX_POINTS] = { 0 };
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (!b->npoints || b->npoints > HS_SNAP_MAX_POINTS)
		return hs_fail("%u boot points (1 to %u)", b->npoints, HS_SNAP_MAX_POINTS);
	snprintf(s->h.cpu, sizeof(s->h.cpu), "%s", b->cpu);
	s->h.ram_base = HS_BOOT_RAM_BASE;
	s->h.ram_size = (uint64_t)b->mem_mb << 20;
	s->h.midr = b->midr;
	for (unsigned i = 0; i < b->npoints; i++) {
		const struct hs_boot_point *pt = &b->points[i];

		if (pt->addr)
			sites[i] = pt->addr;
		else if (pt->kind == HS_POINT_CALL) {
			/* the offset in the library; the base comes at program_at */
			if (!b->wl || b->wl->prog != pt->program)
				return hs_fail("the %s point: its program is not this boot's", pt->name);
			if (hs_program_svc(b->wl, pt->site, &sites[i]))
				return -1;
		} else if (!pt->site || hs_workload_sym(pt->site, &sites[i]))
			return hs_fail("the %s point: no site %s in the workload", pt->name,
				       pt->site ? pt->site : "(none)");
	}
	if (b->ncpus > HS_SNAP_MAX_CPUS)
		return hs_fail("%u CPUs (1 to %u)", b->ncpus, HS_SNAP_MAX_CPUS);
	if (hs_vm_taskset_fits(b->ncpus, b->taskset) || hs_vm_cgroup_fits(b->cgroup))
		return -1;
	/* one CPU is the point's own registers; more keep every CPU */
	s->h.ncpus = b->ncpus > 1 ? b->ncpus : 0;
	if (!(s->pts = calloc(b->npoints, sizeof(*s->pts))) ||
	    (s->h.ncpus && !(s->cpus = calloc((size_t)b->npoints * s->h.ncpus, sizeof(*s->cpus))))) {
		free(s->pts);
		s->pts = NULL;
		return hs_fail("out of memory for the snapshot");
	}
	if (write_inputs(img, b, kernel, initrd, sizeof(kernel)))
		goto fail;
	cfg.cpu = b->cpu;
	cfg.mem_mb = b->mem_mb;
	cfg.kernel = kernel;
	cfg.initrd = initrd;
	cfg.append = b->append;
	cfg.dir = b->dir;
	cfg.record = b->record && !b->keep_dir;
	cfg.ncpus = b->ncpus;
	skip_lacking(img, b, s);
	rc = walk_points(img, b, &cfg, s, sites);
	if (!rc)
		return 0;
fail:
	free(s->pts);
	free(s->cpus);
	s->pts = NULL;
	s->cpus = NULL;
	return rc == -2 ? -2 : -1;
}
