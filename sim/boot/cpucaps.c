/*
 * cpucaps.c - evaluate the image's arm64_features[] and arm64_errata[] for a
 * modelled core, the way arch/arm64/kernel/cpufeature.c does at boot.
 *
 * struct arm64_cpu_capabilities changed shape over time; the layouts hotsim
 * recognises are listed below and the one in use is reported. Entries are
 * validated (desc points into the image, matches points at a function) before
 * any field is believed.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/cpucaps.h"
#include "hotsim/err.h"
#include "cpu/midr_lists.h"
#include "elf/ksyms.h"

/* Field offsets inside struct arm64_cpu_capabilities. */
struct layout {
	const char *name;
	unsigned size;
	int min_version;	/* first kernel version code with this layout */
	int pos, width, min, max, sign;	/* -1: absent */
};

/*
 * desc@0, capability@8 (u16), type@10, matches@16, cpu_enable@24, then a
 * union at 32: {midr_range{model,rv_min,rv_max}@32, fixed_revs@48} |
 * midr_range_list@32 | {sys_reg@32, field_pos@36, ...}; match_list@56.
 */
static const struct layout layouts[] = {
	/* 6.10-era: + max_field_value, + const struct cpumask *cpus at 64 */
	{ "v6.4+ (field_width, max_field_value, cpus)", 72, 0x060400, 36, 37, 38, 39, 41 },
	/* 5.18 .. 6.x: field_width added after field_pos */
	{ "v5.18+ (field_width)", 64, 0x051200, 36, 37, 38, -1, 40 },
	/* 5.4 .. 5.17: width implicitly 4 */
	{ "v5.4+ (no field_width)", 64, 0x050400, 36, -1, 37, -1, 39 },
};

#define OFF_DESC	0
#define OFF_CAP		8
#define OFF_MATCHES	16
#define OFF_SYSREG	32
#define OFF_MIDR	32
#define OFF_FIXED_REVS	48
#define OFF_MIDR_LIST	32
#define OFF_MATCH_LIST	56

struct ctx {
	const struct hs_image *img;
	const uint8_t *mem;
	const struct hs_core *core;
	const struct layout *lay;
	struct hs_caps *out;
	const char *why;
	char whybuf[64];
};

static uint64_t rd64(struct ctx *c, uint64_t va)
{
	uint64_t v = 0;

	hs_read64(c->img, c->mem, va, &v);
	return v;
}

static uint32_t rd32(struct ctx *c, uint64_t va)
{
	uint32_t v = 0;

	hs_read32(c->img, c->mem, va, &v);
	return v;
}

static uint8_t rd8(struct ctx *c, uint64_t va)
{
	const uint8_t *p = hs_at(c->img, (uint8_t *)c->mem, va, 1);

	return p ? *p : 0;
}

/* Name of the function a pointer designates, suffix (.isra.0...) stripped
 * into buf; NULL if it is not the start of a function. */
static const char *func_name(struct ctx *c, uint64_t addr, char *buf, size_t len)
{
	const struct hs_sym *s = hs_sym_at(c->img, addr);

	if (!s || s->addr != addr || s->type != STT_FUNC)
		return NULL;
	snprintf(buf, len, "%s", s->name);
	buf[strcspn(buf, ".")] = 0;
	return buf;
}

static const char *str_in_image(struct ctx *c, uint64_t va)
{
	const uint8_t *p = hs_at(c->img, (uint8_t *)c->mem, va, 1);
	size_t avail;

	if (!p)
		return NULL;
	avail = c->img->span - (va - c->img->base);
	return memchr(p, 0, avail > 256 ? 256 : avail) ? (const char *)p : NULL;
}

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

static int eval_entry(struct ctx *c, uint64_t e, int depth);

static int multi_entry(struct ctx *c, uint64_t e, int depth)
{
	uint64_t list = rd64(c, e + OFF_MATCH_LIST);

	for (int i = 0; list && i < 16; i++, list += c->lay->size) {
		int r;

		if (!rd64(c, list + OFF_MATCHES))
			break;
		r = eval_entry(c, list, depth + 1);
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

/* proton-pack.c, as spectre.c settles it */
static int m_spectre_v2(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = c->out->spectre.v2_why;
	return c->out->spectre.v2 != HS_MIT_UNAFFECTED;
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
	c->why = c->out->spectre.v4_why;
	return c->out->spectre.v4 != HS_MIT_UNAFFECTED;
}

static int m_spectre_bhb(struct ctx *c, uint64_t e, int depth)
{
	(void)e, (void)depth;
	c->why = c->out->spectre.bhb_why;
	return c->out->spectre.bhb != HS_MIT_UNAFFECTED;
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

/*
 * One entry: 1 present, 0 absent, -1 unknown matcher. The matcher is
 * identified by its function name in the image; the rules are Linux's,
 * one table row each - a name not in the tables is reported, never guessed.
 */
static int eval_entry(struct ctx *c, uint64_t e, int depth)
{
	char buf[96];
	const char *m = func_name(c, rd64(c, e + OFF_MATCHES), buf, sizeof(buf));

	c->why = NULL;
	if (!m || depth > 4)
		return -1;
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

/* Does stride S describe the table? Every entry before the zero terminator
 * must have a function (or NULL) as matcher and a string (or NULL) as desc. */
static int stride_fits(struct ctx *c, uint64_t base, uint64_t size, unsigned s)
{
	char buf[96];
	uint64_t n = size / s;

	if (size % s || n < 2)
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t e = base + i * s, m = rd64(c, e + OFF_MATCHES), d = rd64(c, e + OFF_DESC);

		if (i == n - 1)
			return m == 0 && d == 0;
		if (m && !func_name(c, m, buf, sizeof(buf)))
			return 0;
		if (d && !str_in_image(c, d))
			return 0;
		if (!m && !d)
			return 0;
	}
	return 1;
}

static int pick_layout(struct ctx *c, const struct hs_sym *t)
{
	for (size_t i = 0; i < HS_ARRAY_SIZE(layouts); i++) {
		const struct layout *l = &layouts[i];

		if (!stride_fits(c, t->addr, t->size, l->size))
			continue;
		if (c->img->version_code && c->img->version_code < l->min_version)
			continue;
		c->lay = l;
		return 0;
	}
	return hs_fail("%s: %s[] (%llu bytes) does not match any known struct arm64_cpu_capabilities layout",
		       c->img->path, t->name, (unsigned long long)t->size);
}

static void find_ncaps(struct ctx *c, unsigned max_seen)
{
	const struct hs_sym *k = hs_sym_exact(c->img, "cpu_hwcap_keys");
	const struct hs_sym *b = hs_ksym_opt(c->img, "cpucap bitmap");
	const struct hs_sym *ptrs = hs_ksym_opt(c->img, "cpucap pointers");

	/* DEFINE_STATIC_KEY_ARRAY_FALSE(cpu_hwcap_keys, ARM64_NCAPS): 16-byte keys */
	if (k && k->size && k->size % 16 == 0 && k->size / 16 <= HS_MAX_CAPS) {
		c->out->ncaps = (unsigned)(k->size / 16);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of cpu_hwcap_keys[]");
	} else if (ptrs && ptrs->size && ptrs->size % 8 == 0 && ptrs->size / 8 <= HS_MAX_CAPS) {
		/* static const struct arm64_cpu_capabilities *cpu_hwcaps_ptrs[ARM64_NCAPS] */
		c->out->ncaps = (unsigned)(ptrs->size / 8);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of %s[]", ptrs->name);
	} else if (b && b->size && b->size * 8 <= HS_MAX_CAPS) {
		c->out->ncaps = (unsigned)(b->size * 8);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of %s (upper bound)",
			 b->name);
		c->out->ncaps_bound = 1;
	} else {
		c->out->ncaps = max_seen + 1;
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from),
			 "highest capability in the tables");
		c->out->ncaps_bound = -1;
	}
}

static int walk_table(struct ctx *c, const struct hs_sym *t, unsigned *max_seen)
{
	uint64_t n = t->size / c->lay->size;

	for (uint64_t i = 0; i + 1 < n; i++) {
		uint64_t e = t->addr + i * c->lay->size;
		unsigned cap = rd8(c, e + OFF_CAP) | (unsigned)rd8(c, e + OFF_CAP + 1) << 8;
		uint64_t d = rd64(c, e + OFF_DESC);
		struct hs_cap_info *ci;
		char buf[96];
		int r;

		if (cap >= HS_MAX_CAPS)
			return hs_fail("%s: %s[%llu] has capability %u, beyond %u", c->img->path,
				       t->name, (unsigned long long)i, cap, HS_MAX_CAPS);
		if (cap > *max_seen)
			*max_seen = cap;
		ci = &c->out->cap[cap];
		ci->listed = 1;
		if (d && !ci->desc)
			ci->desc = str_in_image(c, d);
		r = eval_entry(c, e, 0);
		if (r < 0) {
			const char *m = func_name(c, rd64(c, e + OFF_MATCHES), buf, sizeof(buf));
			const struct hs_sym *s = hs_sym_at(c->img, rd64(c, e + OFF_MATCHES));

			if (c->out->nunknown < HS_ARRAY_SIZE(c->out->unknown)) {
				c->out->unknown[c->out->nunknown].matcher = (m && s) ? s->name : "(none)";
				c->out->unknown[c->out->nunknown].cap = cap;
				c->out->nunknown++;
			}
			if (!ci->present && !ci->why)
				ci->why = "unknown matcher: left off";
			continue;
		}
		if (r == 1 && !ci->present) {
			const struct hs_sym *s = hs_sym_at(c->img, rd64(c, e + OFF_MATCHES));

			ci->present = 1;
			ci->matcher = s ? s->name : NULL;
			snprintf(c->out->why_buf[cap], sizeof(c->out->why_buf[cap]), "%s",
				 c->why ? c->why : "");
			ci->why = c->out->why_buf[cap];
		} else if (!ci->present && c->why) {
			snprintf(c->out->why_buf[cap], sizeof(c->out->why_buf[cap]), "%s", c->why);
			ci->why = c->out->why_buf[cap];
		}
	}
	return 0;
}

int hs_cpucaps_eval(const struct hs_image *img, const uint8_t *mem, const struct hs_core *core,
		    struct hs_caps *out)
{
	const struct hs_sym *feat = hs_sym_exact(img, "arm64_features");
	const struct hs_sym *errata = hs_sym_exact(img, "arm64_errata");
	struct ctx c = { .img = img, .mem = mem, .core = core, .out = out };
	unsigned max_seen = 0;

	memset(out, 0, sizeof(*out));
	hs_spectre_eval(core, &out->spectre);
	if (!feat || !feat->size)
		return hs_fail("%s: no arm64_features[] table; cannot tell which CPU features boot enables",
			       img->path);
	if (pick_layout(&c, feat))
		return -1;
	out->entry_size = c.lay->size;
	out->layout = c.lay->name;
	if (walk_table(&c, feat, &max_seen))
		return -1;
	if (errata && errata->size) {
		if (!stride_fits(&c, errata->addr, errata->size, c.lay->size))
			return hs_fail("%s: arm64_errata[] does not match the layout of arm64_features[]",
				       img->path);
		if (walk_table(&c, errata, &max_seen))
			return -1;
	}
	find_ncaps(&c, max_seen);
	if (max_seen >= out->ncaps)
		return hs_fail("%s: capability %u beyond ARM64_NCAPS %u (%s)", img->path, max_seen,
			       out->ncaps, out->ncaps_from);
	return 0;
}

const char *hs_cpucap_label(const struct hs_image *img, const struct hs_caps *caps, unsigned cap,
			    char *buf, unsigned len)
{
	const char *n = hs_cpucap_name(img->version_code, caps->ncaps, caps->ncaps_bound, cap);

	if (n)
		snprintf(buf, len, "%s", n);
	else if (cap < HS_MAX_CAPS && caps->cap[cap].desc)
		snprintf(buf, len, "cap %u (%s)", cap, caps->cap[cap].desc);
	else
		snprintf(buf, len, "cap %u", cap);
	return buf;
}
