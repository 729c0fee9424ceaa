/*
 * core.h - a modelled CPU, described once: what boot-time code sees of it
 * (identification and feature registers, its boot CPU under QEMU) and how
 * it times instructions (its cost-model engine and parameter table). One
 * file per core, models/<core>.c, defines it with a source for every value;
 * models/registry.c lists the cores, and every list of cores (options, help,
 * errors, tests, the QEMU CPUs hotsim boots) is read from there.
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

struct hs_idreg {
	uint32_t reg;		/* HS_SYS_REG() encoding */
	uint64_t val;
};

/*
 * The QEMU CPU a core's booted state boots on, as QEMU defines it (its
 * -cpu init function in target/arm/cpu64.c): what the gdbstub does not
 * show. Its MIDR settles the boot CPU's errata and Spectre lists, PFR0 its
 * CSV2/CSV3, MMFR0 the page sizes it can boot.
 */
struct hs_qemu_cpu {
	uint32_t midr;
	uint64_t pfr0;		/* ID_AA64PFR0_EL1 as the guest reads it */
	uint64_t mmfr0;		/* ID_AA64MMFR0_EL1: the granules it translates with */
	const char *source;	/* "QEMU 7.2 target/arm/cpu64.c aarch64_a72_initfn" */
};

struct hs_engine;	/* models/model_internal.h */
struct hs_param;	/* hotsim/model.h */

/*
 * Identity (what boot-time code sees) then timing. A core states facts
 * about itself only - MIDR, ID registers, its boot CPU - and never how
 * Linux treats it: errata, Spectre and Meltdown follow from Linux's own
 * MIDR lists (sim/cpu/midr_lists.c) and the platform (sim/boot/platform.c).
 */
struct hs_core {
	const char *name;	/* "a53", used on the command line */
	const char *full;	/* "Cortex-A53 r0p4" */
	const char *arch;	/* "Armv8.0-A" */
	/* not in the default set (the design card's cores, which every
	 * command runs when --cpu is not given): selected by name or by
	 * --cpu all, listed by `hotsim models` */
	int opt_in;
	uint32_t midr;		/* MIDR_EL1, the one place: hs_core_idreg() answers from it */
	const struct hs_idreg *idregs;	/* the other ID registers, terminated by reg == 0 */
	/* platform: firmware without SMCCC 1.1 (QEMU's virt: PSCI 0.2 only),
	 * so Linux finds no conduit for the Spectre workarounds */
	int no_smccc;
	const char *source;	/* where the register values come from */
	/* booted state: the QEMU CPU the kernel boots on for this core (its
	 * own patching is overlaid on that state), that CPU's identity, and
	 * why it; NULL boot_cpu: none */
	const char *boot_cpu, *boot_why;
	struct hs_qemu_cpu boot;
	/* llvm-mca -mcpu: LLVM's scheduling model of the core, or the one LLVM
	 * itself uses for it (tests/mca_crosscheck.h); NULL: none */
	const char *mca_cpu;
	/* a typical clock of the core in a product, for projections to time
	 * (--freq overrides), and which product */
	uint64_t clock_hz;
	const char *clock_source;
	/* timing (models/) */
	const char *description;	/* "Cortex-A53 r0p4: in-order dual issue ..." */
	const struct hs_engine *engine;
	/* the parameters this core sets, by HS_P_* (HS_CAL/HS_UNCAL); the ones
	 * it leaves out take params_base's (a core derived from another lists
	 * only what differs: the N1 from the A76), then the engines' defaults
	 * (models/defaults.c) */
	const struct hs_param *params;
	const struct hs_core *params_base;	/* NULL: none */
};

/* All modelled cores, NULL-terminated (models/registry.c). */
extern const struct hs_core *const hs_cores[];

/* By name ("a53", "cortex-a53", "neoverse-n1" accepted); NULL if unknown. */
const struct hs_core *hs_core_find(const char *name);

/* "a53, a55, a73, a72, ...": every name the registry has, for errors. */
const char *hs_core_names(void);

/* "a53, a55, a73": the default set's names (the cores without opt_in),
 * what a command runs when --cpu is not given; for help texts. */
const char *hs_core_default_names(void);

/* Value of an ID/identification register; 0 (the architectural "not
 * implemented" for ID fields) if the table has no entry. */
static inline uint64_t hs_core_idreg(const struct hs_core *core, uint32_t reg)
{
	if (reg == HS_MIDR_EL1)
		return core->midr;
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

/* Whether the core translates with pages of this size (its MMFR0). */
static inline int hs_core_has_granule(const struct hs_core *core, unsigned page)
{
	return hs_mmfr0_has_granule(hs_core_idreg(core, HS_ID_AA64MMFR0_EL1), page);
}

/*
 * Platform assumptions shared by all cores, stated once so reports can print
 * them: the kernel is entered at EL1 (no hypervisor; VHE and KVM unused),
 * at its link address (no KASLR offset), with SMCCC 1.1 firmware whose
 * conduit is SMC, on a homogeneous system of the one modelled core.
 */
extern const char hs_platform_assumptions[];

#endif
