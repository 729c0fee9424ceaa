/*
 * percpu.h - this_cpu_*() operations as an image compiles them.
 *
 * arm64 forms a per-CPU address as base + TPIDR_EL1, so every this_cpu op
 * starts with "mrs xN, tpidr_el1" followed by the access through xN (or
 * through "add xA, xB, xN"). The scanner walks the *patched* text from each
 * such mrs, following unconditional branches (alternatives resolved for the
 * core), classifies the access, and looks around it for the preempt_disable/
 * preempt_enable wrapper (inc/dec of thread_info.preempt_count through
 * sp_el0) that PREEMPT kernels put around this_cpu ops.
 */
#ifndef HOTSIM_PERCPU_H
#define HOTSIM_PERCPU_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/image.h"
#include "hotsim/trace.h"

enum hs_pcpu_kind {
	HS_PCPU_READ,		/* this_cpu_read */
	HS_PCPU_WRITE,		/* this_cpu_write */
	HS_PCPU_ADD,		/* this_cpu_add/sub/inc/dec/and/or (no result) */
	HS_PCPU_ADD_RETURN,	/* this_cpu_add_return / inc_return */
	HS_PCPU_XCHG,		/* this_cpu_xchg */
	HS_PCPU_CMPXCHG,	/* this_cpu_cmpxchg */
	HS_PCPU_PTR,		/* address formed, accessed later (this_cpu_ptr) */
	HS_PCPU_NKINDS
};

extern const char *const hs_pcpu_kind_names[HS_PCPU_NKINDS];

/* One site: the instructions from start (inclusive) to end (exclusive),
 * as executed in order: it may follow branches, so it is a list of pcs. */
#define HS_PCPU_MAX_WINDOW 48
struct hs_pcpu_site {
	uint64_t mrs;			/* the mrs tpidr_el1 */
	uint64_t op;			/* the access */
	uint8_t kind;			/* enum hs_pcpu_kind */
	uint8_t wrapped;		/* preempt_disable/enable around it */
	uint8_t n;			/* instructions in the window */
	uint8_t base_reg;		/* register holding the variable's address */
	uint64_t pcs[HS_PCPU_MAX_WINDOW];
};

struct hs_pcpu_census {
	struct hs_pcpu_site *v;
	size_t n, cap;
	unsigned count[HS_PCPU_NKINDS][2];	/* [kind][wrapped] */
	unsigned unclassified;			/* mrs tpidr_el1 not followed by an op */
};

/* Scan the patched text (mem) of img. */
int hs_pcpu_scan(const struct hs_image *img, const uint8_t *mem, struct hs_pcpu_census *c);
void hs_pcpu_census_free(struct hs_pcpu_census *c);

/* A representative site of a kind (wrapped preferred when want_wrapped),
 * NULL if the image has none. */
const struct hs_pcpu_site *hs_pcpu_pick(const struct hs_image *img, const struct hs_pcpu_census *c,
					enum hs_pcpu_kind kind, int want_wrapped);

/* The first site of kind in the function named fn (compiler suffixes
 * ignored), preferring a wrapped one; NULL if it has none. */
const struct hs_pcpu_site *hs_pcpu_in_function(const struct hs_image *img,
					       const struct hs_pcpu_census *c,
					       enum hs_pcpu_kind kind, const char *fn);

/* Append a site's window to t as executed: straight line, the op's data
 * address at slot, other accesses (preempt_count) at task. */
int hs_pcpu_site_trace(const struct hs_image *img, const uint8_t *mem, const struct hs_pcpu_site *s,
		       struct hs_dcache *dc, struct hs_trace *t, uint64_t slot, uint64_t task);

#endif
