/*
 * test_patch.c - boot-time patching on the real kernels: the counts equal
 * what the sections hold, relocation restores statically initialised
 * pointers, A55 gets LSE atomics where A53 keeps LL/SC loops, patching twice
 * changes nothing, and a corrupt patch table is refused by name.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"
#include "testutil.h"

static struct hs_image *open_kernel(const char *path)
{
	struct hs_image *img = hs_image_open(path);

	cr_assert_not_null(img, "%s", hs_errmsg());
	return img;
}

static struct hs_patched *patch_for(const struct hs_image *img, const char *cpu)
{
	struct hs_patched *p = hs_patch(img, hs_core_find(cpu));

	cr_assert_not_null(p, "%s", hs_errmsg());
	return p;
}

static uint64_t sym_addr(const struct hs_image *img, const char *name)
{
	const struct hs_sym *s = hs_sym_exact(img, name);

	cr_assert_not_null(s, "no symbol %s", name);
	return s->addr;
}

/* ncaps: ARM64_NCAPS = lines of arch/arm64/tools/cpucaps in the line's
 * Debian source (7.2.13: 125, 6.12.117: 102, 6.1.192: 85) */
static void counts_equal_section_contents(const char *kernel, unsigned ncaps)
{
	struct hs_image *img = open_kernel(hs_kernel(kernel));
	struct hs_patched *p = patch_for(img, "a55");
	const struct hs_section *rela = hs_section_find(img, ".rela.dyn");
	const struct hs_section *alt = hs_section_find(img, ".altinstructions");
	uint64_t js = sym_addr(img, "__start___jump_table"), je = sym_addr(img, "__stop___jump_table");
	unsigned relative = 0;

	cr_assert_not_null(rela);
	cr_assert_not_null(alt);
	/* Elf64_Rela is 24 bytes; count R_AARCH64_RELATIVE in the file itself */
	for (uint64_t off = 0; off < rela->size; off += sizeof(Elf64_Rela)) {
		Elf64_Rela r;

		memcpy(&r, img->file + rela->offset + off, sizeof(r));
		relative += ELF64_R_TYPE(r.r_info) == R_AARCH64_RELATIVE;
	}
	cr_assert_eq(p->rep.rela_total, rela->size / 24);
	cr_assert_eq(p->rep.rela_relative, relative);
	/* struct alt_instr is 12 bytes, struct jump_entry 16 */
	cr_assert_eq(p->rep.alt_total, alt->size / 12);
	cr_assert_eq(p->rep.alt_applied + p->rep.alt_cb_applied + p->rep.alt_skipped +
			     p->rep.alt_cb_unknown,
		     p->rep.alt_total);
	cr_assert_eq(p->rep.jump_total, (je - js) / 16);
	cr_assert_eq(p->rep.jump_enabled + p->rep.jump_disabled, p->rep.jump_total);
	cr_assert_eq(p->caps.ncaps, ncaps, "%s: %u capabilities", kernel, p->caps.ncaps);
	cr_assert_eq(p->rep.alt_cb_unknown, 0, "a callback hotsim cannot run: %s",
		     p->rep.nunknown_cbs ? p->rep.unknown_cbs[0].name : "");
	/* every capability has its name (the line's table in cpucap_names.c) */
	for (unsigned c = 0; c < p->caps.ncaps; c++)
		cr_assert_not_null(hs_cpucap_name(img->version_code, p->caps.ncaps, p->caps.ncaps_bound, c),
				   "%s: capability %u unnamed", kernel, c);
	hs_patched_free(p);
	hs_image_close(img);
}

Test(patch, counts_equal_section_contents_7_2)
{
	counts_equal_section_contents("7.2-base", 125);
}

Test(patch, counts_equal_section_contents_6_12)
{
	counts_equal_section_contents("6.12-base", 102);
}

Test(patch, counts_equal_section_contents_6_1)
{
	counts_equal_section_contents("6.1-base", 85);
}

Test(patch, relocation_restores_handle_arch_irq)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patch_report rep = { 0 };
	uint8_t *mem = malloc(img->span);
	uint64_t h = sym_addr(img, "handle_arch_irq"), v;
	struct hs_patched *p;

	/* In the file the pointer is 0: RELOCATABLE links with
	 * --no-apply-dynamic-relocs. */
	cr_assert_eq(hs_read64(img, img->mem, h, &v), 0);
	cr_assert_eq(v, 0, "handle_arch_irq is 0x%llx in the file", (unsigned long long)v);
	memcpy(mem, img->mem, img->span);
	cr_assert_eq(hs_apply_relocs(img, mem, &rep), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_read64(img, mem, h, &v), 0);
	/* arch/arm64/kernel/irq.c: handle_arch_irq = default_handle_irq */
	cr_assert_eq(v, sym_addr(img, "default_handle_irq"));
	hs_patch_report_free(&rep);
	free(mem);
	/* After the whole of boot, the GICv3 driver has installed its handler
	 * (the image also has GICv2's static gic_handle_irq: not that one). */
	p = patch_for(img, "a53");
	cr_assert_eq(hs_read64(img, p->mem, h, &v), 0);
	cr_assert_not_null(hs_sym_in_file(img, "gic_handle_irq", "irq-gic-v3.c"));
	cr_assert_eq(v, hs_sym_in_file(img, "gic_handle_irq", "irq-gic-v3.c")->addr);
	cr_assert_neq(v, hs_sym_in_file(img, "gic_handle_irq", "irq-gic.c")->addr);
	hs_patched_free(p);
	hs_image_close(img);
}

/* Count LSE atomics and exclusives in the instructions of every site the
 * LSE capability patched. */
static void classify_sites(const struct hs_image *img, const uint8_t *mem,
			   const struct hs_patched *ref, unsigned cap, unsigned *lse, unsigned *llsc)
{
	*lse = *llsc = 0;
	for (size_t i = 0; i < ref->rep.nsites; i++) {
		const struct hs_site *s = &ref->rep.sites[i];

		if (s->kind != HS_SITE_ALT || s->cap != cap)
			continue;
		for (unsigned k = 0; k < s->ninsn; k++) {
			struct a64_insn in;
			uint32_t w;

			memcpy(&w, hs_at(img, (uint8_t *)mem, s->addr + 4 * k, 4), 4);
			a64_decode(w, s->addr + 4 * k, &in);
			*lse += in.cls == A64_C_ATOMIC;
			*llsc += in.cls == A64_C_LOAD_EX || in.cls == A64_C_STORE_EX;
		}
	}
}

Test(patch, a55_has_lse_where_a53_has_llsc)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *a53 = patch_for(img, "a53"), *a55 = patch_for(img, "a55");
	unsigned cap = 0, lse55, llsc55, lse53, llsc53;
	char buf[64];

	for (cap = 0; cap < a55->caps.ncaps; cap++)
		if (!strcmp(hs_cpucap_label(img, &a55->caps, cap, buf, sizeof(buf)), "HAS_LSE_ATOMICS"))
			break;
	cr_assert_lt(cap, a55->caps.ncaps);
	cr_assert(a55->caps.cap[cap].present, "A55 is Armv8.2 with LSE (ID_AA64ISAR0_EL1.Atomic=2)");
	cr_assert(!a53->caps.cap[cap].present, "A53 is Armv8.0: no LSE");
	cr_assert_gt(a55->rep.alt_per_cap[cap], 100, "LSE sites throughout the kernel");
	cr_assert_eq(a53->rep.alt_per_cap[cap], 0);
	/* The same addresses: LSE atomics on A55, exclusive loops on A53. */
	classify_sites(img, a55->mem, a55, cap, &lse55, &llsc55);
	classify_sites(img, a53->mem, a55, cap, &lse53, &llsc53);
	cr_assert_gt(lse55, 100);
	cr_assert_eq(lse53, 0);
	cr_assert_gt(llsc53, 100);
	cr_assert_lt(llsc55, llsc53);
	/* and the text differs */
	cr_assert_neq(memcmp(a53->mem + (img->text_start - img->base),
			     a55->mem + (img->text_start - img->base), img->text_end - img->text_start),
		      0);
	hs_patched_free(a53);
	hs_patched_free(a55);
	hs_image_close(img);
}

Test(patch, twice_is_idempotent)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));

	for (int i = 0; hs_cores[i]; i++) {
		struct hs_patched *p = patch_for(img, hs_cores[i]->name);
		uint8_t *again = malloc(img->span);
		struct hs_caps *caps = malloc(sizeof(*caps));
		struct hs_patch_report rep = { 0 };

		memcpy(again, p->mem, img->span);
		cr_assert_eq(hs_patch_apply(img, hs_cores[i], again, caps, &rep), 0, "%s", hs_errmsg());
		cr_assert_eq(memcmp(again, p->mem, img->span), 0, "second patch changed %s's image",
			     hs_cores[i]->name);
		cr_assert_eq(rep.jump_changed, 0, "jump labels already in their boot state");
		hs_patch_report_free(&rep);
		free(caps);
		free(again);
		hs_patched_free(p);
	}
	hs_image_close(img);
}

Test(patch, errata_follow_midr)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *a53 = patch_for(img, "a53"), *a55 = patch_for(img, "a55"),
			  *a73 = patch_for(img, "a73");
	char buf[64];
	int seen = 0;

	for (unsigned c = 0; c < a55->caps.ncaps; c++) {
		const char *n = hs_cpucap_label(img, &a55->caps, c, buf, sizeof(buf));

		/* 843419 (adrp at page end): Cortex-A53 all revisions */
		if (!strcmp(n, "WORKAROUND_843419")) {
			cr_assert(a53->caps.cap[c].present && !a55->caps.cap[c].present &&
				  !a73->caps.cap[c].present);
			seen++;
		}
		/* 1530923 (speculative AT): Cortex-A55 r0p0-r2p0 */
		if (!strcmp(n, "WORKAROUND_SPECULATIVE_AT")) {
			cr_assert(a55->caps.cap[c].present && !a53->caps.cap[c].present);
			seen++;
		}
		/* 858921 (timer read): Cortex-A73 all revisions */
		if (!strcmp(n, "WORKAROUND_858921")) {
			cr_assert(a73->caps.cap[c].present && !a53->caps.cap[c].present);
			seen++;
		}
		/* Spectre-v2: A53/A55 on the safe list, A73 not */
		if (!strcmp(n, "SPECTRE_V2")) {
			cr_assert(a73->caps.cap[c].present && !a53->caps.cap[c].present &&
				  !a55->caps.cap[c].present);
			seen++;
		}
		/* PAN: ID_AA64MMFR1_EL1.PAN, Armv8.1+ */
		if (!strcmp(n, "HAS_PAN")) {
			cr_assert(a55->caps.cap[c].present && !a53->caps.cap[c].present &&
				  !a73->caps.cap[c].present);
			seen++;
		}
	}
	cr_assert_eq(seen, 5);
	hs_patched_free(a53);
	hs_patched_free(a55);
	hs_patched_free(a73);
	hs_image_close(img);
}

/*
 * The opt-in cores on Debian's 6.1 (every erratum below configured, 1542419
 * included), expected from Linux's arm64_errata[] (cpu_errata.c) by MIDR:
 * A72 r0p3: 1319367 (SPECULATIVE_AT: A57, A72 all), 1742098 (A57 r1+, A72
 * all), Spectre-v3a; A76 r4p1: 4118414 (REPEAT_TLBI: A76, N1 all) and
 * 3194386 (SPECULATIVE_SSBS: A76, N1 all), but not 1418040 (r0p0-r3p1);
 * N1 r3p1: those two, 1418040, and 1542419 (N1 with CTR_EL0.DIC).
 */
Test(patch, opt_in_errata_follow_midr)
{
	static const struct { const char *cap; int a72, a76, n1; } want[] = {
		{ "WORKAROUND_SPECULATIVE_AT", 1, 0, 0 },
		{ "WORKAROUND_1742098", 1, 0, 0 },
		{ "SPECTRE_V3A", 1, 0, 0 },
		{ "WORKAROUND_REPEAT_TLBI", 0, 1, 1 },
		{ "WORKAROUND_SPECULATIVE_SSBS", 0, 1, 1 },
		{ "WORKAROUND_1418040", 0, 0, 1 },
		{ "WORKAROUND_1542419", 0, 0, 1 },
		{ "HAS_CACHE_DIC", 0, 0, 1 },
		{ "HAS_LSE_ATOMICS", 0, 1, 1 },
	};
	struct hs_image *img = open_kernel(hs_kernel("debian-6.1"));
	struct hs_patched *a72 = patch_for(img, "a72"), *a76 = patch_for(img, "a76"), *n1 = patch_for(img, "n1");
	char buf[64];
	unsigned seen = 0;

	for (unsigned c = 0; c < a72->caps.ncaps; c++) {
		const char *n = hs_cpucap_label(img, &a72->caps, c, buf, sizeof(buf));

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
			if (strcmp(n, want[k].cap))
				continue;
			cr_expect_eq(a72->caps.cap[c].present, want[k].a72, "a72 %s", n);
			cr_expect_eq(a76->caps.cap[c].present, want[k].a76, "a76 %s", n);
			cr_expect_eq(n1->caps.cap[c].present, want[k].n1, "n1 %s", n);
			seen++;
		}
	}
	cr_assert_eq(seen, sizeof(want) / sizeof(want[0]), "capabilities found in the image");
	hs_patched_free(a72);
	hs_patched_free(a76);
	hs_patched_free(n1);
	hs_image_close(img);
}

/* A corrupted .altinstructions entry pointing outside text is refused. */
Test(patch, alternative_outside_text)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	const struct hs_section *alt = hs_section_find(img, ".altinstructions");
	struct hs_patched *p;
	int32_t bogus = 0x7ffffff0;

	cr_assert_not_null(alt);
	/* orig_offset of the first entry, in the pristine image */
	memcpy(hs_at(img, img->mem, alt->addr, 4), &bogus, 4);
	p = hs_patch(img, hs_core_find("a55"));
	cr_assert_null(p);
	cr_assert(strstr(hs_errmsg(), "outside kernel text"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), hs_kernel("7.2-base")), "%s", hs_errmsg());
	hs_image_close(img);
}

Test(patch, jump_label_outside_text)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	uint64_t js = sym_addr(img, "__start___jump_table");
	int32_t bogus = -0x7ffffff0;

	memcpy(hs_at(img, img->mem, js, 4), &bogus, 4);
	cr_assert_null(hs_patch(img, hs_core_find("a53")));
	cr_assert(strstr(hs_errmsg(), "jump label"), "%s", hs_errmsg());
	hs_image_close(img);
}

/* clang/lld with CONFIG_RELR packs the relative relocations: count them from
 * the .relr.dyn words here (an address word is one relocation, a bitmap
 * word one per set bit above bit 0) and compare with what hotsim applied. */
Test(patch, relr_on_the_clang_image)
{
	struct hs_image *img = open_kernel(hs_kernel("6.12-clang"));
	const struct hs_section *relr = hs_section_find(img, ".relr.dyn");
	struct hs_patched *p;
	unsigned words = 0, relocs = 0;

	cr_assert_not_null(relr, "the clang image is built with CONFIG_RELR");
	for (uint64_t off = 0; off + 8 <= relr->size; off += 8) {
		uint64_t w;

		memcpy(&w, img->file + relr->offset + off, 8);
		words++;
		relocs += (w & 1) ? (unsigned)__builtin_popcountll(w >> 1) : 1;
	}
	p = patch_for(img, "a55");
	cr_assert_eq(p->rep.relr_words, words);
	cr_assert_eq(p->rep.relr_relocs, relocs);
	cr_assert_gt(relocs, 1000);
	cr_assert_eq(p->rep.rela_relative, 0, "no RELA RELATIVE left with RELR");
	cr_assert(strstr(img->compiler, "clang version"), "%s", img->compiler);
	hs_patched_free(p);
	hs_image_close(img);
}
