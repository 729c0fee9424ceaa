/*
 * cache.c - set-associative LRU caches, TLBs and the memory hierarchy of a
 * core model (see cache.h), plus the model's data-side access helper.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "model_internal.h"

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int hs_cache_init(struct hs_cache *c, const char *what, uint64_t entries, unsigned assoc,
		  unsigned shift)
{
	uint64_t n;

	hs_cache_free(c);
	c->shift = shift;
	if (!entries)
		return 0;		/* absent: nsets == 0, every access misses */
	if (!assoc || entries % assoc || !is_pow2(entries / assoc) || entries > (1u << 24))
		return hs_fail("%s: %llu entries in %u ways is not a power-of-two number of sets",
			       what, (unsigned long long)entries, assoc);
	n = entries;
	/* two hints per entry, a power of two */
	for (c->hmask = 1; c->hmask < 2 * n; c->hmask <<= 1)
		;
	c->tag = hs_calloc(n, sizeof(*c->tag));
	c->use = hs_calloc(n, sizeof(*c->use));
	c->hint = hs_calloc(c->hmask, sizeof(*c->hint));
	c->hmask--;
	if (!c->tag || !c->use || !c->hint || assoc > 65535) {
		hs_cache_free(c);
		return assoc > 65535 ? hs_fail("%s: %u ways is more than 65535", what, assoc) : -1;
	}
	c->assoc = assoc;
	c->nsets = (unsigned)(entries / assoc);
	return 0;
}

void hs_cache_free(struct hs_cache *c)
{
	free(c->tag);
	free(c->use);
	free(c->hint);
	memset(c, 0, sizeof(*c));
}

void hs_cache_flush(struct hs_cache *c)
{
	if (c->nsets) {
		memset(c->tag, 0, (size_t)c->nsets * c->assoc * sizeof(*c->tag));
		memset(c->use, 0, (size_t)c->nsets * c->assoc * sizeof(*c->use));
	}
	c->clock = 0;
	c->last = 0;
	c->hits = c->misses = 0;
}

int hs_cache_scan(struct hs_cache *c, uint64_t blk, uint64_t *tag, uint64_t *use, uint16_t *hint)
{
	unsigned victim = 0;

	/* a hit needs only the tags */
	for (unsigned w = 0; w < c->assoc; w++)
		if (tag[w] == blk) {
			use[w] = c->clock;
			*hint = (uint16_t)w;
			c->hits++;
			return 1;
		}
	/* the least recently used way; invalid ways have use 0, so they are
	 * taken first (the lowest such) */
	for (unsigned w = 1; w < c->assoc; w++)
		if (use[w] < use[victim])
			victim = w;
	tag[victim] = blk;
	use[victim] = c->clock;
	*hint = (uint16_t)victim;
	c->misses++;
	return 0;
}

int hs_cache_present(const struct hs_cache *c, uint64_t addr)
{
	uint64_t blk = (addr >> c->shift) + 1;
	const uint64_t *tag;

	if (!c->nsets)
		return 0;
	tag = c->tag + (size_t)((blk - 1) & (c->nsets - 1)) * c->assoc;
	for (unsigned w = 0; w < c->assoc; w++)
		if (tag[w] == blk)
			return 1;
	return 0;
}

void hs_cache_invalidate(struct hs_cache *c, uint64_t addr)
{
	uint64_t blk = (addr >> c->shift) + 1;
	size_t set;

	if (!c->nsets)
		return;
	set = (size_t)((blk - 1) & (c->nsets - 1)) * c->assoc;
	for (unsigned w = 0; w < c->assoc; w++)
		if (c->tag[set + w] == blk)
			c->tag[set + w] = c->use[set + w] = 0;	/* the next victim */
	if (c->last == blk)
		c->last = 0;
}

static unsigned log2u(uint64_t v)
{
	unsigned s = 0;

	while ((1ULL << s) < v)
		s++;
	return s;
}

int hs_mem_init(struct hs_memsys *ms, const struct hs_memcfg *cfg)
{
	unsigned ls, ps;

	hs_mem_free(ms);
	ms->peer_line = NO_PEER;
	if (!is_pow2(cfg->line) || cfg->line < 16 || !is_pow2(cfg->page) || cfg->page < 4096)
		return hs_fail("line_bytes and page_bytes must be powers of two (>= 16, >= 4096)");
	ms->cfg = *cfg;
	ls = log2u(cfg->line);
	ps = log2u(cfg->page);
	if (hs_cache_init(&ms->l1i, "l1i", cfg->l1i_size / cfg->line, cfg->l1i_assoc, ls) ||
	    hs_cache_init(&ms->l1d, "l1d", cfg->l1d_size / cfg->line, cfg->l1d_assoc, ls) ||
	    hs_cache_init(&ms->l2, "l2", cfg->l2_size / cfg->line, cfg->l2_assoc, ls) ||
	    hs_cache_init(&ms->l3, "l3", cfg->l3_size / cfg->line, cfg->l3_assoc, ls) ||
	    /* micro TLBs are fully associative: one set */
	    hs_cache_init(&ms->itlb, "itlb", cfg->itlb, cfg->itlb, ps) ||
	    hs_cache_init(&ms->dtlb, "dtlb", cfg->dtlb, cfg->dtlb, ps) ||
	    hs_cache_init(&ms->tlb, "tlb", cfg->tlb, cfg->tlb_assoc, ps)) {
		hs_mem_free(ms);
		return -1;
	}
	return 0;
}

void hs_mem_free(struct hs_memsys *ms)
{
	hs_cache_free(&ms->l1i);
	hs_cache_free(&ms->l1d);
	hs_cache_free(&ms->l2);
	hs_cache_free(&ms->l3);
	hs_cache_free(&ms->itlb);
	hs_cache_free(&ms->dtlb);
	hs_cache_free(&ms->tlb);
}

void hs_mem_flush(struct hs_memsys *ms)
{
	hs_cache_flush(&ms->l1i);
	hs_cache_flush(&ms->l1d);
	hs_cache_flush(&ms->l2);
	hs_cache_flush(&ms->l3);
	hs_cache_flush(&ms->itlb);
	hs_cache_flush(&ms->dtlb);
	hs_cache_flush(&ms->tlb);
	ms->peer_line = NO_PEER;
}

/* Below L1: L2, then L3 when configured, then memory. Each level is filled. */
static uint32_t below_l1(struct hs_memsys *ms, uint64_t addr, enum hs_level *level)
{
	if (hs_cache_access(&ms->l2, addr)) {
		*level = HS_LV_L2;
		return ms->cfg.l2_lat;
	}
	if (ms->l3.nsets && hs_cache_access(&ms->l3, addr)) {
		*level = HS_LV_L3;
		return ms->cfg.l2_lat + ms->cfg.l3_lat;
	}
	*level = HS_LV_MEM;
	return ms->cfg.l2_lat + (ms->l3.nsets ? ms->cfg.l3_lat : 0) + ms->cfg.mem_lat;
}

uint32_t hs_mem_line(struct hs_memsys *ms, uint64_t addr, int iside, enum hs_level *level)
{
	struct hs_cache *l1 = iside ? &ms->l1i : &ms->l1d;
	uint32_t lat;

	*level = HS_LV_L1;
	if (hs_cache_access(l1, addr))
		return 0;
	lat = below_l1(ms, addr, level);
	/* the handover of a line another core wrote: the shared level's lookup,
	 * then the snoop that takes the writer's copy (hs_mem_remote) */
	if (!iside && addr >> ms->l1d.shift == ms->peer_line) {
		ms->peer_line = NO_PEER;
		if (ms->cfg.peer_lat > lat)
			lat = ms->cfg.peer_lat;
		*level = HS_LV_PEER;
	}
	/* Sequential instruction prefetch (TRM53 IFU "instruction prefetches"):
	 * the next lines come in behind the demand miss, in its shadow. */
	if (iside)
		for (unsigned k = 1; k <= ms->cfg.iprefetch; k++) {
			uint64_t a = addr + (uint64_t)k * ms->cfg.line;
			enum hs_level lv;

			if (!hs_cache_present(l1, a)) {
				below_l1(ms, a, &lv);
				hs_cache_access(l1, a);
			}
		}
	if (iside)
		ms->l1i.last = 0;	/* the prefetch fills moved the MRU block */
	return lat;
}

void hs_mem_remote(struct hs_memsys *ms, uint64_t addr)
{
	ms->peer_line = addr >> ms->l1d.shift;
	hs_cache_invalidate(&ms->l1d, addr);
	if (ms->cfg.shared_level == 3) {
		hs_cache_invalidate(&ms->l2, addr);
		hs_cache_access(&ms->l3, addr);
	} else {
		hs_cache_access(&ms->l2, addr);
	}
}

uint32_t hs_mem_translate(struct hs_memsys *ms, uint64_t addr, int iside, int *miss)
{
	struct hs_cache *micro = iside ? &ms->itlb : &ms->dtlb;

	*miss = 0;
	if (hs_cache_access(micro, addr))
		return 0;
	if (hs_cache_access(&ms->tlb, addr)) {
		*miss = 2;
		return ms->cfg.tlb_lat;
	}
	*miss = 1;
	return ms->cfg.tlb_lat + ms->cfg.walk_lat;
}

int hs_level_uncal_of(const struct hs_model *m, enum hs_level lv, int tlb_miss)
{
	int u = 0;

	if (tlb_miss)
		u |= !m->p[HS_P_TLB_LATENCY].calibrated || (tlb_miss == 1 && !m->p[HS_P_WALK_LATENCY].calibrated);
	if (lv == HS_LV_PEER)
		return u | !m->p[HS_P_PEER_LATENCY].calibrated;
	if (lv >= HS_LV_L2)
		u |= !m->p[HS_P_L2_LATENCY].calibrated;
	if (lv >= HS_LV_L3 && m->mem.l3.nsets)
		u |= !m->p[HS_P_L3_LATENCY].calibrated;
	if (lv == HS_LV_MEM)
		u |= !m->p[HS_P_MEM_LATENCY].calibrated;
	return u;
}

void hs_data_access(struct hs_model *m, uint64_t addr, unsigned size, uint16_t *events,
		    struct hs_model_result *res, struct hs_mem *out)
{
	struct hs_memsys *ms = &m->mem;
	uint32_t extra = 0, t;
	enum hs_level lv;
	int miss;

	/* stores allocate like loads (write-allocate; A): no write flag */
	out->cause = HS_ST_DCACHE;
	out->uncal = 0;
	t = hs_mem_translate(ms, addr, 0, &miss);
	if (miss) {
		extra += t;
		out->cause = HS_ST_TLB;
		if (miss == 1) {
			*events |= HS_EV_TLB_MISS;
			res->tlb_misses++;
		}
	}
	t = hs_mem_line(ms, addr, 0, &lv);
	if (size > 1 && ((addr ^ (addr + size - 1)) >> ms->l1d.shift)) {
		enum hs_level lv2;
		uint32_t t2 = hs_mem_line(ms, addr + size - 1, 0, &lv2);

		if (t2 > t) {
			t = t2;
			lv = lv2;
		}
	}
	out->uncal = hs_level_uncal(m, lv, miss);
	if (lv != HS_LV_L1) {
		extra += t;
		out->cause = HS_ST_DCACHE;
		*events |= HS_EV_DCACHE_MISS;
		res->dcache_misses++;
		if (lv != HS_LV_L2 && lv != HS_LV_PEER) {
			*events |= HS_EV_L2_MISS;
			res->l2_misses++;
		}
	}
	out->extra = extra;
}
