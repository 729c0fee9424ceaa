/*
 * cache.h - set-associative LRU caches and TLBs, and the memory hierarchy a
 * core model owns (L1I, L1D, L2, optional L3; micro I/D TLBs and a main TLB).
 *
 * A cache is a tag array: nsets x assoc entries of "block number + 1" (0 is
 * an invalid way) with a use stamp for true LRU. The same structure serves
 * TLBs (block = page). All storage is allocated when the geometry is set;
 * lookups never allocate.
 */
#ifndef HOTSIM_MODELS_CACHE_H
#define HOTSIM_MODELS_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct hs_cache {
	uint64_t *tag;		/* nsets * assoc: block + 1, 0 = invalid */
	uint64_t *use;		/* LRU stamps, same shape */
	uint64_t clock;
	uint64_t last;		/* block + 1 of the last access: a hit without a scan */
	unsigned nsets, assoc, shift;
	/* where a block was last seen in its set, by the block's low bits: a
	 * hit is one compare, not a scan of the ways (a micro-TLB has up to 48,
	 * one set) - a guess checked against the tag, so never wrong */
	uint16_t *hint;
	uint64_t hmask;
	uint64_t hits, misses;	/* since the last flush */
};

/*
 * entries blocks of 2^shift bytes, assoc ways (entries/assoc sets, a power of
 * two). entries == 0 makes an absent cache (every access misses, nothing is
 * stored). -1 with hs_errmsg() naming what on a bad geometry.
 */
int hs_cache_init(struct hs_cache *c, const char *what, uint64_t entries, unsigned assoc,
		  unsigned shift);
void hs_cache_free(struct hs_cache *c);
void hs_cache_flush(struct hs_cache *c);

/* The ways of blk's set scanned: a hit elsewhere than the hint, or a miss
 * that fills the LRU way (cache.c). 1 hit, 0 miss. */
int hs_cache_scan(struct hs_cache *c, uint64_t blk, uint64_t *tag, uint64_t *use, uint16_t *hint);

/* Is blk (block number + 1) a hit found without a scan: the block touched
 * last, or the way its hint names? Reads only; *at says where (SIZE_MAX:
 * the last block) for hs_cache_take(). Absent caches never hit. */
static inline int hs_cache_quick(const struct hs_cache *c, uint64_t blk, size_t *at)
{
	if (!c->nsets)
		return 0;
	if (blk == c->last) {
		*at = SIZE_MAX;
		return 1;
	}
	*at = (size_t)((blk - 1) & (c->nsets - 1)) * c->assoc + c->hint[blk & c->hmask];
	return c->tag[*at] == blk;
}

/* The hit hs_cache_quick() found: the last block is the most recently used
 * already; any other becomes it. */
static inline void hs_cache_take(struct hs_cache *c, uint64_t blk, size_t at)
{
	c->hits++;
	if (at == SIZE_MAX)
		return;
	c->last = blk;
	c->use[at] = ++c->clock;
}

/* Look addr up; on a miss the block is filled (LRU victim). 1 hit, 0 miss.
 * Inline to the hint's hit; the scan is cache.c's. */
static inline int hs_cache_access(struct hs_cache *c, uint64_t addr)
{
	uint64_t blk = (addr >> c->shift) + 1;
	uint64_t *tag, *use;
	size_t at;

	if (!c->nsets) {
		c->misses++;
		return 0;
	}
	if (hs_cache_quick(c, blk, &at)) {
		hs_cache_take(c, blk, at);
		return 1;
	}
	tag = c->tag + (size_t)((blk - 1) & (c->nsets - 1)) * c->assoc;
	use = c->use + (tag - c->tag);
	c->last = blk;
	c->clock++;
	return hs_cache_scan(c, blk, tag, use, &c->hint[blk & c->hmask]);
}

/* Is addr's block present (no state change)? */
int hs_cache_present(const struct hs_cache *c, uint64_t addr);
/* addr's block no longer held (an invalid way, the set's next victim) */
void hs_cache_invalidate(struct hs_cache *c, uint64_t addr);

/* Geometry of a memory hierarchy, in bytes / ways / cycles. */
struct hs_memcfg {
	unsigned line, page;
	uint64_t l1i_size, l1d_size, l2_size, l3_size;
	unsigned l1i_assoc, l1d_assoc, l2_assoc, l3_assoc;
	unsigned l2_lat, l3_lat, mem_lat;
	unsigned itlb, dtlb, tlb, tlb_assoc, tlb_lat, walk_lat;
	unsigned iprefetch;
	unsigned shared_level;	/* the first level the cores share: 2 or 3 */
	unsigned peer_lat;	/* a line another core holds dirty, handed over
				 * through the shared level's snoop (0: the
				 * shared level's own latency) */
};

struct hs_memsys {
	struct hs_cache l1i, l1d, l2, l3, itlb, dtlb, tlb;
	struct hs_memcfg cfg;
	uint64_t peer_line;	/* the line hs_mem_remote said another core wrote,
				 * until this core's next data access to it
				 * (NO_PEER: none) */
};

#define NO_PEER UINT64_MAX

/* Where an access was served: a level, or another core's cache (a line it
 * wrote, handed over: hs_mem_remote). */
enum hs_level { HS_LV_L1, HS_LV_L2, HS_LV_L3, HS_LV_MEM, HS_LV_PEER, HS_NLEVELS };

int hs_mem_init(struct hs_memsys *ms, const struct hs_memcfg *cfg);
void hs_mem_free(struct hs_memsys *ms);
void hs_mem_flush(struct hs_memsys *ms);

/*
 * Cycles beyond an L1 hit to get addr's line into L1 (I or D side): 0 on an
 * L1 hit, else the latency of the level that had it; fills every level on
 * the way. *level says which level served it.
 */
uint32_t hs_mem_line(struct hs_memsys *ms, uint64_t addr, int iside, enum hs_level *level);

/*
 * addr's line was written by another core since this one held it (a
 * record flagged HS_T_REMOTE): this core's private copies are stale -
 * invalidated in L1D, and in L2 where the L2 is the core's own - and the
 * writer's copy is found through the shared level's snoop: this core's
 * next data access to the line is served from the other core (HS_LV_PEER)
 * in peer_lat cycles, and fills the levels on the way.
 */
void hs_mem_remote(struct hs_memsys *ms, uint64_t addr);

/* Cycles beyond a micro-TLB hit to translate addr (main TLB, walk); *miss is
 * 1 for a main-TLB miss (a walk), 2 for a micro-TLB miss only. */
uint32_t hs_mem_translate(struct hs_memsys *ms, uint64_t addr, int iside, int *miss);

/* A data access of size bytes at addr that hits the micro-TLB and L1 on
 * one line without a scan: taken (1), as hs_mem_translate and hs_mem_line
 * would; else nothing changed (0) and the caller takes the whole way. Most
 * accesses: inline, no call. */
static inline int hs_mem_data_quick(struct hs_memsys *ms, uint64_t addr, unsigned size)
{
	uint64_t page = (addr >> ms->dtlb.shift) + 1, line = (addr >> ms->l1d.shift) + 1;
	size_t pat, lat;

	if (((addr ^ (addr + size - 1)) >> ms->l1d.shift) || !hs_cache_quick(&ms->dtlb, page, &pat) ||
	    !hs_cache_quick(&ms->l1d, line, &lat))
		return 0;
	hs_cache_take(&ms->dtlb, page, pat);
	hs_cache_take(&ms->l1d, line, lat);
	return 1;
}

#endif
