/*
 * scan.h - the text a scanner of sim/scan/ walks: an image's patched code,
 * the function being scanned, and the liveness summaries kept across it
 * (liveness.c). Internal to the scanners.
 */
#ifndef HOTSIM_SCAN_SCAN_H
#define HOTSIM_SCAN_SCAN_H

#include <stdint.h>

#include "hotsim/a64.h"
#include "hotsim/image.h"

struct hs_argmemo;

struct hs_scan {
	const struct hs_image *img;
	const uint8_t *mem;
	uint64_t lo, hi;		/* the containing function */
	struct hs_argmemo *memo;	/* callees' argument reads, once per scan */
};

/* the memo allocated (without it the answers are conservative); freed by
 * hs_scan_free */
void hs_scan_init(struct hs_scan *s, const struct hs_image *img, const uint8_t *mem);
void hs_scan_free(struct hs_scan *s);

static inline int hs_scan_word(const struct hs_scan *s, uint64_t pc, uint32_t *w)
{
	return hs_read32(s->img, s->mem, pc, w);
}

/* Does the decoded instruction read reg / write reg / read any register of
 * mask (x0-x31 as bits)? */
static inline int hs_insn_reads(const struct a64_insn *in, unsigned reg)
{
	for (unsigned i = 0; i < in->nsrc; i++)
		if (in->src[i] == reg)
			return 1;
	return 0;
}

static inline int hs_insn_writes(const struct a64_insn *in, unsigned reg)
{
	for (unsigned i = 0; i < in->ndst; i++)
		if (in->dst[i] == reg)
			return 1;
	return 0;
}

static inline int hs_insn_reads_any(const struct a64_insn *in, uint32_t mask)
{
	for (unsigned i = 0; i < in->nsrc; i++)
		if (in->src[i] < 32 && (mask & (1u << in->src[i])))
			return 1;
	return 0;
}

/* Is some register of mask (x0-x30) read on a path from pc before it is
 * written (calls: their caller-saved registers die, x0-x7 read as the
 * callee's body reads them)? */
int hs_scan_reg_used(const struct hs_scan *s, uint64_t pc, uint32_t mask);

#endif
