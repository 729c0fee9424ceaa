/*
 * bpred.c - conditional predictor, BTIC, BTAC and return stack (bpred.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bpred.h"
#include "hotsim/err.h"

int hs_bp_init(struct hs_bpred *bp, unsigned nctr, unsigned hist, unsigned nbtac,
	       unsigned nbtic, unsigned ras_depth)
{
	hs_bp_free(bp);
	if (!nctr || (nctr & (nctr - 1)) || nctr > (1u << 24))
		return hs_fail("bp_entries must be a power of two (got %u)", nctr);
	if (hist > 30)
		return hs_fail("bp_history must be at most 30 bits (got %u)", hist);
	if (nbtac % 4 || nbtac > (1u << 20) || ((nbtac / 4) & (nbtac / 4 - 1)))
		return hs_fail("btac_entries must be 4 x a power of two, or 0 (got %u)", nbtac);
	if (nbtic > HS_BTIC_MAX)
		return hs_fail("btic_entries must be at most %d (got %u)", HS_BTIC_MAX, nbtic);
	if (ras_depth > HS_RAS_MAX)
		return hs_fail("ras_depth must be at most %d (got %u)", HS_RAS_MAX, ras_depth);
	bp->ctr = hs_malloc(nctr);
	bp->tab = hs_calloc(nctr < 4 ? 4 : nctr, sizeof(*bp->tab));
	if (!bp->ctr || !bp->tab) {
		hs_bp_free(bp);
		return -1;
	}
	if (nbtac) {
		bp->btac = hs_calloc(nbtac, sizeof(*bp->btac));
		if (!bp->btac) {
			hs_bp_free(bp);
			return -1;
		}
	}
	bp->nctr = nctr;
	bp->hist = hist;
	bp->nbtac = nbtac;
	bp->nbtic = nbtic;
	bp->ras_depth = ras_depth;
	hs_bp_flush(bp);
	return 0;
}

void hs_bp_free(struct hs_bpred *bp)
{
	free(bp->ctr);
	free(bp->tab);
	free(bp->btac);
	memset(bp, 0, sizeof(*bp));
}

void hs_bp_flush(struct hs_bpred *bp)
{
	/* counters start weakly not-taken: a cold loop branch mispredicts until
	 * trained, a cold forward branch that is not taken does not */
	if (bp->ctr)
		memset(bp->ctr, 1, bp->nctr);
	if (bp->tab)
		memset(bp->tab, 0, (bp->nctr < 4 ? 4 : bp->nctr) * sizeof(*bp->tab));
	bp->tab_clock = 0;
	if (bp->btac)
		memset(bp->btac, 0, bp->nbtac * sizeof(*bp->btac));
	bp->ghr = 0;
	bp->btac_clock = 0;
	memset(bp->btic, 0, sizeof(bp->btic));
	bp->ras_n = bp->ras_top = 0;
}

int hs_bp_cond(struct hs_bpred *bp, uint64_t pc, int taken)
{
	uint32_t hmask = bp->hist ? (uint32_t)((1u << bp->hist) - 1) : 0;
	uint32_t h = bp->ghr & hmask;
	uint64_t key = ((pc >> 2) << bp->hist | h) + 1;
	unsigned nsets = (bp->nctr < 4 ? 4 : bp->nctr) / 4;
	struct hs_bp_ent *set = &bp->tab[(size_t)(((pc >> 2) ^ h ^ (h << 7)) & (nsets - 1)) * 4];
	struct hs_bp_ent *e = NULL, *victim = set;
	uint8_t *base = &bp->ctr[(pc >> 2) & (bp->nctr - 1)];
	int pred;

	for (unsigned w = 0; w < 4; w++) {
		if (set[w].key == key)
			e = &set[w];
		else if (set[w].use < victim->use)
			victim = &set[w];
	}
	pred = e ? e->ctr >= 2 : *base >= 2;
	bp->tab_clock++;
	if (e) {
		if (taken && e->ctr < 3)
			e->ctr++;
		else if (!taken && e->ctr > 0)
			e->ctr--;
		e->use = bp->tab_clock;
	} else if (pred != !!taken) {
		/* the bimodal guess failed in this context: remember it */
		victim->key = key;
		victim->ctr = taken ? 2 : 1;
		victim->use = bp->tab_clock;
	}
	if (taken && *base < 3)
		(*base)++;
	else if (!taken && *base > 0)
		(*base)--;
	bp->ghr = (bp->ghr << 1) | (taken ? 1u : 0u);
	return pred != !!taken;
}

int hs_bp_btic(struct hs_bpred *bp, uint64_t pc)
{
	unsigned i, hit = 0;

	if (!bp->nbtic)
		return 0;
	for (i = 0; i < bp->nbtic; i++)
		if (bp->btic[i] == pc + 1) {
			hit = 1;
			break;
		}
	if (i == bp->nbtic)
		i = bp->nbtic - 1;	/* miss: the LRU entry goes */
	for (; i > 0; i--)	/* the entries before it move down (a single-entry BTIC: none) */
		bp->btic[i] = bp->btic[i - 1];
	bp->btic[0] = pc + 1;
	return hit;
}

int hs_bp_indirect(struct hs_bpred *bp, uint64_t pc, uint64_t target)
{
	struct hs_btac_ent *set, *victim;
	unsigned nsets;

	if (!bp->nbtac)
		return 1;
	nsets = bp->nbtac / 4;
	set = &bp->btac[(size_t)((pc >> 2) & (nsets - 1)) * 4];
	victim = set;
	bp->btac_clock++;
	for (unsigned w = 0; w < 4; w++) {
		if (set[w].pc == pc + 1) {
			int miss = set[w].target != target;

			set[w].target = target;
			set[w].use = bp->btac_clock;
			return miss;
		}
		if (set[w].use < victim->use)
			victim = &set[w];
	}
	victim->pc = pc + 1;
	victim->target = target;
	victim->use = bp->btac_clock;
	return 1;
}

void hs_bp_push(struct hs_bpred *bp, uint64_t ret)
{
	if (!bp->ras_depth)
		return;
	bp->ras_top = (bp->ras_top + 1) % bp->ras_depth;
	bp->ras[bp->ras_top] = ret;
	if (bp->ras_n < bp->ras_depth)
		bp->ras_n++;
}

int hs_bp_ret(struct hs_bpred *bp, uint64_t target)
{
	uint64_t pred;

	if (!bp->ras_n)
		return 1;
	pred = bp->ras[bp->ras_top];
	bp->ras_top = (bp->ras_top + bp->ras_depth - 1) % bp->ras_depth;
	bp->ras_n--;
	return pred != target;
}
