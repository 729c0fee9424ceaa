/*
 * ldst.c - loads and stores (Arm ARM DDI 0487, C4.1.5 "Loads and
 * Stores", op0 = x1x0), including exclusives, load-acquire/store-release,
 * RCpc, LSE atomics, pointer-authenticated loads and MTE tag stores.  The
 * Advanced SIMD structure loads/stores are rows of the table here, decoded
 * in ldst_simd.c.
 *
 * The base register is always Xn|SP.  Writeback (pre/post index) makes it
 * a destination too.  mem_size is the total number of bytes the access
 * moves between memory and registers.
 */
#include "a64/internal.h"

/* base register read, and written back when wb is set (ldst_simd.c too) */
void a64_ldst_base(struct a64_insn *in, uint32_t w, int wb)
{
	a64_src_sp(in, A64_RN(w));
	if (wb) {
		in->flags |= A64_F_WB;
		a64_dst_sp(in, A64_RN(w));
	}
}

/* transfer register Rt (or Rt2) of a load (dst) or store (src) */
static void xfer(struct a64_insn *in, unsigned rt, int load, int fp)
{
	if (fp) {
		if (load)
			a64_dst(in, a64_vreg(rt));
		else
			a64_src(in, a64_vreg(rt));
	} else if (load) {
		a64_dst_zr(in, rt);
	} else {
		a64_src_zr(in, rt);
	}
}

/*
 * Size/opc/V of the single-register forms (C4.1.5, "Load/store register"):
 * returns the access size in bytes, or 0 for a reserved combination.
 * *kind: 0 store, 1 load, 2 prefetch; *x64 when the GPR is an X register.
 */
static unsigned single_kind(uint32_t w, int *kind, int *x64, int *sext)
{
	unsigned size = a64_field(w, 30, 2), opc = a64_field(w, 22, 2);
	int v = (int)a64_field(w, 26, 1);

	*x64 = 0;
	*sext = 0;
	if (v) {
		if (opc < 2) {
			*kind = (int)opc;
			return 1u << size;
		}
		if (size)
			return 0;
		*kind = (int)(opc & 1);		/* str q / ldr q */
		return 16;
	}
	switch (opc) {
	case 0: case 1:				/* strX / ldrX */
		*kind = (int)opc;
		*x64 = size == 3;
		return 1u << size;
	case 2:					/* ldrsb/ldrsh/ldrsw to X, prfm */
		if (size == 3) {
			*kind = 2;
			return 8;
		}
		*kind = 1;
		*x64 = 1;
		*sext = 1;
		return 1u << size;
	default:				/* ldrsb/ldrsh to W */
		if (size >= 2)
			return 0;
		*kind = 1;
		*sext = 1;
		return 1u << size;
	}
}

/*
 * One register, one access: the unscaled (ldur), pre/post-index, unpriv
 * (ldtr), register offset and unsigned offset forms.  form selects what
 * the encoding allows: writeback, register offset, unprivileged.
 */
enum { F_UNSCALED, F_POST, F_UNPRIV, F_PRE, F_REGOFF, F_UOFF };

static int single(uint32_t w, int form, struct a64_insn *in)
{
	int kind, x64, sext;
	unsigned bytes = single_kind(w, &kind, &x64, &sext);
	int fp = (int)a64_field(w, 26, 1);
	int wb = form == F_POST || form == F_PRE;

	if (!bytes)
		return -1;
	if (kind == 2) {			/* prfm, prfum; no wb/unpriv form */
		if (wb || form == F_UNPRIV)
			return -1;
		in->cls = A64_C_PRFM;
		bytes = 0;			/* a hint: nothing reaches a register */
	} else {
		in->cls = kind ? A64_C_LOAD : A64_C_STORE;
	}
	if (form == F_UNPRIV) {
		if (fp)
			return -1;
		in->flags |= A64_F_UNPRIV;
	}
	if (form == F_REGOFF) {
		if (!(a64_field(w, 13, 3) & 2))	/* option must be x1x */
			return -1;
		in->flags |= A64_F_REGOFF;
		a64_src_zr(in, A64_RM(w));
	}
	in->mem_size = (uint8_t)bytes;
	if (fp)
		in->flags |= A64_F_FPREG;
	if (x64)
		in->flags |= A64_F_64;
	if (sext)
		in->flags |= A64_F_SIGNEXT;
	a64_ldst_base(in, w, wb);
	if (kind != 2)
		xfer(in, A64_RT(w), kind == 1, fp);
	return 0;
}

/* size 111 V 00 opc 0 imm9 op Rn Rt: op selects the form */
static int x_imm9(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	static const int form[4] = { F_UNSCALED, F_POST, F_UNPRIV, F_PRE };

	(void)e;
	(void)pc;
	return single(w, form[a64_field(w, 10, 2)], in);
}

static int x_regoff(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)e;
	(void)pc;
	return single(w, F_REGOFF, in);
}

static int x_uoff(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	return single(w, F_UOFF, in);
}

/* load register (literal): opc 011 V 00 imm19 Rt */
static int x_literal(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	static const uint8_t gpr[4] = { 4, 8, 4, 0 }, fpr[4] = { 4, 8, 16, 0 };
	unsigned opc = a64_field(w, 30, 2);
	int fp = (int)a64_field(w, 26, 1);

	(void)e;
	if (fp && opc == 3)
		return -1;
	in->target = pc + (uint64_t)(a64_sext(w >> 5, 19) * 4);
	in->flags |= A64_F_LITERAL;
	if (!fp && opc == 3) {			/* prfm (literal) */
		in->cls = A64_C_PRFM;
		return 0;
	}
	in->cls = A64_C_LOAD;
	in->mem_size = fp ? fpr[opc] : gpr[opc];
	if (fp)
		in->flags |= A64_F_FPREG;
	else if (opc)
		in->flags |= A64_F_64;
	if (!fp && opc == 2)
		in->flags |= A64_F_SIGNEXT;	/* ldrsw */
	xfer(in, A64_RT(w), 1, fp);
	return 0;
}

/*
 * load/store pair: opc 101 V 0 type L imm7 Rt2 Rn Rt; type 00 is the
 * non-temporal ldnp/stnp, 01 post-index, 10 offset, 11 pre-index.
 * V = 0: opc 00 w, 01 ldpsw (L = 1) / stgp (L = 0, FEAT_MTE), 10 x.
 * V = 1: opc 00 s, 01 d, 10 q.
 */
static int x_pair(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned opc = a64_field(w, 30, 2), type = a64_field(w, 23, 2);
	int fp = (int)a64_field(w, 26, 1), load = (int)a64_field(w, 22, 1);
	unsigned each;

	(void)e;
	(void)pc;
	if (opc == 3)
		return -1;
	if (fp) {
		each = 4u << opc;
		in->flags |= A64_F_FPREG;
	} else if (opc == 1) {
		if (type == 0)
			return -1;
		/* ldpsw: two sign-extended words; stgp: 16 bytes + tag */
		each = load ? 4 : 8;
		in->flags |= A64_F_64 | (load ? A64_F_SIGNEXT : 0);
	} else {
		each = opc ? 8 : 4;
		if (opc)
			in->flags |= A64_F_64;
	}
	in->cls = load ? A64_C_LOAD : A64_C_STORE;
	in->flags |= A64_F_PAIR;
	in->mem_size = (uint8_t)(2 * each);
	a64_ldst_base(in, w, type == 1 || type == 3);
	xfer(in, A64_RT(w), load, fp);
	xfer(in, A64_RT2(w), load, fp);
	return 0;
}

/*
 * Exclusives and ordered accesses: size 001000 o2 L o1 Rs o0 Rt2 Rn Rt.
 * Rs/Rt2 fields the Arm ARM marks (1) (should-be-one) are not checked:
 * other values are CONSTRAINED UNPREDICTABLE, not unallocated, and GNU
 * objdump decodes them too.  cas/casp's Rt2 is part of the opcode.
 *	o2 o1
 *	 0  0	stxr/stlxr (L 0), ldxr/ldaxr (L 1); o0 = acquire/release
 *	 0  1	size 1x: stxp/stlxp, ldxp/ldaxp; size 0x: casp (FEAT_LSE)
 *	 1  0	stllr/stlr (L 0), ldlar/ldar (L 1); o0 = 0 is the LORegion form
 *	 1  1	cas{,a,l,al}{b,h,}; L = acquire, o0 = release
 * One function per row group: excl_cas (o1 with o2 or size 0x),
 * excl_ordered (o2), excl_exclusive (the rest).
 */

/* cas / casp (FEAT_LSE): Rt2 must be 11111, casp needs even Rs and Rt */
static int excl_cas(uint32_t w, struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), o2 = a64_field(w, 23, 1);
	unsigned l = a64_field(w, 22, 1), o0 = a64_field(w, 15, 1);
	unsigned rs = A64_RS(w), rt = A64_RT(w);
	unsigned each = 1u << size;

	if (A64_RT2(w) != 31)
		return -1;
	in->cls = A64_C_ATOMIC;
	in->flags |= (l ? A64_F_ACQ : 0) | (o0 ? A64_F_REL : 0);
	a64_ldst_base(in, w, 0);
	if (!o2) {
		if ((rs & 1) || (rt & 1))
			return -1;
		each = 4u << size;
		in->flags |= A64_F_PAIR | (size ? A64_F_64 : 0);
		a64_src_zr(in, rs);
		a64_src_zr(in, rs + 1);
		a64_src_zr(in, rt);
		a64_src_zr(in, rt + 1);
		a64_dst_zr(in, rs);
		a64_dst_zr(in, rs + 1);
		in->mem_size = (uint8_t)(2 * each);
		return 0;
	}
	if (size == 3)
		in->flags |= A64_F_64;
	a64_src_zr(in, rs);
	a64_src_zr(in, rt);
	a64_dst_zr(in, rs);
	in->mem_size = (uint8_t)each;
	return 0;
}

/* ldar/stlr family: load-acquire, store-release and their LORegion forms */
static int excl_ordered(uint32_t w, struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), l = a64_field(w, 22, 1);
	unsigned o0 = a64_field(w, 15, 1);

	/* as GNU binutils does, ldar alone (not ldlar or stlr)
	 * needs both fields all ones; otherwise unallocated */
	if (l && o0 && (A64_RS(w) != 31 || A64_RT2(w) != 31))
		return -1;
	in->cls = l ? A64_C_LOAD : A64_C_STORE;
	in->flags |= l ? A64_F_ACQ : A64_F_REL;
	if (size == 3)
		in->flags |= A64_F_64;
	in->mem_size = (uint8_t)(1u << size);
	a64_ldst_base(in, w, 0);
	xfer(in, A64_RT(w), (int)l, 0);
	return 0;
}

/* ldxr/stxr and the pair forms; o1 here means the pair (size 1x) */
static int excl_exclusive(uint32_t w, struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), l = a64_field(w, 22, 1);
	unsigned o1 = a64_field(w, 21, 1), o0 = a64_field(w, 15, 1);
	unsigned rt = A64_RT(w), rt2 = A64_RT2(w);
	unsigned each = 1u << size;

	if (o1) {
		each = 4u << (size & 1);
		in->flags |= A64_F_PAIR;
		if (size & 1)
			in->flags |= A64_F_64;
	} else if (size == 3) {
		in->flags |= A64_F_64;
	}
	in->mem_size = (uint8_t)(o1 ? 2 * each : each);
	a64_ldst_base(in, w, 0);
	if (l) {
		in->cls = A64_C_LOAD_EX;
		if (o0)
			in->flags |= A64_F_ACQ;
		a64_dst_zr(in, rt);
		if (o1)
			a64_dst_zr(in, rt2);
	} else {
		in->cls = A64_C_STORE_EX;
		if (o0)
			in->flags |= A64_F_REL;
		a64_src_zr(in, rt);
		if (o1)
			a64_src_zr(in, rt2);
		a64_dst_zr(in, A64_RS(w));	/* status: 0 = stored */
	}
	return 0;
}

static int x_excl(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), o2 = a64_field(w, 23, 1);
	unsigned o1 = a64_field(w, 21, 1);

	(void)e;
	(void)pc;
	if (o1 && (o2 || size < 2))
		return excl_cas(w, in);
	if (o2)
		return excl_ordered(w, in);
	return excl_exclusive(w, in);
}

/*
 * LSE atomic memory operations (FEAT_LSE) and LDAPR (FEAT_LRCPC):
 * size 111 0 00 A R 1 Rs o3 opc 00 Rn Rt.
 * o3 0: ld{add,clr,eor,set,smax,smin,umax,umin}; o3 1 opc 000: swp;
 * o3 1 opc 100 with A = 1, R = 0, Rs = 11111: ldapr.  The st<op> aliases
 * are the Rt = zr encodings: the old value goes nowhere.
 */
static int x_atomic(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), a = a64_field(w, 23, 1);
	unsigned r = a64_field(w, 22, 1), o3 = a64_field(w, 15, 1);
	unsigned opc = a64_field(w, 12, 3);

	(void)e;
	(void)pc;
	in->mem_size = (uint8_t)(1u << size);
	if (size == 3)
		in->flags |= A64_F_64;
	if (o3 && opc == 4) {
		if (!a || r || A64_RS(w) != 31)
			return -1;
		in->cls = A64_C_LOAD;
		in->flags |= A64_F_ACQ | A64_F_RCPC;
		a64_ldst_base(in, w, 0);
		a64_dst_zr(in, A64_RT(w));
		return 0;
	}
	if (o3 && opc != 0)
		return -1;
	in->cls = A64_C_ATOMIC;
	in->flags |= (a ? A64_F_ACQ : 0) | (r ? A64_F_REL : 0);
	a64_ldst_base(in, w, 0);
	a64_src_zr(in, A64_RS(w));
	a64_dst_zr(in, A64_RT(w));
	return 0;
}

/*
 * LDAPUR/STLUR (FEAT_LRCPC2): size 011001 opc 0 imm9 00 Rn Rt.
 * opc 00 stlur, 01 ldapur, 10 ldapurs* to X, 11 ldapurs* to W.
 */
static int x_rcpc2(const struct a64_enc *e, uint32_t w, uint64_t pc,
		   struct a64_insn *in)
{
	unsigned size = a64_field(w, 30, 2), opc = a64_field(w, 22, 2);

	(void)e;
	(void)pc;
	if ((opc == 2 && size == 3) || (opc == 3 && size >= 2))
		return -1;
	in->mem_size = (uint8_t)(1u << size);
	if ((opc < 2 && size == 3) || opc == 2)
		in->flags |= A64_F_64;
	a64_ldst_base(in, w, 0);
	if (opc == 0) {
		in->cls = A64_C_STORE;
		in->flags |= A64_F_REL;
		a64_src_zr(in, A64_RT(w));
		return 0;
	}
	in->cls = A64_C_LOAD;
	in->flags |= A64_F_ACQ | A64_F_RCPC | (opc >= 2 ? A64_F_SIGNEXT : 0);
	a64_dst_zr(in, A64_RT(w));
	return 0;
}

/* ldraa/ldrab (FEAT_PAuth): 11 111 0 00 M S 1 imm9 W 1 Rn Rt */
static int x_ldra(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	(void)e;
	(void)pc;
	in->mem_size = 8;
	a64_ldst_base(in, w, (int)a64_field(w, 11, 1));
	a64_dst_zr(in, A64_RT(w));
	return 0;
}

/*
 * MTE tag loads/stores (FEAT_MTE): 11011001 opc 1 imm9 op2 Rn Rt.
 * op2 00 holds ldg (opc 01) and, with imm9 = 0, the block forms stzgm,
 * stgm, ldgm; op2 01/10/11 are the post/offset/pre forms of stg, stzg,
 * st2g, stz2g, whose Rt is Xt|SP (the tag comes from an address).
 * The block forms move IMPLEMENTATION DEFINED amounts (GMID_EL1.BS) and
 * ldg only a tag, so their mem_size is 0.
 */
static int x_tag(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned opc = a64_field(w, 22, 2), op2 = a64_field(w, 10, 2);
	unsigned imm9 = a64_field(w, 12, 9);

	(void)e;
	(void)pc;
	in->flags |= A64_F_64;
	if (op2 == 0) {
		if (opc != 1 && imm9)
			return -1;
		a64_ldst_base(in, w, 0);
		if (opc & 1) {			/* ldg, ldgm */
			in->cls = A64_C_LOAD;
			if (opc == 1)
				a64_src_zr(in, A64_RT(w));
			a64_dst_zr(in, A64_RT(w));
		} else {			/* stzgm, stgm */
			in->cls = A64_C_STORE;
			a64_src_zr(in, A64_RT(w));
		}
		return 0;
	}
	in->cls = A64_C_STORE;
	in->mem_size = (opc & 2) ? 32 : 16;
	a64_ldst_base(in, w, op2 != 2);
	a64_src_sp(in, A64_RT(w));
	return 0;
}

/* FEAT_MOPS: Xd (destination), Xs (source, or the value for set*) and Xn
 * (size) are all read and written back by every step. */
static int x_mops(const struct a64_enc *e, uint32_t w, uint64_t pc, struct a64_insn *in)
{
	(void)e;
	(void)pc;
	in->mem_size = 8;	/* as wide as its registers (what it moves varies) */
	for (int k = 0; k < 3; k++) {
		unsigned r = k == 0 ? A64_RT(w) : k == 1 ? a64_field(w, 16, 5) : a64_field(w, 5, 5);

		if (r != 31) {
			a64_src(in, r);
			a64_dst(in, r);
		}
	}
	return 0;
}

const struct a64_enc a64_ldst_tab[] = {
	/* Advanced SIMD structures: no offset, then post-index */
	{ 0xbfbf0000, 0x0c000000, A64_C_LOAD, 0, a64_x_vmult, "ld/st multiple" },
	{ 0xbfa00000, 0x0c800000, A64_C_LOAD, 0, a64_x_vmult, "ld/st multiple post" },
	{ 0xbf9f0000, 0x0d000000, A64_C_LOAD, 0, a64_x_vsingle, "ld/st single" },
	{ 0xbf800000, 0x0d800000, A64_C_LOAD, 0, a64_x_vsingle, "ld/st single post" },

	/* size 001000: exclusive, ordered, cas/casp */
	{ 0x3f000000, 0x08000000, A64_C_LOAD, 0, x_excl, "excl/ordered/cas" },
	/* size 011001 opc 0 imm9 00: ldapur/stlur */
	{ 0x3f200c00, 0x19000000, A64_C_LOAD, 0, x_rcpc2, "ldapur/stlur" },
	/* FEAT_MOPS cpy*, cpyf*, set*, setg* (prologue, main, epilogue): memory
	 * copy and set; in 7.x text behind ARM64_HAS_MOPS alternatives, which no
	 * modelled core enables - counted as stores, operands not modelled */
	{ 0x3b200c00, 0x19000400, A64_C_STORE, 0, x_mops, "cpy*/set* (FEAT_MOPS)" },
	/* 11011001 opc 1: MTE tags */
	{ 0xff200000, 0xd9200000, A64_C_STORE, 0, x_tag, "mte tags" },

	/* literal */
	{ 0x3b000000, 0x18000000, A64_C_LOAD, 0, x_literal, "ldr literal" },
	/* pairs, all four index forms */
	{ 0x3a000000, 0x28000000, A64_C_LOAD, 0, x_pair, "ldp/stp" },

	/* size 111 V 00 opc 1 Rs o3 opc 00: atomics (V = 0 only) */
	{ 0x3f200c00, 0x38200000, A64_C_ATOMIC, 0, x_atomic, "lse atomic" },
	/* 11 111 0 00 M S 1 imm9 W 1: ldraa/ldrab */
	{ 0xff200400, 0xf8200400, A64_C_LOAD, A64_F_PAC | A64_F_64, x_ldra, "ldraa/ldrab" },
	/* size 111 V 00 opc 1 Rm option S 10: register offset */
	{ 0x3b200c00, 0x38200800, A64_C_LOAD, 0, x_regoff, "ldr/str regoff" },
	/* size 111 V 00 opc 0 imm9 op: unscaled, post, unpriv, pre */
	{ 0x3b200000, 0x38000000, A64_C_LOAD, 0, x_imm9, "ldur/ldtr/ldr wb" },
	/* size 111 V 01 opc imm12: unsigned offset */
	{ 0x3b000000, 0x39000000, A64_C_LOAD, 0, x_uoff, "ldr/str uoff" },
};

const unsigned a64_ldst_n = sizeof(a64_ldst_tab) / sizeof(a64_ldst_tab[0]);
