/*
 * bpred.h - branch prediction state of a core model.
 *
 *   conditional  2-bit counters per (pc, global history of the last `hist`
 *                conditional outcomes), in a tagged 4-way table of `nctr`
 *                entries with LRU replacement, over a pc-indexed bimodal
 *                table of `nctr` counters that predicts when the tagged
 *                table has no entry; an entry is allocated when the bimodal
 *                table mispredicted. Tags, not an index hash: the aliasing
 *                of an untagged gshare depends on a hash nobody publishes
 *                and would move a kernel delta by a whole mispredict
 *                penalty whenever two branches happen to collide.
 *   BTIC         the few most recent taken direct branches whose target
 *                fetch is cached, so they cost no fetch bubble (A53: one)
 *   BTAC         last target of indirect branches (br/blr), LRU, 4-way
 *   return stack bl/blr push, ret pops; overflow drops the oldest entry
 *
 * ERET is never predicted (Arm TRMs); the front end handles it.
 * All storage is sized at configure time; predictions never allocate.
 */
#ifndef HOTSIM_MODELS_BPRED_H
#define HOTSIM_MODELS_BPRED_H

#include <stdint.h>

#define HS_RAS_MAX 64
#define HS_BTIC_MAX 16

struct hs_bpred {
	uint8_t *ctr;		/* bimodal 2-bit counters, by pc */
	unsigned nctr;		/* power of two */
	unsigned hist;		/* history bits */
	uint32_t ghr;
	struct hs_bp_ent { uint64_t key, use; uint8_t ctr; } *tab;	/* nctr, 4-way */
	uint64_t tab_clock;
	struct hs_btac_ent { uint64_t pc, target, use; } *btac;
	unsigned nbtac;		/* multiple of 4 (sets of 4 ways) */
	uint64_t btac_clock;
	uint64_t btic[HS_BTIC_MAX];	/* pc + 1 of cached taken branches, MRU first */
	unsigned nbtic;
	uint64_t ras[HS_RAS_MAX];
	unsigned ras_depth, ras_n, ras_top;
};

/* -1 (hs_errmsg) on a bad size. */
int hs_bp_init(struct hs_bpred *bp, unsigned nctr, unsigned hist, unsigned nbtac,
	       unsigned nbtic, unsigned ras_depth);
void hs_bp_free(struct hs_bpred *bp);
void hs_bp_flush(struct hs_bpred *bp);

/* Conditional branch at pc went `taken`: 1 if the predictor said otherwise.
 * Trains the counter and shifts the history. */
int hs_bp_cond(struct hs_bpred *bp, uint64_t pc, int taken);

/* Taken direct branch at pc: 1 if its target fetch was in the BTIC (no
 * bubble); the branch becomes the most recent entry. */
int hs_bp_btic(struct hs_bpred *bp, uint64_t pc);

/* Indirect branch at pc went to target: 1 if the BTAC predicted another
 * (or nothing). Trains the BTAC. */
int hs_bp_indirect(struct hs_bpred *bp, uint64_t pc, uint64_t target);

/* Call: push the return address. */
void hs_bp_push(struct hs_bpred *bp, uint64_t ret);

/* Return to target: 1 if the return stack predicted another (or was empty). */
int hs_bp_ret(struct hs_bpred *bp, uint64_t target);

#endif
