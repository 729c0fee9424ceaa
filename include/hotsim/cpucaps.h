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

#include <stddef.h>
#include <stdint.h>

#include "hotsim/core.h"
#include "hotsim/image.h"

#define HS_MAX_CAPS 512

/*
 * How boot settles each Spectre variant on a core, as Linux's
 * arch/arm64/kernel/proton-pack.c does: from Linux's MIDR lists
 * (sim/cpu/midr_lists.c), the core's ID registers, and the platform's
 * firmware (hs_platform_firmware; none when core->no_smccc).
 */
enum hs_mitigation {
	HS_MIT_UNAFFECTED,	/* safe list, ID register, or firmware: not affected */
	HS_MIT_FIRMWARE,	/* affected, mitigated by a firmware (SMCCC) call */
	HS_MIT_LOOP,		/* Spectre-BHB: branchy loop in the vectors */
	HS_MIT_INSN,		/* Spectre-BHB: clearbhb instruction */
	HS_MIT_HW,		/* affected, the CPU mitigates it (SSBS, ECBHB) */
	HS_MIT_VULNERABLE	/* affected, nothing mitigates it */
};

struct hs_spectre {
	enum hs_mitigation v2, v4, bhb;
	unsigned bhb_k;		/* max_bhb_k: the loop count the vectors are patched
				 * with (set when affected, mitigated or not) */
	int v3a;		/* has_spectre_v3a(): on its list */
	int meltdown;		/* not on kpti_safe_list and no CSV3: wants KPTI */
	char v2_why[64], v4_why[64], bhb_why[64], kpti_why[64];
};

void hs_spectre_eval(const struct hs_core *core, struct hs_spectre *out);
/* Just the Spectre-BHB mitigation (which vectors boot installs). */
enum hs_mitigation hs_spectre_bhb(const struct hs_core *core);
/* unmap_kernel_at_el0() before the command line and KASLR: Meltdown-
 * affected (1) or safe (0) by MIDR and ID_AA64PFR0_EL1.CSV3; why says which. */
int hs_meltdown_affected(uint32_t midr, uint64_t pfr0, char *why, size_t len);

/* What firmware answers to SMCCC_ARCH_FEATURES (ARM DEN 0028) for each
 * Spectre workaround, asked by a core the kernel found affected. */
enum hs_smccc {
	HS_SMCCC_SUCCESS,	/* implemented: the call mitigates */
	HS_SMCCC_UNAFFECTED,	/* SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED */
	HS_SMCCC_NOT_REQUIRED,	/* mitigated statically, nothing to call */
	HS_SMCCC_NOT_SUPPORTED	/* also what no SMCCC 1.1 conduit yields */
};
struct hs_firmware {
	enum hs_smccc wa1, wa2, wa3;	/* ARCH_WORKAROUND_1 (v2), _2 (v4), _3 (BHB) */
};
/* The platform's firmware (sim/boot/platform.c, hs_platform_assumptions). */
extern const struct hs_firmware hs_platform_firmware;

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
	/* how boot settles Spectre on the core (the callbacks patch by it) */
	struct hs_spectre spectre;
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
