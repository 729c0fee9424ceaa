/*
 * cores.c - the modelled cores as boot-time code sees them: MIDR and the ID
 * registers Linux's cpufeature code reads, and how Linux 6.1's proton-pack.c
 * settles the Spectre mitigations on each. Register values are the reset
 * values from each core's Technical Reference Manual; see docs/core-data.md
 * for field-by-field decodes and sources.
 *
 * Configuration choices (a real SoC can differ, and says so in its TRM
 * options): the Cryptographic Extension is present, and the GICv3 CPU
 * interface system registers are enabled (ID_AA64PFR0_EL1.GIC = 1), as on
 * the boards people benchmark on (Raspberry Pi 3 has no GICv3; the paths
 * hotsim models are the GICv3 ones).
 */
#include <string.h>
#include <strings.h>

#include "hotsim/core.h"

const char hs_platform_assumptions[] =
	"kernel entered at EL1 (no hypervisor, VHE/KVM unused), at its link address "
	"(no KASLR offset), SMCCC 1.1 firmware with SMC conduit implementing the "
	"Spectre workarounds the core needs, homogeneous system of the modelled core";

/*
 * Cortex-A53 r0p4 (Raspberry Pi 3's BCM2837): Cortex-A53 MPCore TRM, ARM DDI
 * 0500J, section 4.3 AArch64 register summary / 4.3.x ID register
 * descriptions. Armv8.0: no LSE, no PAN, no RAS.
 */
static const struct hs_idreg a53_regs[] = {
	{ HS_MIDR_EL1, 0x410fd034 },		/* implementer 0x41, part 0xd03, r0p4 */
	{ HS_CTR_EL0, 0x84448004 },		/* 64-byte lines, VIPT L1I */
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },	/* EL0-3 AArch64+32, FP, AdvSIMD, GIC sysregs */
	{ HS_ID_AA64ISAR0_EL1, 0x00011120 },	/* AES+PMULL, SHA1, SHA2, CRC32 */
	{ HS_ID_AA64ISAR1_EL1, 0 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001122 },	/* 40-bit PA, 16-bit ASID, 4K/64K */
	{ HS_ID_AA64MMFR1_EL1, 0 },
	{ HS_ID_AA64MMFR2_EL1, 0 },
	{ HS_ID_AA64DFR0_EL1, 0x10305106 },
	{ 0, 0 }
};

/*
 * Cortex-A55 r2p0: Cortex-A55 Core TRM, Arm 100442_0200, section B2.x
 * AArch64 identification registers. Armv8.2 with LSE atomics (Atomic = 2),
 * RCpc (LRCPC = 1), PAN (PAN = 2, v8.2 ATS1E1RP), RAS, UAO, CnP, HAFDBS.
 */
static const struct hs_idreg a55_regs[] = {
	{ HS_MIDR_EL1, 0x412fd050 },		/* part 0xd05, r2p0 */
	{ HS_CTR_EL0, 0x84448004 },
	{ HS_ID_AA64PFR0_EL1, 0x11112222 },	/* + FP/AdvSIMD half-precision, GIC, RAS */
	{ HS_ID_AA64PFR1_EL1, 0x10 },		/* SSBS (QEMU's A55 model, from the TRM) */
	{ HS_ID_AA64ISAR0_EL1, 0x0000100010211120 },	/* + Atomic=2, RDM, DP */
	{ HS_ID_AA64ISAR1_EL1, 0x0000000000100001 },	/* DPB, LRCPC */
	{ HS_ID_AA64MMFR0_EL1, 0x00101122 },
	{ HS_ID_AA64MMFR1_EL1, 0x10212122 },	/* HAFDBS=2 VMID16 VH HPDS=2 LO PAN=2 XNX */
	{ HS_ID_AA64MMFR2_EL1, 0x00001011 },	/* CnP, UAO, IESB */
	{ HS_ID_AA64DFR0_EL1, 0x10305408 },
	{ 0, 0 }
};

/*
 * Cortex-A73 r0p2 (ODROID-N2 S922X, Khadas VIM3 A311D boot logs show
 * MIDR 0x410fd092): Armv8.0 like the A53; register values derived from the
 * v8.0 layout (Cortex-A73 TRM, Arm 100048, not at hand; see docs/core-data.md).
 */
static const struct hs_idreg a73_regs[] = {
	{ HS_MIDR_EL1, 0x410fd092 },		/* part 0xd09, r0p2 */
	{ HS_CTR_EL0, 0x84448004 },		/* VIPT L1I ("Detected VIPT I-cache" in A73 boot logs) */
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },
	{ HS_ID_AA64ISAR0_EL1, 0x00011120 },
	{ HS_ID_AA64ISAR1_EL1, 0 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001122 },	/* assumed 40-bit PA like the A53 (TRM not at hand) */
	{ HS_ID_AA64MMFR1_EL1, 0 },
	{ HS_ID_AA64MMFR2_EL1, 0 },
	{ HS_ID_AA64DFR0_EL1, 0x10305106 },
	{ 0, 0 }
};

/*
 * Spectre classification from Linux 6.1 arch/arm64/kernel/proton-pack.c:
 * A53 and A55 are on the Spectre-v2, Spectre-v4 (SSB) and Spectre-BHB safe
 * lists. A73 is on none of them and on no BHB loop list (k lists name
 * A57/A72/A76...), so with SMCCC firmware it uses ARCH_WORKAROUND_1 (v2)
 * and ARCH_WORKAROUND_3 (BHB: the EL1_VECTOR_BHB_FW vectors, an SMC on every
 * exception from EL0). Trusted Firmware-A mitigates Spectre-v4 on the A73
 * statically (CPUACTLR at reset) and answers ARCH_WORKAROUND_2 with "not
 * required", so the kernel reports it not affected (docs/core-data.md 2.3).
 */
static const struct hs_core a53 = {
	.name = "a53", .full = "Cortex-A53 r0p4", .arch = "Armv8.0-A",
	.midr = 0x410fd034, .idregs = a53_regs,
	.spectre_v2 = HS_MIT_UNAFFECTED, .spectre_v4 = HS_MIT_UNAFFECTED,
	.spectre_bhb = HS_MIT_UNAFFECTED,
	.source = "Cortex-A53 MPCore TRM (ARM DDI 0500J) 4.3; Linux 6.1 proton-pack.c safe lists",
};

static const struct hs_core a55 = {
	.name = "a55", .full = "Cortex-A55 r2p0", .arch = "Armv8.2-A",
	.midr = 0x412fd050, .idregs = a55_regs,
	.spectre_v2 = HS_MIT_UNAFFECTED, .spectre_v4 = HS_MIT_UNAFFECTED,
	.spectre_bhb = HS_MIT_UNAFFECTED,
	.source = "Cortex-A55 Core TRM (Arm 100442_0200) B2 via QEMU aarch64_a55_initfn; Linux 6.1 proton-pack.c",
};

static const struct hs_core a73 = {
	.name = "a73", .full = "Cortex-A73 r0p2", .arch = "Armv8.0-A",
	.midr = 0x410fd092, .idregs = a73_regs,
	.spectre_v2 = HS_MIT_FIRMWARE, .spectre_v4 = HS_MIT_UNAFFECTED,
	.spectre_bhb = HS_MIT_FIRMWARE,
	.source = "A73 v8.0 ID layout (derived), MIDR from boot logs; Linux 6.1 proton-pack.c; TF-A cortex_a73.S",
};

const struct hs_core *const hs_cores[] = { &a53, &a55, &a73, NULL };

const struct hs_core *hs_core_find(const char *name)
{
	if (strncasecmp(name, "cortex-", 7) == 0)
		name += 7;
	for (int i = 0; hs_cores[i]; i++)
		if (strcasecmp(hs_cores[i]->name, name) == 0)
			return hs_cores[i];
	return NULL;
}

uint64_t hs_core_idreg(const struct hs_core *core, uint32_t reg)
{
	for (const struct hs_idreg *r = core->idregs; r->reg; r++)
		if (r->reg == reg)
			return r->val;
	return 0;
}
