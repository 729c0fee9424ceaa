/*
 * reloc.c - the dynamic relocations arm64's __relocate_kernel (head.S)
 * applies before anything else runs: R_AARCH64_RELATIVE entries of
 * __rela_start..__rela_end and the RELR bitmap table __relr_start..
 * __relr_end (clang/lld builds). hotsim runs the image at its link address,
 * so the KASLR displacement is 0: RELA stores the addend, RELR leaves the
 * in-place value (its implicit addend) as it is.
 */
#include <elf.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/patch.h"

/* Table bounds from the linker symbols, else the named section. */
static int table(const struct hs_image *img, const char *start, const char *stop,
		 const char *section, uint64_t *lo, uint64_t *hi)
{
	const struct hs_sym *a = hs_sym_exact(img, start), *b = hs_sym_exact(img, stop);
	const struct hs_section *s;

	if (a && b) {
		*lo = a->addr;
		*hi = b->addr;
	} else if ((s = hs_section_find(img, section)) != NULL) {
		*lo = s->addr;
		*hi = s->addr + s->size;
	} else {
		*lo = *hi = 0;
		return 0;
	}
	if (*hi < *lo || !hs_at(img, (uint8_t *)img->mem, *lo, *hi - *lo))
		return hs_fail("%s: %s..%s [0x%llx, 0x%llx) lies outside the image", img->path, start,
			       stop, (unsigned long long)*lo, (unsigned long long)*hi);
	return 0;
}

int hs_apply_relocs(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep)
{
	uint64_t lo, hi, va;

	if (table(img, "__rela_start", "__rela_end", ".rela.dyn", &lo, &hi))
		return -1;
	if ((hi - lo) % sizeof(Elf64_Rela))
		return hs_fail("%s: .rela.dyn size 0x%llx is not a multiple of 24", img->path,
			       (unsigned long long)(hi - lo));
	for (va = lo; va < hi; va += sizeof(Elf64_Rela)) {
		Elf64_Rela r;
		uint8_t *where;

		memcpy(&r, hs_at(img, mem, va, sizeof(r)), sizeof(r));
		rep->rela_total++;
		if (ELF64_R_TYPE(r.r_info) != R_AARCH64_RELATIVE) {
			/* head.S skips these too; count them so nobody is surprised */
			rep->rela_other++;
			continue;
		}
		where = hs_at(img, mem, r.r_offset, 8);
		if (!where)
			return hs_fail("%s: relocation at 0x%llx targets 0x%llx, outside the image",
				       img->path, (unsigned long long)va,
				       (unsigned long long)r.r_offset);
		memcpy(where, &r.r_addend, 8);
		rep->rela_relative++;
	}

	if (table(img, "__relr_start", "__relr_end", ".relr.dyn", &lo, &hi))
		return -1;
	/* RELR: an address entry relocates one word, each following bitmap
	 * entry the set bits' words of the next 63 (see head.S). */
	uint64_t next = 0;
	for (va = lo; va + 8 <= hi; va += 8) {
		uint64_t w, bits, target;

		memcpy(&w, hs_at(img, mem, va, 8), 8);
		rep->relr_words++;
		if (!(w & 1)) {
			target = w;
			next = w + 8;
			bits = 1;
		} else {
			target = next;
			next += 8 * 63;
			bits = w >> 1;
		}
		for (; bits; bits >>= 1, target += 8) {
			if (!(bits & 1))
				continue;
			if (!hs_at(img, mem, target, 8))
				return hs_fail("%s: RELR entry at 0x%llx relocates 0x%llx, outside the image",
					       img->path, (unsigned long long)va,
					       (unsigned long long)target);
			/* Displacement 0: the word keeps its link-time value. */
			rep->relr_relocs++;
		}
	}
	return 0;
}
