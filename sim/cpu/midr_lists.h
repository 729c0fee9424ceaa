/*
 * midr_lists.h - Linux's per-MIDR facts as data: the lists of MIDR ranges
 * the kernel consults at boot to decide what a core is safe from, affected
 * by, or must work around (arch/arm64/kernel/proton-pack.c, cpufeature.c,
 * cpu_errata.c). Each list carries its kernel name and where it lives;
 * generic code (sim/boot/spectre.c, cpucaps.c) looks a core's MIDR up in
 * them, so a new core is classified by its MIDR alone.
 */
#ifndef HOTSIM_CPU_MIDR_LISTS_H
#define HOTSIM_CPU_MIDR_LISTS_H

#include <stdint.h>

#include "cpu/midr.h"

struct hs_midr_list {
	const char *name;			/* the kernel's name for it */
	const char *source;			/* file and function it is in */
	const struct hs_midr_range *r;		/* terminated by model 0 */
};

/* Spectre-v2: CPUs unaffected without CSV2 */
extern const struct hs_midr_list hs_spectre_v2_safe;
/* Spectre-v3a (rogue system register read): the affected CPUs */
extern const struct hs_midr_list hs_spectre_v3a_unsafe;
/* Spectre-v4 (speculative store bypass): CPUs unaffected without SSBS */
extern const struct hs_midr_list hs_spectre_v4_safe;
/* Spectre-BHB: CPUs unaffected without CSV2.3 */
extern const struct hs_midr_list hs_spectre_bhb_safe;
/* Meltdown: CPUs that need no KPTI without CSV3 */
extern const struct hs_midr_list hs_kpti_safe;
/* CPUs whose CnP must stay off (NVIDIA Carmel, HiSilicon 162100125) */
extern const struct hs_midr_list hs_cnp_erratum;
/* CPUs whose hardware dirty-bit management is broken (1024718, 2051678) */
extern const struct hs_midr_list hs_broken_dbm;
/* Neoverse N1 erratum 1542419 (with CTR_EL0.DIC: a coherent I-cache) */
extern const struct hs_midr_list hs_n1_erratum_1542419;

/* spectre_bhb_loop_affected(): the loop count k of each list, in the
 * kernel's order of precedence; terminated by k == 0. */
struct hs_bhb_k {
	unsigned k;
	const struct hs_midr_list *list;
};
extern const struct hs_bhb_k hs_spectre_bhb_k[];

/* is_midr_in_range_list() */
int hs_midr_on(const struct hs_midr_list *l, uint32_t midr);

/* spectre_bhb_loop_affected(): k for this MIDR, 0 when on no list; *list
 * (may be NULL) names the list that decided. */
unsigned hs_bhb_loop_k(uint32_t midr, const struct hs_midr_list **list);

#endif
