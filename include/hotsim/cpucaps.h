/*
 * cpucaps.h - which arm64 CPU capabilities (cpucaps) boot would detect on a
 * modelled core, derived from the image's own detection tables.
 *
 * cpucap numbers change between kernel versions, so hotsim does not keep its
 * own list of what they mean: it walks arm64_features[] and arm64_errata[] in
 * the (relocated) image and evaluates each entry as boot does - ID register
 * fields for has_cpuid_feature(), MIDR ranges for errata, and a small table of
 * the other matcher functions, by name (see cpucaps.c). A matcher hotsim does
 * not know is reported and its capability left off, never guessed.
 */
#ifndef HOTSIM_CPUCAPS_H
#define HOTSIM_CPUCAPS_H

#include <stdint.h>

#include "hotsim/core.h"
#include "hotsim/image.h"

#define HS_MAX_CAPS 512

struct hs_cap_info {
	uint8_t present;	/* detected on this core */
	uint8_t listed;		/* has at least one table entry */
	const char *desc;	/* entry's .desc (in the image), or NULL */
	const char *matcher;	/* matcher function name of the deciding entry */
	const char *why;	/* short reason ("ID_AA64ISAR0_EL1[23:20]=2 >= 2") */
};

struct hs_caps {
	unsigned ncaps;		/* ARM64_NCAPS of this image */
	char ncaps_from[64];	/* how ncaps was found */
	int ncaps_bound;	/* 0: exact; +1: an upper bound; -1: a lower bound */
	unsigned entry_size;	/* sizeof(struct arm64_cpu_capabilities) found */
	const char *layout;	/* which struct layout was recognised */
	struct hs_cap_info cap[HS_MAX_CAPS];
	char why_buf[HS_MAX_CAPS][64];
	/* matchers hotsim has no rule for: name and capability */
	unsigned nunknown;
	struct { const char *matcher; unsigned cap; } unknown[32];
};

/*
 * Evaluate on a relocated memory image (pointers in the tables must hold
 * their boot values). Returns 0, or -1 with hs_errmsg() if the tables are
 * missing or not recognisable.
 */
int hs_cpucaps_eval(const struct hs_image *img, const uint8_t *mem,
		    const struct hs_core *core, struct hs_caps *out);

/* "HAS_LSE_ATOMICS" for known (version, ncaps); NULL otherwise. */
const char *hs_cpucap_name(int version_code, unsigned ncaps, int ncaps_bound, unsigned cap);

/* Best label for a capability: table name, else its description, else "cap N". */
const char *hs_cpucap_label(const struct hs_image *img, const struct hs_caps *caps,
			    unsigned cap, char *buf, unsigned len);

#endif
