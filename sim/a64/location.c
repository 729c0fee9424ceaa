/*
 * location.c - an instruction word without the fields that only say where
 * something is (a64.h, a64_without_location): two copies of the same
 * function at other addresses, or reaching moved data, compare equal.
 * Mask/value per class, as the kernel's insn.h classifies; keep: the bits
 * that stay.
 */
#include <stddef.h>

#include "hotsim/a64.h"

static const struct {
	uint32_t mask, value, keep;
} where_fields[] = {
	{ 0x7c000000, 0x14000000, 0xfc000000 },	/* B, BL: imm26 */
	{ 0xff000010, 0x54000000, 0xff00001f },	/* B.cond: imm19 */
	{ 0x7e000000, 0x34000000, 0xff00001f },	/* CBZ, CBNZ: imm19 */
	{ 0x7e000000, 0x36000000, 0xfff8001f },	/* TBZ, TBNZ: imm14 */
	{ 0x1f000000, 0x10000000, 0x9f00001f },	/* ADR, ADRP: immlo, immhi */
	{ 0x3b000000, 0x18000000, 0xff00001f },	/* LDR (literal): imm19 */
	{ 0x1f800000, 0x11000000, 0xffc003ff },	/* ADD/SUB (immediate): imm12 (:lo12: offsets) */
	{ 0x3b000000, 0x39000000, 0xffc003ff },	/* LDR/STR (unsigned offset): imm12 */
};

uint32_t a64_without_location(uint32_t w)
{
	for (size_t i = 0; i < sizeof(where_fields) / sizeof(where_fields[0]); i++)
		if ((w & where_fields[i].mask) == where_fields[i].value)
			return w & where_fields[i].keep;
	return w;
}
