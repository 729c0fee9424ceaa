/*
 * extra_registry.c - a throwaway core and a throwaway path, linked into a
 * test copy of hotsim (build/hotsim-extra) to show that a new core is one
 * data file plus one registry line and a new path one file plus one line:
 * each must appear in every list hotsim prints or accepts (test_cli.c).
 */
#include "hotsim/core.h"
#include "hotsim/paths.h"

/* the A53's engine and table under another name */
extern const struct hs_engine hs_engine_inorder;
#include "hotsim/model.h"	/* struct hs_param */
extern const struct hs_param hs_params_a53[];

static const struct hs_idreg t99_regs[] = {
	{ HS_MIDR_EL1, 0x410fd034 },
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },
	{ HS_ID_AA64ISAR0_EL1, 0x00011120 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001122 },
	{ 0, 0 }
};

const struct hs_core hs_core_extra = {
	.name = "t99", .full = "Throwaway T99", .arch = "Armv8.0-A",
	.midr = 0x410fd034, .idregs = t99_regs,
	.spectre_v2 = HS_MIT_UNAFFECTED, .spectre_v4 = HS_MIT_UNAFFECTED,
	.spectre_bhb = HS_MIT_UNAFFECTED,
	.source = "test: the Cortex-A53's registers",
	.description = "Throwaway T99: the A53 model under another name (registry test)",
	.engine = &hs_engine_inorder,
	.params = hs_params_a53,
};

static const char *const stubs[] = { "generic_handle_domain_irq", NULL };

/*
 * Its booted form, from this file alone: a point no definition of the
 * main registry names - A at the svc of its read() after the pipe point's
 * write(): it blocks until B has echoed the byte (the second half of the
 * round trip). The workload has the site (hs_at_read); the boot takes the
 * point because this definition names it, and validation steps it.
 */
static const struct hs_boot_point point = {
	.name = "extra-read", .kind = HS_POINT_SVC, .site = "hs_at_read",
};

const struct hs_path_def hs_path_extra = {
	.name = "extra.probe",
	.summary = "registry test: the EL1 IRQ entry under another name; booted: A's read() of the echo",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_IRQ,
	.from_el = 1,
	.intid = 27,
	.stubs = stubs,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 2, .samples = 8 } },
};
