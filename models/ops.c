/*
 * ops.c - from a classified static instruction (a64.h) to what the engines
 * need: which unit it occupies and for how long, the latency of each result,
 * which operands are addresses or store data, the issue rules that apply and
 * which parameter its cost comes from. Built once per decode-cache entry and
 * parameter set, so the engines never decode per record.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "model_internal.h"

#define SR_TPIDR_EL1	A64_SYSREG(3, 0, 13, 0, 4)
#define SR_TPIDR_EL0	A64_SYSREG(3, 3, 13, 0, 2)
#define SR_TPIDRRO_EL0	A64_SYSREG(3, 3, 13, 0, 3)
#define SR_TPIDR_EL2	A64_SYSREG(3, 4, 13, 0, 2)
#define SR_SP_EL0	A64_SYSREG(3, 0, 4, 1, 0)
#define SR_DAIF		A64_SYSREG(3, 3, 4, 2, 1)
/* msr <pstatefield>, #imm as the decoder encodes it: A64_SYSREG(0, op1, 4, 0, op2) */
#define PS_PAN		A64_SYSREG(0, 0, 4, 0, 4)
#define PS_DAIFSET	A64_SYSREG(0, 3, 4, 0, 6)
#define PS_DAIFCLR	A64_SYSREG(0, 3, 4, 0, 7)

static uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static uint16_t clamp16(int v)
{
	return (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
}

/* Value of parameter pid for op; an uncalibrated parameter makes the op's
 * cost uncalibrated (its cycles are counted in uncalibrated_cycles). */
static int pv(const struct hs_model *m, struct hs_op *op, enum hs_pid pid)
{
	if (!m->p[pid].calibrated)
		op->fl |= HS_OP_UNCAL;
	return m->v[pid];
}

/* The cost of a serialising/system op comes from parameter pid. */
static void costed(const struct hs_model *m, struct hs_op *op, enum hs_pid pid, unsigned fl)
{
	op->param = (uint8_t)pid;
	op->cost = clamp16(m->v[pid]);
	op->fl |= (uint16_t)fl;
	if (!m->p[pid].calibrated)
		op->fl |= HS_OP_UNCAL;
}

static enum hs_pid mrs_param(uint16_t sr)
{
	switch (sr) {
	case SR_TPIDR_EL1: case SR_TPIDR_EL0: case SR_TPIDRRO_EL0: case SR_TPIDR_EL2:
		return HS_P_MRS_TPIDR;
	case SR_SP_EL0:
		return HS_P_MRS_SP_EL0;
	case SR_DAIF:
		return HS_P_MRS_DAIF;
	default:
		return HS_P_MRS_OTHER;
	}
}

static enum hs_pid msr_param(uint16_t sr)
{
	switch (mrs_param(sr)) {
	case HS_P_MRS_TPIDR: return HS_P_MSR_TPIDR;
	case HS_P_MRS_SP_EL0: return HS_P_MSR_SP_EL0;
	case HS_P_MRS_DAIF: return HS_P_MSR_DAIF;
	default: return HS_P_MSR_OTHER;
	}
}

/* sys/sysl by CRn/CRm: tlbi (CRn 8, 9), ic (CRn 7, CRm 1/5), at (CRm 8/9), dc */
static enum hs_pid sys_param(uint16_t sr)
{
	unsigned crn = A64_SYSREG_CRN(sr), crm = A64_SYSREG_CRM(sr);

	if (crn == 8 || crn == 9)
		return HS_P_TLBI;
	if (crn == 7 && (crm == 1 || crm == 5))
		return HS_P_IC;
	if (crn == 7 && (crm == 8 || crm == 9))
		return HS_P_SYS_OTHER;
	if (crn == 7)
		return HS_P_DC;
	return HS_P_SYS_OTHER;
}

/* register id of field r as a GPR (31 = SP for a base, XZR otherwise) */
static unsigned base_id(uint32_t w)
{
	unsigned rn = a64_rn(w);

	return rn == 31 ? A64_R_SP : rn;
}

/* Memory operands: which srcs are addresses (base, register offset) and
 * which are store data; which dsts are the writeback base. */
static void mem_operands(struct hs_op *op, const struct a64_insn *in, int literal)
{
	unsigned b = base_id(in->word), rm = a64_rm(in->word);

	for (unsigned s = 0; s < op->nsrc; s++) {
		if (!literal && (op->src[s] == b || ((in->flags & A64_F_REGOFF) && op->src[s] == rm)))
			op->addr_mask |= (uint8_t)(1u << s);
		else
			op->data_mask |= (uint8_t)(1u << s);
	}
	for (unsigned d = 0; d < op->ndst; d++)
		if ((in->flags & A64_F_WB) && op->dst[d] == b)
			op->wb_mask |= (uint8_t)(1u << d);
}

/* ldp/stp/ldxp: two registers */
static int is_pair(const struct a64_insn *in)
{
	return !!(in->flags & A64_F_PAIR);
}

static void set_dlat(struct hs_op *op, int lat)
{
	for (unsigned d = 0; d < op->ndst; d++)
		op->dlat[d] = clamp8(lat);
}

/* Loads: first register lat_load (or narrow), second of a pair lat_ldp2,
 * writeback base one ALU latency. */
static void load_lats(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in,
		      int lat)
{
	unsigned rt2 = a64_rt2(in->word);
	unsigned rt2_id = (in->flags & A64_F_FPREG) ? A64_R_V0 + rt2 : rt2;

	for (unsigned d = 0; d < op->ndst; d++) {
		if (op->wb_mask & (1u << d))
			op->dlat[d] = clamp8(pv(m, op, HS_P_LAT_ALU));
		else if (is_pair(in) && op->dst[d] == rt2_id && d > 0)
			op->dlat[d] = clamp8(pv(m, op, HS_P_LAT_LDP2) > lat ? pv(m, op, HS_P_LAT_LDP2) : lat);
		else
			op->dlat[d] = clamp8(lat);
	}
}

static void mul_kind(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	uint32_t w = in->word;
	unsigned op31 = a64_dp3_op31(w), ra = a64_ra(w);

	if (a64_is_crc32(w)) {
		set_dlat(op, pv(m, op, HS_P_LAT_CRC));
		return;
	}
	if (op31 == 1 || op31 == 5) {			/* [su]m{add,sub}l, [su]mull */
		set_dlat(op, pv(m, op, HS_P_LAT_MULL));
	} else if (ra == 31) {				/* mul, mneg */
		set_dlat(op, (in->flags & A64_F_64) ? pv(m, op, HS_P_LAT_MUL) : pv(m, op, HS_P_LAT_MUL32));
		op->occ = clamp8((in->flags & A64_F_64) ? pv(m, op, HS_P_OCC_MUL) : 1);
	} else {					/* madd, msub */
		set_dlat(op, pv(m, op, HS_P_LAT_MADD));
		op->occ = clamp8(pv(m, op, HS_P_OCC_MADD));
	}
	if (pv(m, op, HS_P_MUL_SINGLE))
		op->fl |= HS_OP_SINGLE;
}

/* An 8-byte load with a register offset (IB72: ldr (reg) 5.00 against
 * 4.00 with an immediate; narrower ones are not slower). An extra of 0
 * adds nothing, so it marks nothing uncalibrated. */
static int regoff_extra(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in,
			unsigned each)
{
	if (!(in->flags & A64_F_REGOFF) || each != 8 || (in->flags & A64_F_FPREG) ||
	    !m->v[HS_P_REGOFF_EXTRA])
		return 0;
	return pv(m, op, HS_P_REGOFF_EXTRA);
}

static void build_mem(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	unsigned each = in->mem_size / (is_pair(in) ? 2 : 1);

	mem_operands(op, in, !!(in->flags & A64_F_LITERAL));
	switch (in->cls) {
	case A64_C_LOAD:
		op->unit = HS_U_LOAD;
		op->fl |= HS_OP_LOAD;
		load_lats(m, op, in, (each < 4 || (in->flags & A64_F_SIGNEXT)
					      ? pv(m, op, HS_P_LAT_LOAD_NARROW)
					      : pv(m, op, HS_P_LAT_LOAD)) + regoff_extra(m, op, in, each));
		break;
	case A64_C_LOAD_EX:
		op->unit = HS_U_LOAD;
		op->fl |= HS_OP_LOAD;
		costed(m, op, HS_P_LDXR, 0);
		load_lats(m, op, in, op->cost);
		break;
	case A64_C_STORE:
		op->unit = HS_U_STORE;
		op->fl |= HS_OP_STORE;
		set_dlat(op, pv(m, op, HS_P_LAT_ALU));	/* only a writeback base */
		break;
	case A64_C_STORE_EX:
		op->unit = HS_U_STORE;
		op->fl |= HS_OP_STORE;
		costed(m, op, HS_P_STXR, 0);
		for (unsigned d = 0; d < op->ndst; d++)	/* status register (and wb) */
			op->dlat[d] = (op->wb_mask & (1u << d)) ? clamp8(pv(m, op, HS_P_LAT_ALU))
								: clamp8(op->cost);
		break;
	case A64_C_ATOMIC: {
		/* cas/casp live in the exclusive group (bits 29:24 = 001000),
		 * the ld<op>/swp family at 0x38 */
		int cas = a64_is_ldst_excl(in->word);

		op->unit = HS_U_LOAD;
		op->fl |= HS_OP_LOAD | HS_OP_STORE | HS_OP_SINGLE;
		costed(m, op, cas ? HS_P_CAS : HS_P_LSE_ATOMIC, 0);
		/* the memory pipe is busy until the read-modify-write is done */
		op->occ = clamp8(op->cost ? op->cost : 1);
		set_dlat(op, op->cost);
		if (in->flags & A64_F_REL)
			op->fl |= HS_OP_MEMBAR;
		break;
	}
	case A64_C_PRFM:
		op->unit = HS_U_LOAD;
		op->fl |= HS_OP_LOAD;	/* fills the cache; nothing waits for it */
		break;
	}
	if (is_pair(in) && pv(m, op, HS_P_PAIR_SINGLE))
		op->fl |= HS_OP_SINGLE;
	if (is_pair(in) && in->cls == A64_C_LOAD)
		op->occ = clamp8(pv(m, op, HS_P_OCC_LDP));
}

/* --- per class: a table row, and a builder where a row is not enough --- */

static void b_none(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	(void)m, (void)in;
	op->nsrc = op->ndst = 0;
	op->fl |= HS_OP_NOP;	/* the OoO engine may retire it without a pipe (nop_per_cycle) */
}

/*
 * A shifted or extended register operand. Where the core has cheap forms
 * (Neoverse N1, IBG2: add/sub with LSL by at most 4, and logical ops that
 * set no flags, at any shift, cost one cycle on any of the integer pipes;
 * LN1 IsCheapLSL) the op is a plain ALU op; the others take lat_alu_shift
 * and, with shift_ops_on_mul, issue on the multi-cycle M pipe (A72 and N1:
 * one shifted op per cycle, IB72/IBG2). A rule that is off costs nothing,
 * so it marks nothing uncalibrated.
 */
static void b_alu_shift(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	uint32_t w = in->word;
	unsigned type = a64_shift_type(w), amount = a64_shift_amount(w);

	/* a logical op that sets flags (ands, bics) is not a cheap one */
	if (a64_is_logic_shifted(w) && !(in->flags & A64_F_SETFLAGS) && m->v[HS_P_CHEAP_LOGIC]) {
		pv(m, op, HS_P_CHEAP_LOGIC);
		set_dlat(op, pv(m, op, HS_P_LAT_ALU));
		return;
	}
	if (a64_is_addsub_shifted(w) && type == 0 && m->v[HS_P_CHEAP_LSL] &&
	    amount <= (unsigned)m->v[HS_P_CHEAP_LSL]) {
		pv(m, op, HS_P_CHEAP_LSL);
		set_dlat(op, pv(m, op, HS_P_LAT_ALU));
		return;
	}
	if (m->v[HS_P_SHIFT_ON_MUL] && pv(m, op, HS_P_SHIFT_ON_MUL))
		op->unit = HS_U_MUL;
}

static void b_pac(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	/* without FEAT_PAuth the hint-space PAC ops are NOPs */
	if (!pv(m, op, HS_P_HAS_PAUTH))
		b_none(m, op, in);
}

static void b_shift_reg(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	/* fewer per cycle than there are ALU pipes (IB: A53 lslv 1 per cycle):
	 * a unit of its own, busy 1/throughput cycles */
	double tput = m->p[HS_P_SHIFT_REG_TPUT].value;

	(void)in;
	if (tput > 0 && tput < pv(m, op, HS_P_ALU_PIPES)) {
		op->unit = HS_U_SHIFT;
		op->occ = clamp8(tput >= 1 ? 1 : (int)(1.0 / tput + 0.999));
	}
}

static void b_mulh(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	(void)in;
	op->occ = clamp8(pv(m, op, HS_P_OCC_MULH));
	if (pv(m, op, HS_P_MUL_SINGLE))
		op->fl |= HS_OP_SINGLE;
}

static void b_div(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	int lat = (in->flags & A64_F_64) ? pv(m, op, HS_P_LAT_DIV64) : pv(m, op, HS_P_LAT_DIV32);

	op->fl |= HS_OP_DIV | HS_OP_SLOT0;	/* GCC53: slot 0 + the divider */
	set_dlat(op, lat);
	op->occ = clamp8(lat);
}

static void b_dmb(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	unsigned opt = in->cond & 3;	/* CRm<1:0>: 1 LD, 2 ST, 3 all */

	costed(m, op, opt == 1 ? HS_P_DMB_LD : opt == 2 ? HS_P_DMB_ST : HS_P_DMB,
	       HS_OP_SINGLE | HS_OP_MEMBAR);
}

static void b_mrs(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	/* the sysreg read path is outside the forwarding network: alone */
	costed(m, op, mrs_param(in->sysreg), HS_OP_SINGLE);
	set_dlat(op, op->cost);
}

static void b_msr(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	costed(m, op, msr_param(in->sysreg), HS_OP_SINGLE | HS_OP_HOLD);
}

static void b_msr_imm(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	enum hs_pid pid = in->sysreg == PS_PAN ? HS_P_PAN :
			  (in->sysreg == PS_DAIFSET || in->sysreg == PS_DAIFCLR) ? HS_P_MSR_DAIF_IMM :
										  HS_P_MSR_OTHER;

	costed(m, op, pid, HS_OP_SINGLE | HS_OP_HOLD);
}

static void b_sys(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	enum hs_pid pid = sys_param(in->sysreg);

	costed(m, op, pid, HS_OP_SINGLE | (pid == HS_P_SYS_OTHER ? HS_OP_HOLD : HS_OP_POSTED));
}

static void b_fp(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in)
{
	(void)in;
	if (pv(m, op, HS_P_FP_SLOT0))
		op->fl |= HS_OP_SLOT0;
}

/*
 * What each class occupies: its unit and branch kind, the parameter of its
 * result latency (lat) and the parameter that costs it (cost, with the
 * issue flags it then takes), and a builder for what a row cannot say.
 * NONE: no parameter (latency stays lat_alu, no cost).
 */
#define NONE HS_NPARAMS
static const struct op_class {
	uint8_t unit, bkind;
	uint8_t lat, cost;		/* enum hs_pid */
	uint16_t fl;			/* flags when costed */
	void (*build)(const struct hs_model *m, struct hs_op *op, const struct a64_insn *in);
} classes[A64_C_NCLASSES] = {
	[A64_C_UNKNOWN] = { HS_U_ALU, HS_B_NONE, NONE, HS_P_UNKNOWN_INSN,
			    HS_OP_UNKNOWN | HS_OP_SINGLE | HS_OP_HOLD, NULL },
	[A64_C_NOP] = { HS_U_ALU, HS_B_NONE, NONE, NONE, 0, b_none },
	[A64_C_BTI] = { HS_U_ALU, HS_B_NONE, NONE, NONE, 0, b_none },
	[A64_C_WFX] = { HS_U_ALU, HS_B_NONE, NONE, NONE, 0, b_none },
	[A64_C_PAC] = { HS_U_ALU, HS_B_NONE, NONE, NONE, 0, b_pac },
	[A64_C_ALU] = { HS_U_ALU, HS_B_NONE, NONE, NONE, HS_OP_CASCADE, NULL },
	[A64_C_ALU_SHIFT] = { HS_U_ALU, HS_B_NONE, HS_P_LAT_ALU_SHIFT, NONE, 0, b_alu_shift },
	[A64_C_BITFIELD] = { HS_U_ALU, HS_B_NONE, HS_P_LAT_BITFIELD, NONE, 0, NULL },
	[A64_C_SHIFT_REG] = { HS_U_ALU, HS_B_NONE, HS_P_LAT_SHIFT_REG, NONE, 0, b_shift_reg },
	[A64_C_MUL] = { HS_U_MUL, HS_B_NONE, NONE, NONE, 0, mul_kind },
	[A64_C_MULH] = { HS_U_MUL, HS_B_NONE, HS_P_LAT_MULH, NONE, 0, b_mulh },
	[A64_C_DIV] = { HS_U_DIV, HS_B_NONE, NONE, NONE, 0, b_div },
	[A64_C_LOAD] = { HS_U_LOAD, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_LOAD_EX] = { HS_U_LOAD, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_STORE] = { HS_U_STORE, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_STORE_EX] = { HS_U_STORE, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_ATOMIC] = { HS_U_LOAD, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_PRFM] = { HS_U_LOAD, HS_B_NONE, NONE, NONE, 0, build_mem },
	[A64_C_BRANCH] = { HS_U_BRANCH, HS_B_DIRECT, NONE, NONE, 0, NULL },
	[A64_C_BCOND] = { HS_U_BRANCH, HS_B_COND, NONE, NONE, 0, NULL },
	[A64_C_CALL] = { HS_U_BRANCH, HS_B_CALL, NONE, NONE, 0, NULL },
	[A64_C_CALL_IND] = { HS_U_BRANCH, HS_B_CALL_IND, NONE, NONE, 0, NULL },
	[A64_C_BR_IND] = { HS_U_BRANCH, HS_B_IND, NONE, NONE, 0, NULL },
	[A64_C_RET] = { HS_U_BRANCH, HS_B_RET, NONE, NONE, 0, NULL },
	/* never predicted (TRM53/55, A76 TRM): drain, then refetch at ELR */
	[A64_C_ERET] = { HS_U_SYS, HS_B_ERET, NONE, HS_P_ERET,
			 HS_OP_SINGLE | HS_OP_DRAIN | HS_OP_REFETCH, NULL },
	[A64_C_DMB] = { HS_U_SYS, HS_B_NONE, NONE, NONE, 0, b_dmb },
	[A64_C_DSB] = { HS_U_SYS, HS_B_NONE, NONE, HS_P_DSB, HS_OP_SINGLE | HS_OP_DRAIN | HS_OP_HOLD, NULL },
	[A64_C_ISB] = { HS_U_SYS, HS_B_NONE, NONE, HS_P_ISB,
			HS_OP_SINGLE | HS_OP_DRAIN | HS_OP_REFETCH, NULL },
	[A64_C_SB] = { HS_U_SYS, HS_B_NONE, NONE, HS_P_SB, HS_OP_SINGLE | HS_OP_DRAIN | HS_OP_REFETCH, NULL },
	[A64_C_CSDB] = { HS_U_ALU, HS_B_NONE, NONE, HS_P_CSDB, HS_OP_HOLD, NULL },
	[A64_C_MRS] = { HS_U_SYS, HS_B_NONE, NONE, NONE, 0, b_mrs },
	[A64_C_MSR] = { HS_U_SYS, HS_B_NONE, NONE, NONE, 0, b_msr },
	[A64_C_MSR_IMM] = { HS_U_SYS, HS_B_NONE, NONE, NONE, 0, b_msr_imm },
	[A64_C_SYS] = { HS_U_SYS, HS_B_NONE, NONE, NONE, 0, b_sys },
	/* svc/brk...: an exception is taken (smc/hvc answered by the firmware
	 * are re-costed per record, HS_T_FIRMWARE) */
	[A64_C_EXC] = { HS_U_SYS, HS_B_NONE, NONE, HS_P_EXC_ENTRY,
			HS_OP_SINGLE | HS_OP_DRAIN | HS_OP_REFETCH | HS_OP_EXC, NULL },
	[A64_C_FPSIMD] = { HS_U_FP, HS_B_NONE, HS_P_LAT_FP, NONE, 0, b_fp },
};
#undef NONE

/* Build the descriptor of one static instruction for model m's parameters. */
static void hs_op_build(const struct hs_model *m, uint64_t pc, const struct a64_insn *in,
			struct hs_op *op)
{
	const struct op_class *c = &classes[in->cls < A64_C_NCLASSES ? in->cls : A64_C_UNKNOWN];

	memset(op, 0, sizeof(*op));
	op->pc = pc;
	/* the target as an offset from pc: branches reach +-128 MB */
	if (in->target && (int64_t)(in->target - pc) == (int32_t)(in->target - pc) && in->target != pc)
		op->tgt = (int32_t)(in->target - pc);
	else
		op->far = !!in->target;
	op->unit = c->unit;
	op->bkind = c->bkind;
	op->occ = 1;
	op->param = HS_NPARAMS;
	op->nsrc = in->nsrc > 6 ? 6 : in->nsrc;
	op->ndst = in->ndst > 4 ? 4 : in->ndst;
	memcpy(op->src, in->src, op->nsrc);
	memcpy(op->dst, in->dst, op->ndst);
	op->mem_size = in->mem_size;
	set_dlat(op, pv(m, op, c->lat != HS_NPARAMS ? c->lat : HS_P_LAT_ALU));
	if (c->cost != HS_NPARAMS)
		costed(m, op, c->cost, c->fl);
	else
		op->fl |= c->fl;
	if (c->build)
		c->build(m, op, in);
	hs_op_derive(m, op);
}

/* Entry i of the decode cache into m's descriptor i. */
static void build(struct hs_model *m, const struct hs_dcache *dc, size_t i)
{
	hs_op_build(m, dc->v[i].pc, &dc->v[i].in, &m->ops[i]);
	m->words[i] = dc->v[i].in.word;
}

/* Do the first, middle and last cached entries still match the cache? */
static int spot_ok(const struct hs_model *m, const struct hs_dcache *dc)
{
	size_t k[3] = { 0, m->nops / 2, m->nops ? m->nops - 1 : 0 };

	for (unsigned i = 0; i < 3 && m->nops; i++)
		if (m->ops[k[i]].pc != dc->v[k[i]].pc || m->words[k[i]] != dc->v[k[i]].in.word)
			return 0;
	return 1;
}

int hs_ops_sync(struct hs_model *m, const struct hs_trace *t)
{
	const struct hs_dcache *dc = t->dc;
	size_t from;

	if (m->capops < dc->n) {
		size_t nc = m->capops ? m->capops : 256;
		struct hs_op *no;
		uint32_t *nw;

		while (nc < dc->n)
			nc *= 2;
		/* a descriptor to a cache line: one line per record looked up */
		no = aligned_alloc(64, nc * sizeof(*no));
		nw = hs_realloc(m->words, nc * sizeof(*nw));
		if (!no || !nw) {
			free(no);
			if (nw)
				m->words = nw;
			return hs_fail("out of memory for the model's descriptors");
		}
		if (m->nops)
			memcpy(no, m->ops, m->nops * sizeof(*no));
		free(m->ops);
		m->ops = no;
		m->words = nw;
		m->capops = nc;
	}
	/*
	 * The same decode cache as last time (pointer and array unchanged)
	 * only grew: entries are immutable once decoded. Anything else - a
	 * parameter change, another decode cache, or one freed and another
	 * allocated in its place - is checked entry by entry (pc and word)
	 * and rebuilt where it differs. A few entries are spot-checked even
	 * in the fast case.
	 */
	if (m->ops_stale || m->ops_dc != dc || m->ops_dcv != dc->v || m->nops > dc->n ||
	    !spot_ok(m, dc)) {
		for (size_t i = 0; i < m->nops && i < dc->n; i++)
			if (m->ops_stale || m->ops[i].pc != dc->v[i].pc || m->words[i] != dc->v[i].in.word)
				build(m, dc, i);
		m->ops_dc = dc;
		m->ops_stale = 0;
	}
	m->ops_dcv = dc->v;
	from = m->nops < dc->n ? m->nops : dc->n;
	for (size_t i = from; i < dc->n; i++)
		build(m, dc, i);
	m->nops = dc->n;
	return 0;
}

/*
 * Per-record adjustments the static descriptor cannot know: an smc/hvc the
 * firmware answered costs the whole round trip (fw_flags: what the engine
 * adds, e.g. single issue); a sysreg hotsim emulated (the GIC CPU
 * interface) is an "other" register whatever its encoding class.
 */
const struct hs_op *hs_record_op_adjusted(const struct hs_model *m, const struct hs_op *op,
					  uint32_t rflags, struct hs_op *tmp, unsigned fw_flags)
{
	*tmp = *op;
	if (rflags & HS_T_FIRMWARE) {
		tmp->param = HS_P_FIRMWARE;
		tmp->cost = (uint16_t)m->v[HS_P_FIRMWARE];
		tmp->fl = fw_flags | HS_OP_DRAIN | HS_OP_REFETCH;
		if (!m->p[HS_P_FIRMWARE].calibrated)
			tmp->fl |= HS_OP_UNCAL;
	} else if (op->param == HS_P_MRS_TPIDR || op->param == HS_P_MRS_SP_EL0 ||
		   op->param == HS_P_MRS_DAIF) {
		tmp->param = HS_P_MRS_OTHER;
		tmp->cost = (uint16_t)m->v[HS_P_MRS_OTHER];
		for (unsigned d = 0; d < tmp->ndst; d++)
			tmp->dlat[d] = (uint8_t)(tmp->cost > 255 ? 255 : tmp->cost);
	} else if (op->param == HS_P_MSR_TPIDR || op->param == HS_P_MSR_SP_EL0 ||
		   op->param == HS_P_MSR_DAIF) {
		tmp->param = HS_P_MSR_OTHER;
		tmp->cost = (uint16_t)m->v[HS_P_MSR_OTHER];
	}
	hs_op_derive(m, tmp);
	return tmp;
}
