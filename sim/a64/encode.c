/* encode.c - see a64_encode.h. Encodings from the Arm ARM (DDI 0487), C4. */
#include "a64/encode.h"

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ULL << (bits - 1);

	v &= (1ULL << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

int a64_branch_imm_offset(uint32_t insn, int64_t *off)
{
	if ((insn & 0x7c000000u) == 0x14000000u) {		/* b, bl: imm26 */
		*off = sext(insn & 0x3ffffff, 26) * 4;
		return 1;
	}
	if ((insn & 0xff000010u) == 0x54000000u ||		/* b.cond: imm19 */
	    (insn & 0x7e000000u) == 0x34000000u) {		/* cbz/cbnz */
		*off = sext((insn >> 5) & 0x7ffff, 19) * 4;
		return 1;
	}
	if ((insn & 0x7e000000u) == 0x36000000u) {		/* tbz/tbnz: imm14 */
		*off = sext((insn >> 5) & 0x3fff, 14) * 4;
		return 1;
	}
	return 0;
}

uint32_t a64_branch_imm_set(uint32_t insn, int64_t off)
{
	int64_t w = off / 4;

	if (off & 3)
		return 0;
	if ((insn & 0x7c000000u) == 0x14000000u) {
		if (w < -(1 << 25) || w >= (1 << 25))
			return 0;
		return (insn & 0xfc000000u) | ((uint32_t)w & 0x3ffffff);
	}
	if ((insn & 0xff000010u) == 0x54000000u || (insn & 0x7e000000u) == 0x34000000u) {
		if (w < -(1 << 18) || w >= (1 << 18))
			return 0;
		return (insn & 0xff00001fu) | (((uint32_t)w & 0x7ffff) << 5);
	}
	if ((insn & 0x7e000000u) == 0x36000000u) {
		if (w < -(1 << 13) || w >= (1 << 13))
			return 0;
		return (insn & 0xfff8001fu) | (((uint32_t)w & 0x3fff) << 5);
	}
	return 0;
}

int a64_adrp_offset(uint32_t insn, int64_t *off)
{
	if ((insn & 0x9f000000u) != 0x90000000u)
		return 0;
	*off = sext(((insn >> 29) & 3) | (((insn >> 5) & 0x7ffff) << 2), 21) * 4096;
	return 1;
}

uint32_t a64_adrp_set(uint32_t insn, int64_t off)
{
	int64_t pages = off / 4096;
	uint32_t imm;

	if (pages < -(1 << 20) || pages >= (1 << 20))
		return 0;
	imm = (uint32_t)pages & 0x1fffff;
	return (insn & 0x9f00001fu) | ((imm & 3) << 29) | ((imm >> 2) << 5);
}

int a64_uses_literal(uint32_t insn)
{
	return (insn & 0x3b000000u) == 0x18000000u ||	/* ldr/ldrsw/prfm (literal), incl. SIMD */
	       (insn & 0x1f000000u) == 0x10000000u;	/* adr, adrp */
}

uint32_t a64_gen_b(uint64_t from, uint64_t to)
{
	return a64_branch_imm_set(0x14000000u, (int64_t)(to - from));
}

uint32_t a64_gen_movz64(unsigned rd, uint16_t imm)
{
	return 0xd2800000u | ((uint32_t)imm << 5) | (rd & 31);
}

uint32_t a64_gen_orr_wa3(unsigned rd)
{
	/* 0x80003fff = 15 ones rotated right by 1 in a 32-bit element:
	 * N=0, immr=1, imms=14 */
	return 0x32000000u | (1u << 16) | (14u << 10) | (31u << 5) | (rd & 31);
}

uint32_t a64_gen_ldr_lit64(unsigned rt, int64_t off)
{
	return 0x58000000u | ((uint32_t)((off >> 2) & 0x7ffff) << 5) | (rt & 31);
}

uint32_t a64_gen_blr(unsigned rn)
{
	return 0xd63f0000u | ((rn & 31) << 5);
}

uint32_t a64_gen_brk(uint16_t imm)
{
	return 0xd4200000u | ((uint32_t)imm << 5);
}
