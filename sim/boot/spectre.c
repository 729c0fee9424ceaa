/*
 * spectre.c - how boot settles Spectre v2, v4, BHB, v3a and Meltdown on a
 * core, step for step as Linux 7.2's arch/arm64/kernel/proton-pack.c
 * (and cpufeature.c's unmap_kernel_at_el0()) does: the ID registers first
 * (CSV2, CSV3, SSBS, ECBHB, CLRBHB), then Linux's MIDR lists
 * (sim/cpu/midr_lists.c), then the firmware's SMCCC answers - the
 * platform's (platform.c), or none on a core without SMCCC 1.1 (QEMU's
 * virt). Nothing here names a core: a core is classified by its MIDR and
 * registers alone. Mitigations are taken as on (no mitigations=off, the
 * default spectre-v4 policy).
 */
#include <stdio.h>

#include "hotsim/cpucaps.h"
#include "cpu/midr_lists.h"

/* cpuid_feature_extract_unsigned_field() */
static unsigned field(const struct hs_core *core, uint32_t reg, unsigned pos)
{
	return (unsigned)((hs_core_idreg(core, reg) >> pos) & 0xf);
}

/* arm_smccc_1_1_invoke(ARM_SMCCC_ARCH_FEATURES_FUNC_ID, wa): without a
 * conduit the call fails as NOT_SUPPORTED */
static enum hs_smccc firmware(const struct hs_core *core, enum hs_smccc answer)
{
	return core->no_smccc ? HS_SMCCC_NOT_SUPPORTED : answer;
}

/* spectre_v2_get_cpu_hw_mitigation_state(), then the firmware (WA1) */
static enum hs_mitigation spectre_v2(const struct hs_core *core, char *why, size_t len)
{
	enum hs_smccc fw;

	if (field(core, HS_ID_AA64PFR0_EL1, 56)) {
		snprintf(why, len, "ID_AA64PFR0_EL1.CSV2 set");
		return HS_MIT_UNAFFECTED;
	}
	if (hs_midr_on(&hs_spectre_v2_safe, core->midr)) {
		snprintf(why, len, "on %s", hs_spectre_v2_safe.name);
		return HS_MIT_UNAFFECTED;
	}
	fw = firmware(core, hs_platform_firmware.wa1);
	snprintf(why, len, "not on %s, %s", hs_spectre_v2_safe.name,
		 fw == HS_SMCCC_SUCCESS ? "firmware WA1" : fw == HS_SMCCC_UNAFFECTED ?
		 "firmware: unaffected" : core->no_smccc ? "no SMCCC: vulnerable" : "no WA1: vulnerable");
	return fw == HS_SMCCC_SUCCESS ? HS_MIT_FIRMWARE :
	       fw == HS_SMCCC_UNAFFECTED ? HS_MIT_UNAFFECTED : HS_MIT_VULNERABLE;
}

/* spectre_v4_get_cpu_hw_mitigation_state(), then the firmware (WA2) */
static enum hs_mitigation spectre_v4(const struct hs_core *core, char *why, size_t len)
{
	enum hs_smccc fw;

	if (hs_midr_on(&hs_spectre_v4_safe, core->midr)) {
		snprintf(why, len, "on %s", hs_spectre_v4_safe.name);
		return HS_MIT_UNAFFECTED;
	}
	if (field(core, HS_ID_AA64PFR1_EL1, 4)) {
		snprintf(why, len, "ID_AA64PFR1_EL1.SSBS set: mitigated by SSBS");
		return HS_MIT_HW;
	}
	fw = firmware(core, hs_platform_firmware.wa2);
	snprintf(why, len, "not on %s, no SSBS, %s", hs_spectre_v4_safe.name,
		 fw == HS_SMCCC_SUCCESS ? "firmware WA2" :
		 fw == HS_SMCCC_UNAFFECTED || fw == HS_SMCCC_NOT_REQUIRED ? "WA2 not required" :
		 "vulnerable");
	return fw == HS_SMCCC_SUCCESS ? HS_MIT_FIRMWARE :
	       fw == HS_SMCCC_UNAFFECTED || fw == HS_SMCCC_NOT_REQUIRED ? HS_MIT_UNAFFECTED :
	       HS_MIT_VULNERABLE;
}

/* is_spectre_bhb_affected() (with max_bhb_k), then
 * spectre_bhb_enable_mitigation()'s choice */
static enum hs_mitigation spectre_bhb(const struct hs_core *core, enum hs_mitigation v2,
				      unsigned *k, char *why, size_t len)
{
	const struct hs_midr_list *kl;
	int clearbhb = field(core, HS_ID_AA64ISAR2_EL1, 28) != 0;

	*k = 0;
	if (field(core, HS_ID_AA64PFR0_EL1, 56) == 3) {
		snprintf(why, len, "ID_AA64PFR0_EL1.CSV2 = 3");
		return HS_MIT_UNAFFECTED;
	}
	if (hs_midr_on(&hs_spectre_bhb_safe, core->midr)) {
		snprintf(why, len, "on %s", hs_spectre_bhb_safe.name);
		return HS_MIT_UNAFFECTED;
	}
	if (!clearbhb)
		*k = hs_bhb_loop_k(core->midr, &kl);
	if (v2 == HS_MIT_VULNERABLE) {
		snprintf(why, len, "affected, Spectre-v2 vulnerable: not mitigated");
		return HS_MIT_VULNERABLE;
	}
	if (field(core, HS_ID_AA64MMFR1_EL1, 60)) {
		snprintf(why, len, "affected, ID_AA64MMFR1_EL1.ECBHB set");
		return HS_MIT_HW;
	}
	if (clearbhb) {
		snprintf(why, len, "affected, ID_AA64ISAR2_EL1.CLRBHB set: clearbhb");
		return HS_MIT_INSN;
	}
	if (*k) {
		snprintf(why, len, "affected, on %s: loop", kl->name);
		return HS_MIT_LOOP;
	}
	if (firmware(core, hs_platform_firmware.wa3) == HS_SMCCC_SUCCESS) {
		snprintf(why, len, "affected, on no loop list: firmware WA3");
		return HS_MIT_FIRMWARE;
	}
	snprintf(why, len, "affected, no loop list, no WA3: vulnerable");
	return HS_MIT_VULNERABLE;
}

int hs_meltdown_affected(uint32_t midr, uint64_t pfr0, char *why, size_t len)
{
	if (hs_midr_on(&hs_kpti_safe, midr)) {
		snprintf(why, len, "on %s", hs_kpti_safe.name);
		return 0;
	}
	if ((pfr0 >> 60) & 0xf) {
		snprintf(why, len, "ID_AA64PFR0_EL1.CSV3 set");
		return 0;
	}
	snprintf(why, len, "Meltdown: not on %s, no CSV3", hs_kpti_safe.name);
	return 1;
}

void hs_spectre_eval(const struct hs_core *core, struct hs_spectre *out)
{
	out->v2 = spectre_v2(core, out->v2_why, sizeof(out->v2_why));
	out->v4 = spectre_v4(core, out->v4_why, sizeof(out->v4_why));
	out->bhb = spectre_bhb(core, out->v2, &out->bhb_k, out->bhb_why, sizeof(out->bhb_why));
	out->v3a = hs_midr_on(&hs_spectre_v3a_unsafe, core->midr);
	out->meltdown = hs_meltdown_affected(core->midr, hs_core_idreg(core, HS_ID_AA64PFR0_EL1),
					     out->kpti_why, sizeof(out->kpti_why));
}

enum hs_mitigation hs_spectre_bhb(const struct hs_core *core)
{
	struct hs_spectre s;

	hs_spectre_eval(core, &s);
	return s.bhb;
}
