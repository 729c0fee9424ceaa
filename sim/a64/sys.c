/*
 * sys.c - branches, exception generation and system instructions
 * (Arm ARM DDI 0487, C4.1.3 "Branches, Exception Generating and System
 * instructions", op0 = 101x), plus UDF from the reserved space.
 */
#include "a64/internal.h"

/* b, bl: imm26 words from the instruction */
static int x_b(const struct a64_enc *e, uint32_t w, uint64_t pc,
	       struct a64_insn *in)
{
	in->target = pc + (uint64_t)(a64_sext(w, 26) * 4);
	if (e->cls == A64_C_CALL)
		a64_dst(in, 30);
	return 0;
}

/* cbz/cbnz: sf 011010 op imm19 Rt */
static int x_cb(const struct a64_enc *e, uint32_t w, uint64_t pc,
		struct a64_insn *in)
{
	(void)e;
	in->target = pc + (uint64_t)(a64_sext(w >> 5, 19) * 4);
	a64_src_zr(in, A64_RT(w));
	if (A64_SF(w))
		in->flags |= A64_F_64;
	return 0;
}

/* tbz/tbnz: b5 011011 op b40 imm14 Rt; b5 picks the X view */
static int x_tb(const struct a64_enc *e, uint32_t w, uint64_t pc,
		struct a64_insn *in)
{
	(void)e;
	in->target = pc + (uint64_t)(a64_sext(w >> 5, 14) * 4);
	a64_src_zr(in, A64_RT(w));
	if (a64_field(w, 31, 1))
		in->flags |= A64_F_64;
	return 0;
}

/* b.cond: 0101010 0 imm19 0 cond */
static int x_bcond(const struct a64_enc *e, uint32_t w, uint64_t pc,
		   struct a64_insn *in)
{
	(void)e;
	in->target = pc + (uint64_t)(a64_sext(w >> 5, 19) * 4);
	in->cond = (uint8_t)a64_field(w, 0, 4);
	a64_src(in, A64_R_NZCV);
	return 0;
}

/*
 * Exception generation: 11010100 opc imm16 op2 LL.  Allocated: svc/hvc/smc
 * (opc 000, LL 01/10/11), brk (001, 00), hlt (010, 00), dcps1-3 (101,
 * LL != 00); op2 must be 000.  TME's tcancel (011) is not modelled.
 */
static int x_exc(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned opc = a64_field(w, 21, 3), op2 = a64_field(w, 2, 3);
	unsigned ll = a64_field(w, 0, 2);

	(void)e;
	(void)pc;
	(void)in;
	if (op2)
		return -1;
	switch (opc) {
	case 0: case 5:
		return ll ? 0 : -1;
	case 1: case 2:
		return ll ? -1 : 0;
	}
	return -1;
}

/* wfet/wfit: Xt holds the timeout (a CNTVCT_EL0 value) */
static int x_wfxt(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	a64_src_zr(in, A64_RD(w));
	return 0;
}

/* xpaclri strips the PAC from X30 */
static int x_lr(const struct a64_enc *e, uint32_t w, uint64_t pc,
		struct a64_insn *in)
{
	(void)e;
	(void)w;
	(void)pc;
	a64_src(in, 30);
	a64_dst(in, 30);
	return 0;
}

/* pac/aut{ia,ib}1716: X17 signed with modifier X16 */
static int x_pac1716(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)w;
	(void)pc;
	a64_src(in, 17);
	a64_src(in, 16);
	a64_dst(in, 17);
	return 0;
}

/* pac/aut{ia,ib}sp: X30 signed with modifier SP */
static int x_pacsp(const struct a64_enc *e, uint32_t w, uint64_t pc,
		   struct a64_insn *in)
{
	x_lr(e, w, pc, in);
	a64_src(in, A64_R_SP);
	return 0;
}

/* dmb/dsb/isb: the CRm option ("ish", "sy", or 0/4 for ssbb/pssbb) */
static int x_barrier(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)pc;
	in->cond = (uint8_t)a64_field(w, 8, 4);
	return 0;
}

/*
 * MSR (immediate): 1101010100 0 00 op1 0100 CRm op2 11111.  The PSTATE
 * field is op1:op2; CRm is the immediate.  cfinv/xaflag/axflag (op1 = 0,
 * op2 = 0..2, CRm = 0) share the space but only rewrite NZCV.
 */
static int x_pstate(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned op1 = a64_field(w, 16, 3), op2 = a64_field(w, 5, 3);
	unsigned crm = a64_field(w, 8, 4);

	(void)e;
	(void)pc;
	switch (op1 << 3 | op2) {
	case 0x00: case 0x01: case 0x02:	/* cfinv, xaflag, axflag */
		if (crm)
			return -1;
		in->cls = A64_C_ALU;
		a64_src(in, A64_R_NZCV);
		a64_dst(in, A64_R_NZCV);
		in->flags |= A64_F_SETFLAGS;
		return 0;
	case 0x03: case 0x04: case 0x05:	/* uao, pan, spsel */
	case 0x19: case 0x1a: case 0x1c:	/* ssbs, dit, tco */
	case 0x1e: case 0x1f:			/* daifset, daifclr */
		break;
	case 0x08:				/* allint (FEAT_NMI) */
		if (crm > 1)
			return -1;
		break;
	default:
		return -1;
	}
	in->sysreg = A64_SYSREG(0, op1, 4, 0, op2);
	in->cond = (uint8_t)crm;
	return 0;
}

static uint16_t sysreg_of(uint32_t w)
{
	return (uint16_t)a64_field(w, 5, 16);	/* op0:op1:CRn:CRm:op2 */
}

/*
 * SYS/SYSL (op0 = 01): tlbi, dc, ic, at and the rest.  sys reads Xt when
 * present (31 means "no register", as in tlbi vmalle1is); sysl writes it.
 */
static int x_sys(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	(void)e;
	(void)pc;
	in->sysreg = sysreg_of(w);
	if (a64_field(w, 21, 1))
		a64_dst_zr(in, A64_RT(w));
	else
		a64_src_zr(in, A64_RT(w));
	return 0;
}

#define SR_NZCV	A64_SYSREG(3, 3, 4, 2, 0)
#define SR_FPCR	A64_SYSREG(3, 3, 4, 4, 0)
#define SR_FPSR	A64_SYSREG(3, 3, 4, 4, 1)

/* MRS/MSR (register): the two registers the decoder tracks are NZCV and
 * FPCR/FPSR; every other system register is state outside src/dst. */
static int x_mrs(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	uint16_t sr = sysreg_of(w);

	(void)e;
	(void)pc;
	in->sysreg = sr;
	a64_dst_zr(in, A64_RT(w));
	if (sr == SR_NZCV)
		a64_src(in, A64_R_NZCV);
	else if (sr == SR_FPCR || sr == SR_FPSR)
		a64_src(in, A64_R_FPCR);
	return 0;
}

static int x_msr(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	uint16_t sr = sysreg_of(w);

	(void)e;
	(void)pc;
	in->sysreg = sr;
	a64_src_zr(in, A64_RT(w));
	if (sr == SR_NZCV) {
		a64_dst(in, A64_R_NZCV);
		in->flags |= A64_F_SETFLAGS;
	} else if (sr == SR_FPCR || sr == SR_FPSR) {
		a64_dst(in, A64_R_FPCR);
	}
	return 0;
}

/* br/blr/ret Xn; blr also writes the link register */
static int x_breg(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)pc;
	a64_src_zr(in, A64_RN(w));
	if (e->cls == A64_C_CALL_IND)
		a64_dst(in, 30);
	return 0;
}

/* braa/blraa Xn, Xm|SP: Xm is the modifier, register 31 is SP */
static int x_breg_mod(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	x_breg(e, w, pc, in);
	a64_src_sp(in, A64_RD(w));
	return 0;
}

/* retaa/retab: X30 authenticated with SP as modifier */
static int x_retaa(const struct a64_enc *e, uint32_t w, uint64_t pc,
		   struct a64_insn *in)
{
	(void)e;
	(void)w;
	(void)pc;
	a64_src(in, 30);
	a64_src(in, A64_R_SP);
	return 0;
}

/* eretaa/eretab: ELR authenticated with SP as modifier */
static int x_eretaa(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)e;
	(void)w;
	(void)pc;
	a64_src(in, A64_R_SP);
	return 0;
}

const struct a64_enc a64_sys_tab[] = {
	/* reserved space, op0 = 0000: only UDF #imm16 is allocated */
	{ 0xffff0000, 0x00000000, A64_C_EXC, 0, a64_x_none, "udf" },

	/* unconditional branch (immediate) */
	{ 0xfc000000, 0x14000000, A64_C_BRANCH, 0, x_b, "b" },
	{ 0xfc000000, 0x94000000, A64_C_CALL, 0, x_b, "bl" },
	/* compare and branch, test and branch, conditional branch */
	{ 0x7e000000, 0x34000000, A64_C_BCOND, 0, x_cb, "cbz/cbnz" },
	{ 0x7e000000, 0x36000000, A64_C_BCOND, 0, x_tb, "tbz/tbnz" },
	{ 0xff000010, 0x54000000, A64_C_BCOND, 0, x_bcond, "b.cond" },

	/* exception generation */
	{ 0xff000000, 0xd4000000, A64_C_EXC, 0, x_exc, "svc/hvc/smc/brk/hlt" },

	/* wfet/wfit Xt (FEAT_WFxT): 11010101 00000011 0001 0000 00 op Rd */
	{ 0xffffffc0, 0xd5031000, A64_C_WFX, 0, x_wfxt, "wfet/wfit" },

	/*
	 * Hints: 1101010100 0 00 011 0010 CRm op2 11111, hint #(CRm:op2).
	 * The named ones first; the rest of the space executes as NOP.
	 */
	{ 0xffffffff, 0xd503201f, A64_C_NOP, 0, a64_x_none, "nop" },
	{ 0xffffffff, 0xd503203f, A64_C_NOP, 0, a64_x_none, "yield" },
	{ 0xffffffff, 0xd503205f, A64_C_WFX, 0, a64_x_none, "wfe" },
	{ 0xffffffff, 0xd503207f, A64_C_WFX, 0, a64_x_none, "wfi" },
	{ 0xffffffff, 0xd503209f, A64_C_WFX, 0, a64_x_none, "sev" },
	{ 0xffffffff, 0xd50320bf, A64_C_WFX, 0, a64_x_none, "sevl" },
	{ 0xffffffff, 0xd50320ff, A64_C_PAC, 0, x_lr, "xpaclri" },
	/* hint #8/#10/#12/#14: pacia1716, pacib1716, autia1716, autib1716 */
	{ 0xffffff3f, 0xd503211f, A64_C_PAC, 0, x_pac1716, "pac1716" },
	{ 0xffffffff, 0xd503229f, A64_C_CSDB, 0, a64_x_none, "csdb" },
	/* hint #24/#26/#28/#30: paciaz, pacibz, autiaz, autibz */
	{ 0xffffff3f, 0xd503231f, A64_C_PAC, 0, x_lr, "pacz" },
	/* hint #25/#27/#29/#31: paciasp, pacibsp, autiasp, autibsp */
	{ 0xffffff3f, 0xd503233f, A64_C_PAC, 0, x_pacsp, "pacsp" },
	/* hint #32/#34/#36/#38: bti, bti c, bti j, bti jc */
	{ 0xffffff3f, 0xd503241f, A64_C_BTI, 0, a64_x_none, "bti" },
	/*
	 * Everything else, including dgh, esb, psb/tsb csync and clrbhb:
	 * none of them orders memory or changes registers, so for the cost
	 * models they are NOPs.
	 */
	{ 0xfffff01f, 0xd503201f, A64_C_NOP, 0, a64_x_none, "hint" },

	/* barriers: 1101010100 0 00 011 0011 CRm op2 11111 */
	{ 0xfffff0ff, 0xd503305f, A64_C_NOP, 0, a64_x_none, "clrex" },
	{ 0xfffff0ff, 0xd503309f, A64_C_DSB, 0, x_barrier, "dsb" },
	{ 0xfffff0ff, 0xd50330bf, A64_C_DMB, 0, x_barrier, "dmb" },
	{ 0xfffff0ff, 0xd50330df, A64_C_ISB, 0, x_barrier, "isb" },
	{ 0xffffffff, 0xd50330ff, A64_C_SB, 0, a64_x_none, "sb" },
	/* dsb <option>nXS (FEAT_XS): op2 = 001, CRm = xx10 */
	{ 0xfffff3ff, 0xd503323f, A64_C_DSB, 0, x_barrier, "dsb nxs" },

	/* PSTATE: 1101010100 0 00 op1 0100 CRm op2 11111 */
	{ 0xfff8f01f, 0xd500401f, A64_C_MSR_IMM, 0, x_pstate, "msr pstate" },

	/* system instructions, op0 = 01: sys (L = 0) and sysl (L = 1) */
	{ 0xffd80000, 0xd5080000, A64_C_SYS, 0, x_sys, "sys/sysl" },
	/* system register move, op0 = 1x */
	{ 0xfff00000, 0xd5300000, A64_C_MRS, 0, x_mrs, "mrs" },
	{ 0xfff00000, 0xd5100000, A64_C_MSR, 0, x_msr, "msr" },

	/* unconditional branch (register): 1101011 opc op2 op3 Rn op4 */
	{ 0xfffffc1f, 0xd61f0000, A64_C_BR_IND, 0, x_breg, "br" },
	{ 0xfffffc1f, 0xd63f0000, A64_C_CALL_IND, 0, x_breg, "blr" },
	{ 0xfffffc1f, 0xd65f0000, A64_C_RET, 0, x_breg, "ret" },
	{ 0xffffffff, 0xd69f03e0, A64_C_ERET, 0, a64_x_none, "eret" },
	{ 0xffffffff, 0xd6bf03e0, A64_C_ERET, 0, a64_x_none, "drps" },
	{ 0xfffffbff, 0xd65f0bff, A64_C_RET, A64_F_PAC, x_retaa, "retaa/retab" },
	{ 0xfffffbff, 0xd69f0bff, A64_C_ERET, A64_F_PAC, x_eretaa, "eretaa/eretab" },
	{ 0xfffff81f, 0xd61f081f, A64_C_BR_IND, A64_F_PAC, x_breg, "braaz/brabz" },
	{ 0xfffff81f, 0xd63f081f, A64_C_CALL_IND, A64_F_PAC, x_breg, "blraaz/blrabz" },
	{ 0xfffff800, 0xd71f0800, A64_C_BR_IND, A64_F_PAC, x_breg_mod, "braa/brab" },
	{ 0xfffff800, 0xd73f0800, A64_C_CALL_IND, A64_F_PAC, x_breg_mod, "blraa/blrab" },
};

const unsigned a64_sys_n = sizeof(a64_sys_tab) / sizeof(a64_sys_tab[0]);
