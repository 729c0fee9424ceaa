/*
 * ldst_simd.c - the Advanced SIMD structure loads and stores (Arm ARM
 * DDI 0487, C4.1.5, "Advanced SIMD load/store multiple structures" and
 * "... single structure"): ld1-ld4, st1-st4 and ld1r-ld4r.
 *
 * Their rows are in ldst.c's a64_ldst_tab, first of the load/store group;
 * the functions are here because they record V register lists and lanes,
 * which no other load or store does.  The base register is
 * a64_ldst_base()'s, as for every load/store; post-index adds Rm.
 */
#include "a64/internal.h"

/* V registers Rt..Rt+n-1 (mod 32) of a structure load/store */
static void vlist(struct a64_insn *in, unsigned rt, unsigned n, int load,
		  int lane)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!load || lane)		/* a lane load keeps the rest */
			a64_src(in, a64_vreg(rt + i));
		if (load)
			a64_dst(in, a64_vreg(rt + i));
	}
}

/* GPR side of a structure access: Rn|SP, post-index Rm (31 = immediate) */
static void vbase(struct a64_insn *in, uint32_t w, int post)
{
	in->flags |= A64_F_FPREG;
	a64_ldst_base(in, w, post);
	if (post)
		a64_src_zr(in, A64_RM(w));
}

/*
 * ld1-4/st1-4 (multiple structures): 0 Q 001100 P L 0 Rm opcode size Rn Rt
 *	opcode 0000 ld4 (4 regs), 0010 ld1 x4, 0100 ld3, 0110 ld1 x3,
 *	0111 ld1 x1, 1000 ld2, 1010 ld1 x2; size 11 with Q 0 is reserved
 *	for the interleaving forms.
 */
int a64_x_vmult(const struct a64_enc *e, uint32_t w, uint64_t pc,
		struct a64_insn *in)
{
	static const int8_t nregs[16] = {
		4, -1, 4, -1, 3, -1, 3, 1, 2, -1, 2, -1, -1, -1, -1, -1
	};
	unsigned op = a64_field(w, 12, 4), q = a64_field(w, 30, 1);
	int load = (int)a64_field(w, 22, 1), n = nregs[op];

	(void)e;
	(void)pc;
	if (n < 0)
		return -1;
	/* interleaving (selem > 1) forms: opcode 0000, 0100, 1000 */
	if ((op == 0 || op == 4 || op == 8) && a64_field(w, 10, 2) == 3 && !q)
		return -1;
	in->cls = load ? A64_C_LOAD : A64_C_STORE;
	in->mem_size = (uint8_t)(n * (q ? 16 : 8));
	vbase(in, w, (int)a64_field(w, 23, 1));
	vlist(in, A64_RT(w), (unsigned)n, load, 0);
	return 0;
}

/*
 * ld1-4/st1-4 (single structure) and ld1r-ld4r:
 * 0 Q 001101 P L R Rm opcode S size Rn Rt.  opcode<2:1> is the element
 * size (b, h, s/d, replicate), opcode<0>:R + 1 the number of registers.
 */
int a64_x_vsingle(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in)
{
	unsigned op = a64_field(w, 13, 3), s = a64_field(w, 12, 1);
	unsigned size = a64_field(w, 10, 2);
	unsigned selem = ((op & 1) << 1 | a64_field(w, 21, 1)) + 1;
	int load = (int)a64_field(w, 22, 1);
	unsigned esize;

	(void)e;
	(void)pc;
	switch (op >> 1) {
	case 0:
		esize = 1;
		break;
	case 1:
		if (size & 1)
			return -1;
		esize = 2;
		break;
	case 2:
		if (size & 2 || (size == 1 && s))
			return -1;
		esize = size ? 8 : 4;
		break;
	default:				/* ld1r..ld4r */
		if (!load || s)
			return -1;
		esize = 1u << size;
		break;
	}
	in->cls = load ? A64_C_LOAD : A64_C_STORE;
	in->mem_size = (uint8_t)(selem * esize);
	vbase(in, w, (int)a64_field(w, 23, 1));
	vlist(in, A64_RT(w), selem, load, (op >> 1) != 3);
	return 0;
}
