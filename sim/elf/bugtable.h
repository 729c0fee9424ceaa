/* bugtable.h - where a BUG()/WARN() trap comes from, from __bug_table. */
#ifndef HOTSIM_BUGTABLE_H
#define HOTSIM_BUGTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/image.h"

#define HS_BUGFLAG_WARNING 1u	/* include/asm-generic/bug.h */

struct hs_bug {
	const char *file;	/* in the image memory; NULL without DEBUG_BUGVERBOSE */
	unsigned line;
	unsigned flags;
};

/* The __bug_table entry for the brk at pc: 0, or -1 if there is none. */
int hs_bug_find(const struct hs_image *img, const uint8_t *mem, uint64_t pc, struct hs_bug *out);

#endif
