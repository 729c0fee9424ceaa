/*
 * ptwalk.h - the VMSAv8-64 stage 1 translation-table walk the booted
 * replay maps a snapshot's memory by: the geometry TCR_EL1 gives one half
 * of the address space (granule, start level, block levels, 52-bit
 * addresses) and a walk over tables in a RAM image that reports every
 * valid leaf. Pure: no runner, no Unicorn; backend_booted.c calls it and
 * the unit tests run it over hand-built tables.
 */
#ifndef HOTSIM_EMU_PTWALK_H
#define HOTSIM_EMU_PTWALK_H

#include <stddef.h>
#include <stdint.h>

struct hs_pt_geom {
	unsigned gshift;	/* the granule's page shift: 12 (4K), 14 (16K), 16 (64K) */
	unsigned stride;	/* VA bits one table level resolves: gshift - 3 */
	unsigned va_bits;	/* 64 - TxSZ */
	int start;		/* the start level: -1 (4K, 52-bit VA) .. 3 */
	unsigned top;		/* entries of the start level's table */
	int block_min;		/* the shallowest level with block descriptors */
	int ds;			/* TCR_EL1.DS (FEAT_LPA2), 4K and 16K only */
	int pa52;		/* 52-bit output addresses: DS, or 64K with IPS 52 bits */
};

/* The geometry of TTBR1 (hi) or TTBR0 under tcr; -1 (hs_fail, naming
 * what) for a reserved granule encoding or a VA size it cannot have. */
int hs_pt_geometry(uint64_t tcr, int hi, const char *what, struct hs_pt_geom *g);

/* The start-level table of ttbr under tcr, 0 when tcr is not walkable. */
uint64_t hs_pt_table(uint64_t tcr, int hi, uint64_t ttbr);

/* Guest RAM: the host bytes of [base, base + size). */
struct hs_pt_ram {
	const uint8_t *bytes;
	uint64_t base, size;
};

/* Table descriptors' attributes that bind every leaf below them (Arm ARM
 * D8.3.1): UXNTable, PXNTable, APTable */
#define HS_PT_TABLE_ATTRS (0xfULL << 59)

/* One valid leaf: va..va+len maps pa..pa+len (a page or a block), by
 * descriptor desc under the tables' attributes tattr (HS_PT_TABLE_ATTRS
 * of every table descriptor above it). A nonzero return stops the walk
 * and is its result. */
typedef int (*hs_pt_leaf_fn)(void *ctx, uint64_t va, uint64_t pa, uint64_t len, uint64_t desc,
			     uint64_t tattr);

/* Every valid leaf of ttbr's tables in ascending VA order; a table
 * outside RAM maps nothing. 0, or the first nonzero leaf result. */
int hs_pt_walk(const struct hs_pt_geom *g, const struct hs_pt_ram *ram, uint64_t ttbr, int hi,
	       hs_pt_leaf_fn leaf, void *ctx);

/* One address's walk: where it ended, as a fault handler needs it. */
struct hs_pt_xlat {
	int valid;		/* a leaf maps va */
	int level;		/* the level the walk ended at: the fault's, when !valid */
	uint64_t desc_at;	/* the last descriptor read: its physical address (0: none) */
	uint64_t desc, tattr;	/* that descriptor, the table attributes above it */
	uint64_t pa, len;	/* valid: va's physical address, the leaf's size */
};

/* The leaf that maps va in ttbr's tables: 1 (x->valid), or 0 when nothing
 * does (an invalid entry, a table outside RAM, va outside the half: level
 * the start level). Tags are the caller's: va is as translated. */
int hs_pt_translate(const struct hs_pt_geom *g, const struct hs_pt_ram *ram, uint64_t ttbr, int hi,
		    uint64_t va, struct hs_pt_xlat *x);

#endif
