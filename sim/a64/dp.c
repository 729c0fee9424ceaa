/*
 * dp.c - integer data processing (Arm ARM DDI 0487, C4.1.4 "Data
 * Processing -- Immediate", op0 = 100x, and C4.1.6 "Data Processing --
 * Register", op0 = x101).
 *
 * Register 31 is XZR everywhere here except where the encoding says
 * "Xd|SP"/"Xn|SP": add/sub (immediate) and (extended register), the non
 * flag-setting logical (immediate) destination, addg/subg and the MTE
 * two-source forms.
 */
#include "a64/internal.h"

static void setflags(struct a64_insn *in)
{
	in->flags |= A64_F_SETFLAGS;
	a64_dst(in, A64_R_NZCV);
}

static void sf64(struct a64_insn *in, uint32_t w)
{
	if (A64_SF(w))
		in->flags |= A64_F_64;
}

/* adr/adrp: immhi:immlo, adrp in 4 KiB pages */
static int x_adr(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	int64_t imm = a64_sext(a64_field(w, 5, 19) << 2 | a64_field(w, 29, 2), 21);

	(void)e;
	if (A64_SF(w))
		in->target = (pc & ~0xfffull) + (uint64_t)(imm * 4096);
	else
		in->target = pc + (uint64_t)imm;
	in->flags |= A64_F_64;
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

/* add/sub (immediate): sf op S 100010 sh imm12 Rn Rd */
static int x_addsub_imm(const struct a64_enc *e, uint32_t w, uint64_t pc,
			struct a64_insn *in)
{
	(void)e;
	(void)pc;
	sf64(in, w);
	a64_src_sp(in, A64_RN(w));
	if (a64_field(w, 29, 1)) {		/* adds/subs/cmp/cmn */
		a64_dst_zr(in, A64_RD(w));
		setflags(in);
	} else {
		a64_dst_sp(in, A64_RD(w));
	}
	return 0;
}

/* addg/subg (FEAT_MTE): 1 op 0 100011 0 uimm6 (0)(0) uimm4 Xn|SP Xd|SP */
static int x_addg(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 14, 2))
		return -1;
	in->flags |= A64_F_64;
	a64_src_sp(in, A64_RN(w));
	a64_dst_sp(in, A64_RD(w));
	return 0;
}

/*
 * DecodeBitMasks() for the logical immediates: the element size comes from
 * the highest set bit of N:NOT(imms); a run of imms+1 ones is rotated right
 * by immr and replicated.  No set bit, or an all-ones run (imms == levels),
 * is reserved.  Returns 0 for a reserved encoding.
 */
int a64_bitmask_imm(unsigned n, unsigned immr, unsigned imms, int is64,
		    uint64_t *imm)
{
	unsigned v = (n << 6) | (~imms & 0x3f);
	unsigned len = 0, levels, s, r, esize, i;
	uint64_t welem, emask, elem;

	if (!is64 && n)
		return 0;
	if (!v)
		return 0;
	while (v >> (len + 1))
		len++;
	if (len < 1)
		return 0;
	levels = (1u << len) - 1;
	s = imms & levels;
	r = immr & levels;
	if (s == levels)
		return 0;
	esize = 1u << len;
	emask = esize == 64 ? ~0ull : (1ull << esize) - 1;
	welem = (1ull << (s + 1)) - 1;		/* s + 1 <= 63 here */
	elem = r ? ((welem >> r) | (welem << (esize - r))) & emask : welem;
	*imm = 0;
	for (i = 0; i < (is64 ? 64u : 32u); i += esize)
		*imm |= elem << i;
	return 1;
}

/* logical (immediate): sf opc 100100 N immr imms Rn Rd */
static int x_log_imm(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	uint64_t imm;

	(void)e;
	(void)pc;
	if (!a64_bitmask_imm(a64_field(w, 22, 1), a64_field(w, 16, 6),
			     a64_field(w, 10, 6), (int)A64_SF(w), &imm))
		return -1;
	sf64(in, w);
	a64_src_zr(in, A64_RN(w));
	if (a64_field(w, 29, 2) == 3) {		/* ands/tst */
		a64_dst_zr(in, A64_RD(w));
		setflags(in);
	} else {
		a64_dst_sp(in, A64_RD(w));
	}
	return 0;
}

/* move wide: sf opc 100101 hw imm16 Rd; opc 01 reserved, movk reads Rd */
static int x_movw(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned opc = a64_field(w, 29, 2);

	(void)e;
	(void)pc;
	if (opc == 1 || (!A64_SF(w) && a64_field(w, 22, 1)))
		return -1;
	sf64(in, w);
	if (opc == 3)
		a64_src_zr(in, A64_RD(w));
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

/*
 * bitfield: sf opc 100110 N immr imms Rn Rd.  opc 11 reserved, N must equal
 * sf, 32-bit forms take 5-bit immr/imms.  bfm (opc 01: bfi, bfxil) keeps
 * the bits of Rd it does not replace, so it reads Rd.
 */
static int x_bitfield(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	unsigned opc = a64_field(w, 29, 2);

	(void)e;
	(void)pc;
	if (opc == 3 || a64_field(w, 22, 1) != A64_SF(w))
		return -1;
	if (!A64_SF(w) && (a64_field(w, 21, 1) || a64_field(w, 15, 1)))
		return -1;
	sf64(in, w);
	a64_src_zr(in, A64_RN(w));
	if (opc == 1)
		a64_src_zr(in, A64_RD(w));
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

/* extr: sf op21 100111 N o0 Rm imms Rn Rd (ror #imm when Rn == Rm) */
static int x_extr(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 29, 2) || a64_field(w, 21, 1) ||
	    a64_field(w, 22, 1) != A64_SF(w) ||
	    (!A64_SF(w) && a64_field(w, 15, 1)))
		return -1;
	sf64(in, w);
	a64_src_zr(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

/*
 * Shifted-register forms: sf opc/op S 01010/01011 shift N/0 Rm imm6 Rn Rd.
 * A nonzero amount makes it ALU_SHIFT (an extra pipeline stage on most
 * cores); with amount 0 it is a plain register op (mov, mvn, cmp...).
 */
static int shifted(struct a64_insn *in, uint32_t w, int setfl)
{
	unsigned imm6 = a64_field(w, 10, 6);

	if (!A64_SF(w) && (imm6 & 0x20))
		return -1;
	sf64(in, w);
	if (imm6) {
		in->cls = A64_C_ALU_SHIFT;
		in->flags |= A64_F_SHIFTED;
	}
	a64_src_zr(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	a64_dst_zr(in, A64_RD(w));
	if (setfl)
		setflags(in);
	return 0;
}

/* logical (shifted register): opc 11 is ands/bics/tst */
static int x_log_shift(const struct a64_enc *e, uint32_t w, uint64_t pc,
		       struct a64_insn *in)
{
	(void)e;
	(void)pc;
	return shifted(in, w, a64_field(w, 29, 2) == 3);
}

/* add/sub (shifted register): shift 11 (ror) reserved */
static int x_addsub_shift(const struct a64_enc *e, uint32_t w, uint64_t pc,
			  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 22, 2) == 3)
		return -1;
	return shifted(in, w, a64_field(w, 29, 1));
}

/*
 * add/sub (extended register): sf op S 01011 opt 1 Rm option imm3 Rn Rd.
 * Rd (unless S) and Rn are Xn|SP.  It is ALU_SHIFT only when the operand
 * really changes: a shift, or an extension narrower than the operation
 * (uxtx on 64-bit and uxtw/uxtx on 32-bit are no-ops; that is the
 * "add x0, sp, x1" form compilers emit for SP).
 */
static int x_addsub_ext(const struct a64_enc *e, uint32_t w, uint64_t pc,
			struct a64_insn *in)
{
	unsigned opt = a64_field(w, 22, 2), imm3 = a64_field(w, 10, 3);
	unsigned size = a64_field(w, 13, 2);	/* option<1:0>: b, h, w, x */

	(void)e;
	(void)pc;
	if (opt || imm3 > 4)
		return -1;
	sf64(in, w);
	if (imm3 || size < (A64_SF(w) ? 3u : 2u)) {
		in->cls = A64_C_ALU_SHIFT;
		if (imm3)
			in->flags |= A64_F_SHIFTED;
	}
	a64_src_sp(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	if (a64_field(w, 29, 1)) {
		a64_dst_zr(in, A64_RD(w));
		setflags(in);
	} else {
		a64_dst_sp(in, A64_RD(w));
	}
	return 0;
}

/* adc/adcs/sbc/sbcs (ngc): read the carry */
static int x_adc(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	(void)e;
	(void)pc;
	sf64(in, w);
	a64_src_zr(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	a64_src(in, A64_R_NZCV);
	a64_dst_zr(in, A64_RD(w));
	if (a64_field(w, 29, 1))
		setflags(in);
	return 0;
}

/* rmif (FEAT_FlagM): rotate Xn, insert into NZCV under mask */
static int x_rmif(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	in->flags |= A64_F_64;
	a64_src_zr(in, A64_RN(w));
	a64_src(in, A64_R_NZCV);
	setflags(in);
	return 0;
}

/* setf8/setf16 (FEAT_FlagM): flags from Wn, C is kept */
static int x_setf(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	a64_src_zr(in, A64_RN(w));
	a64_src(in, A64_R_NZCV);
	setflags(in);
	return 0;
}

/*
 * ccmn/ccmp: sf op 1 11010010 Rm|imm5 cond o2(1) 0 Rn o3 nzcv; bit 11
 * picks the immediate form; o2 and o3 must be 0.
 */
static int x_ccmp(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 10, 1) || a64_field(w, 4, 1))
		return -1;
	sf64(in, w);
	in->cond = (uint8_t)a64_field(w, 12, 4);
	a64_src_zr(in, A64_RN(w));
	if (!a64_field(w, 11, 1))
		a64_src_zr(in, A64_RM(w));
	a64_src(in, A64_R_NZCV);
	setflags(in);
	return 0;
}

/* csel/csinc/csinv/csneg (cset, cinc, cneg...): op2 bit 1 reserved */
static int x_csel(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 11, 1))
		return -1;
	sf64(in, w);
	in->cond = (uint8_t)a64_field(w, 12, 4);
	a64_src_zr(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	a64_src(in, A64_R_NZCV);
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

/*
 * data processing (2 source): sf 0 S 11010110 Rm opcode Rn Rd.  The class
 * comes from the opcode; S is only allocated for subps.
 */
static int x_dp2(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned op = a64_field(w, 10, 6), sf = A64_SF(w);
	unsigned s = a64_field(w, 29, 1);
	unsigned rd = A64_RD(w), rn = A64_RN(w), rm = A64_RM(w);

	(void)e;
	(void)pc;
	if (s && op != 0)
		return -1;
	sf64(in, w);
	switch (op) {
	case 0x00:		/* subp/subps Xd, Xn|SP, Xm|SP (FEAT_MTE) */
		if (!sf)
			return -1;
		in->cls = A64_C_ALU;
		a64_src_sp(in, rn);
		a64_src_sp(in, rm);
		a64_dst_zr(in, rd);
		if (s)
			setflags(in);
		return 0;
	case 0x04:		/* irg Xd|SP, Xn|SP, Xm */
	case 0x05:		/* gmi Xd, Xn|SP, Xm */
		if (!sf)
			return -1;
		in->cls = A64_C_ALU;
		a64_src_sp(in, rn);
		a64_src_zr(in, rm);
		if (op == 4)
			a64_dst_sp(in, rd);
		else
			a64_dst_zr(in, rd);
		return 0;
	case 0x02: case 0x03:	/* udiv, sdiv */
		in->cls = A64_C_DIV;
		break;
	case 0x08: case 0x09: case 0x0a: case 0x0b:	/* lslv..rorv */
		in->cls = A64_C_SHIFT_REG;
		break;
	case 0x0c:		/* pacga Xd, Xn, Xm|SP */
		if (!sf)
			return -1;
		in->cls = A64_C_PAC;
		a64_src_zr(in, rn);
		a64_src_sp(in, rm);
		a64_dst_zr(in, rd);
		return 0;
	case 0x10: case 0x11: case 0x12: case 0x13:	/* crc32b/h/w/x */
	case 0x14: case 0x15: case 0x16: case 0x17:	/* crc32cb/h/w/x */
		/*
		 * The x forms need sf = 1, the others sf = 0.  CRC32 runs in
		 * the multiply pipeline with multiply-like latency on the
		 * cores modelled, hence MUL.
		 */
		if (((op & 3) == 3) != sf)
			return -1;
		in->cls = A64_C_MUL;
		break;
	default:
		return -1;
	}
	a64_src_zr(in, rn);
	a64_src_zr(in, rm);
	a64_dst_zr(in, rd);
	return 0;
}

/*
 * data processing (1 source): sf 1 S 11010110 opcode2 opcode Rn Rd.
 * opcode2 00000: rbit, rev16, rev32/rev, rev, clz, cls.
 * opcode2 00001 (sf = 1): pointer authentication, FEAT_PAuth.
 */
static int x_dp1(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned op = a64_field(w, 10, 6), op2 = a64_field(w, 16, 5);
	unsigned sf = A64_SF(w), rd = A64_RD(w), rn = A64_RN(w);

	(void)e;
	(void)pc;
	if (a64_field(w, 29, 1))
		return -1;
	sf64(in, w);
	if (op2 == 0) {
		if (op > 5 || (op == 3 && !sf))
			return -1;
		in->cls = A64_C_ALU;
		a64_src_zr(in, rn);
		a64_dst_zr(in, rd);
		return 0;
	}
	if (op2 != 1 || !sf || op > 0x11)
		return -1;
	in->cls = A64_C_PAC;
	if (op < 8) {
		/* pacia..autdb Xd, Xn|SP: Xn is the modifier */
		a64_src_sp(in, rn);
	} else if (rn != 31) {
		/* paciza..autdzb, xpaci, xpacd: Rn must be 11111 */
		return -1;
	}
	a64_src_zr(in, rd);
	a64_dst_zr(in, rd);
	return 0;
}

/*
 * data processing (3 source): sf op54 11011 op31 Rm o0 Ra Rn Rd.
 * madd/msub (mul, mneg) and the widening [su]m{add,sub}l are MUL;
 * [su]mulh is MULH and ignores Ra.
 */
static int x_dp3(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned op = a64_field(w, 21, 3) << 1 | a64_field(w, 15, 1);

	(void)e;
	(void)pc;
	if (a64_field(w, 29, 2))
		return -1;
	if (!A64_SF(w) && op > 1)
		return -1;
	sf64(in, w);
	switch (op) {
	case 0x0: case 0x1:			/* madd, msub */
	case 0x2: case 0x3:			/* smaddl, smsubl */
	case 0xa: case 0xb:			/* umaddl, umsubl */
		in->cls = A64_C_MUL;
		a64_src_zr(in, A64_RA(w));
		break;
	case 0x4: case 0xc:			/* smulh, umulh */
		in->cls = A64_C_MULH;
		break;
	default:
		return -1;
	}
	a64_src_zr(in, A64_RN(w));
	a64_src_zr(in, A64_RM(w));
	a64_dst_zr(in, A64_RD(w));
	return 0;
}

const struct a64_enc a64_dp_tab[] = {
	/* --- data processing, immediate: op0 = 100x, op1 = bits 25:23 --- */
	{ 0x1f000000, 0x10000000, A64_C_ALU, 0, x_adr, "adr/adrp" },
	{ 0x1f800000, 0x11000000, A64_C_ALU, 0, x_addsub_imm, "add/sub imm" },
	{ 0xbfc00000, 0x91800000, A64_C_ALU, 0, x_addg, "addg/subg" },
	{ 0x1f800000, 0x12000000, A64_C_ALU, 0, x_log_imm, "logical imm" },
	{ 0x1f800000, 0x12800000, A64_C_ALU, 0, x_movw, "movn/movz/movk" },
	{ 0x1f800000, 0x13000000, A64_C_BITFIELD, 0, x_bitfield, "sbfm/bfm/ubfm" },
	{ 0x1f800000, 0x13800000, A64_C_BITFIELD, 0, x_extr, "extr" },

	/* --- data processing, register: op0 = x101 --- */
	{ 0x1f000000, 0x0a000000, A64_C_ALU, 0, x_log_shift, "logical shifted" },
	{ 0x1f200000, 0x0b000000, A64_C_ALU, 0, x_addsub_shift, "add/sub shifted" },
	{ 0x1f200000, 0x0b200000, A64_C_ALU, 0, x_addsub_ext, "add/sub extended" },
	{ 0x1fe0fc00, 0x1a000000, A64_C_ALU, 0, x_adc, "adc/sbc" },
	{ 0xffe07c10, 0xba000400, A64_C_ALU, 0, x_rmif, "rmif" },
	{ 0xffffbc1f, 0x3a00080d, A64_C_ALU, 0, x_setf, "setf8/setf16" },
	{ 0x3fe00000, 0x3a400000, A64_C_ALU, 0, x_ccmp, "ccmn/ccmp" },
	{ 0x3fe00000, 0x1a800000, A64_C_ALU, 0, x_csel, "csel/csinc/csinv/csneg" },
	{ 0x5fe00000, 0x1ac00000, A64_C_ALU, 0, x_dp2, "dp 2-source" },
	{ 0x5fe00000, 0x5ac00000, A64_C_ALU, 0, x_dp1, "dp 1-source" },
	{ 0x1f000000, 0x1b000000, A64_C_MUL, 0, x_dp3, "dp 3-source" },
};

const unsigned a64_dp_n = sizeof(a64_dp_tab) / sizeof(a64_dp_tab[0]);
