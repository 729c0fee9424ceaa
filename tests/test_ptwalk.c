/*
 * test_ptwalk.c - the booted replay's table walk (sim/emu/ptwalk.c) over
 * hand-built tables: 4K, 16K and 64K granules in both halves, the start
 * level from TxSZ, blocks only at each granule's legal levels, 52-bit VA
 * and PA (64K with FEAT_LPA/LVA, 4K with LPA2), TTBR bases smaller than a
 * page. Every expected translation is worked by hand from the Arm ARM's
 * rules (VMSAv8-64: an entry at level L of a granule of 2^g bytes maps
 * 2^(g + (g - 3) * (3 - L)) bytes; the kernel half starts at ~0 << VA bits)
 * in the comment beside it, not read from the program.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "emu/ptwalk.h"

#define TG0_4K (0ULL << 14)
#define TG0_16K (2ULL << 14)
#define TG1_4K (2ULL << 30)
#define TG1_16K (1ULL << 30)
#define TG1_64K (3ULL << 30)
#define T0SZ(n) ((uint64_t)(n))
#define T1SZ(n) ((uint64_t)(n) << 16)
#define IPS_52 (6ULL << 32)
#define DS (1ULL << 59)

struct leaf {
	uint64_t va, pa, len;
};

struct leaves {
	struct leaf v[16];
	unsigned n;
};

static int collect(void *ctx, uint64_t va, uint64_t pa, uint64_t len, uint64_t desc, uint64_t tattr)
{
	struct leaves *l = ctx;

	(void)desc, (void)tattr;
	cr_assert_lt(l->n, 16);
	l->v[l->n++] = (struct leaf){ va, pa, len };
	return 0;
}

/* A RAM image at base: 1 MiB, zero (every entry invalid). */
static struct hs_pt_ram ram_at(uint64_t base)
{
	struct hs_pt_ram r = { calloc(1, 1 << 20), base, 1 << 20 };

	cr_assert(r.bytes);
	return r;
}

static void put(struct hs_pt_ram *r, uint64_t table, unsigned i, uint64_t desc)
{
	memcpy((uint8_t *)r->bytes + (table - r->base) + 8ULL * i, &desc, 8);
}

static void expect(const struct leaves *l, unsigned i, uint64_t va, uint64_t pa, uint64_t len)
{
	cr_assert_lt(i, l->n);
	cr_assert_eq(l->v[i].va, va, "leaf %u va 0x%llx, want 0x%llx", i, (unsigned long long)l->v[i].va,
		     (unsigned long long)va);
	cr_assert_eq(l->v[i].pa, pa, "leaf %u pa 0x%llx, want 0x%llx", i, (unsigned long long)l->v[i].pa,
		     (unsigned long long)pa);
	cr_assert_eq(l->v[i].len, len, "leaf %u len 0x%llx, want 0x%llx", i,
		     (unsigned long long)l->v[i].len, (unsigned long long)len);
}

static struct leaves walk(uint64_t tcr, int hi, struct hs_pt_ram *r, uint64_t ttbr)
{
	struct hs_pt_geom g;
	struct leaves l = { .n = 0 };

	cr_assert_eq(hs_pt_geometry(tcr, hi, "test", &g), 0);
	cr_assert_eq(hs_pt_walk(&g, r, ttbr, hi, collect, &l), 0);
	return l;
}

/* One address through the same tables: want_len 0 means nothing maps it. */
static void xlate(uint64_t tcr, int hi, struct hs_pt_ram *r, uint64_t ttbr, uint64_t va, uint64_t want_pa,
		  uint64_t want_len)
{
	struct hs_pt_geom g;
	struct hs_pt_xlat x;
	uint64_t pa, len;

	cr_assert_eq(hs_pt_geometry(tcr, hi, "test", &g), 0);
	cr_assert_eq(hs_pt_translate(&g, r, ttbr, hi, va, &x), want_len != 0, "va 0x%llx",
		     (unsigned long long)va);
	pa = x.pa;
	len = x.len;
	if (!want_len)
		return;
	cr_assert_eq(pa, want_pa, "va 0x%llx: pa 0x%llx, want 0x%llx", (unsigned long long)va,
		     (unsigned long long)pa, (unsigned long long)want_pa);
	cr_assert_eq(len, want_len, "va 0x%llx: len 0x%llx", (unsigned long long)va, (unsigned long long)len);
}

Test(ptwalk, geometry_follows_granule_and_txsz)
{
	static const struct {
		uint64_t tcr;
		int hi;
		unsigned gshift;
		int start;
		unsigned top;
		int block_min;
	} c[] = {
		{ TG0_4K | T0SZ(16), 0, 12, 0, 512, 1 },	/* 48 - 12 = 36 bits: 4 levels of 9 */
		{ TG1_4K | T1SZ(25), 1, 12, 1, 512, 1 },	/* 39 bits: 27 = 3 x 9 */
		{ TG1_4K | T1SZ(12) | DS, 1, 12, -1, 16, 0 },	/* 52: 40 = 4 + 4 x 9 */
		{ TG1_16K | T1SZ(17), 1, 14, 1, 2048, 2 },	/* 47 - 14 = 33 = 3 x 11 */
		{ TG0_16K | T0SZ(16), 0, 14, 0, 2, 2 },		/* 48: 34 = 1 + 3 x 11 */
		{ TG1_16K | T1SZ(28), 1, 14, 2, 2048, 2 },	/* 36: 22 = 2 x 11 */
		{ TG1_16K | T1SZ(12) | DS, 1, 14, 0, 32, 1 },	/* 52: 38 = 5 + 3 x 11 */
		{ TG1_64K | T1SZ(16), 1, 16, 1, 64, 2 },	/* 48 - 16 = 32 = 6 + 2 x 13 */
		{ TG1_64K | T1SZ(22), 1, 16, 2, 8192, 2 },	/* 42: 26 = 2 x 13 */
		{ TG1_64K | T1SZ(12) | IPS_52, 1, 16, 1, 1024, 1 },	/* 52: 36 = 10 + 2 x 13 */
		{ 1ULL << 14 | T0SZ(16), 0, 16, 1, 64, 2 },	/* TG0 0b01 is 64K */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct hs_pt_geom g;

		cr_assert_eq(hs_pt_geometry(c[i].tcr, c[i].hi, "test", &g), 0, "case %zu", i);
		cr_assert_eq(g.gshift, c[i].gshift, "case %zu gshift %u", i, g.gshift);
		cr_assert_eq(g.start, c[i].start, "case %zu start %d", i, g.start);
		cr_assert_eq(g.top, c[i].top, "case %zu top %u", i, g.top);
		cr_assert_eq(g.block_min, c[i].block_min, "case %zu block_min %d", i, g.block_min);
	}
}

Test(ptwalk, reserved_granules_and_va_sizes_are_refused)
{
	struct hs_pt_geom g;

	cr_assert_eq(hs_pt_geometry(3ULL << 14 | T0SZ(16), 0, "k", &g), -1);	/* TG0 0b11 */
	cr_assert_eq(hs_pt_geometry(0ULL << 30 | T1SZ(16), 1, "k", &g), -1);	/* TG1 0b00 */
	cr_assert_eq(hs_pt_geometry(TG1_4K | T1SZ(12), 1, "k", &g), -1);	/* 52 bits, no DS */
	cr_assert_eq(hs_pt_geometry(TG1_16K | T1SZ(12), 1, "k", &g), -1);
	cr_assert_eq(hs_pt_geometry(TG0_4K | T0SZ(40), 0, "k", &g), -1);	/* 24 bits */
	cr_assert_eq(hs_pt_geometry(TG1_64K | T1SZ(11), 1, "k", &g), -1);	/* 53 bits */
}

/* The 4K base the replay always had: TTBR[47:12], ASID and CnP dropped. */
Test(ptwalk, four_k_base_is_the_page)
{
	cr_assert_eq(hs_pt_table(TG0_4K | T0SZ(16), 0, 0x0005000041234001ULL), 0x41234000ULL);
	cr_assert_eq(hs_pt_table(TG1_4K | T1SZ(16), 1, 0x0000000041234000ULL), 0x41234000ULL);
	cr_assert_eq(hs_pt_table(3ULL << 14, 0, 0x41234000ULL), 0);	/* reserved TG0 */
}

/*
 * 4K, TTBR0, 48-bit VA: level 0 entries map 2^39, level 1 2^30, level 2
 * 2^21, level 3 2^12. No block at level 0 without DS; blocks at 1 and 2.
 */
Test(ptwalk, four_k_blocks_at_levels_1_and_2)
{
	struct hs_pt_ram r = ram_at(0x40000000);
	uint64_t l0 = 0x40010000, l1 = 0x40011000, l2 = 0x40012000, l3 = 0x40013000;
	struct leaves l;

	put(&r, l0, 0, 0x00000000 | 1);		/* a level-0 block: reserved */
	put(&r, l0, 1, l1 | 3);			/* VA 1 << 39 = 0x80_0000_0000 */
	put(&r, l0, 2, 0x10000000 | 3);		/* a table below RAM: nothing */
	put(&r, l1, 0, 0x80000000 | 0x401);	/* 1 GiB block, AF */
	put(&r, l1, 1, l2 | 3);			/* VA 0x80_4000_0000 */
	put(&r, l2, 3, 0x40600000 | 1);		/* 2 MiB: VA + 3 << 21 = 0x80_4060_0000 */
	put(&r, l2, 4, l3 | 3);			/* VA 0x80_4080_0000 */
	put(&r, l3, 0x1ff, 0x0040000040014000ULL | 0x403);	/* UXN, AF: VA + 0x1ff000 */
	put(&r, l3, 0x1fe, 0x40015000 | 1);	/* 0b01 at level 3: reserved */
	l = walk(TG0_4K | T0SZ(16), 0, &r, l0 | 1ULL << 48);
	cr_assert_eq(l.n, 3);
	expect(&l, 0, 0x8000000000ULL, 0x80000000ULL, 1ULL << 30);
	expect(&l, 1, 0x8040600000ULL, 0x40600000ULL, 1ULL << 21);
	expect(&l, 2, 0x80409ff000ULL, 0x40014000ULL, 1ULL << 12);
	/* inside the 1 GiB block, the 2 MiB block and the page; the reserved
	 * level-0 block, the reserved level-3 entry, and a hole */
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x8012345678ULL, 0x92345678ULL, 1ULL << 30);
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x80406abcdeULL, 0x406abcdeULL, 1ULL << 21);
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x80409ff123ULL, 0x40014123ULL, 1ULL << 12);
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x1000, 0, 0);
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x80409fe000ULL, 0, 0);
	xlate(TG0_4K | T0SZ(16), 0, &r, l0, 0x1000000000000ULL, 0, 0);	/* bit 48: outside the half */
	free((void *)r.bytes);
}

/*
 * 16K, TTBR1, 47-bit VA (Debian's arm64-16k kernel on a CPU without
 * LPA2): start level 1, 2048 entries of 2^36; level 2 2^25 (32 MiB
 * blocks, the only legal ones), level 3 2^14. The half starts at
 * ~0 << 47 = 0xffff8000_00000000, so L1[1024] is 0xffffc000_00000000.
 */
Test(ptwalk, sixteen_k_kernel_half)
{
	struct hs_pt_ram r = ram_at(0x40000000);
	uint64_t l1 = 0x40000000, l2 = 0x40004000, l3 = 0x40008000;
	struct leaves l;

	put(&r, l1, 1, 0x1000000000ULL | 1);		/* a level-1 block: not without DS */
	put(&r, l1, 1024, l2 | 3 | 1ULL << 59);	/* PXNTable */
	put(&r, l2, 4, 0x48000000 | 0x401);		/* 4 << 25: 0xffffc000_08000000 */
	put(&r, l2, 5, l3 | 3);				/* 0xffffc000_0a000000 */
	put(&r, l3, 0, 0x4000c000 | 0xc03);		/* nG, AF */
	put(&r, l3, 1, 0x40014000 | 1);			/* reserved at level 3 */
	put(&r, l3, 2047, 0x40010000 | 3);		/* + 2047 << 14 = + 0x1ffc000 */
	l = walk(TG1_16K | T1SZ(17), 1, &r, l1 | 5ULL << 48 | 1);
	cr_assert_eq(l.n, 3);
	expect(&l, 0, 0xffffc00008000000ULL, 0x48000000ULL, 1ULL << 25);
	expect(&l, 1, 0xffffc0000a000000ULL, 0x4000c000ULL, 1ULL << 14);
	expect(&l, 2, 0xffffc0000bffc000ULL, 0x40010000ULL, 1ULL << 14);
	xlate(TG1_16K | T1SZ(17), 1, &r, l1, 0xffffc0000a001234ULL, 0x4000d234ULL, 1ULL << 14);
	xlate(TG1_16K | T1SZ(17), 1, &r, l1, 0xffffc00009ffffffULL, 0x49ffffffULL, 1ULL << 25);
	xlate(TG1_16K | T1SZ(17), 1, &r, l1, 0xffff801000000000ULL, 0, 0);	/* L1[1]: no block */
	xlate(TG1_16K | T1SZ(17), 1, &r, l1, 0xffff7fffffffffffULL, 0, 0);	/* below the half */
	free((void *)r.bytes);
}

/*
 * 16K, TTBR0, 48-bit VA: level 0 has 2 entries (16 bytes), a PGD Linux
 * allocates 16-byte aligned from its pgd_cache - two processes' tables in
 * one 4K page are two tables. No block at level 0.
 */
Test(ptwalk, sixteen_k_user_half_small_pgd)
{
	struct hs_pt_ram r = ram_at(0x40000000);
	uint64_t l0 = 0x40020010, l1 = 0x40024000, l2 = 0x40028000, l3 = 0x4002c000;
	struct leaves l;

	cr_assert_eq(hs_pt_table(TG0_16K | T0SZ(16), 0, l0 | 7ULL << 48), 0x40020010ULL);
	cr_assert_eq(hs_pt_table(TG0_16K | T0SZ(16), 0, 0x40020020 | 7ULL << 48), 0x40020020ULL);
	put(&r, l0, 0, l1 | 3);
	put(&r, l0, 1, 0x40000000 | 1);		/* a level-0 block: reserved */
	put(&r, l1, 0, l2 | 3);
	put(&r, l2, 0, l3 | 3);
	put(&r, l3, 3, 0x40030000 | 0x443);	/* AP[1] (EL0), AF: VA 3 << 14 */
	l = walk(TG0_16K | T0SZ(16), 0, &r, l0 | 7ULL << 48);
	cr_assert_eq(l.n, 1);
	expect(&l, 0, 0xc000, 0x40030000ULL, 1ULL << 14);
	free((void *)r.bytes);
}

/*
 * 64K, TTBR1, 48-bit VA: start level 1, 64 entries of 2^42; level 2 2^29
 * (512 MiB blocks), level 3 2^16. The table sits 0x1e00 into its page, as
 * a 52-bit-VA kernel's offset TTBR1 on a 48-bit CPU ((1024 - 64) * 8):
 * 512-byte aligned, the table's size. L1[63] is 0xffff0000_00000000 +
 * 63 << 42 = 0xfffffc00_00000000.
 */
Test(ptwalk, sixty_four_k_kernel_half)
{
	struct hs_pt_ram r = ram_at(0x40000000);
	uint64_t l1 = 0x40041e00, l2 = 0x40050000, l3 = 0x40060000;
	struct leaves l;

	put(&r, l1, 0, 0x40000000000ULL | 1);	/* a level-1 block: only with 52-bit PA */
	put(&r, l1, 63, l2 | 3);
	put(&r, l2, 1, 0x60000000 | 0x401);	/* + 1 << 29 = 0xfffffc00_20000000 */
	put(&r, l2, 2, l3 | 3);			/* 0xfffffc00_40000000 */
	put(&r, l3, 8191, 0x40070000 | 0x403);	/* + 8191 << 16 = + 0x1fff0000 */
	l = walk(TG1_64K | T1SZ(16), 1, &r, l1);
	cr_assert_eq(l.n, 2);
	expect(&l, 0, 0xfffffc0020000000ULL, 0x60000000ULL, 1ULL << 29);
	expect(&l, 1, 0xfffffc005fff0000ULL, 0x40070000ULL, 1ULL << 16);
	xlate(TG1_64K | T1SZ(16), 1, &r, l1, 0xfffffc005fffabcdULL, 0x4007abcdULL, 1ULL << 16);
	xlate(TG1_64K | T1SZ(16), 1, &r, l1, 0xfffffc0021234567ULL, 0x61234567ULL, 1ULL << 29);
	free((void *)r.bytes);
}

/*
 * 64K with 52-bit VA (LVA, T1SZ 12) and PA (LPA, IPS 0b110): RAM at
 * 0xa_0000_0000_0000, above 48 bits, so every table address is split:
 * PA[47:16] in place, PA[51:48] in descriptor bits [15:12], and the
 * TTBR's BADDR[51:48] in its bits [5:2] (0xa << 2 = 0x28). Level 1 has
 * 1024 entries of 2^42 from 0xfff00000_00000000 and holds 4 TiB blocks.
 */
Test(ptwalk, sixty_four_k_52_bit)
{
	uint64_t base = 0x000a000000000000ULL;
	struct hs_pt_ram r = ram_at(base);
	uint64_t l1 = base, l2 = base + 0x10000, l3 = base + 0x20000;
	struct leaves l;

	cr_assert_eq(hs_pt_table(TG1_64K | T1SZ(12) | IPS_52, 1, 0x0001000000000028ULL), base);
	/* L1[1]: a block at 0xb_0400_0000_0000 (4 TiB aligned): [47:16] =
	 * 0x0400_0000_0000, [15:12] = 0xb; VA 0xfff00400_00000000 */
	put(&r, l1, 1, 0x040000000000ULL | 0xb000 | 1);
	put(&r, l1, 512, 0x10000 | 0xa000 | 3);		/* l2; VA + 512 << 42 = 0xfff80000_00000000 */
	put(&r, l2, 3, 0x20000 | 0xa000 | 3);		/* l3; + 3 << 29 = 0xfff80000_60000000 */
	/* L3[5]: the page at 0xc_1234_5678_0000; VA + 5 << 16 */
	put(&r, l3, 5, 0x123456780000ULL | 0xc000 | 0x403);
	l = walk(TG1_64K | T1SZ(12) | IPS_52, 1, &r, 0x0001000000000028ULL);
	cr_assert_eq(l.n, 2);
	expect(&l, 0, 0xfff0040000000000ULL, 0x000b040000000000ULL, 1ULL << 42);
	expect(&l, 1, 0xfff8000060050000ULL, 0x000c123456780000ULL, 1ULL << 16);
	xlate(TG1_64K | T1SZ(12) | IPS_52, 1, &r, 0x0001000000000028ULL, 0xfff800006005fedcULL,
	      0x000c12345678fedcULL, 1ULL << 16);
	xlate(TG1_64K | T1SZ(12) | IPS_52, 1, &r, 0x0001000000000028ULL, 0xfff0041234567890ULL,
	      0x000b041234567890ULL, 1ULL << 42);
	free((void *)r.bytes);
}

/*
 * 4K with DS (LPA2), 52-bit VA: start level -1 with 16 entries of 2^48
 * (128 bytes, 64-byte aligned at least); level 0 entries of 2^39 are
 * blocks now. RAM at 0xd_0000_0000_0000: PA[49:48] stay in place (01),
 * PA[51:50] (11) go to bits [9:8]; the TTBR has BADDR[51:48] = 0xd in
 * bits [5:2] (0x34). L(-1)[15] is 0xfff00000_00000000 + 15 << 48 =
 * 0xffff0000_00000000.
 */
Test(ptwalk, four_k_lpa2_52_bit)
{
	uint64_t base = 0x000d000000000000ULL, hi = 0x0001000000000000ULL | 0x300;
	struct hs_pt_ram r = ram_at(base);
	uint64_t lm1 = base, l0 = base + 0x1000, l1 = base + 0x2000, l2 = base + 0x3000, l3 = base + 0x4000;
	struct leaves l;

	cr_assert_eq(hs_pt_table(TG1_4K | T1SZ(12) | DS, 1, 0x34), base);
	put(&r, lm1, 15, hi | 0x1000 | 3);	/* l0 */
	put(&r, l0, 0, hi | 0x2000 | 3);	/* l1 */
	/* L0[1]: a 512 GiB block at 0x2_0080_0000_0000 (bit 49 in place,
	 * [51:50] zero); VA 0xffff0000_00000000 + 1 << 39 */
	put(&r, l0, 1, 0x0002008000000000ULL | 1);
	put(&r, l1, 2, hi | 0x3000 | 3);	/* l2; VA + 2 << 30 = 0xffff0000_80000000 */
	put(&r, l2, 0, hi | 0x4000 | 3);	/* l3 */
	/* L3[1]: the page at 0xc_0000_0000_5000: [51:50] = 11 in [9:8], AF */
	put(&r, l3, 1, 0x5000 | 0x300 | 0x400 | 3);
	l = walk(TG1_4K | T1SZ(12) | DS, 1, &r, 0x34);
	cr_assert_eq(l.n, 2);
	expect(&l, 0, 0xffff000080001000ULL, 0x000c000000005000ULL, 1ULL << 12);
	expect(&l, 1, 0xffff008000000000ULL, 0x0002008000000000ULL, 1ULL << 39);
	xlate(TG1_4K | T1SZ(12) | DS, 1, &r, 0x34, 0xffff000080001abcULL, 0x000c000000005abcULL, 1ULL << 12);
	xlate(TG1_4K | T1SZ(12) | DS, 1, &r, 0x34, 0xffff0080deadbeefULL, 0x00020080deadbeefULL, 1ULL << 39);
	free((void *)r.bytes);
}
