/*
 * text.c - disassembly text built from the decoder's fields, for the
 * words Capstone 4.0.2 cannot decode or spells differently from the Arm
 * ARM's preferred disassembly (which GNU objdump follows).  The format
 * follows objdump: lower case, "#0x.." for most immediates, decimal
 * offsets in addresses.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "a64/internal.h"

/* bounded appender: never writes past len - 1, always NUL-terminates */
void a64_put(struct a64_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->pos + 1 >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
	if (o->pos >= o->len)
		o->pos = o->len - 1;
}

/* general register name: 31 is sp/wsp or xzr/wzr depending on the operand */
static const char *gpr(unsigned r, int x, int sp)
{
	static const char *const xn[32] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
		"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",
		"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
		"x28", "x29", "x30", "xzr",
	};
	static const char *const wn[32] = {
		"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9",
		"w10", "w11", "w12", "w13", "w14", "w15", "w16", "w17", "w18",
		"w19", "w20", "w21", "w22", "w23", "w24", "w25", "w26", "w27",
		"w28", "w29", "w30", "wzr",
	};

	r &= 31;
	if (r == 31 && sp)
		return x ? "sp" : "wsp";
	return x ? xn[r] : wn[r];
}

const char *a64_gpr_name(unsigned r, int x, int sp)
{
	return gpr(r, x, sp);
}

static const char *const size_sfx[4] = { "b", "h", "", "" };
static const char *const ord_sfx[4] = { "", "l", "a", "al" };	/* A:R */

/* cas*, casp* and the LSE ld<op>/st<op>/swp, spelled as binutils does */
static void txt_atomic(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	static const char *const ops[8] = {
		"add", "clr", "eor", "set", "smax", "smin", "umax", "umin"
	};
	unsigned size = a64_field(w, 30, 2), x = size == 3;
	unsigned rs = A64_RS(w), rt = A64_RT(w), rn = A64_RN(w);

	if (a64_field(w, 24, 6) == 0x08) {	/* size 001000: cas, casp */
		unsigned ord = a64_field(w, 22, 1) << 1 | a64_field(w, 15, 1);

		if (in->flags & A64_F_PAIR) {
			x = size & 1;
			a64_put(o, "casp%s %s, %s, %s, %s, [%s]", ord_sfx[ord],
			    gpr(rs, x, 0), gpr(rs + 1, x, 0), gpr(rt, x, 0),
			    gpr(rt + 1, x, 0), gpr(rn, 1, 1));
			return;
		}
		a64_put(o, "cas%s%s %s, %s, [%s]", ord_sfx[ord], size_sfx[size],
		    gpr(rs, x, 0), gpr(rt, x, 0), gpr(rn, 1, 1));
		return;
	}
	{
		unsigned ord = a64_field(w, 23, 1) << 1 | a64_field(w, 22, 1);
		unsigned opc = a64_field(w, 12, 3);

		if (a64_field(w, 15, 1)) {
			a64_put(o, "swp%s%s %s, %s, [%s]", ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rt, x, 0),
			    gpr(rn, 1, 1));
		} else if (rt == 31 && !(ord & 2)) {
			/* st<op>: the alias when the old value is discarded
			 * and there is no acquire */
			a64_put(o, "st%s%s%s %s, [%s]", ops[opc], ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rn, 1, 1));
		} else {
			a64_put(o, "ld%s%s%s %s, %s, [%s]", ops[opc], ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rt, x, 0),
			    gpr(rn, 1, 1));
		}
	}
}

/* [xn], [xn, #imm], [xn, #imm]! */
static void a64_put_addr(struct a64_out *o, unsigned rn, long long imm, int pre)
{
	if (!imm && !pre)
		a64_put(o, "[%s]", gpr(rn, 1, 1));
	else
		a64_put(o, "[%s, #%lld]%s", gpr(rn, 1, 1), imm, pre ? "!" : "");
}

/* ldapr (FEAT_LRCPC), ldapur/stlur (FEAT_LRCPC2) */
static void txt_rcpc(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	static const char *const ur[4] = { "stlur", "ldapur", "ldapurs", "ldapurs" };
	unsigned size = a64_field(w, 30, 2), opc = a64_field(w, 22, 2);
	int x;

	if (a64_field(w, 24, 6) == 0x38) {	/* ldapr: atomic space */
		a64_put(o, "ldapr%s %s, [%s]", size_sfx[size],
		    gpr(A64_RT(w), size == 3, 0), gpr(A64_RN(w), 1, 1));
		return;
	}
	x = (in->flags & A64_F_64) != 0;
	a64_put(o, "%s%s %s, ", ur[opc],
	    opc >= 2 && size == 2 ? "w" : size_sfx[size],
	    gpr(A64_RT(w), x, 0));
	a64_put_addr(o, A64_RN(w), a64_sext(w >> 12, 9), 0);
}

/* hint space, CRm:op2 = #imm: the named hints binutils knows */
static void txt_hint(struct a64_out *o, unsigned imm)
{
	static const char *const names[40] = {
		[0] = "nop", [1] = "yield", [2] = "wfe", [3] = "wfi",
		[4] = "sev", [5] = "sevl", [7] = "xpaclri",
		[8] = "pacia1716", [10] = "pacib1716", [12] = "autia1716",
		[14] = "autib1716", [16] = "esb", [17] = "psb csync",
		[18] = "tsb csync", [20] = "csdb", [22] = "clearbhb",
		[24] = "paciaz", [25] = "paciasp", [26] = "pacibz",
		[27] = "pacibsp", [28] = "autiaz", [29] = "autiasp",
		[30] = "autibz", [31] = "autibsp", [32] = "bti",
		[34] = "bti c", [36] = "bti j", [38] = "bti jc",
	};

	if (imm < 40 && names[imm])
		a64_put(o, "%s", names[imm]);
	else
		a64_put(o, "hint #0x%x", imm);
}

/* retaa, eretaa, braa(z), blraa(z): M (bit 10) picks key A or B */
static void txt_pac_branch(struct a64_out *o, uint32_t w)
{
	static const char *const base[4] = { "br", "blr", "ret", "eret" };
	unsigned opc = a64_field(w, 21, 4), key = a64_field(w, 10, 1);
	unsigned rn = A64_RN(w);
	const char *k = key ? "b" : "a";

	if (opc == 2 || opc == 4) {		/* retaa, eretaa */
		a64_put(o, "%sa%s", base[opc == 2 ? 2 : 3], k);
	} else if (opc & 8) {			/* braa, blraa: Rm|SP modifier */
		a64_put(o, "%sa%s %s, %s", base[opc & 1], k, gpr(rn, 1, 0),
		    gpr(A64_RD(w), 1, 1));
	} else {				/* braaz, blraaz */
		a64_put(o, "%sa%sz %s", base[opc & 1], k, gpr(rn, 1, 0));
	}
}

/* pacia..autdzb, xpaci/xpacd (1-source) and pacga (2-source) */
static void txt_pac_reg(struct a64_out *o, uint32_t w)
{
	static const char *const names[18] = {
		"pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda",
		"autdb", "paciza", "pacizb", "pacdza", "pacdzb", "autiza",
		"autizb", "autdza", "autdzb", "xpaci", "xpacd",
	};
	unsigned op = a64_field(w, 10, 6);

	if (!a64_field(w, 30, 1)) {		/* pacga Xd, Xn, Xm|SP */
		a64_put(o, "pacga %s, %s, %s", gpr(A64_RD(w), 1, 0),
		    gpr(A64_RN(w), 1, 0), gpr(A64_RM(w), 1, 1));
	} else if (op < 8) {
		a64_put(o, "%s %s, %s", names[op], gpr(A64_RD(w), 1, 0),
		    gpr(A64_RN(w), 1, 1));
	} else {
		a64_put(o, "%s %s", names[op], gpr(A64_RD(w), 1, 0));
	}
}

/* ldraa/ldrab Xt, [Xn|SP, #simm10 * 8]{!} */
static void txt_ldra(struct a64_out *o, uint32_t w)
{
	long long imm = a64_sext(a64_field(w, 22, 1) << 9 | a64_field(w, 12, 9), 10) * 8;

	a64_put(o, "ldra%s %s, ", a64_field(w, 23, 1) ? "b" : "a",
	    gpr(A64_RT(w), 1, 0));
	a64_put_addr(o, A64_RN(w), imm, (int)a64_field(w, 11, 1));
}

/* msr <pstatefield>, #imm and the flag-manipulation forms of the space */
static void txt_pstate(struct a64_out *o, uint32_t w)
{
	static const char *const flagm[3] = { "cfinv", "xaflag", "axflag" };
	unsigned op1 = a64_field(w, 16, 3), op2 = a64_field(w, 5, 3);
	unsigned crm = a64_field(w, 8, 4);
	const char *f = "?";

	switch (op1 << 3 | op2) {
	case 0x00: case 0x01: case 0x02:
		a64_put(o, "%s", flagm[op2]);
		return;
	case 0x03: f = "uao"; break;
	case 0x04: f = "pan"; break;
	case 0x05: f = "spsel"; break;
	case 0x08: f = "allint"; break;
	case 0x19: f = "ssbs"; break;
	case 0x1a: f = "dit"; break;
	case 0x1c: f = "tco"; break;
	case 0x1e: f = "daifset"; break;
	case 0x1f: f = "daifclr"; break;
	}
	a64_put(o, "msr %s, #0x%x", f, crm);
}

/* a value one movz (or, given ~v, one movn) can build: one 16-bit chunk */
static int wide_const(uint64_t v, int is64)
{
	unsigned s;

	if (!is64)
		v &= 0xffffffffull;
	for (s = 0; s < (is64 ? 64u : 32u); s += 16)
		if (!(v & ~(0xffffull << s)))
			return 1;
	return 0;
}

/*
 * MOV (wide immediate) and MOV (bitmask immediate).  The Arm ARM's rule
 * (and objdump's): movz/movn are "mov" unless #0 has a shift, or a movn
 * result that a movz could build; orr Rd, zr, #imm is "mov" unless a
 * movz/movn could build the value, except into SP where only orr can.
 * Capstone prints the machine mnemonics.  Returns 0 to keep Capstone's.
 */
static int txt_mov_imm(struct a64_out *o, uint32_t w)
{
	unsigned sf = A64_SF(w), rd = A64_RD(w);
	uint64_t mask = sf ? ~0ull : 0xffffffffull, v;

	if ((w & 0x1f800000) == 0x12800000) {		/* movn/movz/movk */
		unsigned opc = a64_field(w, 29, 2), hw = a64_field(w, 21, 2);
		uint64_t imm16 = a64_field(w, 5, 16);

		if (opc == 3)				/* movk: Capstone is right */
			return 0;
		v = imm16 << (hw * 16);
		if ((imm16 == 0 && hw) || (opc == 0 && wide_const(~v, (int)sf))) {
			a64_put(o, "mov%c %s, #0x%" PRIx64, opc ? 'z' : 'n',
				gpr(rd, (int)sf, 0), imm16);
			if (hw)
				a64_put(o, ", lsl #%u", hw * 16);
			return 1;
		}
		if (opc == 0)
			v = ~v;
		a64_put(o, "mov %s, #0x%" PRIx64, gpr(rd, (int)sf, 0), v & mask);
		return 1;
	}
	if ((w & 0x7f8003e0) == 0x320003e0) {		/* orr Rd, zr, #imm */
		if (!a64_bitmask_imm(a64_field(w, 22, 1), a64_field(w, 16, 6),
				     a64_field(w, 10, 6), (int)sf, &v))
			return 0;
		if (rd != 31 && (wide_const(v, (int)sf) || wide_const(~v, (int)sf)))
			return 0;
		a64_put(o, "mov %s, #0x%" PRIx64, gpr(rd, (int)sf, 1), v & mask);
		return 1;
	}
	return 0;
}

/*
 * csel/csinc/csinv/csneg with cond al or nv: the cset/cinc/cneg aliases
 * invert the condition, which al/nv cannot be, so the Arm ARM keeps the
 * base mnemonic; Capstone does not.
 */
static int txt_csel_al(struct a64_out *o, uint32_t w)
{
	static const char *const names[4] = { "csel", "csinc", "csinv", "csneg" };
	unsigned sf = A64_SF(w);

	if ((w & 0x3fe00800) != 0x1a800000 || a64_field(w, 13, 3) != 7)
		return 0;
	a64_put(o, "%s %s, %s, %s, %s",
		names[a64_field(w, 30, 1) << 1 | a64_field(w, 10, 1)],
		gpr(A64_RD(w), (int)sf, 0), gpr(A64_RN(w), (int)sf, 0),
		gpr(A64_RM(w), (int)sf, 0), a64_field(w, 12, 1) ? "nv" : "al");
	return 1;
}

/* bfc Rd, #lsb, #width: bfm from the zero register, the bfi shape */
static int txt_bfc(struct a64_out *o, uint32_t w)
{
	unsigned sf = A64_SF(w), width = sf ? 64 : 32;
	unsigned immr = a64_field(w, 16, 6), imms = a64_field(w, 10, 6);

	if ((w & 0x7f8003e0) != 0x330003e0 || imms >= immr)
		return 0;
	a64_put(o, "bfc %s, #%u, #%u", gpr(A64_RD(w), (int)sf, 0),
		(width - immr) & (width - 1), imms + 1);
	return 1;
}

/* rmif, setf8, setf16 (FEAT_FlagM) */
static int txt_flagm(struct a64_out *o, uint32_t w)
{
	if ((w & 0xffe07c10) == 0xba000400) {
		a64_put(o, "rmif %s, #%u, #%u", gpr(A64_RN(w), 1, 0),
			a64_field(w, 15, 6), a64_field(w, 0, 4));
		return 1;
	}
	if ((w & 0xffffbc1f) == 0x3a00080d) {
		a64_put(o, "setf%s %s", a64_field(w, 14, 1) ? "16" : "8",
			gpr(A64_RN(w), 0, 0));
		return 1;
	}
	return 0;
}

/* b.<cond> with binutils' condition names (cs/cc, not hs/lo) */
static void txt_bcond(struct a64_out *o, const struct a64_insn *in)
{
	static const char *const cc[16] = {
		"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le", "al", "nv"
	};

	a64_put(o, "b.%s #0x%" PRIx64, cc[in->cond & 15], in->target);
}

/* "[xn, #imm]", "[xn, #imm]!" or "[xn], #imm" for the index forms */
void a64_put_index(struct a64_out *o, unsigned rn, long long imm, unsigned form)
{
	if (form == 1)				/* post-index */
		a64_put(o, "[%s], #%lld", gpr(rn, 1, 1), imm);
	else
		a64_put_addr(o, rn, imm, form == 3);
}

/*
 * MTE (FEAT_MTE), newer than Capstone 4: irg, gmi, subp(s)/cmpp,
 * addg/subg, the tag loads/stores and stgp.  Returns 0 if w is none.
 */
static int txt_mte(struct a64_out *o, uint32_t w)
{
	static const char *const tagop[4][4] = {
		{ "stzgm", "stg", "stg", "stg" },
		{ "ldg", "stzg", "stzg", "stzg" },
		{ "stgm", "st2g", "st2g", "st2g" },
		{ "ldgm", "stz2g", "stz2g", "stz2g" },
	};
	unsigned rd = A64_RD(w), rn = A64_RN(w), rm = A64_RM(w);

	if ((w & 0xffe0f800) == 0x9ac01000) {		/* irg, gmi */
		if (a64_field(w, 10, 1))
			a64_put(o, "gmi %s, %s, %s", gpr(rd, 1, 0), gpr(rn, 1, 1),
			    gpr(rm, 1, 0));
		else if (rm == 31)
			a64_put(o, "irg %s, %s", gpr(rd, 1, 1), gpr(rn, 1, 1));
		else
			a64_put(o, "irg %s, %s, %s", gpr(rd, 1, 1), gpr(rn, 1, 1),
			    gpr(rm, 1, 0));
		return 1;
	}
	if ((w & 0xdfe0fc00) == 0x9ac00000) {		/* subp, subps, cmpp */
		if (a64_field(w, 29, 1) && rd == 31)
			a64_put(o, "cmpp %s, %s", gpr(rn, 1, 1), gpr(rm, 1, 1));
		else
			a64_put(o, "subp%s %s, %s, %s", a64_field(w, 29, 1) ? "s" : "",
			    gpr(rd, 1, 0), gpr(rn, 1, 1), gpr(rm, 1, 1));
		return 1;
	}
	if ((w & 0xbfc00000) == 0x91800000) {		/* addg, subg */
		a64_put(o, "%sg %s, %s, #0x%x, #0x%x", a64_field(w, 30, 1) ? "sub" : "add",
		    gpr(rd, 1, 1), gpr(rn, 1, 1), a64_field(w, 16, 6) * 16,
		    a64_field(w, 10, 4));
		return 1;
	}
	if ((w & 0xff200000) == 0xd9200000) {		/* tag loads/stores */
		unsigned opc = a64_field(w, 22, 2), op2 = a64_field(w, 10, 2);
		long long imm = a64_sext(w >> 12, 9) * 16;

		a64_put(o, "%s %s, ", tagop[opc][op2], gpr(A64_RT(w), 1, op2 != 0));
		if (op2 == 0 && opc != 1)
			a64_put(o, "[%s]", gpr(rn, 1, 1));
		else
			a64_put_index(o, rn, imm, op2 ? op2 : 2);
		return 1;
	}
	if ((w & 0xfe400000) == 0x68000000 && (w & 0x01800000)) {	/* stgp */
		a64_put(o, "stgp %s, %s, ", gpr(A64_RT(w), 1, 0), gpr(A64_RT2(w), 1, 0));
		a64_put_index(o, rn, a64_sext(w >> 15, 7) * 16, a64_field(w, 23, 2));
		return 1;
	}
	return 0;
}

/* dc <op>: Capstone 4 lacks the ARMv8.2+ and MTE ones, so all are here */
static int txt_dc(struct a64_out *o, uint32_t w)
{
	static const struct {
		uint8_t op1, crm, op2;
		char name[8];
	} dc[] = {
		{ 0, 6, 1, "ivac" }, { 0, 6, 2, "isw" }, { 0, 6, 3, "igvac" },
		{ 0, 6, 4, "igsw" }, { 0, 6, 5, "igdvac" }, { 0, 6, 6, "igdsw" },
		{ 0, 10, 2, "csw" }, { 0, 10, 4, "cgsw" }, { 0, 10, 6, "cgdsw" },
		{ 0, 14, 2, "cisw" }, { 0, 14, 4, "cigsw" }, { 0, 14, 6, "cigdsw" },
		{ 3, 4, 1, "zva" }, { 3, 4, 3, "gva" }, { 3, 4, 4, "gzva" },
		{ 3, 10, 1, "cvac" }, { 3, 10, 3, "cgvac" }, { 3, 10, 5, "cgdvac" },
		{ 3, 11, 1, "cvau" }, { 3, 12, 1, "cvap" }, { 3, 12, 3, "cgvap" },
		{ 3, 12, 5, "cgdvap" }, { 3, 13, 1, "cvadp" }, { 3, 13, 3, "cgvadp" },
		{ 3, 13, 5, "cgdvadp" }, { 3, 14, 1, "civac" }, { 3, 14, 3, "cigvac" },
		{ 3, 14, 5, "cigdvac" },
	};
	unsigned op1 = a64_field(w, 16, 3), crm = a64_field(w, 8, 4);
	unsigned op2 = a64_field(w, 5, 3), i;

	/* sys #op1, C7, Cm, #op2, Xt (L = 0, op0 = 01, CRn = 7) */
	if ((w & 0xfff8f000) != 0xd5087000)
		return 0;
	for (i = 0; i < sizeof(dc) / sizeof(dc[0]); i++)
		if (dc[i].op1 == op1 && dc[i].crm == crm && dc[i].op2 == op2) {
			a64_put(o, "dc %s, %s", dc[i].name, gpr(A64_RT(w), 1, 0));
			return 1;
		}
	return 0;
}

/* dsb <opt>nxs (FEAT_XS) and ssbb/pssbb, which Capstone 4 spells as dsb */
static int txt_dsb(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	if ((w & 0xfffff3ff) == 0xd503323f) {	/* dsb <opt>nxs */
		static const char *const nxs[4] = {
			"osh", "nsh", "ish", "sy"
		};
		a64_put(o, "dsb %snxs", nxs[a64_field(w, 10, 2)]);
		return 1;
	}
	if (in->cond == 0 || in->cond == 4) {	/* speculative store bypass */
		a64_put(o, "%s", in->cond ? "pssbb" : "ssbb");
		return 1;
	}
	return 0;
}

/* loads and stores: the RCpc forms and ldraa/ldrab */
static int txt_ldst(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	if (in->flags & A64_F_RCPC || (in->cls == A64_C_STORE &&
	    (w & 0x3f200c00) == 0x19000000)) {
		txt_rcpc(o, w, in);
		return 1;
	}
	if ((w & 0xff200400) == 0xf8200400) {
		txt_ldra(o, w);
		return 1;
	}
	return 0;
}

/* data processing: the flag manipulation and preferred-alias forms */
static int txt_alu(struct a64_out *o, uint32_t w)
{
	if ((w & 0xfff8f01f) == 0xd500401f) {	/* cfinv, xaflag, axflag */
		txt_pstate(o, w);
		return 1;
	}
	return txt_mov_imm(o, w) || txt_csel_al(o, w) || txt_flagm(o, w);
}

/* words of the other classes: PAC branches, WFET/WFIT and the hint space */
static int txt_unclassed(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	if (in->flags & A64_F_PAC) {
		txt_pac_branch(o, w);
		return 1;
	}
	if ((w & 0xffffffc0) == 0xd5031000) {	/* FEAT_WFxT */
		a64_put(o, "%s %s", a64_field(w, 5, 1) ? "wfit" : "wfet",
		    gpr(A64_RD(w), 1, 0));
		return 1;
	}
	/* hints without effect: Capstone prints them all as "hint" */
	if ((w & 0xfffff01f) == 0xd503201f) {
		txt_hint(o, a64_field(w, 5, 7));
		return 1;
	}
	return 0;
}

/*
 * Text for the words Capstone gets wrong or cannot decode; 0 when the word
 * should go to Capstone: the MTE words, then by the decoder's class.
 */
int a64_text_own(struct a64_out *o, uint32_t w, const struct a64_insn *in)
{
	if (txt_mte(o, w))
		return 1;
	switch (in->cls) {
	case A64_C_BCOND:
		if ((w & 0xff000010) != 0x54000000)
			return 0;
		txt_bcond(o, in);
		return 1;
	case A64_C_EXC:
		if (w >> 16)
			return 0;
		a64_put(o, "udf #%u", w & 0xffff);		/* unknown to Capstone */
		return 1;
	case A64_C_SYS:
		return txt_dc(o, w);
	case A64_C_ATOMIC:
		txt_atomic(o, w, in);
		return 1;
	case A64_C_BTI:
	case A64_C_CSDB:
		txt_hint(o, a64_field(w, 5, 7));
		return 1;
	case A64_C_SB:
		a64_put(o, "sb");
		return 1;
	case A64_C_DSB:
		return txt_dsb(o, w, in);
	case A64_C_MSR_IMM:
		txt_pstate(o, w);
		return 1;
	case A64_C_PAC:
		if ((w & 0xfffff01f) == 0xd503201f)
			txt_hint(o, a64_field(w, 5, 7));
		else
			txt_pac_reg(o, w);
		return 1;
	case A64_C_LOAD:
	case A64_C_STORE:
		return txt_ldst(o, w, in);
	case A64_C_ALU:
		return txt_alu(o, w);
	case A64_C_BITFIELD:
		return txt_bfc(o, w);
	default:
		return txt_unclassed(o, w, in);
	}
}
