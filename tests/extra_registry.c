/*
 * extra_registry.c - a throwaway core and a throwaway path, linked into a
 * test copy of hotsim (build/hotsim-extra) to show that a new core is one
 * data file plus one registry line and a new path one file plus one line:
 * each must appear in every list hotsim prints or accepts (test_cli.c).
 * tests/test_cores.c includes this file to put the core in its registry.
 * The path's user side is here too, as a booted path's is in its own file:
 * hotsim-extra's workload is built with it (the Makefile), hotsim's is not.
 *
 * The core differs from the modelled ones where a core file can: its
 * timing (out of order with two multiply pipes; every parameter it does
 * not set is the engines' default), its MIDR (a Cortex-A75's, which
 * Linux's kpti_safe_list leaves out: Meltdown-affected, so boot maps the
 * kernel out at EL0), and its granules (no 64K pages).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* getuid() looped at a site of its own: an operation hotsim's own
 * workload does not have, run after every one it has */
HS_SITE(hs_at_extra);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(0, 0, 0, SYS_getuid);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_at_extra_fn(0, 0, 0, SYS_getuid);
}

HS_USER_OP(extra, .order = 1000, .warm = warm, .run = run);
#else
#include "hotsim/core.h"
#include "hotsim/paths.h"
#include "hotsim/model.h"	/* struct hs_param */
#include "../models/model_internal.h"	/* HS_CAL/HS_UNCAL, the engines */

/*
 * The Cortex-A55's Armv8.2-A registers (models/a55.c) with what makes an
 * A75 Meltdown- and Spectre-affected: CSV2 = CSV3 = 0 in ID_AA64PFR0_EL1,
 * no SSBS in ID_AA64PFR1_EL1; and ID_AA64MMFR0_EL1.TGran64 = 0xf.
 */
static const struct hs_idreg t99_regs[] = {
	{ HS_CTR_EL0, 0x84448004 },
	{ HS_CLIDR_EL1, 0x82000023 },
	{ HS_ID_AA64PFR0_EL1, 0x11112222 },
	{ HS_ID_AA64ISAR0_EL1, 0x0000100010211120 },
	{ HS_ID_AA64ISAR1_EL1, 0x0000000000100001 },
	{ HS_ID_AA64MMFR0_EL1, 0x0f101122 },	/* 4K and 16K, no 64K */
	{ HS_ID_AA64MMFR1_EL1, 0x10212122 },
	{ HS_ID_AA64MMFR2_EL1, 0x00001011 },
	{ HS_ID_AA64DFR0_EL1, 0x10305408 },
	{ 0, 0 }
};

/* Only what differs from the engines' defaults (models/defaults.c). */
static const struct hs_param t99_params[HS_NPARAMS] = {
	HS_UNCAL(ISSUE_WIDTH, 2, "A: test: two-wide dispatch"),
	HS_UNCAL(FETCH_WIDTH, 4, "A: test: fetch ahead of dispatch"),
	HS_UNCAL(ROB_SIZE, 64, "A: test: a window that never fills on the benchmarks"),
	HS_UNCAL(MUL_PIPES, 2, "A: test: two multiply pipes"),
	HS_UNCAL(OCC_MUL, 1, "A: test: pipelined multipliers"),
};

const struct hs_core hs_core_extra = {
	.name = "t99", .full = "Throwaway T99", .arch = "Armv8.2-A",
	.midr = 0x410fd0a0,			/* Cortex-A75 r0p0 */
	.idregs = t99_regs,
	.source = "test: the Cortex-A55's registers, a Cortex-A75's MIDR, no CSV2/CSV3/SSBS, no 64K",
	.boot_cpu = "cortex-a76",
	.boot_why = "test: an Armv8.2-A QEMU CPU",
	.boot = { 0x414fd0b1, 0x1100000011111112ull, 0x00101122,
		  "QEMU 7.2 target/arm/cpu64.c aarch64_a76_initfn" },
	.clock_hz = 2000000000,
	.clock_source = "test: 2 GHz",
	.description = "Throwaway T99: out of order with two multiply pipes (registry test)",
	.engine = &hs_engine_ooo,
	.params = t99_params,
};

static const char *const stubs[] = { "generic_handle_domain_irq", NULL };

/*
 * Its booted form, from this file alone: a point no definition of the
 * main registry names, at the site of its own user side above (getuid());
 * the boot takes the point because this definition names it, and
 * validation steps it.
 */
static const struct hs_boot_point point = {
	.name = "extra-getuid", .kind = HS_POINT_SVC, .site = "hs_at_extra",
};

const struct hs_path_def hs_path_extra = {
	.name = "extra.probe",
	.summary = "registry test: the EL1 IRQ entry under another name; booted: its own getuid() loop",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_IRQ,
	.from_el = 1,
	.intid = 27,
	.stubs = stubs,
	.boot = { .point = &point, .op = { .kind = HS_OP_SYSCALL, .warmup = 2, .samples = 8 } },
};
#endif
