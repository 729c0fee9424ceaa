/*
 * test_patch_fixture.c - boot-time patching on the minikernel fixture
 * (kernels/fixtures/minikernel.S), where every expected value can be read
 * off the source: one relocation, three capabilities, four alternatives
 * (one unknown callback), three jump labels, one runtime constant, BTF.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "elf/btf.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"
#include "testutil.h"

#define NOP 0xd503201fu

static struct hs_image *img;

static void setup(void)
{
	img = hs_image_open(HS_FIXTURE("minikernel.elf"));
	cr_assert_not_null(img, "%s", hs_errmsg());
}

static void teardown(void)
{
	hs_image_close(img);
}

TestSuite(fixture_patch, .init = setup, .fini = teardown);

static uint64_t sym(const char *n)
{
	const struct hs_sym *s = hs_sym_exact(img, n);

	cr_assert_not_null(s, "%s", n);
	return s->addr;
}

static uint32_t word(const struct hs_patched *p, uint64_t va)
{
	uint32_t w = 0;

	cr_assert_eq(hs_read32(img, p->mem, va, &w), 0);
	return w;
}

static struct hs_patched *patch(const char *cpu)
{
	struct hs_patched *p = hs_patch(img, hs_core_find(cpu));

	cr_assert_not_null(p, "%s", hs_errmsg());
	return p;
}

Test(fixture_patch, identity_and_relocation)
{
	struct hs_patched *p = patch("a53");
	uint64_t v;

	cr_assert_str_eq(img->version, "6.1.0-mini");
	cr_assert_str_eq(img->compiler, "aarch64-linux-gnu-gcc (fixture) 12.2.0");
	cr_assert_eq(p->rep.rela_total, 1);
	cr_assert_eq(p->rep.rela_relative, 1);
	/* the file holds 0; the boot value is the GICv3 handler, a static
	 * function of irq-gic-v3.c (.file directive in the fixture) */
	cr_assert_eq(hs_read64(img, img->mem, sym("handle_arch_irq"), &v), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(hs_read64(img, p->mem, sym("handle_arch_irq"), &v), 0);
	cr_assert_eq(v, hs_sym_in_file(img, "gic_handle_irq", "irq-gic-v3.c")->addr);
	hs_patched_free(p);
}

Test(fixture_patch, capabilities_per_core)
{
	struct hs_patched *a53 = patch("a53"), *a55 = patch("a55"), *a73 = patch("a73");

	/* cpu_hwcaps_ptrs has 4 slots */
	cr_assert_eq(a53->caps.ncaps, 4);
	/* cap 0 has_always; cap 1 ISAR0.Atomic >= 2 (A55 only: 0x...0021_1120
	 * has Atomic = 2); cap 2 MIDR model 0x410fd030 (A53 only) */
	cr_assert(a53->caps.cap[0].present && a55->caps.cap[0].present && a73->caps.cap[0].present);
	cr_assert(!a53->caps.cap[1].present && a55->caps.cap[1].present && !a73->caps.cap[1].present);
	cr_assert(a53->caps.cap[2].present && !a55->caps.cap[2].present && !a73->caps.cap[2].present);
	cr_assert(!a53->caps.cap[3].present, "cap 3 has no table entry");
	cr_assert_str_eq(a55->caps.cap[1].desc, "LSE atomic instructions");
	hs_patched_free(a53);
	hs_patched_free(a55);
	hs_patched_free(a73);
}

Test(fixture_patch, alternatives)
{
	struct hs_patched *a53 = patch("a53"), *a55 = patch("a55");
	uint64_t lse = sym("lse_site");

	cr_assert_eq(a55->rep.alt_total, 4);
	cr_assert_eq(a55->rep.alt_applied, 1);
	cr_assert_eq(a55->rep.alt_cb_applied, 2);
	cr_assert_eq(a55->rep.alt_cb_unknown, 1);
	cr_assert_eq(a55->rep.nunknown_cbs, 1);
	cr_assert_str_eq(a55->rep.unknown_cbs[0].name, "mystery_callback");
	cr_assert_eq(a53->rep.alt_applied, 0);
	cr_assert_eq(a53->rep.alt_skipped, 1);
	/* A55: stadd x1, [x0] (LDADD Rs=1 Rn=0 Rt=xzr: 0xf821001f) + 3 nops */
	cr_assert_eq(word(a55, lse), 0xf821001fu);
	cr_assert_eq(word(a55, lse + 4), NOP);
	cr_assert_eq(word(a55, lse + 12), NOP);
	/* A53 keeps ldxr x2, [x0] (0xc85f7c02) */
	cr_assert_eq(word(a53, lse), 0xc85f7c02u);
	/* alt_cb_patch_nops under ALWAYS: the b becomes a nop */
	cr_assert_eq(word(a53, sym("always_site")), NOP);
	/* spectre_bhb_patch_loop_iter: movz x18, #k with k = 0 on these cores */
	cr_assert_eq(word(a53, sym("loop_iter_site")), 0xd2800012u);
	/* the unknown callback's site is left as in the file */
	cr_assert_eq(word(a55, sym("mystery_site")), NOP);
	hs_patched_free(a53);
	hs_patched_free(a55);
}

Test(fixture_patch, jump_labels)
{
	struct hs_patched *p = patch("a55");
	uint64_t site = sym("jl_sites");
	uint32_t b;

	cr_assert_eq(p->rep.jump_total, 3);
	cr_assert_eq(p->rep.jump_enabled, 2);
	cr_assert_eq(p->rep.jump_disabled, 1);
	cr_assert_eq(p->rep.jump_changed, 1);
	cr_assert_eq(p->rep.keys_flipped, 1);
	cr_assert_eq(word(p, site), NOP);		/* jl_off */
	/* jl_deact at +0x10: b to jl_deact_target at +0x18 = +8 bytes:
	 * B imm26 = 2 -> 0x14000002 */
	b = word(p, site + 0x10);
	cr_assert_eq(b, 0x14000002u, "got 0x%08x", b);
	hs_patched_free(p);
}

Test(fixture_patch, runtime_constant)
{
	struct hs_patched *p = patch("a73");
	uint64_t site = sym("rt_site"), want = hs_sym_in_file(img, "gic_handle_irq", "irq-gic-v3.c")->addr, got = 0;

	for (int i = 0; i < 4; i++)
		got |= (uint64_t)((word(p, site + 4 * i) >> 5) & 0xffff) << (16 * i);
	cr_assert_eq(got, want);
	cr_assert_eq(p->rep.rtconst_sections, 1);
	cr_assert_eq(p->rep.rtconst_sites, 1);
	hs_patched_free(p);
}

Test(fixture_patch, btf_offsets_by_hand)
{
	uint64_t off, size;

	cr_assert_not_null(img->btf);
	cr_assert_eq(hs_btf_struct_size(img->btf, "cpu_context", &size), 0);
	cr_assert_eq(size, 104);	/* 13 x 8 */
	cr_assert_eq(hs_btf_member(img->btf, "task_struct", "thread.cpu_context.sp", &off, &size), 0);
	cr_assert_eq(off, 136);		/* thread at 48, sp at 88 within */
	cr_assert_eq(size, 8);
	cr_assert_eq(hs_btf_member(img->btf, "task_struct", "tasks", &off, &size), 0);
	cr_assert_eq(off, 24);
	cr_assert_eq(size, 16);
	/* anonymous union, then anonymous struct inside it */
	cr_assert_eq(hs_btf_member(img->btf, "task_struct", "c", &off, &size), 0);
	cr_assert_eq(off, 44);
	cr_assert_eq(size, 4);
	cr_assert_neq(hs_btf_member(img->btf, "task_struct", "bf", &off, &size), 0,
		      "a bitfield has no byte offset");
}

Test(fixture_patch, idempotent)
{
	struct hs_patched *p = patch("a55");
	uint8_t *again = malloc(img->span);
	static struct hs_caps caps;
	struct hs_patch_report rep = { 0 };

	memcpy(again, p->mem, img->span);
	cr_assert_eq(hs_patch_apply(img, p->core, again, &caps, &rep), 0);
	cr_assert_eq(memcmp(again, p->mem, img->span), 0);
	hs_patch_report_free(&rep);
	free(again);
	hs_patched_free(p);
}
