/*
 * midr_lists.c - Linux's MIDR range lists, copied entry for entry from
 * Debian's linux-source-7.2 (the tree the 7.2 test images are built from;
 * Debian's 6.12 has the same lists but for Cortex-A720AE on the BHB k=38
 * list). Each list names the kernel file and function it is in. Lists
 * behind an erratum's Kconfig option are taken with the option on
 * (ARM64_ERRATUM_1024718 and the others default to y).
 *
 * To follow a newer kernel: diff these against its proton-pack.c,
 * cpufeature.c and cpu_errata.c and copy the changes; the part numbers are
 * midr.h's (cputype.h's).
 */
#include <stddef.h>

#include "cpu/midr_lists.h"

#define END { 0, 0, 0 }

static const struct hs_midr_range v2_safe[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A35),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A55),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_BRAHMA_B53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_HISI_TSV110),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_2XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_3XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_4XX_SILVER),
	END
};
const struct hs_midr_list hs_spectre_v2_safe = {
	"spectre_v2_safe_list", "proton-pack.c spectre_v2_get_cpu_hw_mitigation_state()", v2_safe
};

static const struct hs_midr_range v3a_unsafe[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A57),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A72),
	END
};
const struct hs_midr_list hs_spectre_v3a_unsafe = {
	"spectre_v3a_unsafe_list", "proton-pack.c has_spectre_v3a()", v3a_unsafe
};

static const struct hs_midr_range v4_safe[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A35),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A55),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_BRAHMA_B53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_3XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_4XX_SILVER),
	END
};
const struct hs_midr_list hs_spectre_v4_safe = {
	"spectre_v4_safe_list", "proton-pack.c spectre_v4_get_cpu_hw_mitigation_state()", v4_safe
};

static const struct hs_midr_range bhb_safe[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A35),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A55),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A510),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A520),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_BRAHMA_B53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_2XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_3XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_4XX_SILVER),
	END
};
const struct hs_midr_list hs_spectre_bhb_safe = {
	"spectre_bhb_safe_list", "proton-pack.c is_spectre_bhb_safe()", bhb_safe
};

static const struct hs_midr_range k132[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_X3),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NEOVERSE_V2),
	END
};
static const struct hs_midr_range k38[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A715),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A720),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A720AE),
	END
};
static const struct hs_midr_range k32[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A78),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A78AE),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A78C),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_X1),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_X1C),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A710),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_X2),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NEOVERSE_N2),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NEOVERSE_V1),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_HISI_TSV110),
	END
};
static const struct hs_midr_range k24[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A76),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A76AE),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A77),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NEOVERSE_N1),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_4XX_GOLD),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_HISI_HIP09),
	END
};
static const struct hs_midr_range k11[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_AMPERE1),
	END
};
static const struct hs_midr_range k8[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A72),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A57),
	END
};
#define BHB_K(n) { "spectre_bhb_" #n "_list", "proton-pack.c spectre_bhb_loop_affected()", n }
static const struct hs_midr_list bhb_lists[] = {
	BHB_K(k132), BHB_K(k38), BHB_K(k32), BHB_K(k24), BHB_K(k11), BHB_K(k8),
};
const struct hs_bhb_k hs_spectre_bhb_k[] = {
	{ 132, &bhb_lists[0] }, { 38, &bhb_lists[1] }, { 32, &bhb_lists[2] },
	{ 24, &bhb_lists[3] }, { 11, &bhb_lists[4] }, { 8, &bhb_lists[5] },
	{ 0, NULL }
};

static const struct hs_midr_range kpti_safe[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CAVIUM_THUNDERX2),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_BRCM_VULCAN),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_BRAHMA_B53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A35),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A53),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A55),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A57),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A72),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A73),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_HISI_TSV110),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NVIDIA_CARMEL),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_2XX_GOLD),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_2XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_3XX_SILVER),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_QCOM_KRYO_4XX_SILVER),
	END
};
const struct hs_midr_list hs_kpti_safe = {
	"kpti_safe_list", "cpufeature.c unmap_kernel_at_el0()", kpti_safe
};

/* The ARM64_WORKAROUND_DISABLE_CNP erratum's list, which has_useable_cnp()
 * consults through the capability (6.12: ARM64_WORKAROUND_NVIDIA_CARMEL_CNP,
 * Carmel alone) */
static const struct hs_midr_range cnp_erratum[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NVIDIA_CARMEL),
	HS_MIDR_ALL_VERSIONS(HS_MIDR_HISI_HIP09),
	END
};
const struct hs_midr_list hs_cnp_erratum = {
	"cnp_erratum_cpus", "cpu_errata.c (ARM64_WORKAROUND_DISABLE_CNP), read by cpufeature.c has_useable_cnp()",
	cnp_erratum
};

static const struct hs_midr_range broken_dbm[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_CORTEX_A55),		/* erratum 1024718 */
	HS_MIDR_REV(HS_MIDR_QCOM_KRYO_4XX_SILVER, 0xd, 0xe),	/* 1024718: rdpe => r1p0 */
	HS_MIDR_REV_RANGE(HS_MIDR_CORTEX_A510, 0, 0, 2),	/* erratum 2051678 */
	END
};
const struct hs_midr_list hs_broken_dbm = {
	"cpu_has_broken_dbm", "cpufeature.c cpu_has_broken_dbm()", broken_dbm
};

/* has_neoverse_n1_erratum_1542419()'s range (it also needs CTR_EL0.DIC) */
static const struct hs_midr_range n1_1542419[] = {
	HS_MIDR_ALL_VERSIONS(HS_MIDR_NEOVERSE_N1),
	END
};
const struct hs_midr_list hs_n1_erratum_1542419 = {
	"erratum 1542419 range", "cpu_errata.c has_neoverse_n1_erratum_1542419()", n1_1542419
};

int hs_midr_on(const struct hs_midr_list *l, uint32_t midr)
{
	for (const struct hs_midr_range *r = l->r; r->model; r++)
		if (hs_midr_in_range(midr, r->model, r->rv_min, r->rv_max))
			return 1;
	return 0;
}

unsigned hs_bhb_loop_k(uint32_t midr, const struct hs_midr_list **list)
{
	for (const struct hs_bhb_k *b = hs_spectre_bhb_k; b->k; b++)
		if (hs_midr_on(b->list, midr)) {
			if (list)
				*list = b->list;
			return b->k;
		}
	if (list)
		*list = NULL;
	return 0;
}
