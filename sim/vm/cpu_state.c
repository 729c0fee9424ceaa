/*
 * cpu_state.c - what a CPU of the stopped guest holds, read through QEMU's
 * gdbstub (registers) and its physical address space (the GIC
 * redistributor's frames): the snapshot's registers of the point's CPU
 * and, for a machine of more than one CPU, every CPU (snapshot.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/a64.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

/* QEMU virt's GICv3 redistributors: one 128 KiB pair of frames per CPU
 * (RD_base, then SGI_base), from VIRT_GIC_REDIST (hw/arm/virt.c) */
#define GICR_BASE 0x080a0000ULL
#define GICR_STRIDE 0x20000ULL
#define GICR_WAKER 0x14
#define GICR_SGI 0x10000
#define GICR_ISENABLER0 0x100
#define GICR_ISPENDR0 0x200
#define GICR_ISACTIVER0 0x300
#define GICR_IPRIORITYR 0x400

int hs_vm_reg(struct hs_qemu *q, const char *names, uint64_t *v)
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
int hs_vm_read_regs(struct hs_qemu *q, struct hs_snap_regs *r)
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
		if (hs_vm_reg(q, name, &r->x[i]))
			return -1;
	}
	for (size_t i = 0; i < HS_ARRAY_SIZE(sys); i++)
		if (hs_vm_reg(q, sys[i].names, (uint64_t *)((char *)r + sys[i].off)))
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


/* A word of the redistributor's frames of CPU cpu (physical addresses). */
static int gicr_read(struct hs_qemu *q, unsigned cpu, uint64_t off, void *buf, size_t len)
{
	return hs_rsp_read(q, GICR_BASE + cpu * GICR_STRIDE + off, buf, len);
}

static int read_gic(struct hs_qemu *q, unsigned cpu, struct hs_snap_gic *g)
{
	static const char *const icc[] = { "ICC_PMR_EL1", "ICC_IGRPEN1_EL1", "ICC_BPR1_EL1",
					   "ICC_CTLR_EL1", "ICC_AP1R0_EL1" };
	uint64_t *v[] = { &g->icc_pmr, &g->icc_igrpen1, &g->icc_bpr1, &g->icc_ctlr, &g->icc_ap1r0 };
	int rc;

	/* the CPU interface's registers are not all visible through every
	 * QEMU's gdbstub: has_icc says whether they were */
	g->has_icc = 1;
	for (size_t i = 0; i < HS_ARRAY_SIZE(icc); i++) {
		uint8_t b[16];

		if (hs_rsp_reg(q, icc[i], b) <= 0 || hs_rsp_reg64(q, icc[i], v[i]))
			g->has_icc = 0;
	}
	if (hs_rsp_phys(q, 1))
		return -1;
	rc = gicr_read(q, cpu, GICR_WAKER, &g->waker, 4) ||
	     gicr_read(q, cpu, GICR_SGI + GICR_ISENABLER0, &g->enable, 4) ||
	     gicr_read(q, cpu, GICR_SGI + GICR_ISPENDR0, &g->pending, 4) ||
	     gicr_read(q, cpu, GICR_SGI + GICR_ISACTIVER0, &g->active, 4) ||
	     gicr_read(q, cpu, GICR_SGI + GICR_IPRIORITYR, g->prio, sizeof(g->prio));
	if (hs_rsp_phys(q, 0) || rc)
		return hs_fail("the GIC redistributor of CPU %u: %s", cpu, hs_errmsg());
	return 0;
}

/* Halted in a wfi: QEMU stops a waiting CPU just past it (an awake CPU
 * past a wfi would already have taken its interrupt). */
static int halted(struct hs_qemu *q, uint64_t pc)
{
	uint32_t w = 0;

	return hs_rsp_read(q, pc - 4, &w, 4) == 0 && a64_is_wfi(w);
}

int hs_vm_cpus_awake(struct hs_qemu *q, unsigned n, uint64_t mask)
{
	unsigned stop = q->stop_cpu;
	int awake = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t pc;

		if (i == stop || (mask && !(mask >> i & 1)))
			continue;
		if (hs_rsp_cpu(q, i) || hs_rsp_pc(q, &pc))
			return -1;
		awake += !halted(q, pc);
	}
	return hs_rsp_cpu(q, stop) ? -1 : awake;
}

int hs_vm_read_cpus(struct hs_qemu *q, struct hs_snap_cpu *c, unsigned n)
{
	unsigned stop = q->stop_cpu;
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].index = i;
		/* QEMU virt's: Aff0 the index within a cluster of 8, RES1 bit 31 */
		c[i].mpidr = 0x80000000ULL | (uint64_t)(i / 8) << 8 | i % 8;
		c[i].flags = i == stop ? HS_SNAP_CPU_STOPPED : 0;
		rc = hs_rsp_cpu(q, i) || hs_vm_read_regs(q, &c[i].regs) || read_gic(q, i, &c[i].gic);
		if (!rc && halted(q, c[i].regs.pc))
			c[i].flags |= HS_SNAP_CPU_HALTED;
	}
	/* the stopped CPU again, for whatever reads next */
	if (hs_rsp_cpu(q, stop))
		return -1;
	return rc ? -1 : 0;
}
