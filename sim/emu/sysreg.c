/*
 * sysreg.c - system registers the functional core lacks or must answer
 * deterministically:
 *  - the GICv3 CPU interface (ICC_*): Unicorn has none, the MRS/MSR UDEF
 *    and are emulated from the interrupt hook (then pc += 4);
 *  - generic-timer counters: derived from the instruction count, so time
 *    advances the same way on every run (no host clock);
 *  - identification registers: the modelled core's values;
 *  - SMCCC firmware calls (smc/hvc): answered as Trusted Firmware-A would.
 * Any other unimplemented register stops the run, naming it and the pc.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/runner_internal.h"

#define ENC(op0, op1, crn, crm, op2) A64_SYSREG(op0, op1, crn, crm, op2)

#define ICC_IAR1	ENC(3, 0, 12, 12, 0)
#define ICC_EOIR1	ENC(3, 0, 12, 12, 1)
#define ICC_HPPIR1	ENC(3, 0, 12, 12, 2)
#define ICC_BPR1	ENC(3, 0, 12, 12, 3)
#define ICC_CTLR	ENC(3, 0, 12, 12, 4)
#define ICC_SRE		ENC(3, 0, 12, 12, 5)
#define ICC_IGRPEN1	ENC(3, 0, 12, 12, 7)
#define ICC_PMR		ENC(3, 0, 4, 6, 0)
#define ICC_DIR		ENC(3, 0, 12, 11, 1)
#define ICC_RPR		ENC(3, 0, 12, 11, 3)
#define ICC_SGI1R	ENC(3, 0, 12, 11, 5)
#define CNTFRQ		ENC(3, 3, 14, 0, 0)
#define CNTPCT		ENC(3, 3, 14, 0, 1)
#define CNTVCT		ENC(3, 3, 14, 0, 2)
#define CNTPCTSS	ENC(3, 3, 14, 0, 5)
#define CNTVCTSS	ENC(3, 3, 14, 0, 6)
#define MIDR		ENC(3, 0, 0, 0, 0)
#define MPIDR		ENC(3, 0, 0, 0, 5)
#define REVIDR		ENC(3, 0, 0, 0, 6)

#define SPURIOUS_INTID 1023

/* Timer frequency the counters tick at; a common SoC value (25 MHz). */
#define COUNTER_HZ 25000000ULL
/* One counter tick per 40 instructions: ~1 GHz at ~1 IPC against 25 MHz. */
#define INSNS_PER_TICK 40

void hs_rt_sysreg_init(struct hs_runner *r)
{
	r->gic_pending = SPURIOUS_INTID;
	r->icc_pmr = 0xf0;	/* GICD_INT_DEF_PRI | priority masking off */
	r->icc_ctlr = 0x400;	/* 16-bit INTIDs */
	r->icc_igrpen1 = 1;
}

static uint16_t enc_of(const uc_arm64_cp_reg *cp)
{
	return ENC(cp->op0, cp->op1, cp->crn, cp->crm, cp->op2);
}

static uint64_t counter(const struct hs_runner *r)
{
	return 1000000000ULL + r->icount / INSNS_PER_TICK;
}

/* Implemented registers whose values hotsim decides (MRS/MSR hooks). */
uint32_t hs_rt_sysreg_hook(struct hs_runner *r, uc_engine *uc, uc_arm64_reg rt,
			   const uc_arm64_cp_reg *cp, int write)
{
	uint64_t v;

	if (r->be->sysreg && r->be->sysreg(r, rt, enc_of(cp), write))
		return 1;
	if (write)
		return 0;
	switch (enc_of(cp)) {
	case CNTPCT: case CNTVCT: case CNTPCTSS: case CNTVCTSS:
		v = counter(r);
		break;
	case CNTFRQ:
		v = COUNTER_HZ;
		break;
	case MIDR:
		v = r->core ? r->core->midr : 0;
		break;
	case REVIDR:
		v = 0;
		break;
	case MPIDR:
		v = 0x80000000ULL;	/* uniprocessor-format bit set, affinity 0 */
		break;
	default:
		return 0;
	}
	if (rt != UC_ARM64_REG_XZR)
		uc_reg_write(uc, rt, &v);
	return 1;
}

#define set_x hs_rt_set_x
#define get_x hs_rt_x

/* A GIC CPU interface register: 1 done (*v the value read), 0 not one,
 * -1 accessed the wrong way. */
static int gic_reg(struct hs_runner *r, uint16_t enc, int read, unsigned rt, uint64_t *v)
{
	switch (enc) {
	case ICC_IAR1:
		if (!read)
			return -1;
		if (r->be->gic_ack) {
			*v = r->be->gic_ack(r);
			return 1;
		}
		*v = r->gic_pending;
		r->gic_pending = SPURIOUS_INTID;	/* acknowledged */
		return 1;
	case ICC_HPPIR1:
		if (!read)
			return -1;
		*v = r->be->gic_pending ? r->be->gic_pending(r) : r->gic_pending;
		return 1;
	case ICC_EOIR1: case ICC_DIR: case ICC_SGI1R:
		if (read)
			return -1;
		r->gic_eois += enc == ICC_EOIR1;
		if (enc != ICC_SGI1R && r->be->gic_eoi)
			r->be->gic_eoi(r, (uint32_t)(get_x(r, rt) & 0xffffff));
		else if (enc == ICC_SGI1R && r->be->gic_sgi)
			r->be->gic_sgi(r, get_x(r, rt));
		return 1;
	case ICC_RPR:
		if (!read)
			return -1;
		*v = 0xff;	/* idle priority: nothing active */
		return 1;
	case ICC_SRE:
		*v = 7;	/* SRE | DFB | DIB: system register interface on */
		return 1;
	default:
		return 0;
	}
}

/* The GIC's plain state registers: read back what was written. */
static uint64_t *gic_state(struct hs_runner *r, uint16_t enc, uint64_t *mask)
{
	switch (enc) {
	case ICC_PMR: *mask = 0xff; return &r->icc_pmr;
	case ICC_BPR1: *mask = 7; return &r->icc_bpr1;
	case ICC_CTLR: *mask = ~0ULL; return &r->icc_ctlr;
	case ICC_IGRPEN1: *mask = 1; return &r->icc_igrpen1;
	default: return NULL;
	}
}

int hs_rt_emulate_sysreg(struct hs_runner *r, uint64_t pc, uint32_t word)
{
	int read = (int)a64_sys_read(word), k;
	unsigned rt = a64_rt(word);
	uint16_t enc = a64_mrs_sysreg(word);
	uint64_t v = 0, next = pc + 4, mask, *st;
	char where[128];
	const char *name;

	if ((st = gic_state(r, enc, &mask)) != NULL) {
		if (read)
			v = *st;
		else
			*st = get_x(r, rt) & mask;
	} else if ((k = gic_reg(r, enc, read, rt, &v)) != 1) {
		goto unknown;
	}
	if (read)
		set_x(r, rt, v);
	uc_reg_write(r->uc, UC_ARM64_REG_PC, &next);
	if (r->tracing && r->tr && r->tr->n)
		r->tr->v[r->tr->n - 1].flags |= HS_T_SYSREG_EMU;
	return 0;
unknown:
	name = a64_sysreg_name(enc);
	hs_rt_stop(r, "unimplemented system register %s%sS%u_%u_C%u_C%u_%u%s %s at %s",
		   name ? name : "", name ? " (" : "", A64_SYSREG_OP0(enc), A64_SYSREG_OP1(enc),
		   A64_SYSREG_CRN(enc), A64_SYSREG_CRM(enc), A64_SYSREG_OP2(enc), name ? ")" : "",
		   read ? "read" : "written",
		   hs_addr_fmt(r->img, pc, where, sizeof(where)));
	return -1;
}

/*
 * SMCCC 1.1 (Arm DEN 0028): the kernel calls firmware for Spectre
 * workarounds. Trusted Firmware-A answers ARCH_WORKAROUND_1/3 with success
 * after doing the work in EL3; hotsim records the call (the cost models
 * charge a named firmware-call cost) and returns SMCCC_RET_SUCCESS.
 */
int hs_rt_firmware_call(struct hs_runner *r)
{
	uint64_t fid = get_x(r, 0), ret;

	switch (fid & 0xffffffffu) {
	case 0x80000000u:	/* SMCCC_VERSION: 1.1 */
		ret = 0x10001;
		break;
	case 0x80000001u:	/* SMCCC_ARCH_FEATURES */
	case 0x80008000u:	/* ARCH_WORKAROUND_1 */
	case 0x80007fffu:	/* ARCH_WORKAROUND_2 */
	case 0x80003fffu:	/* ARCH_WORKAROUND_3 */
		ret = 0;
		break;
	default:
		hs_rt_stop(r, "firmware call 0x%llx hotsim does not emulate",
			   (unsigned long long)fid);
		return -1;
	}
	set_x(r, 0, ret);
	if (r->tr && r->tracing) {
		r->tr->firmware_calls++;
		if (r->tr->n)
			r->tr->v[r->tr->n - 1].flags |= HS_T_FIRMWARE;
	}
	return 0;
}
