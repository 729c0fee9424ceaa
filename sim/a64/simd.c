/*
 * simd.c - Advanced SIMD data processing, vector and scalar (Arm ARM
 * DDI 0487, C4.1.8 "Data Processing -- Scalar Floating-Point and Advanced
 * SIMD", the op0 = 0xx0 and 01x1 rows).
 *
 * Everything allocated here is A64_C_FPSIMD.  The cost models only need the
 * class, so the work is in telling allocated words from reserved ones and
 * in getting the general-purpose registers exact for the few forms that
 * touch them (dup/ins/smov/umov).  V registers are recorded as Rd written,
 * Rn/Rm read, plus Rd read for forms that accumulate into or only partly
 * write the destination.
 *
 * Per-opcode validity is table driven: each group has a table indexed by
 * U:opcode whose entries say which element sizes the opcode allows.
 */
#include "a64/internal.h"

/* size rules; 0 = unallocated */
enum {
	ANY = 1,	/* any size; 64-bit vector elements need Q = 1 */
	NO3,		/* size != 11 */
	B8,		/* size 00 */
	BH,		/* size 0x */
	HS,		/* size 01 or 10 */
	S32,		/* size 10 */
	D64,		/* size 11 */
	ALLSZ,		/* size is an opcode extension */
	FP,		/* size<1> picks one of two ops; double vectors need Q */
	FP0,		/* as FP, size<1> = 0 only */
	FP1,		/* as FP, size<1> = 1 only */
	FPA1S,		/* size<1> = 0: FP; 1: single only (urecpe, ursqrte) */
	FPS,		/* size<0> = 0: single only (fmlal family, fp16 forms) */
	FPSQ,		/* single, Q = 1 (fmaxv) */
	H0,		/* size 00 */
	FCVTN,		/* size != 11 (fcvtn, bfcvtn) */
	FCVTXN,		/* size 01 */
	ACROSS,		/* size 00, 01, or 10 with Q = 1 */
	PMULL,		/* size 00 or 11 */
};
#define ACC	A64_VACC
#define NARROW	A64_VNARROW
#define RULE(x)	((x) & 0x3f)

static int size_ok(unsigned rule, unsigned size, unsigned q)
{
	switch (RULE(rule)) {
	case ANY:	return size != 3 || q;
	case NO3:	return size != 3;
	case B8:	return size == 0;
	case BH:	return size <= 1;
	case HS:	return size == 1 || size == 2;
	case S32:	return size == 2;
	case D64:	return size == 3;
	case ALLSZ:	return 1;
	case FP:	return !(size & 1) || q;
	case FP0:	return !(size & 2) && (!(size & 1) || q);
	case FP1:	return (size & 2) && (!(size & 1) || q);
	case FPA1S:	return (size & 2) ? !(size & 1) : (!(size & 1) || q);
	case FPS:	return !(size & 1);
	case FPSQ:	return !(size & 1) && q;
	case H0:	return size == 0;
	case FCVTN:	return size != 3;
	case FCVTXN:	return size == 1;
	case ACROSS:	return size <= 1 || (size == 2 && q);
	case PMULL:	return size == 0 || size == 3;
	}
	return 0;
}

#define U1	0x20		/* U bit in the U:opcode table index */

/*
 * Registers of a generic FP/SIMD Rd <- op(Rn[, Rm]): Vd written, Vn (and
 * Vm) read, Vd read too when the rule says the op accumulates into it or
 * (NARROW, Q = 1) writes only its upper half.
 */
void a64_vregs(struct a64_insn *in, uint32_t w, int has_rm, unsigned rule)
{
	a64_src(in, a64_vreg(A64_RN(w)));
	if (has_rm)
		a64_src(in, a64_vreg(A64_RM(w)));
	if ((rule & A64_VACC) || ((rule & A64_VNARROW) && a64_field(w, 30, 1)))
		a64_src(in, a64_vreg(A64_RD(w)));
	a64_dst(in, a64_vreg(A64_RD(w)));
}

/*
 * Look up U:opcode in tab and check the size; scalar forms have no Q so
 * they pass q = 1.  has_rm: the group has a second source in Rm.
 */
static int by_table(const uint8_t *tab, unsigned idx, unsigned size,
		    unsigned q, int has_rm, uint32_t w, struct a64_insn *in)
{
	unsigned rule = tab[idx];

	if (!rule || !size_ok(rule, size, q))
		return -1;
	a64_vregs(in, w, has_rm, rule);
	return 0;
}

#define U_OP5(w)	(a64_field(w, 29, 1) << 5 | a64_field(w, 12, 5))
#define U_OP5H(w)	(a64_field(w, 29, 1) << 5 | a64_field(w, 11, 5))
#define SIZE(w)		a64_field(w, 22, 2)
#define Q(w)		a64_field(w, 30, 1)

/* --- Advanced SIMD three same: 0 Q U 01110 size 1 Rm opcode 1 Rn Rd --- */
static const uint8_t three_same[64] = {
	[0x00] = NO3, [0x01] = ANY, [0x02] = NO3, [0x03] = ALLSZ,
	[0x04] = NO3, [0x05] = ANY, [0x06] = ANY, [0x07] = ANY,
	[0x08] = ANY, [0x09] = ANY, [0x0a] = ANY, [0x0b] = ANY,
	[0x0c] = NO3, [0x0d] = NO3, [0x0e] = NO3, [0x0f] = NO3 | ACC,
	[0x10] = ANY, [0x11] = ANY, [0x12] = NO3 | ACC, [0x13] = NO3,
	[0x14] = NO3, [0x15] = NO3, [0x16] = HS, [0x17] = ANY,
	[0x18] = FP, [0x19] = FP | ACC, [0x1a] = FP, [0x1b] = FP0,
	[0x1c] = FP0, [0x1d] = FPS | ACC, [0x1e] = FP, [0x1f] = FP,
	[U1|0x00] = NO3, [U1|0x01] = ANY, [U1|0x02] = NO3, [U1|0x03] = ALLSZ,
	[U1|0x04] = NO3, [U1|0x05] = ANY, [U1|0x06] = ANY, [U1|0x07] = ANY,
	[U1|0x08] = ANY, [U1|0x09] = ANY, [U1|0x0a] = ANY, [U1|0x0b] = ANY,
	[U1|0x0c] = NO3, [U1|0x0d] = NO3, [U1|0x0e] = NO3, [U1|0x0f] = NO3 | ACC,
	[U1|0x10] = ANY, [U1|0x11] = ANY, [U1|0x12] = NO3 | ACC, [U1|0x13] = B8,
	[U1|0x14] = NO3, [U1|0x15] = NO3, [U1|0x16] = HS,
	[U1|0x18] = FP, [U1|0x19] = FPS | ACC, [U1|0x1a] = FP, [U1|0x1b] = FP0,
	[U1|0x1c] = FP, [U1|0x1d] = FP, [U1|0x1e] = FP, [U1|0x1f] = FP0,
};

static const uint8_t scalar_three_same[64] = {
	[0x01] = ANY, [0x05] = ANY, [0x06] = D64, [0x07] = D64,
	[0x08] = D64, [0x09] = ANY, [0x0a] = D64, [0x0b] = ANY,
	[0x10] = D64, [0x11] = D64, [0x16] = HS,
	[0x1b] = FP0, [0x1c] = FP0, [0x1f] = FP,
	[U1|0x01] = ANY, [U1|0x05] = ANY, [U1|0x06] = D64, [U1|0x07] = D64,
	[U1|0x08] = D64, [U1|0x09] = ANY, [U1|0x0a] = D64, [U1|0x0b] = ANY,
	[U1|0x10] = D64, [U1|0x11] = D64, [U1|0x16] = HS,
	[U1|0x1a] = FP1, [U1|0x1c] = FP, [U1|0x1d] = FP,
};

static int x_three_same(const struct a64_enc *e, uint32_t w, uint64_t pc,
			struct a64_insn *in)
{
	unsigned idx = U_OP5H(w), size = SIZE(w);

	(void)pc;
	if (e->value & (1u << 28))
		return by_table(scalar_three_same, idx, size, 1, 1, w, in);
	/* bsl/bit/bif (U = 1, opcode 00011, size != 00) merge into Vd */
	if (by_table(three_same, idx, size, Q(w), 1, w, in))
		return -1;
	if (idx == (U1 | 0x03) && size)
		a64_src(in, a64_vreg(A64_RD(w)));
	return 0;
}

/* --- two-register miscellaneous: 0 Q U 01110 size 10000 opcode 10 --- */
static const uint8_t two_misc[64] = {
	[0x00] = NO3, [0x01] = B8, [0x02] = NO3, [0x03] = ANY | ACC,
	[0x04] = NO3, [0x05] = B8, [0x06] = NO3 | ACC, [0x07] = ANY,
	[0x08] = ANY, [0x09] = ANY, [0x0a] = ANY, [0x0b] = ANY,
	[0x0c] = FP1, [0x0d] = FP1, [0x0e] = FP1, [0x0f] = FP1,
	[0x12] = NO3 | NARROW, [0x14] = NO3 | NARROW, [0x16] = FCVTN | NARROW,
	[0x17] = BH,
	[0x18] = FP, [0x19] = FP, [0x1a] = FP, [0x1b] = FP,
	[0x1c] = FPA1S, [0x1d] = FP, [0x1e] = FP0, [0x1f] = FP0,
	[U1|0x00] = BH, [U1|0x02] = NO3, [U1|0x03] = ANY | ACC,
	[U1|0x04] = NO3, [U1|0x05] = BH, [U1|0x06] = NO3 | ACC, [U1|0x07] = ANY,
	[U1|0x08] = ANY, [U1|0x09] = ANY, [U1|0x0b] = ANY,
	[U1|0x0c] = FP1, [U1|0x0d] = FP1, [U1|0x0f] = FP1,
	[U1|0x12] = NO3 | NARROW, [U1|0x13] = NO3, [U1|0x14] = NO3 | NARROW,
	[U1|0x16] = FCVTXN | NARROW,
	[U1|0x18] = FP0, [U1|0x19] = FP, [U1|0x1a] = FP, [U1|0x1b] = FP,
	[U1|0x1c] = FPA1S, [U1|0x1d] = FP, [U1|0x1e] = FP0, [U1|0x1f] = FP,
};

static const uint8_t scalar_two_misc[64] = {
	[0x03] = ANY | ACC, [0x07] = ANY, [0x08] = D64, [0x09] = D64,
	[0x0a] = D64, [0x0b] = D64,
	[0x0c] = FP1, [0x0d] = FP1, [0x0e] = FP1,
	[0x14] = NO3,
	[0x1a] = FP, [0x1b] = FP, [0x1c] = FP0, [0x1d] = FP, [0x1f] = FP1,
	[U1|0x03] = ANY | ACC, [U1|0x07] = ANY, [U1|0x08] = D64, [U1|0x09] = D64,
	[U1|0x0b] = D64,
	[U1|0x0c] = FP1, [U1|0x0d] = FP1,
	[U1|0x12] = NO3, [U1|0x14] = NO3, [U1|0x16] = FCVTXN,
	[U1|0x1a] = FP, [U1|0x1b] = FP, [U1|0x1c] = FP0, [U1|0x1d] = FP,
};

static int x_two_misc(const struct a64_enc *e, uint32_t w, uint64_t pc,
		      struct a64_insn *in)
{
	(void)pc;
	if (e->value & (1u << 28))
		return by_table(scalar_two_misc, U_OP5(w), SIZE(w), 1, 0, w, in);
	return by_table(two_misc, U_OP5(w), SIZE(w), Q(w), 0, w, in);
}

/* --- across lanes (vector) and pairwise (scalar): size 11000 --- */
static const uint8_t across[64] = {
	[0x03] = ACROSS, [0x0a] = ACROSS, [0x1a] = ACROSS, [0x1b] = ACROSS,
	[0x0c] = FPS, [0x0f] = FPS,		/* fp16 fmaxnmv/fmaxv... */
	[U1|0x03] = ACROSS, [U1|0x0a] = ACROSS, [U1|0x1a] = ACROSS,
	[U1|0x0c] = FPSQ, [U1|0x0f] = FPSQ,
};

static const uint8_t scalar_pairwise[64] = {
	[0x1b] = D64,				/* addp */
	[0x0c] = FPS, [0x0d] = H0, [0x0f] = FPS,	/* fp16 forms */
	[U1|0x0c] = FP, [U1|0x0d] = FP0, [U1|0x0f] = FP,
};

static int x_across(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	(void)pc;
	if (e->value & (1u << 28))
		return by_table(scalar_pairwise, U_OP5(w), SIZE(w), 1, 0, w, in);
	return by_table(across, U_OP5(w), SIZE(w), Q(w), 0, w, in);
}

/* --- three different: 0 Q U 01110 size 1 Rm opcode 00 (4-bit opcode) --- */
static const uint8_t three_diff[32] = {
	[0x0] = NO3, [0x1] = NO3, [0x2] = NO3, [0x3] = NO3,
	[0x4] = NO3 | NARROW, [0x5] = NO3 | ACC, [0x6] = NO3 | NARROW,
	[0x7] = NO3, [0x8] = NO3 | ACC, [0x9] = HS | ACC, [0xa] = NO3 | ACC,
	[0xb] = HS | ACC, [0xc] = NO3, [0xd] = HS, [0xe] = PMULL,
	[0x10] = NO3, [0x11] = NO3, [0x12] = NO3, [0x13] = NO3,
	[0x14] = NO3 | NARROW, [0x15] = NO3 | ACC, [0x16] = NO3 | NARROW,
	[0x17] = NO3, [0x18] = NO3 | ACC, [0x1a] = NO3 | ACC, [0x1c] = NO3,
};

static const uint8_t scalar_three_diff[32] = {
	[0x9] = HS | ACC, [0xb] = HS | ACC, [0xd] = HS,
};

static int x_three_diff(const struct a64_enc *e, uint32_t w, uint64_t pc,
			struct a64_insn *in)
{
	unsigned idx = a64_field(w, 29, 1) << 4 | a64_field(w, 12, 4);

	(void)pc;
	if (e->value & (1u << 28))
		return by_table(scalar_three_diff, idx, SIZE(w), 1, 1, w, in);
	return by_table(three_diff, idx, SIZE(w), 1, 1, w, in);
}

/* --- three-register extension: 0 Q U 01110 size 0 Rm 1 opcode 1 --- */
static int x_three_ext(const struct a64_enc *e, uint32_t w, uint64_t pc,
		       struct a64_insn *in)
{
	unsigned u = a64_field(w, 29, 1), op = a64_field(w, 11, 4);
	unsigned size = SIZE(w), q = Q(w);
	int ok;

	(void)pc;
	if (e->value & (1u << 28)) {		/* scalar: sqrdmlah/sqrdmlsh */
		ok = u && op <= 1 && (size == 1 || size == 2);
	} else if (!u) {
		/* sdot, usdot; smmla, usmmla */
		ok = size == 2 && (op == 2 || op == 3 || ((op == 4 || op == 5) && q));
	} else if (op <= 1) {			/* sqrdmlah, sqrdmlsh */
		ok = size == 1 || size == 2;
	} else if (op == 2) {			/* udot */
		ok = size == 2;
	} else if (op == 4) {			/* ummla */
		ok = size == 2 && q;
	} else if ((op & 0xc) == 8 || op == 0xc || op == 0xe) {
		/* fcmla, fcadd: h, s, or d with Q */
		ok = size && (size != 3 || q);
	} else if (op == 0xd) {			/* bfmmla */
		ok = size == 1 && q;
	} else if (op == 0xf) {			/* bfdot, bfmlalb/t */
		ok = size == 1 || size == 3;
	} else {
		ok = 0;
	}
	if (!ok)
		return -1;
	a64_vregs(in, w, 1, ACC);
	return 0;
}

/* --- half-precision three same: 0 Q U 01110 a 10 Rm 00 opcode 1 --- */
static int x_fp16_same(const struct a64_enc *e, uint32_t w, uint64_t pc,
		       struct a64_insn *in)
{
	/* allocated opcodes, one bit per opcode, indexed by U:a */
	static const uint8_t vec[4] = { 0xdf, 0xc7, 0xfd, 0x75 };
	static const uint8_t sca[4] = { 0x98, 0x80, 0x30, 0x34 };
	unsigned ua = a64_field(w, 29, 1) << 1 | a64_field(w, 23, 1);
	unsigned op = a64_field(w, 11, 3);
	const uint8_t *t = (e->value & (1u << 28)) ? sca : vec;

	(void)pc;
	if (!(t[ua] >> op & 1))
		return -1;
	a64_vregs(in, w, 1, (op == 1 && ua < 2) ? ACC : 0);	/* fmla, fmls */
	return 0;
}

/* --- half-precision two-register misc: 0 Q U 01110 a 111100 opcode 10 --- */
static int x_fp16_misc(const struct a64_enc *e, uint32_t w, uint64_t pc,
		       struct a64_insn *in)
{
	/* allocated opcodes as 32-bit sets, indexed by U:a */
	static const uint32_t vec[4] = {
		0x3f000000, 0x2f00f000, 0x3f000000, 0xae00b000,
	};
	static const uint32_t sca[4] = {
		0x3c000000, 0xac007000, 0x3c000000, 0x2c003000,
	};
	unsigned ua = a64_field(w, 29, 1) << 1 | a64_field(w, 23, 1);
	unsigned op = a64_field(w, 12, 5);
	const uint32_t *t = (e->value & (1u << 28)) ? sca : vec;

	(void)pc;
	if (!(t[ua] >> op & 1))
		return -1;
	a64_vregs(in, w, 0, 0);
	return 0;
}

/*
 * shift by immediate: 0 Q U 011110 immh immb opcode 1 (vector) and
 * 01 U 111110 immh immb opcode 1 (scalar); immh's top bit is the
 * element size.
 */
enum { SH_ANY = 1, SH_D, SH_NARROW, SH_FP };

static const uint8_t shift_imm[64] = {
	[0x00] = SH_ANY, [0x02] = SH_ANY | ACC, [0x04] = SH_ANY,
	[0x06] = SH_ANY | ACC, [0x0a] = SH_ANY, [0x0e] = SH_ANY,
	[0x10] = SH_NARROW | NARROW, [0x11] = SH_NARROW | NARROW,
	[0x12] = SH_NARROW | NARROW, [0x13] = SH_NARROW | NARROW,
	[0x14] = SH_NARROW, [0x1c] = SH_FP, [0x1f] = SH_FP,
	[U1|0x00] = SH_ANY, [U1|0x02] = SH_ANY | ACC, [U1|0x04] = SH_ANY,
	[U1|0x06] = SH_ANY | ACC, [U1|0x08] = SH_ANY | ACC,
	[U1|0x0a] = SH_ANY | ACC, [U1|0x0c] = SH_ANY, [U1|0x0e] = SH_ANY,
	[U1|0x10] = SH_NARROW | NARROW, [U1|0x11] = SH_NARROW | NARROW,
	[U1|0x12] = SH_NARROW | NARROW, [U1|0x13] = SH_NARROW | NARROW,
	[U1|0x14] = SH_NARROW, [U1|0x1c] = SH_FP, [U1|0x1f] = SH_FP,
};

static const uint8_t scalar_shift_imm[64] = {
	[0x00] = SH_D, [0x02] = SH_D | ACC, [0x04] = SH_D, [0x06] = SH_D | ACC,
	[0x0a] = SH_D, [0x0e] = SH_ANY, [0x12] = SH_NARROW,
	[0x13] = SH_NARROW, [0x1c] = SH_FP, [0x1f] = SH_FP,
	[U1|0x00] = SH_D, [U1|0x02] = SH_D | ACC, [U1|0x04] = SH_D,
	[U1|0x06] = SH_D | ACC, [U1|0x08] = SH_D | ACC, [U1|0x0a] = SH_D | ACC,
	[U1|0x0c] = SH_ANY, [U1|0x0e] = SH_ANY,
	[U1|0x10] = SH_NARROW, [U1|0x11] = SH_NARROW, [U1|0x12] = SH_NARROW,
	[U1|0x13] = SH_NARROW, [U1|0x1c] = SH_FP, [U1|0x1f] = SH_FP,
};

static int x_shift_imm(const struct a64_enc *e, uint32_t w, uint64_t pc,
		       struct a64_insn *in)
{
	int scalar = (e->value & (1u << 28)) != 0;
	unsigned rule = (scalar ? scalar_shift_imm : shift_imm)[U_OP5H(w)];
	unsigned immh = a64_field(w, 19, 4), q = scalar ? 1 : Q(w);
	int ok;

	(void)pc;
	switch (RULE(rule)) {
	case SH_ANY:	ok = immh && (!(immh & 8) || q); break;
	case SH_D:	ok = (immh & 8) != 0; break;
	case SH_NARROW:	ok = immh && !(immh & 8); break;
	case SH_FP:	ok = immh > 1 && (!(immh & 8) || q); break;
	default:	ok = 0; break;
	}
	if (!ok)
		return -1;
	a64_vregs(in, w, 0, rule);
	return 0;
}

/*
 * by element: 0 Q U 01111 size L M Rm opcode H 0 (vector),
 * 01 U 11111 size L M Rm opcode H 0 (scalar).
 */
enum { E_INT = 1, E_FP, E_FMLAL, E_DOT, E_ALL, E_FCMLA };

static const uint8_t elem[32] = {
	[0x0] = E_FMLAL | ACC, [0x1] = E_FP | ACC, [0x2] = E_INT | ACC,
	[0x3] = E_INT | ACC, [0x4] = E_FMLAL | ACC, [0x5] = E_FP | ACC,
	[0x6] = E_INT | ACC, [0x7] = E_INT | ACC, [0x8] = E_INT, [0x9] = E_FP,
	[0xa] = E_INT, [0xb] = E_INT, [0xc] = E_INT, [0xd] = E_INT,
	[0xe] = E_DOT | ACC, [0xf] = E_ALL | ACC,
	[0x10] = E_INT | ACC, [0x11] = E_FCMLA | ACC, [0x12] = E_INT | ACC,
	[0x13] = E_FCMLA | ACC, [0x14] = E_INT | ACC, [0x15] = E_FCMLA | ACC,
	[0x16] = E_INT | ACC, [0x17] = E_FCMLA | ACC, [0x18] = E_FMLAL | ACC,
	[0x19] = E_FP, [0x1a] = E_INT, [0x1c] = E_FMLAL | ACC,
	[0x1d] = E_INT | ACC, [0x1e] = E_DOT | ACC, [0x1f] = E_INT | ACC,
};

static const uint8_t scalar_elem[32] = {
	[0x1] = E_FP | ACC, [0x3] = E_INT | ACC, [0x5] = E_FP | ACC,
	[0x7] = E_INT | ACC, [0x9] = E_FP, [0xb] = E_INT, [0xc] = E_INT,
	[0xd] = E_INT, [0x19] = E_FP, [0x1d] = E_INT | ACC, [0x1f] = E_INT | ACC,
};

static int x_elem(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	int scalar = (e->value & (1u << 28)) != 0;
	unsigned idx = a64_field(w, 29, 1) << 4 | a64_field(w, 12, 4);
	unsigned rule = (scalar ? scalar_elem : elem)[idx];
	unsigned size = SIZE(w), q = scalar ? 1 : Q(w);
	unsigned l = a64_field(w, 21, 1);
	int ok;

	(void)pc;
	switch (RULE(rule)) {
	case E_INT:	ok = size == 1 || size == 2; break;
	case E_FP:	ok = size != 1 && (size != 3 || (!l && q)); break;
	case E_FMLAL:	/* fall through */
	case E_DOT:	ok = size == 2; break;
	case E_ALL:	ok = 1; break;
	case E_FCMLA:	/* index H:L (h) or H (s) must fit the vector */
		ok = (size == 1 && (q || !a64_field(w, 11, 1))) ||
		     (size == 2 && q && !l);
		break;
	default:	ok = 0; break;
	}
	if (!ok)
		return -1;
	a64_vregs(in, w, 1, rule);
	return 0;
}

/*
 * copy: 0 Q op 01110000 imm5 0 imm4 1 (vector), 01 op 11110000 ... (scalar
 * dup).  The lowest set bit of imm5 is the element size.
 *	op 1: ins (element); op 0, imm4: 0000 dup (element), 0001 dup
 *	(general), 0011 ins (general), 0101 smov, 0111 umov.
 */
static int x_copy(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned imm5 = a64_field(w, 16, 5), imm4 = a64_field(w, 11, 4);
	unsigned q = Q(w), op = a64_field(w, 29, 1), size = 0;
	unsigned rd = A64_RD(w), rn = A64_RN(w);

	(void)pc;
	if (!(imm5 & 0xf))
		return -1;
	while (!(imm5 >> size & 1))
		size++;
	if (e->value & (1u << 28)) {		/* scalar dup (mov) */
		if (op || imm4)
			return -1;
		a64_vregs(in, w, 0, 0);
		return 0;
	}
	if (op) {				/* ins (element) */
		if (!q)
			return -1;
		a64_vregs(in, w, 0, ACC);
		return 0;
	}
	switch (imm4) {
	case 0:					/* dup (element) */
		if (size == 3 && !q)
			return -1;
		a64_vregs(in, w, 0, 0);
		return 0;
	case 1:					/* dup (general) */
		if (size == 3 && !q)
			return -1;
		a64_src_zr(in, rn);
		a64_dst(in, a64_vreg(rd));
		return 0;
	case 3:					/* ins (general) */
		if (!q)
			return -1;
		a64_src_zr(in, rn);
		a64_src(in, a64_vreg(rd));
		a64_dst(in, a64_vreg(rd));
		return 0;
	case 5:					/* smov */
		if (size > (q ? 2u : 1u))
			return -1;
		break;
	case 7:					/* umov */
		if (q ? size != 3 : size > 2)
			return -1;
		break;
	default:
		return -1;
	}
	if (q)
		in->flags |= A64_F_64;
	a64_src(in, a64_vreg(rn));
	a64_dst_zr(in, rd);
	return 0;
}

/* tbl/tbx: 0 Q 001110 op2 0 Rm 0 len op 00 Rn Rd; tbx keeps Vd lanes */
static int x_tbl(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	unsigned i, len = a64_field(w, 13, 2);

	(void)e;
	(void)pc;
	if (SIZE(w))
		return -1;
	for (i = 0; i <= len; i++)
		a64_src(in, a64_vreg(A64_RN(w) + i));
	a64_src(in, a64_vreg(A64_RM(w)));
	if (a64_field(w, 12, 1))
		a64_src(in, a64_vreg(A64_RD(w)));
	a64_dst(in, a64_vreg(A64_RD(w)));
	return 0;
}

/* uzp/trn/zip: opcode 000 and 100 reserved */
static int x_permute(const struct a64_enc *e, uint32_t w, uint64_t pc,
		     struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (!(a64_field(w, 12, 3) & 3) || (SIZE(w) == 3 && !Q(w)))
		return -1;
	a64_vregs(in, w, 1, 0);
	return 0;
}

/* ext: op2 00, a 64-bit vector takes a 3-bit index */
static int x_ext(const struct a64_enc *e, uint32_t w, uint64_t pc,
		 struct a64_insn *in)
{
	(void)e;
	(void)pc;
	if (SIZE(w) || (!Q(w) && a64_field(w, 14, 1)))
		return -1;
	a64_vregs(in, w, 1, 0);
	return 0;
}

/*
 * modified immediate: 0 Q op 0111100000 abc cmode o2 1 defgh Rd.
 * orr/bic (cmode 0xx1, 10x1) merge into Vd; fmov (cmode 1111) is single
 * (op 0), double (op 1, Q 1) or half (o2 1).
 */
static int x_modimm(const struct a64_enc *e, uint32_t w, uint64_t pc,
		    struct a64_insn *in)
{
	unsigned cmode = a64_field(w, 12, 4), op = a64_field(w, 29, 1);

	(void)e;
	(void)pc;
	if (a64_field(w, 11, 1)) {
		if (op || cmode != 0xf)
			return -1;
	} else if (op && cmode == 0xf && !Q(w)) {
		return -1;
	}
	if ((cmode & 9) == 1 || (cmode & 0xd) == 9)
		a64_src(in, a64_vreg(A64_RD(w)));
	a64_dst(in, a64_vreg(A64_RD(w)));
	return 0;
}

#define C A64_C_FPSIMD

const struct a64_enc a64_simd_tab[] = {
	/* Advanced SIMD scalar: 01 U 11110 / 11111 */
	{ 0xdfe08400, 0x5e000400, C, 0, x_copy, "scalar copy" },
	{ 0xdf60c400, 0x5e400400, C, 0, x_fp16_same, "scalar 3same fp16" },
	{ 0xdf7e0c00, 0x5e780800, C, 0, x_fp16_misc, "scalar 2misc fp16" },
	{ 0xdf208400, 0x5e008400, C, 0, x_three_ext, "scalar 3same extra" },
	{ 0xdf3e0c00, 0x5e200800, C, 0, x_two_misc, "scalar 2misc" },
	{ 0xdf3e0c00, 0x5e300800, C, 0, x_across, "scalar pairwise" },
	{ 0xdf200c00, 0x5e200000, C, 0, x_three_diff, "scalar 3diff" },
	{ 0xdf200400, 0x5e200400, C, 0, x_three_same, "scalar 3same" },
	{ 0xdf800400, 0x5f000400, C, 0, x_shift_imm, "scalar shift imm" },
	{ 0xdf000400, 0x5f000000, C, 0, x_elem, "scalar by element" },

	/* Advanced SIMD vector: 0 Q U 01110 / 01111 */
	{ 0xbf208c00, 0x0e000000, C, 0, x_tbl, "tbl/tbx" },
	{ 0xbf208c00, 0x0e000800, C, 0, x_permute, "uzp/trn/zip" },
	{ 0xbf208400, 0x2e000000, C, 0, x_ext, "ext" },
	{ 0x9fe08400, 0x0e000400, C, 0, x_copy, "copy" },
	{ 0x9f60c400, 0x0e400400, C, 0, x_fp16_same, "3same fp16" },
	{ 0x9f7e0c00, 0x0e780800, C, 0, x_fp16_misc, "2misc fp16" },
	{ 0x9f208400, 0x0e008400, C, 0, x_three_ext, "3same extension" },
	{ 0x9f3e0c00, 0x0e200800, C, 0, x_two_misc, "2misc" },
	{ 0x9f3e0c00, 0x0e300800, C, 0, x_across, "across lanes" },
	{ 0x9f200c00, 0x0e200000, C, 0, x_three_diff, "3diff" },
	{ 0x9f200400, 0x0e200400, C, 0, x_three_same, "3same" },
	{ 0x9ff80400, 0x0f000400, C, 0, x_modimm, "modified imm" },
	{ 0x9f800400, 0x0f000400, C, 0, x_shift_imm, "shift imm" },
	{ 0x9f000400, 0x0f000000, C, 0, x_elem, "by element" },
};

const unsigned a64_simd_n = sizeof(a64_simd_tab) / sizeof(a64_simd_tab[0]);
