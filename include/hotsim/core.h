/*
 * core.h - a modelled CPU, described once: what boot-time code sees of it
 * (identification and feature registers, how boot settles its Spectre
 * mitigations) and how it times instructions (its cost-model engine and
 * parameter table). One file per core, models/<core>.c, defines it with a
 * source for every value; models/registry.c lists the cores, and every list
 * of cores (options, help, errors, tests) is read from there.
 */
#ifndef HOTSIM_CORE_H
#define HOTSIM_CORE_H

#include <stdint.h>

/* Linux's sys_reg() encoding: op0<<19 | op1<<16 | CRn<<12 | CRm<<8 | op2<<5 */
#define HS_SYS_REG(op0, op1, crn, crm, op2) \
	(((op0) << 19) | ((op1) << 16) | ((crn) << 12) | ((crm) << 8) | ((op2) << 5))

#define HS_ID_AA64PFR0_EL1  HS_SYS_REG(3, 0, 0, 4, 0)
#define HS_ID_AA64PFR1_EL1  HS_SYS_REG(3, 0, 0, 4, 1)
#define HS_ID_AA64ZFR0_EL1  HS_SYS_REG(3, 0, 0, 4, 4)
#define HS_ID_AA64SMFR0_EL1 HS_SYS_REG(3, 0, 0, 4, 5)
#define HS_ID_AA64DFR0_EL1  HS_SYS_REG(3, 0, 0, 5, 0)
#define HS_ID_AA64DFR1_EL1  HS_SYS_REG(3, 0, 0, 5, 1)
#define HS_ID_AA64ISAR0_EL1 HS_SYS_REG(3, 0, 0, 6, 0)
#define HS_ID_AA64ISAR1_EL1 HS_SYS_REG(3, 0, 0, 6, 1)
#define HS_ID_AA64ISAR2_EL1 HS_SYS_REG(3, 0, 0, 6, 2)
#define HS_ID_AA64MMFR0_EL1 HS_SYS_REG(3, 0, 0, 7, 0)
#define HS_ID_AA64MMFR1_EL1 HS_SYS_REG(3, 0, 0, 7, 1)
#define HS_ID_AA64MMFR2_EL1 HS_SYS_REG(3, 0, 0, 7, 2)
#define HS_ID_AA64MMFR3_EL1 HS_SYS_REG(3, 0, 0, 7, 3)
#define HS_CTR_EL0          HS_SYS_REG(3, 3, 0, 0, 1)
#define HS_CLIDR_EL1        HS_SYS_REG(3, 1, 0, 0, 1)
#define HS_MIDR_EL1         HS_SYS_REG(3, 0, 0, 0, 0)
#define HS_REVIDR_EL1       HS_SYS_REG(3, 0, 0, 0, 6)
#define HS_MPIDR_EL1        HS_SYS_REG(3, 0, 0, 0, 5)

/* Spectre mitigation state as Linux's proton-pack.c would settle it. */
enum hs_mitigation {
	HS_MIT_UNAFFECTED,	/* on the kernel's safe list */
	HS_MIT_FIRMWARE,	/* affected, mitigated by a firmware (SMCCC) call */
	HS_MIT_LOOP,		/* Spectre-BHB: branchy loop in the vectors */
	HS_MIT_INSN		/* Spectre-BHB: clearbhb instruction */
};

struct hs_idreg {
	uint32_t reg;		/* HS_SYS_REG() encoding */
	uint64_t val;
};

struct hs_engine;	/* models/model_internal.h */
struct hs_param;	/* hotsim/model.h */

struct hs_core {
	const char *name;	/* "a53", used on the command line */
	const char *full;	/* "Cortex-A53 r0p4" */
	const char *arch;	/* "Armv8.0-A" */
	uint32_t midr;
	const struct hs_idreg *idregs;	/* terminated by reg == 0 */
	/* platform: how boot settles the Spectre mitigations on this core */
	enum hs_mitigation spectre_v2, spectre_v4, spectre_bhb;
	unsigned bhb_loop_k;	/* iterations when spectre_bhb == HS_MIT_LOOP */
	int no_smccc;		/* firmware without SMCCC 1.1 (QEMU's virt): no conduit */
	const char *source;	/* where the register values come from */
	/* booted state: the QEMU CPU the kernel boots on for this core (its
	 * own patching is overlaid on that state), and why; NULL: none */
	const char *boot_cpu, *boot_why;
	/* a typical clock of the core in a product, for projections to time
	 * (--freq overrides), and which product */
	uint64_t clock_hz;
	const char *clock_source;
	/* timing (models/) */
	const char *description;	/* "Cortex-A53 r0p4: in-order dual issue ..." */
	const struct hs_engine *engine;
	const struct hs_param *params;	/* every parameter, by HS_P_* */
};

/* All modelled cores, NULL-terminated (models/registry.c). */
extern const struct hs_core *const hs_cores[];

/* By name ("a53", "cortex-a53" accepted); NULL if unknown. */
const struct hs_core *hs_core_find(const char *name);

/* "a53, a55, a73": the registry's names, for help texts and errors. */
const char *hs_core_names(void);

/* Value of an ID/identification register; 0 (the architectural "not
 * implemented" for ID fields) if the table has no entry. */
static inline uint64_t hs_core_idreg(const struct hs_core *core, uint32_t reg)
{
	for (const struct hs_idreg *r = core->idregs; r->reg; r++)
		if (r->reg == reg)
			return r->val;
	return 0;
}

/*
 * Whether ID_AA64MMFR0_EL1 says a core translates with pages of this size
 * (Arm ARM D19.2: TGran4 [31:28] and TGran64 [27:24] are 0xf when not
 * implemented, TGran16 [23:20] is 0 when not). page 0 (unknown): yes.
 */
static inline int hs_mmfr0_has_granule(uint64_t mmfr0, unsigned page)
{
	switch (page) {
	case 4096: return ((mmfr0 >> 28) & 0xf) != 0xf;
	case 16384: return ((mmfr0 >> 20) & 0xf) != 0;
	case 65536: return ((mmfr0 >> 24) & 0xf) != 0xf;
	default: return 1;
	}
}

/*
 * Platform assumptions shared by all cores, stated once so reports can print
 * them: the kernel is entered at EL1 (no hypervisor; VHE and KVM unused),
 * at its link address (no KASLR offset), with SMCCC 1.1 firmware whose
 * conduit is SMC, on a homogeneous system of the one modelled core.
 */
extern const char hs_platform_assumptions[];

#endif
