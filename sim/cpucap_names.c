/*
 * cpucap_names.c - capability names by number, per kernel version, for
 * reports only. What a capability *does* on a core is derived from the image
 * (arm64_features[]/arm64_errata[], see cpucaps.c); names are a convenience,
 * used only when the image's version and capability count match a table.
 *
 * Linux 6.1: arch/arm64/tools/cpucaps, numbered in file order by
 * arch/arm64/tools/gen-cpucaps.awk.
 */
#include <stddef.h>
#include <string.h>

#include "hotsim/cpucaps.h"

static const char *const caps_6_1[] = {
	"ALWAYS_BOOT",
	"ALWAYS_SYSTEM",
	"BTI",
	"HAS_32BIT_EL0_DO_NOT_USE",
	"HAS_32BIT_EL1",
	"HAS_ADDRESS_AUTH",
	"HAS_ADDRESS_AUTH_ARCH_QARMA3",
	"HAS_ADDRESS_AUTH_ARCH_QARMA5",
	"HAS_ADDRESS_AUTH_IMP_DEF",
	"HAS_AMU_EXTN",
	"HAS_ARMv8_4_TTL",
	"HAS_CACHE_DIC",
	"HAS_CACHE_IDC",
	"HAS_CNP",
	"HAS_CRC32",
	"HAS_DCPODP",
	"HAS_DCPOP",
	"HAS_E0PD",
	"HAS_ECV",
	"HAS_EPAN",
	"HAS_GENERIC_AUTH",
	"HAS_GENERIC_AUTH_ARCH_QARMA3",
	"HAS_GENERIC_AUTH_ARCH_QARMA5",
	"HAS_GENERIC_AUTH_IMP_DEF",
	"HAS_IRQ_PRIO_MASKING",
	"HAS_LDAPR",
	"HAS_LSE_ATOMICS",
	"HAS_NO_FPSIMD",
	"HAS_NO_HW_PREFETCH",
	"HAS_PAN",
	"HAS_RAS_EXTN",
	"HAS_RNG",
	"HAS_SB",
	"HAS_STAGE2_FWB",
	"HAS_SYSREG_GIC_CPUIF",
	"HAS_TIDCP1",
	"HAS_TLB_RANGE",
	"HAS_VIRT_HOST_EXTN",
	"HAS_WFXT",
	"HW_DBM",
	"KVM_PROTECTED_MODE",
	"MISMATCHED_CACHE_TYPE",
	"MTE",
	"MTE_ASYMM",
	"SME",
	"SME_FA64",
	"SPECTRE_V2",
	"SPECTRE_V3A",
	"SPECTRE_V4",
	"SPECTRE_BHB",
	"SSBS",
	"SVE",
	"UNMAP_KERNEL_AT_EL0",
	"WORKAROUND_834220",
	"WORKAROUND_843419",
	"WORKAROUND_845719",
	"WORKAROUND_858921",
	"WORKAROUND_1418040",
	"WORKAROUND_1463225",
	"WORKAROUND_1508412",
	"WORKAROUND_1542419",
	"WORKAROUND_1742098",
	"WORKAROUND_1902691",
	"WORKAROUND_2038923",
	"WORKAROUND_2064142",
	"WORKAROUND_2077057",
	"WORKAROUND_2658417",
	"WORKAROUND_AMPERE_AC03_CPU_38",
	"WORKAROUND_TRBE_OVERWRITE_FILL_MODE",
	"WORKAROUND_TSB_FLUSH_FAILURE",
	"WORKAROUND_TRBE_WRITE_OUT_OF_RANGE",
	"WORKAROUND_CAVIUM_23154",
	"WORKAROUND_CAVIUM_27456",
	"WORKAROUND_CAVIUM_30115",
	"WORKAROUND_CAVIUM_TX2_219_PRFM",
	"WORKAROUND_CAVIUM_TX2_219_TVM",
	"WORKAROUND_CLEAN_CACHE",
	"WORKAROUND_DEVICE_LOAD_ACQUIRE",
	"WORKAROUND_NVIDIA_CARMEL_CNP",
	"WORKAROUND_QCOM_FALKOR_E1003",
	"WORKAROUND_REPEAT_TLBI",
	"WORKAROUND_SPECULATIVE_AT",
	"WORKAROUND_SPECULATIVE_SSBS",
	"WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
	"WORKAROUND_BROKEN_AMU_CONSTCNT",
};

struct names {
	int major, minor;
	const char *const *names;
	unsigned n;
};

static const struct names tables[] = {
	{ 6, 1, caps_6_1, sizeof(caps_6_1) / sizeof(caps_6_1[0]) },
};

const char *hs_cpucap_name(int version_code, unsigned ncaps, unsigned cap)
{
	int major = version_code >> 16, minor = (version_code >> 8) & 0xff;

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct names *t = &tables[i];

		if (t->major == major && t->minor == minor && t->n == ncaps && cap < t->n)
			return t->names[cap];
	}
	return NULL;
}
