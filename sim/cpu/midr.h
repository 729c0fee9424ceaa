/*
 * midr.h - what a MIDR_EL1 value names, spelled as Linux spells it
 * (arch/arm64/include/asm/cputype.h): implementer and part numbers, the
 * model and variant/revision fields, and ranges of them (struct midr_range,
 * MIDR_ALL_VERSIONS, MIDR_REV, MIDR_REV_RANGE). The lists Linux keeps of
 * such ranges - which cores are safe from or affected by what - are
 * midr_lists.c's; a core's file gives only its own MIDR.
 */
#ifndef HOTSIM_CPU_MIDR_H
#define HOTSIM_CPU_MIDR_H

#include <stdint.h>

/* MIDR_CPU_MODEL_MASK: implementer, architecture, part number */
#define HS_MIDR_MODEL_MASK	0xff0ffff0u
/* MIDR_VARIANT_MASK | MIDR_REVISION_MASK */
#define HS_MIDR_RV_MASK		0x00f0000fu

/* MIDR_CPU_MODEL(imp, partnum): architecture field 0xf ("by ID registers") */
#define HS_MIDR_MODEL(imp, part) ((uint32_t)(imp) << 24 | 0xfu << 16 | (uint32_t)(part) << 4)
/* MIDR_CPU_VAR_REV(var, rev) */
#define HS_MIDR_VAR_REV(v, r)	((uint32_t)(v) << 20 | (uint32_t)(r))

/* Implementers (ARM_CPU_IMP_*) */
#define HS_IMP_ARM	0x41
#define HS_IMP_BRCM	0x42
#define HS_IMP_CAVIUM	0x43
#define HS_IMP_HISI	0x48
#define HS_IMP_NVIDIA	0x4e
#define HS_IMP_QCOM	0x51
#define HS_IMP_AMPERE	0xc0

/* The parts Linux's lists name (MIDR_<part> in cputype.h), as models. */
#define HS_MIDR_CORTEX_A35	HS_MIDR_MODEL(HS_IMP_ARM, 0xd04)
#define HS_MIDR_CORTEX_A53	HS_MIDR_MODEL(HS_IMP_ARM, 0xd03)
#define HS_MIDR_CORTEX_A55	HS_MIDR_MODEL(HS_IMP_ARM, 0xd05)
#define HS_MIDR_CORTEX_A57	HS_MIDR_MODEL(HS_IMP_ARM, 0xd07)
#define HS_MIDR_CORTEX_A72	HS_MIDR_MODEL(HS_IMP_ARM, 0xd08)
#define HS_MIDR_CORTEX_A73	HS_MIDR_MODEL(HS_IMP_ARM, 0xd09)
#define HS_MIDR_CORTEX_A75	HS_MIDR_MODEL(HS_IMP_ARM, 0xd0a)
#define HS_MIDR_CORTEX_A76	HS_MIDR_MODEL(HS_IMP_ARM, 0xd0b)
#define HS_MIDR_NEOVERSE_N1	HS_MIDR_MODEL(HS_IMP_ARM, 0xd0c)
#define HS_MIDR_CORTEX_A77	HS_MIDR_MODEL(HS_IMP_ARM, 0xd0d)
#define HS_MIDR_CORTEX_A76AE	HS_MIDR_MODEL(HS_IMP_ARM, 0xd0e)
#define HS_MIDR_NEOVERSE_V1	HS_MIDR_MODEL(HS_IMP_ARM, 0xd40)
#define HS_MIDR_CORTEX_A78	HS_MIDR_MODEL(HS_IMP_ARM, 0xd41)
#define HS_MIDR_CORTEX_A78AE	HS_MIDR_MODEL(HS_IMP_ARM, 0xd42)
#define HS_MIDR_CORTEX_X1	HS_MIDR_MODEL(HS_IMP_ARM, 0xd44)
#define HS_MIDR_CORTEX_A510	HS_MIDR_MODEL(HS_IMP_ARM, 0xd46)
#define HS_MIDR_CORTEX_A710	HS_MIDR_MODEL(HS_IMP_ARM, 0xd47)
#define HS_MIDR_CORTEX_X2	HS_MIDR_MODEL(HS_IMP_ARM, 0xd48)
#define HS_MIDR_NEOVERSE_N2	HS_MIDR_MODEL(HS_IMP_ARM, 0xd49)
#define HS_MIDR_CORTEX_A78C	HS_MIDR_MODEL(HS_IMP_ARM, 0xd4b)
#define HS_MIDR_CORTEX_X1C	HS_MIDR_MODEL(HS_IMP_ARM, 0xd4c)
#define HS_MIDR_CORTEX_A715	HS_MIDR_MODEL(HS_IMP_ARM, 0xd4d)
#define HS_MIDR_CORTEX_X3	HS_MIDR_MODEL(HS_IMP_ARM, 0xd4e)
#define HS_MIDR_NEOVERSE_V2	HS_MIDR_MODEL(HS_IMP_ARM, 0xd4f)
#define HS_MIDR_CORTEX_A520	HS_MIDR_MODEL(HS_IMP_ARM, 0xd80)
#define HS_MIDR_CORTEX_A720	HS_MIDR_MODEL(HS_IMP_ARM, 0xd81)
#define HS_MIDR_CORTEX_A720AE	HS_MIDR_MODEL(HS_IMP_ARM, 0xd89)
#define HS_MIDR_BRAHMA_B53	HS_MIDR_MODEL(HS_IMP_BRCM, 0x100)
#define HS_MIDR_BRCM_VULCAN	HS_MIDR_MODEL(HS_IMP_BRCM, 0x516)
#define HS_MIDR_CAVIUM_THUNDERX2 HS_MIDR_MODEL(HS_IMP_CAVIUM, 0x0af)
#define HS_MIDR_HISI_TSV110	HS_MIDR_MODEL(HS_IMP_HISI, 0xd01)
#define HS_MIDR_HISI_HIP09	HS_MIDR_MODEL(HS_IMP_HISI, 0xd02)
#define HS_MIDR_NVIDIA_CARMEL	HS_MIDR_MODEL(HS_IMP_NVIDIA, 0x004)
#define HS_MIDR_QCOM_KRYO_2XX_GOLD   HS_MIDR_MODEL(HS_IMP_QCOM, 0x800)
#define HS_MIDR_QCOM_KRYO_2XX_SILVER HS_MIDR_MODEL(HS_IMP_QCOM, 0x801)
#define HS_MIDR_QCOM_KRYO_3XX_SILVER HS_MIDR_MODEL(HS_IMP_QCOM, 0x803)
#define HS_MIDR_QCOM_KRYO_4XX_GOLD   HS_MIDR_MODEL(HS_IMP_QCOM, 0x804)
#define HS_MIDR_QCOM_KRYO_4XX_SILVER HS_MIDR_MODEL(HS_IMP_QCOM, 0x805)
#define HS_MIDR_AMPERE1		HS_MIDR_MODEL(HS_IMP_AMPERE, 0xac3)

/* struct midr_range: a model and an inclusive variant/revision range */
struct hs_midr_range {
	uint32_t model, rv_min, rv_max;
};

#define HS_MIDR_RANGE(m, v_min, r_min, v_max, r_max) \
	{ (m), HS_MIDR_VAR_REV(v_min, r_min), HS_MIDR_VAR_REV(v_max, r_max) }
#define HS_MIDR_ALL_VERSIONS(m)		HS_MIDR_RANGE(m, 0, 0, 0xf, 0xf)
#define HS_MIDR_REV(m, v, r)		HS_MIDR_RANGE(m, v, r, v, r)
#define HS_MIDR_REV_RANGE(m, v, r_min, r_max) HS_MIDR_RANGE(m, v, r_min, v, r_max)

/* midr_is_cpu_model_range() */
static inline int hs_midr_in_range(uint32_t midr, uint32_t model, uint32_t rv_min, uint32_t rv_max)
{
	uint32_t rv = midr & HS_MIDR_RV_MASK;

	return (midr & HS_MIDR_MODEL_MASK) == model && rv >= rv_min && rv <= rv_max;
}

#endif
