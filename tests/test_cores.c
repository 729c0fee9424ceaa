/*
 * test_cores.c - a core as data (docs/models.md): identity written once,
 * Linux's MIDR lists deciding errata, Spectre and Meltdown for any core,
 * granules from ID_AA64MMFR0_EL1, and timing parameters a core file may
 * leave to the engines' defaults or to the core it is derived from. The registry here also holds the
 * throwaway core t99 of tests/extra_registry.c (included below): two
 * multiply pipes, a Cortex-A75 MIDR, no 64K granule. No real kernel needed.
 *
 * Expected classifications are derived from Linux 7.2's lists
 * (sim/cpu/midr_lists.c cites each) and the platform's firmware
 * (sim/boot/platform.c), never from hotsim's output; expected cycles from
 * the pipe counts.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hotsim/cpucaps.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/model.h"
#include "cpu/midr_lists.h"
#include "emu/calls.h"
#include "emu/runner.h"
#include "vm/vm.h"
#include "testutil.h"

#include "extra_registry.c"

/* --- identity ------------------------------------------------------------------ */

Test(cores, identity_written_once)
{
	cr_assert_eq(hs_core_find("t99"), &hs_core_extra, "the throwaway core is in the registry");
	for (int c = 0; hs_cores[c]; c++) {
		const struct hs_core *k = hs_cores[c];

		cr_assert(k->midr, "%s has no MIDR", k->name);
		/* the MIDR is the field alone; the register reads it */
		for (const struct hs_idreg *r = k->idregs; r->reg; r++)
			cr_assert_neq(r->reg, HS_MIDR_EL1, "%s writes MIDR_EL1 twice", k->name);
		cr_assert_eq(hs_core_idreg(k, HS_MIDR_EL1), k->midr);
		cr_assert(k->clock_hz && k->clock_source, "%s: clock", k->name);
		if (!k->boot_cpu)
			continue;
		/* the boot CPU's identity is the core file's (the boot and the
		 * patcher read it from the core): cores booting on the same QEMU
		 * CPU agree on what it is */
		cr_assert(k->boot.midr && k->boot.mmfr0 && k->boot.source, "%s: boot CPU identity", k->name);
		for (int o = 0; o < c; o++) {
			const struct hs_qemu_cpu *q = &hs_cores[o]->boot;

			if (!hs_cores[o]->boot_cpu || strcmp(hs_cores[o]->boot_cpu, k->boot_cpu))
				continue;
			cr_assert(q->midr == k->boot.midr && q->pfr0 == k->boot.pfr0 && q->mmfr0 == k->boot.mmfr0,
				  "%s and %s disagree on QEMU's %s", k->name, hs_cores[o]->name, k->boot_cpu);
		}
	}
	/* the cross-checked cores name their llvm-mca CPU (tests/mca_crosscheck.h) */
	for (int c = 0; hs_cores[c]; c++)
		cr_assert(hs_cores[c] == &hs_core_extra || hs_cores[c]->mca_cpu, "%s", hs_cores[c]->name);
}

/* ID_AA64MMFR0_EL1 TGran4/TGran64 0xf = absent, TGran16 0 = absent */
Test(cores, granules_from_mmfr0)
{
	const struct hs_core *a53 = hs_core_find("a53"), *t99 = hs_core_find("t99");

	cr_assert_not_null(t99);
	/* a53 0x00001122: TGran4 0, TGran64 0, TGran16 0 */
	cr_assert(hs_core_has_granule(a53, 4096) && hs_core_has_granule(a53, 65536));
	cr_assert(!hs_core_has_granule(a53, 16384));
	/* t99 0x0f101122: TGran64 0xf, TGran16 1 */
	cr_assert(hs_core_has_granule(t99, 4096) && hs_core_has_granule(t99, 16384));
	cr_assert(!hs_core_has_granule(t99, 65536));
}

/*
 * Every shipped core's granules, read by hand from the ID_AA64MMFR0_EL1
 * value its file cites (TGran16 [23:20]: the A55's, A76's and N1's 1, the
 * A53's, A72's and A73's 0; all have 4K and 64K), and its QEMU boot CPU
 * has the granules the core has: a 16K image boots wherever the core can
 * run it, and where the core cannot it is refused before QEMU starts.
 */
Test(cores, granules_of_every_core_and_its_boot_cpu)
{
	static const struct {
		const char *name;
		int g16;
	} w[] = { { "a53", 0 }, { "a55", 1 }, { "a73", 0 }, { "a72", 0 }, { "a76", 1 }, { "n1", 1 } };

	for (size_t i = 0; i < HS_ARRAY_SIZE(w); i++) {
		const struct hs_core *k = hs_core_find(w[i].name);

		cr_assert_not_null(k, "%s", w[i].name);
		cr_assert(hs_core_has_granule(k, 4096) && hs_core_has_granule(k, 65536), "%s", k->name);
		cr_assert_eq(hs_core_has_granule(k, 16384), w[i].g16, "%s 16K", k->name);
	}
	for (int i = 0; hs_cores[i]; i++) {
		const struct hs_core *k = hs_cores[i];

		if (!k->boot_cpu)
			continue;
		for (unsigned page = 4096; page <= 65536; page *= 4)
			cr_assert(!hs_core_has_granule(k, page) || hs_mmfr0_has_granule(k->boot.mmfr0, page),
				  "%s has %uK pages and its boot CPU %s not", k->name, page >> 10, k->boot_cpu);
	}
}

/* --- Linux's lists, by MIDR ---------------------------------------------------------- */

struct expect {
	const char *who;
	enum hs_mitigation v2, v4, bhb;
	unsigned k;
	int meltdown, v3a;
	const char *why;
};

static void check(const struct hs_core *core, const struct expect *e)
{
	struct hs_spectre s;

	hs_spectre_eval(core, &s);
	cr_expect_eq(s.v2, e->v2, "%s v2: %s (%s)", e->who, s.v2_why, e->why);
	cr_expect_eq(s.v4, e->v4, "%s v4: %s (%s)", e->who, s.v4_why, e->why);
	cr_expect_eq(s.bhb, e->bhb, "%s bhb: %s (%s)", e->who, s.bhb_why, e->why);
	cr_expect_eq(s.bhb_k, e->k, "%s k (%s)", e->who, e->why);
	cr_expect_eq(s.meltdown, e->meltdown, "%s meltdown: %s (%s)", e->who, s.kpti_why, e->why);
	cr_expect_eq(s.v3a, e->v3a, "%s v3a (%s)", e->who, e->why);
	cr_expect_eq(hs_spectre_bhb(core), e->bhb, "%s", e->who);
}

Test(cores, modelled_cores_classified_by_their_midr)
{
	static const struct expect e[] = {
		{ "a53", HS_MIT_UNAFFECTED, HS_MIT_UNAFFECTED, HS_MIT_UNAFFECTED, 0, 0, 0,
		  "Cortex-A53: on the v2, v4, BHB and kpti safe lists" },
		{ "a55", HS_MIT_UNAFFECTED, HS_MIT_UNAFFECTED, HS_MIT_UNAFFECTED, 0, 0, 0,
		  "Cortex-A55: on the v2, v4, BHB and kpti safe lists" },
		{ "a73", HS_MIT_FIRMWARE, HS_MIT_UNAFFECTED, HS_MIT_FIRMWARE, 0, 0, 0,
		  "Cortex-A73: on no Spectre safe list, no CSV2/SSBS, on no k list: firmware WA1 and "
		  "WA3, WA2 not required; on kpti_safe_list" },
		{ "t99", HS_MIT_FIRMWARE, HS_MIT_UNAFFECTED, HS_MIT_FIRMWARE, 0, 1, 0,
		  "Cortex-A75: as the A73, but not on kpti_safe_list and no CSV3" },
		{ "a72", HS_MIT_VULNERABLE, HS_MIT_VULNERABLE, HS_MIT_VULNERABLE, 8, 0, 1,
		  "Cortex-A72 on the Pi 4's firmware (no SMCCC): on no v2/v4 safe list, no CSV2/SSBS, "
		  "no conduit: vulnerable; BHB k=8 list but v2 vulnerable: unmitigated; v3a list; kpti safe" },
		{ "a76", HS_MIT_UNAFFECTED, HS_MIT_HW, HS_MIT_LOOP, 24, 0, 0,
		  "Cortex-A76: CSV2, SSBS, CSV3; BHB k=24 list: the loop (Pi 5: 'Mitigation; CSV2, BHB')" },
		{ "n1", HS_MIT_UNAFFECTED, HS_MIT_HW, HS_MIT_LOOP, 24, 0, 0,
		  "Neoverse N1: CSV2, SSBS (= 2), CSV3; BHB k=24 list: the loop" },
	};

	for (size_t i = 0; i < HS_ARRAY_SIZE(e); i++) {
		const struct hs_core *core = hs_core_find(e[i].who);

		cr_assert_not_null(core, "%s", e[i].who);
		check(core, &e[i]);
	}
	/* erratum 1024718: every Cortex-A55 revision, no other modelled core */
	cr_assert(hs_midr_on(&hs_broken_dbm, hs_core_find("a55")->midr));
	cr_assert(!hs_midr_on(&hs_broken_dbm, hs_core_find("a53")->midr));
	cr_assert(!hs_midr_on(&hs_cnp_erratum, hs_core_find("a55")->midr));
	/* erratum 1542419: every Neoverse N1 (with CTR_EL0.DIC); not the A76 */
	cr_assert(hs_midr_on(&hs_n1_erratum_1542419, hs_core_find("n1")->midr));
	cr_assert(!hs_midr_on(&hs_n1_erratum_1542419, hs_core_find("a76")->midr));
	/* neither is on the broken-DBM or the CnP erratum list: HW DBM, CnP used */
	for (const char *const *n = (const char *const[]){ "a72", "a76", "n1", NULL }; *n; n++)
		cr_assert(!hs_midr_on(&hs_broken_dbm, hs_core_find(*n)->midr) &&
			  !hs_midr_on(&hs_cnp_erratum, hs_core_find(*n)->midr), "%s", *n);
}

/*
 * The boot CPUs, as boot_core() (sim/paths/booted.c) builds them: the core
 * file's MIDR and PFR0 for the QEMU CPU, QEMU's ID_AA64PFR1_EL1 (cortex-a76:
 * SSBS, aarch64_a76_initfn 0x10), and no SMCCC 1.1 (QEMU's PSCI 0.2). What
 * the lists say is what those kernels settled when booted (their
 * spectre_v2_state, spectre_v4_state, max_bhb_k, system_bhb_mitigations).
 */
Test(cores, boot_cpus_classified_by_their_midr)
{
	static const struct { const char *cpu; uint64_t pfr1; struct expect e; } qemu[] = {
		{ "cortex-a53", 0, { "cortex-a53", HS_MIT_UNAFFECTED, HS_MIT_UNAFFECTED,
				     HS_MIT_UNAFFECTED, 0, 0, 0, "Cortex-A53: every safe list" } },
		{ "cortex-a72", 0, { "cortex-a72", HS_MIT_VULNERABLE, HS_MIT_VULNERABLE,
				     HS_MIT_VULNERABLE, 8, 0, 1,
				     "Cortex-A72: no safe list and no firmware: v2, v4 vulnerable; BHB "
				     "k=8 list but v2 vulnerable: unmitigated; v3a list; kpti safe" } },
		{ "cortex-a76", 0x10, { "cortex-a76", HS_MIT_UNAFFECTED, HS_MIT_HW, HS_MIT_LOOP, 24, 0, 0,
					"Cortex-A76: CSV2, SSBS, CSV3; BHB k=24 list: loop" } },
		/* aarch64_neoverse_n1_initfn: ID_AA64PFR1_EL1 0x20 (SSBS = 2) */
		{ "neoverse-n1", 0x20, { "neoverse-n1", HS_MIT_UNAFFECTED, HS_MIT_HW, HS_MIT_LOOP, 24, 0, 0,
					 "Neoverse N1 r4p1: CSV2, SSBS, CSV3; BHB k=24 list: loop" } },
	};
	unsigned seen = 0;

	for (int c = 0; hs_cores[c]; c++) {
		const struct hs_core *k = hs_cores[c];

		for (size_t i = 0; k->boot_cpu && i < HS_ARRAY_SIZE(qemu); i++) {
			const struct hs_idreg regs[] = { { HS_ID_AA64PFR0_EL1, k->boot.pfr0 },
							 { HS_ID_AA64PFR1_EL1, qemu[i].pfr1 }, { 0, 0 } };
			struct hs_core b = { .name = k->boot_cpu, .midr = k->boot.midr, .idregs = regs,
					     .no_smccc = 1 };

			if (strcmp(k->boot_cpu, qemu[i].cpu))
				continue;
			check(&b, &qemu[i].e);
			seen++;
		}
	}
	cr_assert_geq(seen, 4, "every QEMU CPU of the table is some core's boot CPU");
}

/*
 * The opt-in cores (issue 21): identity from their products' boot logs and
 * TRMs (docs/core-data-a72-a76-n1.md §3), each booting on the QEMU 7.2 CPU
 * of its own name with that CPU's identity from cpu64.c.
 */
Test(cores, opt_in_cores_identity)
{
	static const struct {
		const char *name, *full, *boot, *mca;
		uint32_t midr, boot_midr;
		uint64_t mmfr0, hz;
		int g16;
	} w[] = {
		/* Pi 4: 0x410fd083 (r0p3); MMFR0 44-bit PA, TGran16 0: no 16K */
		{ "a72", "Cortex-A72 r0p3", "cortex-a72", "cortex-a72", 0x410fd083, 0x410fd083, 0x1124,
		  1500000000ull, 0 },
		/* Pi 5: 0x414fd0b1 (r4p1), QEMU's too; TRM76 B2.58 MMFR0 */
		{ "a76", "Cortex-A76 r4p1", "cortex-a76", "cortex-a76", 0x414fd0b1, 0x414fd0b1, 0x101122,
		  2400000000ull, 1 },
		/* Altra/Graviton2: 0x413fd0c1 (r3p1); QEMU 7.2's neoverse-n1 is r4p1 */
		{ "n1", "Neoverse N1 r3p1", "neoverse-n1", "neoverse-n1", 0x413fd0c1, 0x414fd0c1, 0x101125,
		  3000000000ull, 1 },
	};

	for (size_t i = 0; i < HS_ARRAY_SIZE(w); i++) {
		const struct hs_core *k = hs_core_find(w[i].name);

		cr_assert_not_null(k, "%s", w[i].name);
		cr_assert(k->opt_in, "%s is not in the default set", k->name);
		cr_assert_str_eq(k->full, w[i].full);
		cr_assert_eq(k->midr, w[i].midr, "%s MIDR %#x", k->name, k->midr);
		cr_assert_str_eq(k->boot_cpu, w[i].boot);
		cr_assert_eq(k->boot.midr, w[i].boot_midr, "%s: QEMU's %s", k->name, k->boot_cpu);
		cr_assert_str_eq(k->mca_cpu, w[i].mca);
		cr_assert_eq(k->clock_hz, w[i].hz);
		cr_assert_eq(hs_core_idreg(k, HS_ID_AA64MMFR0_EL1), w[i].mmfr0, "%s", k->name);
		/* the boot CPU translates with the granules the core does */
		cr_assert_eq(k->boot.mmfr0, w[i].mmfr0, "%s", k->name);
		cr_assert(hs_core_has_granule(k, 4096) && hs_core_has_granule(k, 65536), "%s", k->name);
		cr_assert_eq(hs_core_has_granule(k, 16384), w[i].g16, "%s 16K", k->name);
		cr_assert(k->engine == &hs_engine_ooo, "%s out of order", k->name);
	}
	/* the Pi 4's armstub has no SMCCC; the Pi 5 and N1 servers run TF-A */
	cr_assert(hs_core_find("a72")->no_smccc && !hs_core_find("a76")->no_smccc &&
		  !hs_core_find("n1")->no_smccc);
	/* found by their marketing names too */
	cr_assert_eq(hs_core_find("cortex-a76"), hs_core_find("a76"));
	cr_assert_eq(hs_core_find("neoverse-n1"), hs_core_find("n1"));
	/* the N1 has a coherent I-cache (CTR_EL0.DIC), the A76 not */
	cr_assert((hs_core_idreg(hs_core_find("n1"), HS_CTR_EL0) >> 29) & 1);
	cr_assert(!((hs_core_idreg(hs_core_find("a76"), HS_CTR_EL0) >> 29) & 1));
}

/* The default set - what every command runs without --cpu - is the design
 * card's three (and this registry's throwaway t99); the names list all. */
Test(cores, default_set_is_the_design_cards)
{
	cr_assert_str_eq(hs_core_default_names(), "a53, a55, a73, t99");
	cr_assert_str_eq(hs_core_names(), "a53, a55, a73, a72, a76, n1, t99");
	for (int c = 0; hs_cores[c]; c++)
		cr_assert_eq(hs_cores[c]->opt_in, !strcmp(hs_cores[c]->name, "a72") ||
			     !strcmp(hs_cores[c]->name, "a76") || !strcmp(hs_cores[c]->name, "n1"),
			     "%s", hs_cores[c]->name);
}

/* --- timing: parameters and pipes ------------------------------------------------- */

static const struct hs_param *param(const struct hs_model *m, const char *name)
{
	for (size_t i = 0; i < hs_model_nparams(m); i++)
		if (!strcmp(hs_model_param(m, i)->name, name))
			return hs_model_param(m, i);
	cr_assert_fail("no parameter %s", name);
	return NULL;
}

Test(cores, unset_parameters_take_the_defaults)
{
	struct hs_model *t = hs_model_new(hs_core_find("t99")), *a = hs_model_new(hs_core_find("a53"));

	cr_assert(t && a, "%s", hs_errmsg());
	/* every parameter listed for every core */
	cr_assert_eq(hs_model_nparams(t), hs_model_nparams(a));
	cr_assert_float_eq(param(t, "mul_pipes")->value, 2, 1e-9);
	cr_assert_str_eq(param(t, "mul_pipes")->source, "A: test: two multiply pipes");
	for (size_t i = 0; i < hs_model_nparams(t); i++) {
		const struct hs_param *p = hs_model_param(t, i);

		cr_assert(!p->calibrated && p->source[0] == 'A', "t99.%s", p->name);
	}
	/* what t99 does not set: the default, named as such */
	cr_assert(!strncmp(param(t, "lat_mul")->source, "A: default: ", 12), "%s",
		  param(t, "lat_mul")->source);
	/* the modelled cores set every parameter themselves */
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m = hs_model_new(hs_cores[c]);

		for (size_t i = 0; hs_cores[c] != &hs_core_extra && i < hs_model_nparams(m); i++)
			cr_assert(strncmp(hs_model_param(m, i)->source, "A: default: ", 12), "%s.%s",
				  hs_cores[c]->name, hs_model_param(m, i)->name);
		hs_model_free(m);
	}
	/* pipe counts are bounded */
	cr_assert_eq(hs_model_set_param(t, "mul_pipes", 0), -1);
	cr_assert(strstr(hs_errmsg(), "mul_pipes"), "%s", hs_errmsg());
	hs_model_free(t);
	hs_model_free(a);
}

/* A derived core (params_base) has its own entries where it sets them and
 * its base's everywhere else: value, source and mark alike. */
Test(cores, derived_core_takes_its_base_entries)
{
	int derived = 0;

	for (int c = 0; hs_cores[c]; c++) {
		const struct hs_core *k = hs_cores[c];
		struct hs_model *m, *b;

		if (!k->params_base)
			continue;
		derived++;
		m = hs_model_new(k);
		b = hs_model_new(k->params_base);
		cr_assert(m && b, "%s", hs_errmsg());
		for (size_t i = 0; i < hs_model_nparams(m); i++) {
			const struct hs_param *got = hs_model_param(m, i);
			const struct hs_param *want = k->params[i].source ? &k->params[i] : hs_model_param(b, i);

			cr_assert_float_eq(got->value, want->value, 1e-9, "%s.%s", k->name, got->name);
			cr_assert_str_eq(got->source, want->source, "%s.%s", k->name, got->name);
			cr_assert_eq(got->calibrated, want->calibrated, "%s.%s", k->name, got->name);
		}
		hs_model_free(m);
		hs_model_free(b);
	}
	cr_assert_eq(hs_core_find("n1")->params_base, hs_core_find("a76"), "the N1 is derived from the A76");
	cr_assert_eq(derived, 1);
}

#define CALLS 4

/* Warm cycles of CALLS calls of fn on core (with one parameter set). */
static uint64_t warm(struct hs_runner *r, const struct hs_image *img, const struct hs_calls *calls,
		     const char *core, const char *set, double v, const char *fn)
{
	struct hs_model *m = hs_model_new(hs_core_find(core));
	const struct hs_sym *s = hs_sym_exact(img, fn);
	struct hs_model_result res;
	struct hs_trace tr;
	uint64_t arg = 0;

	cr_assert(m && s, "%s %s", fn, hs_errmsg());
	if (set)
		cr_assert_eq(hs_model_set_param(m, set, v), 0, "%s", hs_errmsg());
	hs_trace_init(&tr, hs_rt_dcache(r), 1u << 20);
	cr_assert_eq(hs_calls_trace(r, calls, s->addr, &arg, 1, CALLS, 1000000, &tr), 0, "%s",
		     hs_errmsg());
	cr_assert_eq(hs_model_warm(m, &tr, 16, &res, NULL), 0, "%s", hs_errmsg());
	cr_assert(res.converged);
	hs_trace_free(&tr);
	hs_model_free(m);
	return res.cycles;
}

/*
 * bench_multput (kernels/fixtures/bench_alu.S): groups of four independent
 * muls, 8 groups in _a and 24 in _b; the difference over 16 groups leaves
 * the call out. t99 dispatches two per cycle to two pipelined multiply
 * pipes: 4 muls / 2 per cycle = 2 cycles a group; with mul_pipes=1 one
 * issues per cycle: 4 cycles a group.
 */
Test(cores, two_multiply_pipes_halve_a_mul_stream)
{
	struct hs_image *img = hs_image_open(HS_FIXTURE("bench_alu.elf"));
	struct hs_runner *r;
	struct hs_calls calls;
	double two, one;

	cr_assert_not_null(img, "%s (make fixtures)", hs_errmsg());
	r = hs_runner_new(img, img->mem, NULL);
	cr_assert_not_null(r, "%s", hs_errmsg());
	cr_assert_eq(hs_calls_init(r, CALLS, &calls), 0, "%s", hs_errmsg());
	two = ((double)warm(r, img, &calls, "t99", NULL, 0, "bench_multput_b") -
	       (double)warm(r, img, &calls, "t99", NULL, 0, "bench_multput_a")) / (CALLS * 16.0);
	one = ((double)warm(r, img, &calls, "t99", "mul_pipes", 1, "bench_multput_b") -
	       (double)warm(r, img, &calls, "t99", "mul_pipes", 1, "bench_multput_a")) / (CALLS * 16.0);
	cr_expect_float_eq(two, 2.0, 0.05, "two multiply pipes: %.3f cycles a group", two);
	cr_expect_float_eq(one, 4.0, 0.05, "one multiply pipe: %.3f cycles a group", one);
	hs_runner_free(r);
	hs_image_close(img);
}
