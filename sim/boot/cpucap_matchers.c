/*
 * cpucap_matchers.c - the matches() functions of arm64_features[] and
 * arm64_errata[], answered for a modelled core.
 *
 * An entry names its matcher by a function pointer; cpucaps.c turns that
 * into the function's name and cc_match() here runs hotsim's version of it:
 * the ID register field checks, the MIDR ranges and lists, the errata with
 * their own rules, and the ones the platform settles.  Each is a row of the
 * tables at the end, so a kernel matcher hotsim does not know is reported,
 * never guessed.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "boot/cpucaps_internal.h"
#include "cpu/midr_lists.h"

static const char *idreg_name(uint32_t reg)
{
	static const struct { uint32_t reg; const char *name; } names[] = {
		{ HS_ID_AA64PFR0_EL1, "ID_AA64PFR0_EL1" }, { HS_ID_AA64PFR1_EL1, "ID_AA64PFR1_EL1" },
		{ HS_ID_AA64ZFR0_EL1, "ID_AA64ZFR0_EL1" }, { HS_ID_AA64SMFR0_EL1, "ID_AA64SMFR0_EL1" },
		{ HS_ID_AA64DFR0_EL1, "ID_AA64DFR0_EL1" }, { HS_ID_AA64ISAR0_EL1, "ID_AA64ISAR0_EL1" },
		{ HS_ID_AA64ISAR1_EL1, "ID_AA64ISAR1_EL1" }, { HS_ID_AA64ISAR2_EL1, "ID_AA64ISAR2_EL1" },
		{ HS_ID_AA64MMFR0_EL1, "ID_AA64MMFR0_EL1" }, { HS_ID_AA64MMFR1_EL1, "ID_AA64MMFR1_EL1" },
		{ HS_ID_AA64MMFR2_EL1, "ID_AA64MMFR2_EL1" }, { HS_CTR_EL0, "CTR_EL0" },
	};

	for (size_t i = 0; i < HS_ARRAY_SIZE(names); i++)
		if (names[i].reg == reg)
			return names[i].name;
	return "ID register";
}

/* has_cpuid_feature(): field of the (sanitised) ID register >= min. */
static int cpuid_feature(struct ctx *c, uint64_t e)
{
	uint32_t reg = rd32(c, e + OFF_SYSREG);
	unsigned pos = rd8(c, e + c->lay->pos);
	unsigned width = c->lay->width >= 0 ? rd8(c, e + c->lay->width) : 4;
	int min = rd8(c, e + c->lay->min);
	int sign = rd8(c, e + c->lay->sign);
	uint64_t v = hs_core_idreg(c->core, reg);
	int64_t field;

	if (width == 0 || width > 16 || pos + width > 64)
		return -1;
	field = (int64_t)((v >> pos) & ((1ULL << width) - 1));
	if (sign && (field >> (width - 1)))
		field -= (int64_t)1 << width;
	snprintf(c->whybuf, sizeof(c->whybuf), "%s[%u:%u]=%lld %s %d", idreg_name(reg),
		 pos + width - 1, pos, (long long)field, field >= min ? ">=" : "<", min);
	c->why = c->whybuf;
	if (field < min)
		return 0;
	if (c->lay->max >= 0 && field > rd8(c, e + c->lay->max))
		return 0;
	return 1;
}

static int affected_midr_range(struct ctx *c, uint64_t e)
{
	uint32_t model = rd32(c, e + OFF_MIDR), lo = rd32(c, e + OFF_MIDR + 4),
		 hi = rd32(c, e + OFF_MIDR + 8);
	uint64_t fixed = rd64(c, e + OFF_FIXED_REVS);

	c->why = "MIDR not in range";
	if (!hs_midr_in_range(c->core->midr, model, lo, hi))
		return 0;
	/* REVIDR is 0 on the modelled parts: no fixed revision applies, but a
	 * fixed_revs entry matching only by revision would. */
	for (int i = 0; fixed && i < 32; i++, fixed += 8) {
		uint32_t rv = rd32(c, fixed), mask = rd32(c, fixed + 4);

		if (!rv)
			break;
		if ((c->core->midr & HS_MIDR_RV_MASK) == rv && mask == 0)
			return 0;
	}
	c->why = "MIDR in affected range";
	return 1;
}

static int affected_midr_list(struct ctx *c, uint64_t e)
{
	uint64_t list = rd64(c, e + OFF_MIDR_LIST);

	c->why = "MIDR not in list";
	for (int i = 0; list && i < 256; i++, list += 12) {
		uint32_t model = rd32(c, list);

		if (!model)
			break;
		if (hs_midr_in_range(c->core->midr, model, rd32(c, list + 4), rd32(c, list + 8))) {
			c->why = "MIDR in affected list";
			return 1;
		}
	}
	return 0;
}

static int field_nonzero(const struct hs_core *core, uint32_t reg, unsigned pos)
{
	return ((hs_core_idreg(core, reg) >> pos) & 0xf) != 0;
}

/*
 * unmap_kernel_at_el0(): KPTI unless the core is on kpti_safe_list or the
 * entry's ID field (ID_AA64PFR0_EL1.CSV3) says it is not Meltdown-affected;
 * nothing forces it either way on the platform (no KASLR offset, no kpti=
 * or mitigations=off), and an image built without
 * CONFIG_UNMAP_KERNEL_AT_EL0 (no trampoline vectors) never has it.
 */
static int unmap_kernel(struct ctx *c, uint64_t e)
{
	if (!hs_sym_exact(c->img, "tramp_vectors")) {
		c->why = "no KPTI in the image (CONFIG_UNMAP_KERNEL_AT_EL0)";
		return 0;
	}
	if (hs_midr_on(&hs_kpti_safe, c->core->midr)) {
		c->why = "MIDR on kpti_safe_list, no KASLR offset";
		return 0;
	}
	if (cpuid_feature(c, e) == 1) {
		c->why = "ID_AA64PFR0_EL1.CSV3 set, no KASLR offset";
		return 0;
	}
	c->why = "Meltdown: MIDR not on kpti_safe_list, no CSV3";
	return 1;
}

/* cpucap_multi_entry_cap_matches(): the first entry of match_list that is
 * not absent decides; the one call back into cpucaps.c (see
 * cpucaps_internal.h). */
static int multi_entry(struct ctx *c, uint64_t e, int depth)
{
	uint64_t list = rd64(c, e + OFF_MATCH_LIST);

	for (int i = 0; list && i < 16; i++, list += c->lay->size) {
		int r;

		if (!rd64(c, list + OFF_MATCHES))
			break;
		r = cc_eval_entry(c, list, depth + 1);
		if (r != 0)
			return r;
	}
	return 0;
}

/* The matchers, each as Linux's does it for the modelled core: 1 present,
 * 0 absent, -1 unknown. */
typedef int (*matcher_fn)(struct ctx *c, uint64_t e, int depth);

static int m_cpuid(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	/* has_useable_gicv3_cpuif: ... and firmware left ICC_SRE_EL1.SRE
	 * settable (platform) */
	return cpuid_feature(c, e);
}

/* has_useable_cnp(): not with the CnP erratum; has_hw_dbm(): as
 * cpu_can_use_dbm(), not on a broken-DBM core */
static int feature_unless(struct ctx *c, uint64_t e, const struct hs_midr_list *l)
{
	int r = cpuid_feature(c, e);

	if (r == 1 && hs_midr_on(l, c->core->midr)) {
		snprintf(c->whybuf, sizeof(c->whybuf), "feature present, but MIDR on %s", l->name);
		c->why = c->whybuf;
		return 0;
	}
	return r;
}

static int m_cnp(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	return feature_unless(c, e, &hs_cnp_erratum);
}

static int m_dbm(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	return feature_unless(c, e, &hs_broken_dbm);
}

static int m_no_fpsimd(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = "ID_AA64PFR0_EL1.FP implemented";
	return ((hs_core_idreg(c->core, HS_ID_AA64PFR0_EL1) >> 16) & 0xf) == 0xf;
}

/* read_cpuid_effective_cachetype(): no cleaning to the point of
 * unification needed (CLIDR LoC 0, or LoUIS and LoUU 0) implies IDC */
static int cache_bit(struct ctx *c, unsigned bit)
{
	uint64_t clidr = hs_core_idreg(c->core, HS_CLIDR_EL1);

	c->why = bit == 28 ? "CTR_EL0.IDC" : "CTR_EL0.DIC";
	if (bit == 28 && clidr && (((clidr >> 24) & 7) == 0 ||
				   (((clidr >> 21) & 7) == 0 && ((clidr >> 27) & 7) == 0))) {
		c->why = "CLIDR_EL1 LoUIS = LoUU = 0 (IDC implied)";
		return 1;
	}
	return (int)((hs_core_idreg(c->core, HS_CTR_EL0) >> bit) & 1);
}

static int m_idc(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	return cache_bit(c, 28);
}

static int m_dic(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	return cache_bit(c, 29);
}

static int m_addr_auth(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = "ID_AA64ISAR1_EL1.APA/API, ISAR2.APA3";
	return field_nonzero(c->core, HS_ID_AA64ISAR1_EL1, 4) || field_nonzero(c->core, HS_ID_AA64ISAR1_EL1, 8) ||
	       field_nonzero(c->core, HS_ID_AA64ISAR2_EL1, 12);
}

static int m_generic_auth(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = "ID_AA64ISAR1_EL1.GPA/GPI, ISAR2.GPA3";
	return field_nonzero(c->core, HS_ID_AA64ISAR1_EL1, 24) ||
	       field_nonzero(c->core, HS_ID_AA64ISAR1_EL1, 28) || field_nonzero(c->core, HS_ID_AA64ISAR2_EL1, 8);
}

static int m_unmap_kernel(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	return unmap_kernel(c, e);
}

static int m_midr_range(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	return affected_midr_range(c, e);
}

static int m_midr_list(struct ctx *c, uint64_t e, int depth)
{
	(void)depth;
	return affected_midr_list(c, e);
}

/* has_neoverse_n1_erratum_1542419(): a Neoverse N1 (any revision) whose
 * CTR_EL0.DIC is set - the coherent I-cache the erratum is about */
static int m_n1_1542419(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	if (!hs_midr_on(&hs_n1_erratum_1542419, c->core->midr)) {
		c->why = "MIDR not on the erratum's list";
		return 0;
	}
	c->why = "Neoverse N1 with CTR_EL0.DIC";
	return (int)((hs_core_idreg(c->core, HS_CTR_EL0) >> 29) & 1);
}

/* proton-pack.c, as spectre.c settles it: affected unless the state is
 * "unaffected", with spectre.c's reason */
static int mitigated(struct ctx *c, enum hs_mitigation state, const char *why)
{
	c->why = why;
	return state != HS_MIT_UNAFFECTED;
}

static int m_spectre_v2(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	return mitigated(c, c->out->spectre.v2, c->out->spectre.v2_why);
}

static int m_spectre_v3a(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = c->out->spectre.v3a ? "MIDR on spectre_v3a_unsafe_list" : "MIDR not on spectre_v3a_unsafe_list";
	return c->out->spectre.v3a;
}

static int m_spectre_v4(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	return mitigated(c, c->out->spectre.v4, c->out->spectre.v4_why);
}

static int m_spectre_bhb(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	return mitigated(c, c->out->spectre.bhb, c->out->spectre.bhb_why);
}

/* Matchers whose answer is fixed by the platform (sim/boot/platform.c)
 * or by the core not being a vendor part: the answer and why. */
static const struct { const char *name; int value; const char *why; } fixed[] = {
	{ "has_always", 1, "always" },
	{ "runs_at_el2", 0, "platform: kernel entered at EL1" },
	{ "is_kvm_protected_mode", 0, "platform: kernel entered at EL1" },
	{ "can_use_gic_priorities", 0, "pseudo-NMI not enabled (irqchip.gicv3_pseudo_nmi)" },
	{ "has_mismatched_cache_type", 0, "homogeneous system" },
	{ "has_no_hw_prefetch", 0, "MIDR is not the affected vendor part" },
	{ "is_kryo_midr", 0, "MIDR is not the affected vendor part" },
	{ "needs_tx2_tvm_workaround", 0, "MIDR is not the affected vendor part" },
};

static const struct { const char *name; matcher_fn fn; } matchers[] = {
	{ "has_cpuid_feature", m_cpuid },
	{ "has_user_cpuid_feature", m_cpuid },
	{ "has_address_auth_cpucap", m_cpuid },
	{ "has_amu", m_cpuid },
	{ "has_32bit_el0", m_cpuid },
	{ "has_useable_gicv3_cpuif", m_cpuid },
	{ "has_useable_cnp", m_cnp },
	{ "has_hw_dbm", m_dbm },
	{ "has_no_fpsimd", m_no_fpsimd },
	{ "has_cache_idc", m_idc },
	{ "has_cache_dic", m_dic },
	{ "has_address_auth_metacap", m_addr_auth },
	{ "has_generic_auth", m_generic_auth },
	{ "unmap_kernel_at_el0", m_unmap_kernel },
	{ "is_affected_midr_range", m_midr_range },
	{ "is_affected_midr_range_list", m_midr_list },
	{ "has_cortex_a76_erratum_1463225", m_midr_list },
	{ "has_neoverse_n1_erratum_1542419", m_n1_1542419 },
	{ "cpucap_multi_entry_cap_matches", multi_entry },
	{ "has_spectre_v2", m_spectre_v2 },
	{ "has_spectre_v3a", m_spectre_v3a },
	{ "has_spectre_v4", m_spectre_v4 },
	{ "is_spectre_bhb_affected", m_spectre_bhb },
};

/* The matcher called m (cpucaps.c's cc_eval_entry() found the name) on
 * entry e: 1 present, 0 absent, -1 for a name in neither table. */
int cc_match(struct ctx *c, const char *m, uint64_t e, int depth)
{
	for (size_t i = 0; i < HS_ARRAY_SIZE(matchers); i++)
		if (!strcmp(m, matchers[i].name))
			return matchers[i].fn(c, e, depth);
	for (size_t i = 0; i < HS_ARRAY_SIZE(fixed); i++)
		if (!strcmp(m, fixed[i].name)) {
			c->why = fixed[i].why;
			return fixed[i].value;
		}
	return -1;
}
