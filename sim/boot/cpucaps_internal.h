/*
 * cpucaps_internal.h - what cpucaps.c and cpucap_matchers.c share.
 *
 * Evaluating arm64_features[] and arm64_errata[] is split by job: cpucaps.c
 * recognises the table layout and walks the entries, cpucap_matchers.c
 * answers one entry's matches() the way the kernel function of that name
 * does.  Both read entries of the image through the same context, readers
 * and field offsets, so those live here; hotsim/cpucaps.h stays the public
 * side (the results) and this header is included by those two files only.
 */
#ifndef HOTSIM_CPUCAPS_INTERNAL_H
#define HOTSIM_CPUCAPS_INTERNAL_H

#include <stdint.h>

#include "hotsim/cpucaps.h"

/* Field offsets inside struct arm64_cpu_capabilities. */
struct layout {
	const char *name;
	unsigned size;
	int min_version;	/* first kernel version code with this layout */
	int pos, width, min, max, sign;	/* -1: absent */
};

/* Offsets that are the same in every layout (cpucaps.c's layouts[] gives
 * the whole shape); the ID register fields move and are in struct layout. */
#define OFF_DESC	0
#define OFF_CAP		8
#define OFF_MATCHES	16
#define OFF_SYSREG	32
#define OFF_MIDR	32
#define OFF_FIXED_REVS	48
#define OFF_MIDR_LIST	32
#define OFF_MATCH_LIST	56

/* One evaluation: the image and core, the layout pick_layout() found, the
 * results, and why the last matcher answered as it did. */
struct ctx {
	const struct hs_image *img;
	const uint8_t *mem;
	const struct hs_core *core;
	const struct layout *lay;
	struct hs_caps *out;
	const char *why;
	char whybuf[64];
};

/* Readers of the image's memory at a virtual address: 0 when unmapped. */
static inline uint64_t rd64(struct ctx *c, uint64_t va)
{
	uint64_t v = 0;

	hs_read64(c->img, c->mem, va, &v);
	return v;
}

static inline uint32_t rd32(struct ctx *c, uint64_t va)
{
	uint32_t v = 0;

	hs_read32(c->img, c->mem, va, &v);
	return v;
}

static inline uint8_t rd8(struct ctx *c, uint64_t va)
{
	const uint8_t *p = hs_at(c->img, (uint8_t *)c->mem, va, 1);

	return p ? *p : 0;
}

/*
 * One entry, 1 present, 0 absent, -1 unknown.  The two files call each
 * other through these two functions and no others: cc_eval_entry()
 * (cpucaps.c) names the entry's matcher from the image's symbols and hands
 * it to cc_match() (cpucap_matchers.c), which runs the matcher of that
 * name, or returns -1 for a name it does not know.  The one matcher that
 * calls back is cpucap_multi_entry_cap_matches (multi_entry()): it
 * evaluates each entry of its match_list with cc_eval_entry() at depth + 1,
 * and cc_eval_entry() gives up past depth 4, so the recursion is bounded.
 */
int cc_eval_entry(struct ctx *c, uint64_t e, int depth);
int cc_match(struct ctx *c, const char *m, uint64_t e, int depth);

#endif
