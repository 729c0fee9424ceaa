/*
 * runtime_const.c - runtime constants (asm/runtime-const.h, arm64 since
 * 6.11): each section runtime_<kind>_<sym> lists s32 self-relative offsets
 * of sites that boot rewrites once <sym> is known:
 *   ptr:   movz/movk x4 sequence, 16-bit immediates in bits [20:5]
 *   shift: lsr imm in bits [21:16]
 *   mask:  ubfx width-1 in imms bits [15:10]
 * Values come from boot_values.c; a constant whose value hotsim does not
 * know is an error, not a silent placeholder.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/boot_values.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"

static int patch_site(const struct hs_image *img, uint8_t *mem, const char *kind, uint64_t site,
		      uint64_t val, struct hs_patch_report *rep, const char *name)
{
	unsigned n = strcmp(kind, "ptr") ? 1 : 4;
	uint32_t before[4], after[4];
	uint8_t *p = hs_at(img, mem, site, 4 * n);

	if (!p || site < img->text_start || site + 4 * n > img->text_end)
		return hs_fail("%s: runtime constant %s site 0x%llx is outside kernel text", img->path,
			       name, (unsigned long long)site);
	memcpy(before, p, 4 * n);
	memcpy(after, p, 4 * n);
	if (n == 4) {
		for (unsigned i = 0; i < 4; i++) {
			/* movz (i == 0) / movk, 64-bit */
			if ((after[i] & 0xff800000u) != (i ? 0xf2800000u : 0xd2800000u))
				return hs_fail("%s: runtime constant %s site 0x%llx: insn %u is not movz/movk",
					       img->path, name, (unsigned long long)site, i);
			after[i] = (after[i] & 0xffe0001fu) | (uint32_t)((val >> (16 * i)) & 0xffff) << 5;
		}
	} else if (!strcmp(kind, "shift")) {
		after[0] = (after[0] & 0xffc0ffffu) | (uint32_t)(val & 63) << 16;
	} else {
		unsigned width = val ? 64 - (unsigned)__builtin_clzll(val) : 0;

		if (!val || width > 32 || (val & (val + 1)))
			return hs_fail("%s: runtime mask %s value 0x%llx is not GENMASK(n, 0)", img->path,
				       name, (unsigned long long)val);
		after[0] = (after[0] & 0xffff03ffu) | ((width - 1) & 0x1f) << 10;
	}
	memcpy(p, after, 4 * n);
	if (memcmp(before, after, 4 * n))
		return hs_report_site(rep, HS_SITE_RTCONST, site, before, after, n, 0, name);
	return 0;
}

int hs_apply_runtime_consts(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep)
{
	static const char *const kinds[] = { "ptr", "shift", "mask" };

	for (size_t i = 0; i < img->nsecs; i++) {
		const struct hs_section *s = &img->secs[i];
		const char *kind = NULL, *sym;
		uint64_t val;
		const char *why;
		unsigned sites = 0;

		if (strncmp(s->name, "runtime_", 8))
			continue;
		for (size_t k = 0; k < HS_ARRAY_SIZE(kinds); k++) {
			size_t l = strlen(kinds[k]);

			if (!strncmp(s->name + 8, kinds[k], l) && s->name[8 + l] == '_')
				kind = kinds[k];
		}
		if (!kind)
			continue;
		sym = s->name + 8 + strlen(kind) + 1;
		if (s->size % 4 || !hs_at(img, mem, s->addr, s->size))
			return hs_fail("%s: section %s is malformed", img->path, s->name);
		if (hs_boot_value(img, sym, &val, &why))
			return hs_fail("%s: runtime constant %s: hotsim does not know the value boot gives %s",
				       img->path, s->name, sym);
		for (uint64_t va = s->addr; va < s->addr + s->size; va += 4) {
			int32_t off;

			memcpy(&off, hs_at(img, mem, va, 4), 4);
			if (patch_site(img, mem, kind, va + (int64_t)off, val, rep, s->name))
				return -1;
			sites++;
		}
		if (rep->rtconst_sections < HS_ARRAY_SIZE(rep->rtconst)) {
			rep->rtconst[rep->rtconst_sections].name = s->name;
			rep->rtconst[rep->rtconst_sections].value = val;
			rep->rtconst[rep->rtconst_sections].sites = sites;
			rep->rtconst[rep->rtconst_sections].from = why;
		}
		rep->rtconst_sections++;
		rep->rtconst_sites += sites;
	}
	return 0;
}
