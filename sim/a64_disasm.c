/*
 * a64_disasm.c - disassembly text for reports.
 *
 * Capstone 4.0.2 (Debian 12) knows ARMv8.0-8.2 but not LSE atomics, RCpc
 * loads, pointer authentication, BTI and the newer hints, and it decodes sb
 * (0xd50330ff) as an msr.  Those words get text built here from the
 * decoder's fields, spelled like GNU objdump; everything else goes through
 * Capstone, one word at a time.  Words the decoder calls unallocated are
 * ".inst 0x%08x" whatever Capstone thinks of them, so text and
 * classification never disagree.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <capstone/capstone.h>

#include "a64_internal.h"

static csh cs_handle;
static int cs_state;		/* 0 not opened, 1 open, -1 open failed */

void a64_disasm_release(void)
{
	if (cs_state == 1)
		cs_close(&cs_handle);
	cs_state = 0;
}

/* bounded appender: never writes past len - 1, always NUL-terminates */
struct out {
	char *buf;
	size_t len, pos;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
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

static const char *const size_sfx[4] = { "b", "h", "", "" };
static const char *const ord_sfx[4] = { "", "l", "a", "al" };	/* A:R */

/* cas*, casp* and the LSE ld<op>/st<op>/swp, spelled as binutils does */
static void txt_atomic(struct out *o, uint32_t w, const struct a64_insn *in)
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
			put(o, "casp%s %s, %s, %s, %s, [%s]", ord_sfx[ord],
			    gpr(rs, x, 0), gpr(rs + 1, x, 0), gpr(rt, x, 0),
			    gpr(rt + 1, x, 0), gpr(rn, 1, 1));
			return;
		}
		put(o, "cas%s%s %s, %s, [%s]", ord_sfx[ord], size_sfx[size],
		    gpr(rs, x, 0), gpr(rt, x, 0), gpr(rn, 1, 1));
		return;
	}
	{
		unsigned ord = a64_field(w, 23, 1) << 1 | a64_field(w, 22, 1);
		unsigned opc = a64_field(w, 12, 3);

		if (a64_field(w, 15, 1)) {
			put(o, "swp%s%s %s, %s, [%s]", ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rt, x, 0),
			    gpr(rn, 1, 1));
		} else if (rt == 31 && !(ord & 2)) {
			/* st<op>: the alias when the old value is discarded
			 * and there is no acquire */
			put(o, "st%s%s%s %s, [%s]", ops[opc], ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rn, 1, 1));
		} else {
			put(o, "ld%s%s%s %s, %s, [%s]", ops[opc], ord_sfx[ord],
			    size_sfx[size], gpr(rs, x, 0), gpr(rt, x, 0),
			    gpr(rn, 1, 1));
		}
	}
}

/* [xn], [xn, #imm], [xn, #imm]! */
static void txt_addr(struct out *o, unsigned rn, long long imm, int pre)
{
	if (!imm && !pre)
		put(o, "[%s]", gpr(rn, 1, 1));
	else
		put(o, "[%s, #%lld]%s", gpr(rn, 1, 1), imm, pre ? "!" : "");
}

/* ldapr (FEAT_LRCPC), ldapur/stlur (FEAT_LRCPC2) */
static void txt_rcpc(struct out *o, uint32_t w, const struct a64_insn *in)
{
	static const char *const ur[4] = { "stlur", "ldapur", "ldapurs", "ldapurs" };
	unsigned size = a64_field(w, 30, 2), opc = a64_field(w, 22, 2);
	int x;

	if (a64_field(w, 24, 6) == 0x38) {	/* ldapr: atomic space */
		put(o, "ldapr%s %s, [%s]", size_sfx[size],
		    gpr(A64_RT(w), size == 3, 0), gpr(A64_RN(w), 1, 1));
		return;
	}
	x = (in->flags & A64_F_64) != 0;
	put(o, "%s%s %s, ", ur[opc],
	    opc >= 2 && size == 2 ? "w" : size_sfx[size],
	    gpr(A64_RT(w), x, 0));
	txt_addr(o, A64_RN(w), a64_sext(w >> 12, 9), 0);
}

/* hint space, CRm:op2 = #imm: the named hints binutils knows */
static void txt_hint(struct out *o, unsigned imm)
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
		put(o, "%s", names[imm]);
	else
		put(o, "hint #0x%x", imm);
}

/* retaa, eretaa, braa(z), blraa(z): M (bit 10) picks key A or B */
static void txt_pac_branch(struct out *o, uint32_t w)
{
	static const char *const base[4] = { "br", "blr", "ret", "eret" };
	unsigned opc = a64_field(w, 21, 4), key = a64_field(w, 10, 1);
	unsigned rn = A64_RN(w);
	const char *k = key ? "b" : "a";

	if (opc == 2 || opc == 4) {		/* retaa, eretaa */
		put(o, "%sa%s", base[opc == 2 ? 2 : 3], k);
	} else if (opc & 8) {			/* braa, blraa: Rm|SP modifier */
		put(o, "%sa%s %s, %s", base[opc & 1], k, gpr(rn, 1, 0),
		    gpr(A64_RD(w), 1, 1));
	} else {				/* braaz, blraaz */
		put(o, "%sa%sz %s", base[opc & 1], k, gpr(rn, 1, 0));
	}
}

/* pacia..autdzb, xpaci/xpacd (1-source) and pacga (2-source) */
static void txt_pac_reg(struct out *o, uint32_t w)
{
	static const char *const names[18] = {
		"pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda",
		"autdb", "paciza", "pacizb", "pacdza", "pacdzb", "autiza",
		"autizb", "autdza", "autdzb", "xpaci", "xpacd",
	};
	unsigned op = a64_field(w, 10, 6);

	if (!a64_field(w, 30, 1)) {		/* pacga Xd, Xn, Xm|SP */
		put(o, "pacga %s, %s, %s", gpr(A64_RD(w), 1, 0),
		    gpr(A64_RN(w), 1, 0), gpr(A64_RM(w), 1, 1));
	} else if (op < 8) {
		put(o, "%s %s, %s", names[op], gpr(A64_RD(w), 1, 0),
		    gpr(A64_RN(w), 1, 1));
	} else {
		put(o, "%s %s", names[op], gpr(A64_RD(w), 1, 0));
	}
}

/* ldraa/ldrab Xt, [Xn|SP, #simm10 * 8]{!} */
static void txt_ldra(struct out *o, uint32_t w)
{
	long long imm = a64_sext(a64_field(w, 22, 1) << 9 | a64_field(w, 12, 9), 10) * 8;

	put(o, "ldra%s %s, ", a64_field(w, 23, 1) ? "b" : "a",
	    gpr(A64_RT(w), 1, 0));
	txt_addr(o, A64_RN(w), imm, (int)a64_field(w, 11, 1));
}

/* msr <pstatefield>, #imm and the flag-manipulation forms of the space */
static void txt_pstate(struct out *o, uint32_t w)
{
	static const char *const flagm[3] = { "cfinv", "xaflag", "axflag" };
	unsigned op1 = a64_field(w, 16, 3), op2 = a64_field(w, 5, 3);
	unsigned crm = a64_field(w, 8, 4);
	const char *f = "?";

	switch (op1 << 3 | op2) {
	case 0x00: case 0x01: case 0x02:
		put(o, "%s", flagm[op2]);
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
	put(o, "msr %s, #0x%x", f, crm);
}

/*
 * MOV (wide immediate) and MOV (bitmask immediate): objdump, following the
 * Arm ARM alias rules, prints "mov" where Capstone prints movz/movn/orr.
 * Returns 0 when the alias does not apply (Capstone's text is right).
 */
static int txt_mov_imm(struct out *o, uint32_t w)
{
	unsigned sf = A64_SF(w), width = sf ? 64 : 32;
	uint64_t mask = sf ? ~0ull : 0xffffffffull, v;
	const char *rd;

	if ((w & 0x1f800000) == 0x12800000) {		/* movn/movz/movk */
		unsigned opc = a64_field(w, 29, 2), hw = a64_field(w, 21, 2);
		uint64_t imm16 = a64_field(w, 5, 16);

		rd = gpr(A64_RD(w), (int)sf, 0);
		if (opc == 3)				/* movk: Capstone is right */
			return 0;
		if ((imm16 == 0 && hw) || (opc == 0 && !sf && imm16 == 0xffff)) {
			put(o, "mov%c %s, #0x%" PRIx64, opc ? 'z' : 'n', rd, imm16);
			if (hw)
				put(o, ", lsl #%u", hw * 16);
			return 1;
		}
		v = imm16 << (hw * 16);
		if (opc == 0)
			v = ~v;
		put(o, "mov %s, #0x%" PRIx64, rd, v & mask);
		return 1;
	}
	if ((w & 0x7f8003e0) == 0x320003e0) {		/* orr Rd, zr, #imm */
		unsigned n = a64_field(w, 22, 1), immr = a64_field(w, 16, 6);
		unsigned imms = a64_field(w, 10, 6);

		/*
		 * MoveWidePreferred(): when a movz/movn could say it, the
		 * Arm ARM (and objdump) keep "orr"; N:imms must be 1xxxxxx
		 * for 64-bit and 00xxxxx for 32-bit.
		 */
		if (sf ? n != 0 : (!n && !(imms & 0x20))) {
			if (imms < 16 && ((16 - immr % 16) % 16) <= 15 - imms)
				return 0;
			if (imms >= width - 15 &&
			    immr % 16 <= imms - (width - 15))
				return 0;
		}
		if (!a64_bitmask_imm(n, immr, imms, (int)sf, &v))
			return 0;
		put(o, "mov %s, #0x%" PRIx64, gpr(A64_RD(w), (int)sf, 1), v & mask);
		return 1;
	}
	return 0;
}

/* b.<cond> with binutils' condition names (cs/cc, not hs/lo) */
static void txt_bcond(struct out *o, const struct a64_insn *in)
{
	static const char *const cc[16] = {
		"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le", "al", "nv"
	};

	put(o, "b.%s #0x%" PRIx64, cc[in->cond & 15], in->target);
}

/* "[xn, #imm]", "[xn, #imm]!" or "[xn], #imm" for the index forms */
static void txt_index(struct out *o, unsigned rn, long long imm, unsigned form)
{
	if (form == 1)				/* post-index */
		put(o, "[%s], #%lld", gpr(rn, 1, 1), imm);
	else
		txt_addr(o, rn, imm, form == 3);
}

/*
 * MTE (FEAT_MTE), newer than Capstone 4: irg, gmi, subp(s)/cmpp,
 * addg/subg, the tag loads/stores and stgp.  Returns 0 if w is none.
 */
static int txt_mte(struct out *o, uint32_t w)
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
			put(o, "gmi %s, %s, %s", gpr(rd, 1, 0), gpr(rn, 1, 1),
			    gpr(rm, 1, 0));
		else if (rm == 31)
			put(o, "irg %s, %s", gpr(rd, 1, 1), gpr(rn, 1, 1));
		else
			put(o, "irg %s, %s, %s", gpr(rd, 1, 1), gpr(rn, 1, 1),
			    gpr(rm, 1, 0));
		return 1;
	}
	if ((w & 0xdfe0fc00) == 0x9ac00000) {		/* subp, subps, cmpp */
		if (a64_field(w, 29, 1) && rd == 31)
			put(o, "cmpp %s, %s", gpr(rn, 1, 1), gpr(rm, 1, 1));
		else
			put(o, "subp%s %s, %s, %s", a64_field(w, 29, 1) ? "s" : "",
			    gpr(rd, 1, 0), gpr(rn, 1, 1), gpr(rm, 1, 1));
		return 1;
	}
	if ((w & 0xbfc00000) == 0x91800000) {		/* addg, subg */
		put(o, "%sg %s, %s, #%u, #%u", a64_field(w, 30, 1) ? "sub" : "add",
		    gpr(rd, 1, 1), gpr(rn, 1, 1), a64_field(w, 16, 6) * 16,
		    a64_field(w, 10, 4));
		return 1;
	}
	if ((w & 0xff200000) == 0xd9200000) {		/* tag loads/stores */
		unsigned opc = a64_field(w, 22, 2), op2 = a64_field(w, 10, 2);
		long long imm = a64_sext(w >> 12, 9) * 16;

		put(o, "%s %s, ", tagop[opc][op2], gpr(A64_RT(w), 1, op2 != 0));
		if (op2 == 0 && opc != 1)
			put(o, "[%s]", gpr(rn, 1, 1));
		else
			txt_index(o, rn, imm, op2 ? op2 : 2);
		return 1;
	}
	if ((w & 0xfe400000) == 0x68000000 && (w & 0x01800000)) {	/* stgp */
		put(o, "stgp %s, %s, ", gpr(A64_RT(w), 1, 0), gpr(A64_RT2(w), 1, 0));
		txt_index(o, rn, a64_sext(w >> 15, 7) * 16, a64_field(w, 23, 2));
		return 1;
	}
	return 0;
}

/* dc <op>: Capstone 4 lacks the ARMv8.2+ and MTE ones, so all are here */
static int txt_dc(struct out *o, uint32_t w)
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
			put(o, "dc %s, %s", dc[i].name, gpr(A64_RT(w), 1, 0));
			return 1;
		}
	return 0;
}

/*
 * Capstone's spelling of a few aliases differs from the Arm ARM's
 * preferred disassembly: ins is always shown as mov, and sshll/ushll by
 * #0 as sxtl/uxtl.  Rewrites mnem/ops in place.
 */
static void fix_alias(char *mnem, size_t mlen, char *ops)
{
	size_t n;

	if (!strcmp(mnem, "ins")) {
		snprintf(mnem, mlen, "mov");
		return;
	}
	if ((!strncmp(mnem, "sshll", 5) || !strncmp(mnem, "ushll", 5)) &&
	    (n = strlen(ops)) > 4 && !strcmp(ops + n - 4, ", #0")) {
		char u = mnem[0], two = mnem[5];	/* "sshll2" -> "sxtl2" */

		snprintf(mnem, mlen, "%cxtl%s", u, two == '2' ? "2" : "");
		ops[n - 4] = '\0';
	}
}

/*
 * Text for the words Capstone gets wrong or cannot decode; 0 when the word
 * should go to Capstone.
 */
static int own_text(struct out *o, uint32_t w, const struct a64_insn *in,
		    const struct a64_enc *e)
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
		put(o, "udf #%u", w & 0xffff);		/* unknown to Capstone */
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
		put(o, "sb");
		return 1;
	case A64_C_DSB:
		if ((w & 0xfffff3ff) == 0xd503323f) {	/* dsb <opt>nxs */
			static const char *const nxs[4] = {
				"osh", "nsh", "ish", "sy"
			};
			put(o, "dsb %snxs", nxs[a64_field(w, 10, 2)]);
			return 1;
		}
		if (in->cond == 0 || in->cond == 4) {	/* speculative store bypass */
			put(o, "%s", in->cond ? "pssbb" : "ssbb");
			return 1;
		}
		return 0;
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
	case A64_C_ALU:
		if ((w & 0xfff8f01f) == 0xd500401f) {	/* cfinv, xaflag, axflag */
			txt_pstate(o, w);
			return 1;
		}
		return txt_mov_imm(o, w);
	}
	if (in->flags & A64_F_PAC) {
		txt_pac_branch(o, w);
		return 1;
	}
	if ((w & 0xffffffc0) == 0xd5031000) {	/* FEAT_WFxT */
		put(o, "%s %s", a64_field(w, 5, 1) ? "wfit" : "wfet",
		    gpr(A64_RD(w), 1, 0));
		return 1;
	}
	/* hints without effect: Capstone prints them all as "hint" */
	if ((w & 0xfffff01f) == 0xd503201f) {
		txt_hint(o, a64_field(w, 5, 7));
		return 1;
	}
	(void)e;
	return 0;
}

static int cs_ready(void)
{
	if (cs_state == 0) {
		if (cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &cs_handle) == CS_ERR_OK)
			cs_state = 1;
		else
			cs_state = -1;
	}
	return cs_state == 1;
}

void a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	struct a64_insn in;
	const struct a64_enc *e;
	uint8_t bytes[4];
	cs_insn *insn;
	size_t n;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	if (a64_decode(word, pc, &in) < 0) {
		put(&o, ".inst 0x%08x", word);
		return;
	}
	e = a64_enc_lookup(word);
	if (own_text(&o, word, &in, e))
		return;
	bytes[0] = (uint8_t)word;
	bytes[1] = (uint8_t)(word >> 8);
	bytes[2] = (uint8_t)(word >> 16);
	bytes[3] = (uint8_t)(word >> 24);
	if (cs_ready() && (n = cs_disasm(cs_handle, bytes, 4, pc, 1, &insn)) > 0) {
		fix_alias(insn[0].mnemonic, sizeof(insn[0].mnemonic), insn[0].op_str);
		if (insn[0].op_str[0])
			put(&o, "%s %s", insn[0].mnemonic, insn[0].op_str);
		else
			put(&o, "%s", insn[0].mnemonic);
		cs_free(insn, n);
		return;
	}
	/* allocated, but newer than Capstone: say what family it is */
	put(&o, ".inst 0x%08x // %s", word, e ? e->name : "?");
}
