/*
 * boot.c - boot an image under QEMU and take the snapshot at every point
 * the caller names (point.h; the workload's sites: kernels/workload/init.c).
 *
 * QEMU starts stopped; hotsim puts breakpoints on the labelled svc
 * instructions of the points the first run passes and lets the guest run.
 * At each stop it reads the registers through the gdbstub and RAM through
 * QMP (pmemsave), then moves on. A point reached from another one (an IRQ
 * point: the first tick of its kind after it) comes from that point's
 * machine, restored. With -icount the guest runs the same instructions
 * every time, so the same image, CPU and points give the same snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/a64.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

#define RAM_BASE 0x40000000ULL

/* A register that must exist; names[] are alternatives (QEMU names a
 * register that also has an AArch32 view by that view: "SCTLR"). */
static int reg(struct hs_qemu *q, const char *names, uint64_t *v)
{
	char buf[96], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", names);
	for (char *n = strtok_r(buf, "|", &save); n; n = strtok_r(NULL, "|", &save)) {
		uint8_t b[16];

		if (hs_rsp_reg(q, n, b) > 0)
			return hs_rsp_reg64(q, n, v);
	}
	return hs_fail("QEMU's gdbstub has no register %s", names);
}

static int read_regs(struct hs_qemu *q, struct hs_snap_regs *r)
{
	static const struct { const char *names; size_t off; } sys[] = {
#define R(n, f) { n, offsetof(struct hs_snap_regs, f) }
		R("SP_EL0", sp_el0), R("SP_EL1", sp_el1), R("ELR_EL1", elr), R("SPSR_EL1", spsr),
		R("ESR_EL1", esr), R("FAR_EL1", far), R("VBAR_EL1|VBAR", vbar),
		R("SCTLR_EL1|SCTLR", sctlr), R("TCR_EL1", tcr), R("TTBR0_EL1", ttbr0),
		R("TTBR1_EL1", ttbr1), R("MAIR_EL1", mair), R("CONTEXTIDR_EL1", contextidr),
		R("CPACR_EL1|CPACR", cpacr), R("MDSCR_EL1", mdscr), R("TPIDR_EL1", tpidr_el1),
		R("TPIDR_EL0", tpidr_el0), R("TPIDRRO_EL0", tpidrro_el0),
		R("CNTKCTL_EL1|CNTKCTL", cntkctl), R("CNTV_CTL_EL0", cntv_ctl),
		R("CNTV_CVAL_EL0", cntv_cval), R("CNTFRQ_EL0", cntfrq), R("fpsr", fpsr),
		R("fpcr", fpcr), R("sp", sp), R("pc", pc), R("cpsr", pstate),
#undef R
	};
	char name[16];

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		if (reg(q, name, &r->x[i]))
			return -1;
	}
	for (size_t i = 0; i < HS_ARRAY_SIZE(sys); i++)
		if (reg(q, sys[i].names, (uint64_t *)((char *)r + sys[i].off)))
			return -1;
	for (int i = 0; i < 32; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		if (hs_rsp_reg(q, name, r->v[i]) != 16)
			return hs_fail("QEMU's gdbstub has no 128-bit register %s", name);
	}
	/* QEMU keeps the live stack pointer in sp; the banked copy of the
	 * current level is stale */
	if ((r->pstate & 0xf) == 0)
		r->sp_el0 = r->sp;
	else if ((r->pstate & 0xf) == 5)
		r->sp_el1 = r->sp;
	return 0;
}

/* The ID registers the kernel's capability detection reads, as QEMU
 * implements them for this CPU (MIDR is not visible: see qemu_cpus.c). */
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

		if (reg(q, ids[i].names, &v))
			continue;	/* absent: reads as zero */
		h->idregs[h->nidregs].reg = ids[i].reg;
		h->idregs[h->nidregs].val = v;
		h->nidregs++;
	}
	return 0;
}

/* The guest's RAM now, mapped from a pmemsave file (deleted at once). */
static uint8_t *dump_ram(struct hs_qemu *q, const char *dir, uint64_t size)
{
	char path[300];
	uint8_t *m;
	int fd;

	snprintf(path, sizeof(path), "%s/ram.bin", dir);
	if (hs_qmp_pmemsave(q, RAM_BASE, size, path))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	if (fd < 0) {
		hs_fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		hs_fail("%s: cannot map the RAM dump", path);
		return NULL;
	}
	return m;
}

struct pages {
	struct hs_snap_page *idx;
	uint8_t *data;
	size_t n, cap;
};

static int add_page(struct pages *p, uint32_t pfn, uint32_t point, const uint8_t *src)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		void *i = realloc(p->idx, cap * sizeof(*p->idx)), *d;

		if (!i)
			return hs_fail("out of memory for the snapshot");
		p->idx = i;
		if (!(d = realloc(p->data, cap * HS_SNAP_PAGE)))
			return hs_fail("out of memory for the snapshot");
		p->data = d;
		p->cap = cap;
	}
	p->idx[p->n].pfn = pfn;
	p->idx[p->n].point = point;
	memcpy(p->data + p->n * HS_SNAP_PAGE, src, HS_SNAP_PAGE);
	p->n++;
	return 0;
}

static int is_zero(const uint8_t *p)
{
	static const uint8_t zero[HS_SNAP_PAGE];

	return !memcmp(p, zero, HS_SNAP_PAGE);
}

/* Point 0 keeps its non-zero pages; later points the pages that differ. */
static int take_ram(struct hs_qemu *q, const char *dir, uint64_t size, uint32_t point,
		    uint8_t **base, struct pages *p)
{
	uint8_t *ram = dump_ram(q, dir, size);

	if (!ram)
		return -1;
	for (uint64_t off = 0; off < size; off += HS_SNAP_PAGE) {
		int keep = point == 0 ? !is_zero(ram + off) : !!memcmp(ram + off, *base + off, HS_SNAP_PAGE);

		if (keep && add_page(p, (uint32_t)(off / HS_SNAP_PAGE), point, ram + off)) {
			munmap(ram, size);
			return -1;
		}
	}
	if (point == 0)
		*base = ram;
	else
		munmap(ram, size);
	return 0;
}

/* Run to the breakpoint at va; a timeout or a guest that ends says where
 * the boot got to (the console's last lines). */
static int run_to(struct hs_qemu *q, uint64_t va, unsigned timeout_s, const char *what)
{
	char tail[700];
	uint64_t pc;
	int rc;

	if (hs_rsp_break(q, va, 1))
		return -1;
	rc = hs_rsp_continue(q, timeout_s * 1000);
	if (rc == -2) {
		char at[40] = "";

		if (hs_rsp_interrupt(q, &pc) == 0)
			snprintf(at, sizeof(at), " (it runs at 0x%llx)", (unsigned long long)pc);
		return hs_fail("the guest did not reach %s within %u s%s; console: %s", what, timeout_s,
			       at, hs_qemu_console_tail(q, tail, sizeof(tail)));
	}
	if (rc)
		return hs_fail("%s before %s; console: %s", hs_errmsg(), what,
			       hs_qemu_console_tail(q, tail, sizeof(tail)));
	if (hs_rsp_pc(q, &pc))
		return -1;
	if (pc != va)
		return hs_fail("the guest stopped at 0x%llx, not at %s (0x%llx)", (unsigned long long)pc,
			       what, (unsigned long long)va);
	return hs_rsp_break(q, va, 0);
}

static int write_inputs(const struct hs_image *img, const char *dir, char *kernel, char *initrd,
			size_t len)
{
	snprintf(kernel, len, "%s/Image", dir);
	snprintf(initrd, len, "%s/initramfs.cpio", dir);
	if (hs_vm_write_flat_image(img, kernel))
		return -1;
	return hs_vm_write_initramfs(initrd, hs_workload_elf, hs_workload_elf_size);
}

/* Where point k stops: its svc, or the vector of its tick (VBAR_EL1 as
 * the point it is reached from had it). */
static void stop_at(const struct hs_snap *s, const struct hs_boot_point *pt, uint64_t after_vbar,
		    uint64_t *at, char *what, size_t len)
{
	if (pt->kind == HS_POINT_SVC) {
		*at = s->pts[s->h.npoints].site;
		snprintf(what, len, "the workload's %s", pt->site);
	} else {
		*at = after_vbar + a64_vector_offset(pt->from_el, A64_VEC_IRQ);
		snprintf(what, len, "a timer IRQ taken from EL%d", pt->from_el);
	}
}

/* Take the point the guest stopped at as the next one (index
 * s->h.npoints): registers, RAM, and the checks of its kind. */
static int take_point(struct hs_qemu *q, const struct hs_vm_boot *b, struct hs_snap *s,
		      const struct hs_boot_point *pt, uint8_t **base, struct pages *p)
{
	uint32_t k = s->h.npoints;
	struct hs_snap_regs *r = &s->pts[k].regs;

	if (read_regs(q, r) || (k == 0 && read_idregs(q, &s->h)) ||
	    take_ram(q, b->dir, s->h.ram_size, k, base, p))
		return -1;
	/* the guest resumes at its next timer deadline (walk_points) */
	r->counter = r->cntv_cval;
	if (pt->kind == HS_POINT_IRQ && (r->spsr & 0xf) != (pt->from_el ? 5u : 0u))
		return hs_fail("the IRQ at the %s point came from mode 0x%llx", pt->name,
			       (unsigned long long)(r->spsr & 0xf));
	s->h.npoints++;
	return 0;
}

/* The point named name among the caller's, or NULL. */
static const struct hs_boot_point *point_named(const struct hs_vm_boot *b, const char *name)
{
	for (unsigned i = 0; name && i < b->npoints; i++)
		if (!strcmp(b->points[i].name, name))
			return &b->points[i];
	return NULL;
}

/* Some later point is reached from this one's machine. */
static int is_base(const struct hs_vm_boot *b, const char *name)
{
	for (unsigned i = 0; i < b->npoints; i++)
		if (b->points[i].after && !strcmp(b->points[i].after, name))
			return 1;
	return 0;
}

/* Save the machine at the current stop as <point>.mig: where later points
 * start from, and (keep_dir) what validation restores. */
static int keep_machine(struct hs_qemu *q, const struct hs_vm_boot *b, const char *name)
{
	char path[400];

	if (!b->keep_dir && !is_base(b, name))
		return 0;
	snprintf(path, sizeof(path), "%s/%s.mig", b->keep_dir ? b->keep_dir : b->dir, name);
	return hs_qmp_migrate(q, path);
}

/* The first run: every point reached on the way, in the order the
 * workload reaches them (all their breakpoints armed at once). */
static int first_run(struct hs_qemu *q, const struct hs_vm_boot *b, struct hs_snap *s,
		     uint64_t *sites, uint8_t **base, struct pages *p)
{
	unsigned left = 0;
	char tail[700];

	for (unsigned i = 0; i < b->npoints; i++)
		if (!b->points[i].after && ++left && hs_rsp_break(q, sites[i], 1))
			return -1;
	while (left) {
		uint64_t pc;
		unsigned i;
		int rc = hs_rsp_continue(q, (s->h.npoints ? 60 : b->timeout_s) * 1000);

		if (rc == -2) {
			char at[40] = "";

			if (hs_rsp_interrupt(q, &pc) == 0)
				snprintf(at, sizeof(at), " (it runs at 0x%llx)", (unsigned long long)pc);
			return hs_fail("the guest did not reach the workload's next point within %u s%s; "
				       "console: %s", s->h.npoints ? 60 : b->timeout_s, at,
				       hs_qemu_console_tail(q, tail, sizeof(tail)));
		}
		if (rc)
			return hs_fail("%s before the workload's next point; console: %s", hs_errmsg(),
				       hs_qemu_console_tail(q, tail, sizeof(tail)));
		if (hs_rsp_pc(q, &pc))
			return -1;
		for (i = 0; i < b->npoints && (b->points[i].after || sites[i] != pc); i++)
			;
		if (i == b->npoints)
			return hs_fail("the guest stopped at 0x%llx, at no point's site", (unsigned long long)pc);
		memset(&s->pts[s->h.npoints], 0, sizeof(s->pts[0]));
		snprintf(s->pts[s->h.npoints].name, sizeof(s->pts[0].name), "%s", b->points[i].name);
		s->pts[s->h.npoints].kind = b->points[i].kind;
		s->pts[s->h.npoints].site = sites[i];
		if (hs_rsp_break(q, pc, 0) || take_point(q, b, s, &b->points[i], base, p) ||
		    keep_machine(q, b, b->points[i].name))
			return -1;
		left--;
	}
	return 0;
}

/*
 * Every point; fills s (its pages on the heap). The first run stops at
 * the svc points on the way; every other point comes from a copy of the
 * machine at the point it is reached from, because QEMU 7.2 with
 * sleep=off never resumes after a stop at an exception vector (a restored
 * copy does). A restored or resumed guest finds the clock at its next
 * timer deadline, so the tick is taken at once: an EL0 IRQ point after
 * the pipe point is that tick, at A's write(); an EL1 one the first tick
 * that finds A in the kernel after it. Every point's counter is therefore
 * its CNTV_CVAL.
 */
static int walk_points(struct hs_qemu *q, const struct hs_vm_boot *b, struct hs_qemu_cfg *cfg,
		       struct hs_snap *s, uint64_t *sites)
{
	struct pages p = { 0 };
	uint8_t *base = NULL;
	char mig[400], what[96];
	int rc = first_run(q, b, s, sites, &base, &p);

	for (unsigned i = 0; i < b->npoints && !rc; i++) {
		const struct hs_boot_point *pt = &b->points[i];
		int from = pt->after ? hs_snap_find(s, pt->after) : 0;
		uint64_t at;

		if (!pt->after)
			continue;
		if (from < 0) {
			rc = hs_fail("the %s point is reached from %s, which no run took", pt->name, pt->after);
			break;
		}
		snprintf(mig, sizeof(mig), "%s/%s.mig", b->keep_dir ? b->keep_dir : b->dir, pt->after);
		cfg->incoming = mig;
		memset(&s->pts[s->h.npoints], 0, sizeof(s->pts[0]));
		snprintf(s->pts[s->h.npoints].name, sizeof(s->pts[0].name), "%s", pt->name);
		snprintf(s->pts[s->h.npoints].after, sizeof(s->pts[0].after), "%s", pt->after);
		s->pts[s->h.npoints].kind = pt->kind;
		s->pts[s->h.npoints].from_el = pt->from_el;
		s->pts[s->h.npoints].site = sites[i];
		stop_at(s, pt, s->pts[from].regs.vbar, &at, what, sizeof(what));
		hs_qemu_stop(q);
		rc = hs_qemu_start(q, cfg) || run_to(q, at, 60, what) || take_point(q, b, s, pt, &base, &p) ||
		     (pt->kind == HS_POINT_SVC && keep_machine(q, b, pt->name));
	}
	if (!b->keep_dir)
		for (unsigned i = 0; i < b->npoints; i++)
			if (is_base(b, b->points[i].name)) {
				snprintf(mig, sizeof(mig), "%s/%s.mig", b->dir, b->points[i].name);
				unlink(mig);
			}
	if (base)
		munmap(base, s->h.ram_size);
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

int hs_vm_boot_image(const struct hs_image *img, const struct hs_vm_boot *b, struct hs_snap *s)
{
	struct hs_qemu_cfg cfg = { 0 };
	struct hs_qemu q;
	char kernel[300], initrd[300];
	uint64_t sites[HS_SNAP_MAX_POINTS] = { 0 };
	int rc;

	memset(s, 0, sizeof(*s));
	if (!b->npoints || b->npoints > HS_SNAP_MAX_POINTS)
		return hs_fail("%u boot points (1 to %u)", b->npoints, HS_SNAP_MAX_POINTS);
	snprintf(s->h.cpu, sizeof(s->h.cpu), "%s", b->cpu);
	s->h.ram_base = RAM_BASE;
	s->h.ram_size = (uint64_t)b->mem_mb << 20;
	s->h.midr = b->midr;
	for (unsigned i = 0; i < b->npoints; i++) {
		const struct hs_boot_point *pt = &b->points[i];

		if (pt->kind == HS_POINT_SVC && (!pt->site || hs_workload_sym(pt->site, &sites[i])))
			return hs_fail("the %s point: no site %s in the workload", pt->name,
				       pt->site ? pt->site : "(none)");
		if (pt->kind == HS_POINT_IRQ && !pt->after)
			return hs_fail("the %s point: an IRQ point is reached from another point", pt->name);
		if (pt->after && !point_named(b, pt->after))
			return hs_fail("the %s point is reached from %s, which is not asked for", pt->name,
				       pt->after);
	}
	if (!(s->pts = calloc(b->npoints, sizeof(*s->pts))))
		return hs_fail("out of memory for the snapshot");
	if (write_inputs(img, b->dir, kernel, initrd, sizeof(kernel)))
		goto fail;
	cfg.cpu = b->cpu;
	cfg.mem_mb = b->mem_mb;
	cfg.kernel = kernel;
	cfg.initrd = initrd;
	cfg.append = b->append;
	cfg.dir = b->dir;
	if (hs_qemu_start(&q, &cfg))
		goto fail;
	rc = walk_points(&q, b, &cfg, s, sites);
	hs_qemu_stop(&q);
	if (!rc)
		return 0;
fail:
	free(s->pts);
	s->pts = NULL;
	return -1;
}
