/*
 * text_fb.c - text for allocated words Capstone 4.0.2 refuses:
 * CONSTRAINED UNPREDICTABLE register combinations of loads and stores
 * (writeback into the transfer register, ldp with Rt == Rt2) that objdump
 * still prints, the LORegion ldlar/stllr, Advanced SIMD copies with
 * don't-care index bits set, half-precision scalar FP, and the ARMv8.2
 * SHA-3/SHA-512/SM3/SM4 and dot-product forms, and FEAT_MOPS memory
 * copy/set.  Spelled as objdump does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "a64/internal.h"

static const char *const size_sfx[4] = { "b", "h", "", "" };

static const char *gpr(unsigned r, int x, int sp)
{
	return a64_gpr_name(r, x, sp);
}

/* FP/SIMD register of n bytes: b0 h0 s0 d0 q0 */
static void fpreg(char *buf, size_t len, unsigned bytes, unsigned r)
{
	char c = bytes == 1 ? 'b' : bytes == 2 ? 'h' : bytes == 4 ? 's' :
		 bytes == 8 ? 'd' : 'q';

	snprintf(buf, len, "%c%u", c, r & 31);
}

/* prfm operation: pld/pli/pst, l1-l3, keep/strm; others as #imm */
static void prfop(struct a64_out *o, unsigned rt)
{
	static const char *const type[3] = { "pld", "pli", "pst" };
	unsigned t = rt >> 3, tgt = (rt >> 1) & 3;

	if (t < 3 && tgt < 3)
		a64_put(o, "%sl%u%s", type[t], tgt + 1, rt & 1 ? "strm" : "keep");
	else
		a64_put(o, "#0x%02x", rt);
}

/*
 * Single-register loads and stores: unscaled, pre/post-index, unpriv,
 * register offset, unsigned offset.  Capstone refuses e.g. writeback into
 * the transfer register; objdump prints them.
 */
static int txt_ldst1(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	static const char *const gp[4][4] = {
		{ "strb", "ldrb", "ldrsb", "ldrsb" },
		{ "strh", "ldrh", "ldrsh", "ldrsh" },
		{ "str", "ldr", "ldrsw", "" },
		{ "str", "ldr", "prfm", "" },
	};
	unsigned size = a64_field(w, 30, 2), opc = a64_field(w, 22, 2);
	unsigned fp = a64_field(w, 26, 1), rn = A64_RN(w), rt = A64_RT(w);
	unsigned form = a64_field(w, 10, 2), bytes = in->mem_size;
	char name[16], reg[8];
	const char *base;
	long long imm;

	base = fp ? (opc & 1 ? "ldr" : "str") : gp[size][opc];
	if (!*base)
		return 0;
	if (in->cls == A64_C_PRFM)
		bytes = 8;
	if (a64_field(w, 24, 1)) {			/* unsigned offset */
		snprintf(name, sizeof(name), "%s", base);
		imm = (long long)a64_field(w, 10, 12) * bytes;
		form = 2;
	} else if (a64_field(w, 21, 1)) {		/* register offset */
		snprintf(name, sizeof(name), "%s", base);
		form = 4;
		imm = 0;
	} else {
		imm = a64_sext(w >> 12, 9);
		if (form == 0 || form == 2)		/* ldur, ldtr: ld + u/t + r.. */
			snprintf(name, sizeof(name), "%.*s%c%s", base[0] == 'p' ? 3 : 2,
				 base, form ? 't' : 'u', base + (base[0] == 'p' ? 3 : 2));
		else
			snprintf(name, sizeof(name), "%s", base);
		form = form == 1 ? 1 : form == 3 ? 3 : 2;
	}
	a64_put(o, "%s ", name);
	if (in->cls == A64_C_PRFM) {
		prfop(o, rt);
	} else if (fp) {
		fpreg(reg, sizeof(reg), in->mem_size, rt);
		a64_put(o, "%s", reg);
	} else {
		a64_put(o, "%s", gpr(rt, (in->flags & A64_F_64) != 0, 0));
	}
	a64_put(o, ", ");
	if (form == 4) {
		static const char *const ext[8] = {
			"", "", "uxtw", "lsl", "", "", "sxtw", "sxtx"
		};
		unsigned opt = a64_field(w, 13, 3), s = a64_field(w, 12, 1);
		unsigned amt = bytes == 16 ? 4 : bytes == 8 ? 3 : bytes == 4 ? 2 :
			       bytes == 2 ? 1 : 0;

		a64_put(o, "[%s, %s", gpr(rn, 1, 1), gpr(A64_RM(w), opt & 1, 0));
		if (opt != 3 || s)
			a64_put(o, ", %s", ext[opt]);
		if (s)
			a64_put(o, " #%u", amt);
		a64_put(o, "]");
	} else {
		a64_put_index(o, rn, imm, form);
	}
	return 1;
}

/* ldp/stp/ldnp/stnp/ldpsw, integer and FP */
static int txt_pair(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	unsigned type = a64_field(w, 23, 2), l = a64_field(w, 22, 1);
	unsigned each = in->mem_size / 2, scale = each;
	char r1[8], r2[8];
	const char *m;

	if (in->flags & A64_F_FPREG) {
		fpreg(r1, sizeof(r1), each, A64_RT(w));
		fpreg(r2, sizeof(r2), each, A64_RT2(w));
	} else {
		int x = (in->flags & A64_F_64) != 0;

		snprintf(r1, sizeof(r1), "%s", gpr(A64_RT(w), x, 0));
		snprintf(r2, sizeof(r2), "%s", gpr(A64_RT2(w), x, 0));
	}
	if (in->flags & A64_F_SIGNEXT)
		m = "ldpsw";
	else if (type == 0)
		m = l ? "ldnp" : "stnp";
	else
		m = l ? "ldp" : "stp";
	a64_put(o, "%s %s, %s, ", m, r1, r2);
	a64_put_index(o, A64_RN(w), a64_sext(w >> 15, 7) * (long long)scale,
		  type ? type : 2);
	return 1;
}

/* exclusives, ldar/stlr and the LORegion ldlar/stllr (no Capstone) */
static int txt_excl(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), o2 = a64_field(w, 23, 1);
	unsigned l = a64_field(w, 22, 1), o1 = a64_field(w, 21, 1);
	unsigned o0 = a64_field(w, 15, 1);
	int x = (in->flags & A64_F_64) != 0;
	const char *sfx = (in->flags & A64_F_PAIR) ? "" : size_sfx[size];

	if (o2) {
		a64_put(o, "%s%s %s, [%s]", l ? (o0 ? "ldar" : "ldlar") :
			(o0 ? "stlr" : "stllr"), sfx, gpr(A64_RT(w), x, 0),
			gpr(A64_RN(w), 1, 1));
		return 1;
	}
	a64_put(o, "%s%sx%c%s ", l ? "ld" : "st", o0 ? (l ? "a" : "l") : "",
		o1 ? 'p' : 'r', sfx);
	if (!l)
		a64_put(o, "%s, ", gpr(A64_RS(w), 0, 0));
	a64_put(o, "%s, ", gpr(A64_RT(w), x, 0));
	if (o1)
		a64_put(o, "%s, ", gpr(A64_RT2(w), x, 0));
	a64_put(o, "[%s]", gpr(A64_RN(w), 1, 1));
	return 1;
}

/* Advanced SIMD copy: mov (ins/umov), dup, smov; index = imm >> size */
static int txt_copy(struct a64_out *o, uint32_t w)
{
	static const char ts[4] = { 'b', 'h', 's', 'd' };
	static const char *const vt[4][2] = {
		{ "8b", "16b" }, { "4h", "8h" }, { "2s", "4s" }, { "1d", "2d" }
	};
	unsigned imm5 = a64_field(w, 16, 5), imm4 = a64_field(w, 11, 4);
	unsigned q = a64_field(w, 30, 1), size = 0;
	unsigned rd = A64_RD(w), rn = A64_RN(w), i1, i2;

	if ((w & 0x9fe08400) != 0x0e000400 || !(imm5 & 0xf))
		return 0;
	while (!(imm5 >> size & 1))
		size++;
	i1 = imm5 >> (size + 1);
	i2 = imm4 >> size;
	if (a64_field(w, 29, 1)) {
		a64_put(o, "mov v%u.%c[%u], v%u.%c[%u]", rd, ts[size], i1, rn,
			ts[size], i2);
		return 1;
	}
	switch (imm4) {
	case 0:
		a64_put(o, "dup v%u.%s, v%u.%c[%u]", rd, vt[size][q], rn, ts[size], i1);
		return 1;
	case 1:
		a64_put(o, "dup v%u.%s, %s", rd, vt[size][q], gpr(rn, size == 3, 0));
		return 1;
	case 3:
		a64_put(o, "mov v%u.%c[%u], %s", rd, ts[size], i1, gpr(rn, size == 3, 0));
		return 1;
	case 5: case 7:
		a64_put(o, "%s %s, v%u.%c[%u]",
			imm4 == 5 ? "smov" : (size >= 2 ? "mov" : "umov"),
			gpr(rd, (int)q, 0), rn, ts[size], i1);
		return 1;
	}
	return 0;
}

/*
 * Scalar floating point: half precision (type 11) is beyond Capstone 4.
 * The 1-source, 2-source, 3-source, compare, conditional compare and
 * select forms; conversions and immediates stay ".inst".
 */
static int txt_fp_scalar(struct a64_out *o, uint32_t w)
{
	static const char *const dp2[9] = {
		"fmul", "fdiv", "fadd", "fsub", "fmax", "fmin", "fmaxnm",
		"fminnm", "fnmul"
	};
	static const char *const dp3[4] = { "fmadd", "fmsub", "fnmadd", "fnmsub" };
	static const char *const dp1[16] = {
		"fmov", "fabs", "fneg", "fsqrt", "", "", "", "",
		"frintn", "frintp", "frintm", "frintz", "frinta", "", "frintx",
		"frinti"
	};
	static const char *const cc[16] = {
		"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le", "al", "nv"
	};
	static const char tc[4] = { 's', 'd', '?', 'h' };
	char t = tc[a64_field(w, 22, 2)];
	unsigned rd = A64_RD(w), rn = A64_RN(w), rm = A64_RM(w);

	if ((w & 0x5f000000) == 0x1f000000) {
		a64_put(o, "%s %c%u, %c%u, %c%u, %c%u",
			dp3[a64_field(w, 21, 1) << 1 | a64_field(w, 15, 1)],
			t, rd, t, rn, t, rm, t, A64_RA(w));
		return 1;
	}
	if ((w & 0x5f200000) != 0x1e200000)
		return 0;
	switch (a64_field(w, 10, 2)) {
	case 1:					/* fccmp, fccmpe */
		a64_put(o, "fccmp%s %c%u, %c%u, #0x%x, %s",
			a64_field(w, 4, 1) ? "e" : "", t, rn, t, rm,
			a64_field(w, 0, 4), cc[a64_field(w, 12, 4)]);
		return 1;
	case 2:
		a64_put(o, "%s %c%u, %c%u, %c%u", dp2[a64_field(w, 12, 4)],
			t, rd, t, rn, t, rm);
		return 1;
	case 3:
		a64_put(o, "fcsel %c%u, %c%u, %c%u, %s", t, rd, t, rn, t, rm,
			cc[a64_field(w, 12, 4)]);
		return 1;
	}
	if ((w & 0x5f203c00) == 0x1e202000) {	/* fcmp, fcmpe */
		a64_put(o, "fcmp%s %c%u, ", a64_field(w, 4, 1) ? "e" : "", t, rn);
		if (a64_field(w, 3, 1))
			a64_put(o, "#0.0");
		else
			a64_put(o, "%c%u", t, rm);
		return 1;
	}
	if ((w & 0x5f207c00) == 0x1e204000 && a64_field(w, 15, 6) < 16 &&
	    dp1[a64_field(w, 15, 6)][0]) {
		a64_put(o, "%s %c%u, %c%u", dp1[a64_field(w, 15, 6)], t, rd, t, rn);
		return 1;
	}
	return 0;
}

/* SHA-3 / SHA-512 / SM3 / SM4 (ARMv8.2 crypto): Rd, Rn, Rm[, Ra] */
static int txt_crypto(struct a64_out *o, uint32_t w)
{
	static const char *const c4[3] = { "eor3", "bcax", "sm3ss1" };
	static const char *const c3[7] = {
		"sha512h", "sha512h2", "sha512su1", "rax1", "sm3partw1",
		"sm3partw2", "sm4ekey"
	};
	unsigned rd = A64_RD(w), rn = A64_RN(w), rm = A64_RM(w);

	if ((w & 0xff808000) == 0xce000000) {
		unsigned op = a64_field(w, 21, 2);
		const char *t = op == 2 ? "4s" : "16b";

		a64_put(o, "%s v%u.%s, v%u.%s, v%u.%s, v%u.%s", c4[op], rd, t,
			rn, t, rm, t, A64_RA(w), t);
		return 1;
	}
	if ((w & 0xffe0c000) == 0xce408000) {	/* sm3tt1a.. */
		a64_put(o, "sm3tt%u%c v%u.4s, v%u.4s, v%u.s[%u]",
			a64_field(w, 11, 1) + 1, a64_field(w, 10, 1) ? 'b' : 'a',
			rd, rn, rm, a64_field(w, 12, 2));
		return 1;
	}
	if ((w & 0xffe0b000) == 0xce608000) {
		unsigned op = a64_field(w, 14, 1) << 2 | a64_field(w, 10, 2);

		if (op < 2)		/* sha512h/h2 Qd, Qn, Vm.2D */
			a64_put(o, "%s q%u, q%u, v%u.2d", c3[op], rd, rn, rm);
		else
			a64_put(o, "%s v%u.%s, v%u.%s, v%u.%s", c3[op], rd,
				op < 4 ? "2d" : "4s", rn, op < 4 ? "2d" : "4s",
				rm, op < 4 ? "2d" : "4s");
		return 1;
	}
	if ((w & 0xffe00000) == 0xce800000) {
		a64_put(o, "xar v%u.2d, v%u.2d, v%u.2d, #%u", rd, rn, rm,
			a64_field(w, 10, 6));
		return 1;
	}
	if ((w & 0xfffff000) == 0xcec08000) {
		if (a64_field(w, 10, 1))
			a64_put(o, "sm4e v%u.4s, v%u.4s", rd, rn);
		else
			a64_put(o, "sha512su0 v%u.2d, v%u.2d", rd, rn);
		return 1;
	}
	return 0;
}

/*
 * Half-precision three same (vector and scalar, FEAT_FP16) and the
 * ARMv8.1/8.2 sqrdmlah/sqrdmlsh/sdot/udot vector forms.
 */
static int txt_simd_newer(struct a64_out *o, uint32_t w)
{
	static const char *const fp16[4][8] = {
		{ "fmaxnm", "fmla", "fadd", "fmulx", "fcmeq", "", "fmax", "frecps" },
		{ "fminnm", "fmls", "fsub", "", "", "", "fmin", "frsqrts" },
		{ "fmaxnmp", "", "faddp", "fmul", "fcmge", "facge", "fmaxp", "fdiv" },
		{ "fminnmp", "", "fabd", "", "fcmgt", "facgt", "fminp", "" },
	};
	unsigned q = a64_field(w, 30, 1), u = a64_field(w, 29, 1);
	unsigned rd = A64_RD(w), rn = A64_RN(w), rm = A64_RM(w);
	const char *m;

	if ((w & 0x9f60c400) == 0x0e400400 || (w & 0xdf60c400) == 0x5e400400) {
		m = fp16[u << 1 | a64_field(w, 23, 1)][a64_field(w, 11, 3)];
		if (!*m)
			return 0;
		if (a64_field(w, 28, 1))
			a64_put(o, "%s h%u, h%u, h%u", m, rd, rn, rm);
		else
			a64_put(o, "%s v%u.%s, v%u.%s, v%u.%s", m, rd, q ? "8h" : "4h",
				rn, q ? "8h" : "4h", rm, q ? "8h" : "4h");
		return 1;
	}
	if ((w & 0x9f20e400) == 0x0e008400) {	/* 3-reg extension, op 0xxx */
		unsigned op = a64_field(w, 11, 4), size = a64_field(w, 22, 2);
		const char *t = size == 1 ? (q ? "8h" : "4h") : (q ? "4s" : "2s");

		if (u && op <= 1)
			a64_put(o, "sqrdml%ch v%u.%s, v%u.%s, v%u.%s", op ? 's' : 'a',
				rd, t, rn, t, rm, t);
		else if (op == 2)
			a64_put(o, "%cdot v%u.%s, v%u.%s, v%u.%s", u ? 'u' : 's', rd,
				q ? "4s" : "2s", rn, q ? "16b" : "8b", rm,
				q ? "16b" : "8b");
		else
			return 0;
		return 1;
	}
	return 0;
}

/* FEAT_MOPS: cpy{f}{p,m,e}<options> [xd]!, [xs]!, xn! and
 * set{g}{p,m,e}<options> [xd]!, xn!, xs (objdump's spelling) */
static int txt_mops(struct a64_out *o, uint32_t w)
{
	static const char *const cpy_opt[16] = {
		"", "wt", "rt", "t", "wn", "wtwn", "rtwn", "twn",
		"rn", "wtrn", "rtrn", "trn", "n", "wtn", "rtn", "tn",
	};
	static const char *const set_opt[4] = { "", "t", "n", "tn" };
	static const char pme[4] = { 'p', 'm', 'e', '?' };
	unsigned op1 = a64_field(w, 22, 2), op2 = a64_field(w, 12, 4), g = a64_field(w, 26, 1);
	unsigned rd = A64_RD(w), rn = A64_RN(w), rs = a64_field(w, 16, 5);

	if ((w & 0x3b200c00) != 0x19000400)
		return 0;
	if (op1 == 3) {
		if (op2 >> 2 == 3)
			return 0;
		a64_put(o, "set%s%c%s [%s]!, %s!, %s", g ? "g" : "", pme[op2 >> 2], set_opt[op2 & 3],
			gpr(rd, 1, 0), gpr(rn, 1, 0), gpr(rs, 1, 0));
		return 1;
	}
	a64_put(o, "cpy%s%c%s [%s]!, [%s]!, %s!", g ? "" : "f", pme[op1], cpy_opt[op2], gpr(rd, 1, 0),
		gpr(rs, 1, 0), gpr(rn, 1, 0));
	return 1;
}

int a64_text_fallback(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	if ((w & 0x3b200c00) == 0x19000400)
		return txt_mops(o, w);
	if (in->cls == A64_C_FPSIMD)
		return txt_copy(o, w) || txt_fp_scalar(o, w) || txt_crypto(o, w) ||
		       txt_simd_newer(o, w);
	if (!a64_is_mem(in->cls) || (in->flags & A64_F_LITERAL) ||
	    (w & 0x3e000000) == 0x0c000000)	/* ld1-4/st1-4: none here */
		return 0;
	if ((w & 0x3f000000) == 0x08000000 && in->cls != A64_C_ATOMIC)
		return txt_excl(o, w, in);
	if ((w & 0x3a000000) == 0x28000000 && (w & 0xfe400000) != 0x68000000)
		return txt_pair(o, w, in);			/* not stgp */
	if ((w & 0x3b200c00) == 0x38200800 ||		/* register offset */
	    (w & 0x3b200000) == 0x38000000 ||		/* imm9 forms */
	    (w & 0x3b000000) == 0x39000000)		/* unsigned offset */
		return txt_ldst1(o, w, in);
	return 0;
}
