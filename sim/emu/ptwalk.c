/*
 * ptwalk.c - the VMSAv8-64 stage 1 table walk (see ptwalk.h): 4K, 16K and
 * 64K granules for both halves, the start level from TxSZ, block entries
 * at each granule's legal levels, 52-bit VA and PA.
 *
 * The facts are the Arm ARM's (DDI 0487, "The AArch64 Virtual Memory
 * System Architecture": TCR_EL1's T0SZ [5:0], TG0 [15:14], T1SZ [21:16],
 * TG1 [31:30], IPS [34:32], DS [59]; the table, block and page descriptor
 * formats), the 52-bit layouts also as Linux writes them
 * (arch/arm64/include/asm/pgtable-hwdef.h: PTE_ADDR_HIGH, PTE_ADDR_HIGH_SHIFT,
 * TTBR_BADDR_MASK_52).
 */
#include <string.h>

#include "emu/ptwalk.h"

#include "hotsim/err.h"

#define BITS(hi, lo) ((~0ULL >> (63 - (hi))) & (~0ULL << (lo)))
#define TCR_IPS_52 6		/* IPS 0b110: 52-bit physical addresses */

/* TG0: 0b00 4K, 0b01 64K, 0b10 16K (0b11 reserved); TG1: 0b01 16K,
 * 0b10 4K, 0b11 64K (0b00 reserved). 0: reserved. */
static unsigned granule_shift(uint64_t tcr, int hi)
{
	static const unsigned tg0[4] = { 12, 16, 14, 0 }, tg1[4] = { 0, 14, 12, 16 };

	return hi ? tg1[(tcr >> 30) & 3] : tg0[(tcr >> 14) & 3];
}

int hs_pt_geometry(uint64_t tcr, int hi, const char *what, struct hs_pt_geom *g)
{
	unsigned txsz = hi ? (tcr >> 16) & 63 : tcr & 63, levels, max_bits;

	g->gshift = granule_shift(tcr, hi);
	if (!g->gshift)
		return hs_fail("%s: TCR_EL1 0x%llx: reserved TG%d encoding", what,
			       (unsigned long long)tcr, hi ? 1 : 0);
	g->stride = g->gshift - 3;
	g->va_bits = 64 - txsz;
	/* DS (LPA2) applies to the 4K and 16K granules; 64K has 52-bit PA by
	 * FEAT_LPA and 52-bit VA by FEAT_LVA, with no control bit of its own */
	g->ds = g->gshift != 16 && ((tcr >> 59) & 1);
	g->pa52 = g->ds || (g->gshift == 16 && ((tcr >> 32) & 7) == TCR_IPS_52);
	/* TxSZ 16 (48 bits) at most; 12 (52 bits) with DS or the 64K granule's
	 * LVA; 39 (25 bits) at least without FEAT_TTST */
	max_bits = g->ds || g->gshift == 16 ? 52 : 48;
	if (g->va_bits < 25 || g->va_bits > max_bits)
		return hs_fail("%s: %u-bit virtual addresses with %uK pages (TCR_EL1 0x%llx) "
			       "are not supported", what, g->va_bits, 1u << (g->gshift - 10),
			       (unsigned long long)tcr);
	/* the levels that resolve va_bits - gshift bits, stride bits each */
	levels = (g->va_bits - g->gshift + g->stride - 1) / g->stride;
	g->start = 4 - (int)levels;
	g->top = 1u << (g->va_bits - g->gshift - g->stride * (levels - 1));
	/* blocks: 4K at levels 1 and 2 (0 with DS), 16K at 2 (1 with DS),
	 * 64K at 2 (1 with FEAT_LPA's 52-bit PA) */
	if (g->gshift == 12)
		g->block_min = g->ds ? 0 : 1;
	else
		g->block_min = g->pa52 ? 1 : 2;
	return 0;
}

/* The VA bits below a level's entries: an entry at level maps 2^shift. */
static unsigned hs_pt_shift(const struct hs_pt_geom *g, int level)
{
	return g->gshift + g->stride * (unsigned)(3 - level);
}

/* The start-level table's address a TTBR holds (ASID and CnP dropped).
 * The start-level table is aligned to its size (its TTBR's BADDR below that
 * is RES0), at least 64 bytes with 52-bit addresses, whose BADDR[51:48]
 * are TTBR[5:2]; bit 0 is CnP, [63:48] the ASID. */
static uint64_t hs_pt_base(const struct hs_pt_geom *g, uint64_t ttbr)
{
	unsigned x = 3;

	while ((1u << x) < g->top * 8)
		x++;
	if (g->pa52 && x < 6)
		x = 6;
	if (!g->pa52)
		return ttbr & BITS(47, x);
	return (ttbr & BITS(47, x)) | (((ttbr >> 2) & 0xf) << 48);
}

/* The output address (next table, block or page) a descriptor holds:
 * OA[47:gshift] in place; with 52-bit PA the 64K granule has OA[51:48] in
 * bits [15:12], LPA2 has OA[49:48] in place and OA[51:50] in bits [9:8]. */
static uint64_t hs_pt_desc_addr(const struct hs_pt_geom *g, uint64_t desc)
{
	if (g->ds)
		return (desc & BITS(49, g->gshift)) | (((desc >> 8) & 3) << 50);
	if (g->pa52)
		return (desc & BITS(47, 16)) | (((desc >> 12) & 0xf) << 48);
	return desc & BITS(47, g->gshift);
}

uint64_t hs_pt_table(uint64_t tcr, int hi, uint64_t ttbr)
{
	struct hs_pt_geom g;

	return hs_pt_geometry(tcr, hi, "", &g) ? 0 : hs_pt_base(&g, ttbr);
}

struct walk {
	const struct hs_pt_geom *g;
	const struct hs_pt_ram *ram;
	hs_pt_leaf_fn leaf;
	void *ctx;
};

static uint64_t entry(const struct hs_pt_ram *ram, uint64_t at)
{
	const uint8_t *p = ram->bytes + (at - ram->base);

	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static int in_ram(const struct hs_pt_ram *ram, uint64_t table, unsigned entries)
{
	return table >= ram->base && 8ULL * entries <= ram->size &&
	       table - ram->base <= ram->size - 8ULL * entries;
}

/* bits [1:0]: x0 invalid; 11 a table below level 3, a page at it; 01 a
 * block where the granule has blocks at that level, else invalid */
static int walk_level(const struct walk *w, uint64_t table, int level, uint64_t va, unsigned entries,
		      uint64_t tattr)
{
	unsigned shift = hs_pt_shift(w->g, level);

	if (!in_ram(w->ram, table, entries))
		return 0;	/* a table outside RAM: nothing we could map */
	for (unsigned i = 0; i < entries; i++) {
		uint64_t d = entry(w->ram, table + 8ULL * i), at = va + ((uint64_t)i << shift), oa;
		int rc;

		if (!(d & 1))
			continue;
		oa = hs_pt_desc_addr(w->g, d);
		if (level < 3 && (d & 2)) {
			if ((rc = walk_level(w, oa, level + 1, at, 1u << w->g->stride,
					     tattr | (d & HS_PT_TABLE_ATTRS))))
				return rc;
			continue;
		}
		if ((level == 3) != !!(d & 2) || level < w->g->block_min)
			continue;	/* reserved at level 3, or no blocks at this level */
		if ((rc = w->leaf(w->ctx, at, oa & ~((1ULL << shift) - 1), 1ULL << shift, d, tattr)))
			return rc;
	}
	return 0;
}

int hs_pt_walk(const struct hs_pt_geom *g, const struct hs_pt_ram *ram, uint64_t ttbr, int hi,
	       hs_pt_leaf_fn leaf, void *ctx)
{
	struct walk w = { g, ram, leaf, ctx };

	return walk_level(&w, hs_pt_base(g, ttbr), g->start, hi ? ~0ULL << g->va_bits : 0, g->top, 0);
}

int hs_pt_translate(const struct hs_pt_geom *g, const struct hs_pt_ram *ram, uint64_t ttbr, int hi,
		    uint64_t va, struct hs_pt_xlat *x)
{
	uint64_t table = hs_pt_base(g, ttbr), half = va >> g->va_bits;
	unsigned entries = g->top;

	memset(x, 0, sizeof(*x));
	x->level = g->start;
	if (half != (hi ? ~0ULL >> g->va_bits : 0))
		return 0;
	for (int level = g->start; level <= 3; level++) {
		unsigned shift = hs_pt_shift(g, level);
		uint64_t d;

		x->level = level;
		if (!in_ram(ram, table, entries))
			return 0;
		x->desc_at = table + 8ULL * ((va >> shift) & (entries - 1));
		x->desc = d = entry(ram, x->desc_at);
		if (!(d & 1))
			return 0;
		if (level < 3 && (d & 2)) {
			x->tattr |= d & HS_PT_TABLE_ATTRS;
			table = hs_pt_desc_addr(g, d);
			entries = 1u << g->stride;
			continue;
		}
		if ((level == 3) != !!(d & 2) || level < g->block_min)
			return 0;
		x->len = 1ULL << shift;
		x->pa = (hs_pt_desc_addr(g, d) & ~(x->len - 1)) | (va & (x->len - 1));
		return x->valid = 1;
	}
	return 0;
}
