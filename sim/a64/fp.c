/*
 * fp.c - scalar floating point and the cryptographic extension (Arm
 * ARM DDI 0487, C4.1.8, the op0 = x0x1 and 010x/1100 rows).
 *
 * All A64_C_FPSIMD.  General registers are exact for the conversions that
 * touch them (fmov, scvtf/ucvtf, fcvt*s/u, fjcvtzs) and NZCV for the
 * compares and selects.  FPCR/FPSR are not tracked for arithmetic: every FP
 * op would then depend on every other through the cumulative exception
 * flags; only mrs/msr of fpcr/fpsr carry A64_R_FPCR.
 */
#include "a64/internal.h"

#define ACC	A64_VACC
#define SIZE(w)	a64_field(w, 22, 2)
#define C	A64_C_FPSIMD

/* --- cryptographic extension --- */

/* aese/aesd/aesmc/aesimc: 01001110 size 10100 opcode 10 */
static int x_aes(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned op = a64_field(w, 12, 5);

	(void)e;
	(void)pc;
	if (SIZE(w) || op < 4 || op > 7)
		return -1;
	a64_vregs(in, w, 0, op < 6 ? ACC : 0);
	return 0;
}

/* sha1c/p/m, sha1su0, sha256h/h2/su1: 01011110 size 0 Rm 0 opcode 00 */
static int x_sha3(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (SIZE(w) || a64_field(w, 12, 3) == 7)
		return -1;
	a64_vregs(in, w, 1, ACC);
	return 0;
}

/* sha1h, sha1su1, sha256su0: 01011110 size 10100 opcode 10 */
static int x_sha2(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned op = a64_field(w, 12, 5);

	(void)e;
	(void)pc;
	if (SIZE(w) || op > 2)
		return -1;
	a64_vregs(in, w, 0, op ? ACC : 0);
	return 0;
}

/* eor3, bcax, sm3ss1: 11001110 0 Op0 Rm 0 Ra Rn Rd; Op0 11 reserved */
static int x_crypto4(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 21, 2) == 3)
		return -1;
	a64_src(in, a64_vreg(A64_RA(w)));
	a64_vregs(in, w, 1, 0);
	return 0;
}

/* sha512h/h2/su1, rax1, sm3partw1/2, sm4ekey: 11001110 011 Rm 1 O 00 opcode */
static int x_sha512_3(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	unsigned op = a64_field(w, 14, 1) << 2 | a64_field(w, 10, 2);

	(void)e;
	(void)pc;
	if (op == 7)
		return -1;
	a64_vregs(in, w, 1, (op == 3 || op == 6) ? 0 : ACC);
	return 0;
}

/* sha512su0, sm4e: 11001110 11000000 1000 opcode Rn Rd */
static int x_sha512_2(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (a64_field(w, 10, 2) > 1)
		return -1;
	a64_vregs(in, w, 0, ACC);
	return 0;
}

/* sm3tt1a/1b/2a/2b (11001110 010 Rm 10 imm2 opcode) and xar: Rd, Rn, Rm */
static int x_crypto_rrr(const struct a64_enc *e, uint32_t w, uint64_t pc,
			struct a64_insn *in)
{
	(void)pc;
	a64_vregs(in, w, 1, e->value == 0xce408000 ? ACC : 0);
	return 0;
}

/* --- scalar floating point: M 0 S 11110 type ... --- */

/* common check: M (bit 31) and S (bit 29) zero, type 10 reserved */
static int fp_ok(uint32_t w)
{
	return !a64_field(w, 31, 1) && !a64_field(w, 29, 1) && SIZE(w) != 2;
}

/*
 * conversion between FP and fixed point:
 * sf 0 S 11110 type 0 rmode opcode scale Rn Rd.  rmode:opcode 00:010
 * scvtf, 00:011 ucvtf (GPR in), 11:000 fcvtzs, 11:001 fcvtzu (GPR out).
 */
static int x_fp_fixed(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	unsigned ro = a64_field(w, 16, 5);

	(void)e;
	(void)pc;
	if (a64_field(w, 29, 1) || SIZE(w) == 2)
		return -1;
	if (!A64_SF(w) && !a64_field(w, 15, 1))	/* 32-bit: scale >= 32 */
		return -1;
	if (A64_SF(w))
		in->flags |= A64_F_64;
	if (ro == 2 || ro == 3) {
		a64_src_zr(in, A64_RN(w));
		a64_dst(in, a64_vreg(A64_RD(w)));
	} else if (ro == 0x18 || ro == 0x19) {
		a64_src(in, a64_vreg(A64_RN(w)));
		a64_dst_zr(in, A64_RD(w));
	} else {
		return -1;
	}
	return 0;
}

/*
 * conversion between FP and integer:
 * sf 0 S 11110 type 1 rmode opcode 000000 Rn Rd.
 *	opcode 000/001 fcvt[npmz][su], 100/101 fcvta[su]: FP -> GPR
 *	opcode 010/011 scvtf/ucvtf: GPR -> FP
 *	opcode 110/111 fmov to/from GPR (rmode 01: the top half of a V
 *	register), and fjcvtzs (sf 0, type 01, rmode 11, opcode 110), which
 *	also sets Z.
 */
static int x_fp_int(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned sf = A64_SF(w), type = SIZE(w);
	unsigned rmode = a64_field(w, 19, 2), op = a64_field(w, 16, 3);
	unsigned rd = A64_RD(w), rn = A64_RN(w);
	int to_gpr;

	(void)e;
	(void)pc;
	if (a64_field(w, 29, 1))
		return -1;
	if (op < 6) {
		if (type == 2 || (op >= 2 && rmode))
			return -1;
		to_gpr = !(op == 2 || op == 3);
	} else if (rmode == 0) {
		/* fmov: w<->s, x<->d, or w/x<->h */
		if (!(type == 3 || (type == 0 && !sf) || (type == 1 && sf)))
			return -1;
		to_gpr = op == 6;
	} else if (rmode == 1) {		/* fmov x <-> v.d[1] */
		if (!sf || type != 2)
			return -1;
		to_gpr = op == 6;
		if (!to_gpr)
			a64_src(in, a64_vreg(rd));	/* keeps the low half */
	} else if (rmode == 3 && op == 6 && !sf && type == 1) {
		to_gpr = 1;			/* fjcvtzs */
		a64_dst(in, A64_R_NZCV);
		in->flags |= A64_F_SETFLAGS;
	} else {
		return -1;
	}
	if (sf)
		in->flags |= A64_F_64;
	if (to_gpr) {
		a64_src(in, a64_vreg(rn));
		a64_dst_zr(in, rd);
	} else {
		a64_src_zr(in, rn);
		a64_dst(in, a64_vreg(rd));
	}
	return 0;
}

/*
 * FP data processing, 1 source: M 0 S 11110 type 1 opcode 10000 Rn Rd.
 * 0000xx fmov/fabs/fneg/fsqrt, 0001xx fcvt (opc = destination type) and
 * bfcvt, 001xxx frint*, 0100xx frint32/64 (single and double only).
 */
static int x_fp_dp1(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned op = a64_field(w, 15, 6), type = SIZE(w);

	(void)e;
	(void)pc;
	if (!fp_ok(w))
		return -1;
	if (op < 4 || (op >= 8 && op < 16 && op != 13)) {
		/* ok */
	} else if (op >= 4 && op < 8) {
		unsigned opc = op & 3;

		if (opc == 2 ? type != 1 : opc == type)
			return -1;
	} else if (op >= 16 && op < 20) {
		if (type > 1)
			return -1;
	} else {
		return -1;
	}
	a64_vregs(in, w, 0, 0);
	return 0;
}

/* FP compare: M 0 S 11110 type 1 Rm op 1000 Rn opcode2; sets NZCV */
static int x_fp_cmp(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned op2 = a64_field(w, 0, 5);

	(void)e;
	(void)pc;
	if (!fp_ok(w) || a64_field(w, 14, 2) || (op2 & 7))
		return -1;
	/* fcmp #0.0: Rm is (0), should-be-zero, and not read */
	a64_src(in, a64_vreg(A64_RN(w)));
	if (!(op2 & 8))
		a64_src(in, a64_vreg(A64_RM(w)));
	a64_dst(in, A64_R_NZCV);
	in->flags |= A64_F_SETFLAGS;
	return 0;
}

/* FP immediate (fmov #imm): M 0 S 11110 type 1 imm8 100 imm5 Rd */
static int x_fp_imm(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!fp_ok(w) || a64_field(w, 5, 5))
		return -1;
	a64_dst(in, a64_vreg(A64_RD(w)));
	return 0;
}

/* fccmp/fccmpe: M 0 S 11110 type 1 Rm cond 01 Rn op nzcv */
static int x_fp_ccmp(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!fp_ok(w))
		return -1;
	in->cond = (uint8_t)a64_field(w, 12, 4);
	a64_src(in, a64_vreg(A64_RN(w)));
	a64_src(in, a64_vreg(A64_RM(w)));
	a64_src(in, A64_R_NZCV);
	a64_dst(in, A64_R_NZCV);
	in->flags |= A64_F_SETFLAGS;
	return 0;
}

/* FP 2-source: fmul fdiv fadd fsub fmax fmin fmaxnm fminnm fnmul */
static int x_fp_dp2(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!fp_ok(w) || a64_field(w, 12, 4) > 8)
		return -1;
	a64_vregs(in, w, 1, 0);
	return 0;
}

/* fcsel: M 0 S 11110 type 1 Rm cond 11 Rn Rd */
static int x_fp_csel(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!fp_ok(w))
		return -1;
	in->cond = (uint8_t)a64_field(w, 12, 4);
	a64_src(in, A64_R_NZCV);
	a64_vregs(in, w, 1, 0);
	return 0;
}

/* FP 3-source: fmadd/fmsub/fnmadd/fnmsub, M 0 S 11111 type o1 Rm o0 Ra Rn Rd */
static int x_fp_dp3(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!fp_ok(w))
		return -1;
	a64_src(in, a64_vreg(A64_RA(w)));
	a64_vregs(in, w, 1, 0);
	return 0;
}

const struct a64_enc a64_fp_tab[] = {
	/* cryptographic extension */
	{ 0xff3e0c00, 0x4e280800, C, 0, x_aes, "aes" },
	{ 0xff208c00, 0x5e000000, C, 0, x_sha3, "sha 3-reg" },
	{ 0xff3e0c00, 0x5e280800, C, 0, x_sha2, "sha 2-reg" },
	{ 0xff808000, 0xce000000, C, 0, x_crypto4, "eor3/bcax/sm3ss1" },
	{ 0xffe0c000, 0xce408000, C, 0, x_crypto_rrr, "sm3tt" },
	{ 0xffe0b000, 0xce608000, C, 0, x_sha512_3, "sha512 3-reg" },
	{ 0xffe00000, 0xce800000, C, 0, x_crypto_rrr, "xar" },
	{ 0xfffff000, 0xcec08000, C, 0, x_sha512_2, "sha512 2-reg" },

	/* scalar floating point */
	{ 0x5f200000, 0x1e000000, C, 0, x_fp_fixed, "fp<->fixed" },
	{ 0x5f20fc00, 0x1e200000, C, 0, x_fp_int, "fp<->int" },
	{ 0x5f207c00, 0x1e204000, C, 0, x_fp_dp1, "fp 1-source" },
	{ 0x5f203c00, 0x1e202000, C, 0, x_fp_cmp, "fcmp" },
	{ 0x5f201c00, 0x1e201000, C, 0, x_fp_imm, "fmov imm" },
	{ 0x5f200c00, 0x1e200400, C, 0, x_fp_ccmp, "fccmp" },
	{ 0x5f200c00, 0x1e200800, C, 0, x_fp_dp2, "fp 2-source" },
	{ 0x5f200c00, 0x1e200c00, C, 0, x_fp_csel, "fcsel" },
	{ 0x5f000000, 0x1f000000, C, 0, x_fp_dp3, "fp 3-source" },
};

const unsigned a64_fp_n = sizeof(a64_fp_tab) / sizeof(a64_fp_tab[0]);
