/*
 * alternatives.c - apply .altinstructions for a core, as
 * arch/arm64/kernel/alternative.c does: for each entry whose capability the
 * core has, copy the replacement over the original (fixing up pc-relative
 * branches and adrp), or run the named callback.
 *
 *   struct alt_instr { s32 orig_offset; s32 alt_offset; u16 cpufeature;
 *                      u8 orig_len; u8 alt_len; };   12 bytes, offsets
 *                                                     relative to the field
 * Callback entries: 6.1+ set bit 15 of cpufeature (ARM64_CB_BIT); before
 * that they used cpufeature == ARM64_NCAPS (ARM64_CB_PATCH). Both have
 * alt_len == 0 and alt_offset pointing at the callback function.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "a64/encode.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"

#define ALT_SIZE 12
#define CB_BIT 0x8000u
#define MAX_ALT_INSNS 64

struct alt {
	uint64_t entry, orig, repl;
	unsigned cap, orig_len, alt_len, is_cb;
};

/*
 * Callbacks, by name. Each decides from the core what Linux 6.1's function of
 * the same name would write (see proton-pack.c, alternative.c); the Spectre
 * ones from how boot settled Spectre on it (caps->spectre, spectre.c).
 * Returns 0, or -1 for a malformed site.
 */
typedef int (*alt_cb_fn)(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
			 unsigned n);

static int cb_patch_nops(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
			 unsigned n)
{
	(void)core, (void)caps;
	for (unsigned i = 0; i < n; i++)
		insn[i] = A64_NOP;
	return 0;
}

/* Branch over the SSB firmware call -> NOP when the mitigation is dynamic
 * (affected, no SSBS, firmware implements ARCH_WORKAROUND_2). */
static int cb_v4_fw_enable(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
			   unsigned n)
{
	(void)core;
	if (n != 1)
		return -1;
	if (caps->spectre.v4 == HS_MIT_FIRMWARE)
		insn[0] = A64_NOP;
	return 0;
}

/* NOP -> SMC: the platform's SMCCC conduit (none: the NOP stays). */
static int cb_smccc_conduit(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
			    unsigned n)
{
	(void)caps;
	if (n != 1)
		return -1;
	if (!core->no_smccc)
		insn[0] = A64_SMC0;
	return 0;
}

static int cb_bhb_loop_enable(const struct hs_core *core, const struct hs_caps *caps,
			      uint32_t *insn, unsigned n)
{
	(void)core;
	if (n != 1)
		return -1;
	if (caps->spectre.bhb == HS_MIT_LOOP)
		insn[0] = A64_NOP;
	return 0;
}

static int cb_bhb_fw_enabled(const struct hs_core *core, const struct hs_caps *caps,
			     uint32_t *insn, unsigned n)
{
	(void)core;
	if (n != 1)
		return -1;
	if (caps->spectre.bhb == HS_MIT_FIRMWARE)
		insn[0] = A64_NOP;
	return 0;
}

/* mov xRd, #k: the loop count (max_bhb_k: set for an affected core whether
 * or not the loop mitigates it, 0 on cores on no loop list). */
static int cb_bhb_loop_iter(const struct hs_core *core, const struct hs_caps *caps,
			    uint32_t *insn, unsigned n)
{
	(void)core;
	if (n != 1)
		return -1;
	insn[0] = a64_gen_movz64(a64_rd(insn[0]), (uint16_t)caps->spectre.bhb_k);
	return 0;
}

/* mov wRd, #ARM_SMCCC_ARCH_WORKAROUND_3 when firmware mitigates BHB. */
static int cb_bhb_wa3(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
		      unsigned n)
{
	(void)core;
	if (n != 1)
		return -1;
	if (caps->spectre.bhb == HS_MIT_FIRMWARE)
		insn[0] = a64_gen_orr_wa3(a64_rd(insn[0]));
	return 0;
}

/* clearbhb; isb -> NOPs unless the core mitigates with the instruction. */
static int cb_bhb_clearbhb(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
			   unsigned n)
{
	(void)core;
	if (n != 2)
		return -1;
	if (caps->spectre.bhb != HS_MIT_INSN)
		insn[0] = insn[1] = A64_NOP;
	return 0;
}

/* KASAN hardware tags need MTE, which none of the modelled cores has. */
static int cb_leave(const struct hs_core *core, const struct hs_caps *caps, uint32_t *insn,
		    unsigned n)
{
	(void)core, (void)caps, (void)insn, (void)n;
	return 0;
}

static const struct {
	const char *name;
	alt_cb_fn fn;
} callbacks[] = {
	{ "alt_cb_patch_nops", cb_patch_nops },
	{ "spectre_v4_patch_fw_mitigation_enable", cb_v4_fw_enable },
	{ "smccc_patch_fw_mitigation_conduit", cb_smccc_conduit },
	{ "spectre_bhb_patch_loop_mitigation_enable", cb_bhb_loop_enable },
	{ "spectre_bhb_patch_fw_mitigation_enabled", cb_bhb_fw_enabled },
	{ "spectre_bhb_patch_loop_iter", cb_bhb_loop_iter },
	{ "spectre_bhb_patch_wa3", cb_bhb_wa3 },
	{ "spectre_bhb_patch_clearbhb", cb_bhb_clearbhb },
	{ "kasan_hw_tags_enable", cb_leave },
};

static alt_cb_fn find_cb(const char *name)
{
	size_t len = strcspn(name, ".");	/* tolerate .isra/.llvm suffixes */

	for (size_t i = 0; i < HS_ARRAY_SIZE(callbacks); i++)
		if (strlen(callbacks[i].name) == len && !strncmp(callbacks[i].name, name, len))
			return callbacks[i].fn;
	return NULL;
}

static int in_text(const struct hs_image *img, uint64_t a, uint64_t len)
{
	/* Kernel text, init text and replacement sections are all executable. */
	for (size_t i = 0; i < img->nsecs; i++) {
		const struct hs_section *s = &img->secs[i];

		if ((s->flags & SHF_EXECINSTR) && a >= s->addr && a - s->addr <= s->size &&
		    len <= s->size - (a - s->addr))
			return 1;
	}
	return 0;
}

static int read_alt(const struct hs_image *img, const uint8_t *mem, uint64_t va, unsigned ncaps,
		    struct alt *a)
{
	const uint8_t *p = hs_at(img, (uint8_t *)mem, va, ALT_SIZE);
	int32_t o, r;
	uint16_t f;

	memcpy(&o, p, 4);
	memcpy(&r, p + 4, 4);
	memcpy(&f, p + 8, 2);
	a->entry = va;
	a->orig = va + (int64_t)o;
	a->repl = va + 4 + (int64_t)r;
	a->orig_len = p[10];
	a->alt_len = p[11];
	a->is_cb = (f & CB_BIT) || (f == ncaps && a->alt_len == 0);
	a->cap = f & ~CB_BIT;
	if (a->orig_len % 4 || a->alt_len % 4 || a->orig_len / 4 > MAX_ALT_INSNS)
		return hs_fail("%s: alternative at 0x%llx has bad lengths %u/%u", img->path,
			       (unsigned long long)va, a->orig_len, a->alt_len);
	if (!in_text(img, a->orig, a->orig_len))
		return hs_fail("%s: alternative at 0x%llx patches 0x%llx, outside kernel text",
			       img->path, (unsigned long long)va, (unsigned long long)a->orig);
	if (!a->is_cb && (a->alt_len != a->orig_len || !in_text(img, a->repl, a->alt_len)))
		return hs_fail("%s: alternative at 0x%llx: replacement 0x%llx (%u bytes) invalid",
			       img->path, (unsigned long long)va, (unsigned long long)a->repl,
			       a->alt_len);
	return 0;
}

/* get_alt_insn(): move one replacement instruction to its new address. */
static int relocate_insn(const struct hs_image *img, const struct alt *a, uint64_t at,
			 uint64_t from, uint32_t insn, uint32_t *out)
{
	int64_t off;

	if (a64_branch_imm_offset(insn, &off)) {
		uint64_t target = from + (uint64_t)off;

		/* branches inside the replacement stay as they are */
		if (!(target >= a->repl && target <= a->repl + a->alt_len)) {
			insn = a64_branch_imm_set(insn, (int64_t)(target - at));
			if (!insn)
				return hs_fail("%s: alternative at 0x%llx: branch out of range",
					       img->path, (unsigned long long)a->entry);
		}
	} else if (a64_adrp_offset(insn, &off)) {
		uint64_t target = (from & ~4095ULL) + (uint64_t)off;

		insn = a64_adrp_set(insn, (int64_t)(target - (at & ~4095ULL)));
	} else if (a64_uses_literal(insn)) {
		return hs_fail("%s: alternative at 0x%llx moves a literal-using instruction",
			       img->path, (unsigned long long)a->entry);
	}
	*out = insn;
	return 0;
}

int hs_apply_alternatives(const struct hs_image *img, const struct hs_core *core, uint8_t *mem,
			  const struct hs_caps *caps, struct hs_patch_report *rep)
{
	const struct hs_sym *b = hs_sym_exact(img, "__alt_instructions");
	const struct hs_sym *e = hs_sym_exact(img, "__alt_instructions_end");
	const struct hs_section *sec = hs_section_find(img, ".altinstructions");
	uint64_t lo, hi;

	if (b && e) {
		lo = b->addr;
		hi = e->addr;
	} else if (sec) {
		lo = sec->addr;
		hi = sec->addr + sec->size;
	} else {
		return 0;	/* no alternatives (not a kernel, or a very old one) */
	}
	if (hi < lo || (hi - lo) % ALT_SIZE || !hs_at(img, mem, lo, hi - lo))
		return hs_fail("%s: .altinstructions [0x%llx, 0x%llx) is malformed", img->path,
			       (unsigned long long)lo, (unsigned long long)hi);
	for (uint64_t va = lo; va < hi; va += ALT_SIZE) {
		uint32_t before[MAX_ALT_INSNS], after[MAX_ALT_INSNS];
		struct alt a;
		unsigned n;
		uint8_t *orig;

		if (read_alt(img, mem, va, caps->ncaps, &a))
			return -1;
		rep->alt_total++;
		/* 5.x callbacks carry cap == NCAPS and always run */
		if (!(a.is_cb && a.cap == caps->ncaps) &&
		    (a.cap >= caps->ncaps || !caps->cap[a.cap].present)) {
			rep->alt_skipped++;
			continue;
		}
		n = a.orig_len / 4;
		orig = hs_at(img, mem, a.orig, a.orig_len);
		memcpy(before, orig, a.orig_len);
		memcpy(after, orig, a.orig_len);
		if (a.is_cb) {
			const struct hs_sym *s = hs_sym_at(img, a.repl);
			const char *name = (s && s->addr == a.repl) ? s->name : "(not a symbol)";
			alt_cb_fn fn = find_cb(name);

			if (!fn) {
				rep->alt_cb_unknown++;
				hs_count_name(rep->unknown_cbs, &rep->nunknown_cbs,
					      HS_ARRAY_SIZE(rep->unknown_cbs), name);
				continue;
			}
			if (fn(core, caps, after, n))
				return hs_fail("%s: alternative callback %s at 0x%llx: unexpected site of %u instructions",
					       img->path, name, (unsigned long long)a.orig, n);
			rep->alt_cb_applied++;
			hs_count_name(rep->callbacks, &rep->ncallbacks, HS_ARRAY_SIZE(rep->callbacks),
				      s->name);
			if (memcmp(before, after, a.orig_len) &&
			    hs_report_site(rep, HS_SITE_ALT_CB, a.orig, before, after, n, a.cap, s->name))
				return -1;
		} else {
			const uint8_t *repl = hs_at(img, mem, a.repl, a.alt_len);

			for (unsigned i = 0; i < n; i++) {
				uint32_t w;

				memcpy(&w, repl + 4 * i, 4);
				if (relocate_insn(img, &a, a.orig + 4 * i, a.repl + 4 * i, w, &after[i]))
					return -1;
			}
			rep->alt_applied++;
			rep->alt_per_cap[a.cap]++;
			if (memcmp(before, after, a.orig_len) &&
			    hs_report_site(rep, HS_SITE_ALT, a.orig, before, after, n, a.cap, NULL))
				return -1;
		}
		memcpy(orig, after, a.orig_len);
	}
	return 0;
}
