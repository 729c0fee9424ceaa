/*
 * runtime_const.c - runtime constants (asm/runtime-const.h, arm64 since
 * 6.11): each section runtime_<kind>_<sym> lists s32 self-relative offsets
 * of sites that boot rewrites once <sym> is known:
 *   ptr:   movz/movk x4 sequence, 16-bit immediates in bits [20:5]
 *   shift: lsr imm in bits [21:16]
 *   mask:  ubfx width-1 in imms bits [15:10]
 *
 * The value boot gives <sym> is what its runtime_const_init() site
 * stores: the variable's value by then. In order of trust:
 *   1. a boot value of boot_values.c (the root IRQ handler, in whichever
 *      variables set_handle_irq() keeps it);
 *   2. for a pointer, the function address the image's code stores to the
 *      variable (boot_stores.c) - over its initial value, which boot
 *      replaces (handle_arch_irq starts as default_handle_irq);
 *   3. the variable's own value in the image, when it is not zero (a static
 *      initialiser boot keeps);
 *   4. otherwise the constant is pending: its sites stay as in the file and
 *      are listed in the report. Once the emulated state is built, the
 *      variable's value there settles it (hs_rtconst_settle); a site still
 *      unknown then stops any run that executes it, naming the site. A
 *      constant no hot path touches (dcache's d_hash_shift) costs nothing.
 */
#include <stdio.h>
#include <string.h>

#include "a64/encode.h"
#include "boot/boot_values.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"

static const char *const kind_names[] = { "ptr", "shift", "mask" };

unsigned hs_rtconst_ninsn(enum hs_rtconst_kind kind)
{
	return kind == HS_RTC_PTR ? 4 : 1;
}

int hs_rtconst_encode(enum hs_rtconst_kind kind, uint32_t *w, uint64_t val, char *err, size_t errlen)
{
	if (kind == HS_RTC_PTR) {
		for (unsigned i = 0; i < 4; i++) {
			/* movz (i == 0) / movk, 64-bit */
			if (!(i ? a64_is_movk_x(w[i]) : a64_is_movz_x(w[i]))) {
				snprintf(err, errlen, "insn %u is not movz/movk", i);
				return -1;
			}
			w[i] = a64_set_imm16(w[i], (uint32_t)(val >> (16 * i)));
		}
	} else if (kind == HS_RTC_SHIFT) {
		w[0] = a64_set_immr(w[0], (uint32_t)val);
	} else {
		unsigned width = val ? 64 - (unsigned)__builtin_clzll(val) : 0;

		if (!val || width > 32 || (val & (val + 1))) {
			snprintf(err, errlen, "mask value 0x%llx is not GENMASK(n, 0)",
				 (unsigned long long)val);
			return -1;
		}
		w[0] = a64_set_imms(w[0], width - 1);
	}
	return 0;
}

static int patch_site(const struct hs_image *img, uint8_t *mem, enum hs_rtconst_kind kind,
		      uint64_t site, uint64_t val, struct hs_patch_report *rep, const char *name)
{
	unsigned n = hs_rtconst_ninsn(kind);
	uint32_t before[4], after[4];
	uint8_t *p = hs_at(img, mem, site, 4 * n);
	char err[96];

	memcpy(before, p, 4 * n);
	memcpy(after, p, 4 * n);
	if (hs_rtconst_encode(kind, after, val, err, sizeof(err)))
		return hs_fail("%s: runtime constant %s site 0x%llx: %s", img->path, name,
			       (unsigned long long)site, err);
	memcpy(p, after, 4 * n);
	if (memcmp(before, after, 4 * n))
		return hs_report_site(rep, HS_SITE_RTCONST, site, before, after, n, 0, name);
	return 0;
}

/* The variable's value in mem: 8 bytes for a pointer, else an unsigned int. */
static uint64_t var_value(const struct hs_image *img, const uint8_t *mem, const struct hs_sym *v,
			  enum hs_rtconst_kind kind)
{
	uint64_t x = 0;
	uint32_t y = 0;

	if (!v)
		return 0;
	if (kind == HS_RTC_PTR)
		return hs_read64(img, mem, v->addr, &x) ? 0 : x;
	return hs_read32(img, mem, v->addr, &y) ? 0 : y;
}

/* Does set_handle_irq() keep the root IRQ handler in va? */
static int root_var(const struct hs_root_irq *ri, uint64_t va)
{
	for (unsigned i = 0; i < ri->nvars; i++)
		if (ri->vars[i] == va)
			return 1;
	return 0;
}

static int add_pending(struct hs_patch_report *rep, uint64_t addr, unsigned section)
{
	if (rep->npending == rep->pending_cap) {
		size_t nc = rep->pending_cap ? 2 * rep->pending_cap : 16;
		struct hs_rtconst_site *np = hs_realloc(rep->pending, nc * sizeof(*np));

		if (!np)
			return -1;
		rep->pending = np;
		rep->pending_cap = nc;
	}
	rep->pending[rep->npending].addr = addr;
	rep->pending[rep->npending].section = section;
	rep->npending++;
	return 0;
}

int hs_apply_runtime_consts(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep)
{
	for (size_t i = 0; i < img->nsecs; i++) {
		const struct hs_section *s = &img->secs[i];
		struct hs_rtconst *rc;
		const struct hs_sym *var;
		int kind = -1;
		uint64_t val = 0;

		if (strncmp(s->name, "runtime_", 8))
			continue;
		for (size_t k = 0; k < HS_ARRAY_SIZE(kind_names); k++) {
			size_t l = strlen(kind_names[k]);

			if (!strncmp(s->name + 8, kind_names[k], l) && s->name[8 + l] == '_')
				kind = (int)k;
		}
		if (kind < 0)
			continue;
		if (s->size % 4 || !hs_at(img, mem, s->addr, s->size))
			return hs_fail("%s: section %s is malformed", img->path, s->name);
		if (rep->rtconst_sections >= HS_ARRAY_SIZE(rep->rtconst))
			return hs_fail("%s: more than %zu runtime-constant sections", img->path,
				       HS_ARRAY_SIZE(rep->rtconst));
		rc = &rep->rtconst[rep->rtconst_sections];
		memset(rc, 0, sizeof(*rc));
		rc->name = s->name;
		rc->var = s->name + 8 + strlen(kind_names[kind]) + 1;
		rc->kind = (enum hs_rtconst_kind)kind;
		var = hs_sym_exact(img, rc->var);
		if (var && root_var(&rep->root_irq, var->addr)) {
			rc->source = HS_RTC_FROM_RULE;
			rc->from = rep->root_irq.why;
			val = rep->root_irq.handler;
		} else if (rc->kind == HS_RTC_PTR && hs_boot_stored_value(img, mem, rc->var, &val, &rc->from) == 0) {
			rc->source = HS_RTC_FROM_RULE;	/* whatever it is called */
		} else if ((val = var_value(img, mem, var, rc->kind)) != 0) {
			rc->source = HS_RTC_FROM_IMAGE;
			rc->from = "the variable's initial value in the image";
		} else {
			rc->source = HS_RTC_PENDING;
			rc->from = var ? "set by boot code hotsim does not run"
				       : "no variable of that name in the image";
		}
		rc->value = val;
		for (uint64_t va = s->addr; va < s->addr + s->size; va += 4) {
			unsigned n = hs_rtconst_ninsn(rc->kind);
			uint64_t site;
			int32_t off;

			memcpy(&off, hs_at(img, mem, va, 4), 4);
			site = va + (uint64_t)(int64_t)off;
			if (!hs_at(img, mem, site, 4 * n) || site < img->text_start ||
			    site + 4 * n > img->text_end)
				return hs_fail("%s: runtime constant %s site 0x%llx is outside kernel text",
					       img->path, s->name, (unsigned long long)site);
			if (rc->source == HS_RTC_PENDING) {
				if (add_pending(rep, site, rep->rtconst_sections))
					return -1;
			} else if (patch_site(img, mem, rc->kind, site, val, rep, s->name)) {
				return -1;
			}
			rc->sites++;
		}
		rep->rtconst_sections++;
		rep->rtconst_sites += rc->sites;
	}
	return 0;
}
