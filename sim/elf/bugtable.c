/*
 * bugtable.c - __bug_table lookup, so a BUG()/WARN() stop names the source
 * line the kernel itself would print.
 *
 * arm64 always has GENERIC_BUG_RELATIVE_POINTERS: an entry is
 *   s32 bug_addr_disp; [s32 file_disp; u16 line;] u16 flags;   (asm-bug.h)
 * 12 bytes with DEBUG_BUGVERBOSE, 8 without (the bracketed part is absent).
 * Which one an image has is not recorded anywhere, so it is decided by which
 * stride gives entries that all point at instructions (and, when verbose,
 * at strings).
 */
#include <string.h>

#include "elf/bugtable.h"

static int32_t s32_at(const struct hs_image *img, const uint8_t *mem, uint64_t va)
{
	uint32_t v = 0;

	hs_read32(img, mem, va, &v);
	return (int32_t)v;
}

static const char *str_at(const struct hs_image *img, const uint8_t *mem, uint64_t va)
{
	const char *p = (const char *)hs_at(img, (uint8_t *)mem, va, 1);
	uint64_t avail;

	if (!p)
		return NULL;
	avail = img->base + img->span - va;
	return memchr(p, 0, avail > 200 ? 200 : avail) && p[0] ? p : NULL;
}

/* Does stride give plausible entries (first and last few)? */
static int stride_fits(const struct hs_image *img, const uint8_t *mem, const struct hs_section *s,
		       unsigned stride)
{
	uint64_t n;

	if (s->size % stride)
		return 0;
	n = s->size / stride;
	for (uint64_t i = 0; i < n; i += (i < 8 || i + 8 >= n) ? 1 : n - 16) {
		uint64_t e = s->addr + i * stride;
		uint64_t bug = e + (uint64_t)(int64_t)s32_at(img, mem, e);

		/* .text, .init.text, .rodata.text...: in the image, aligned */
		if ((bug & 3) || !hs_at(img, (uint8_t *)mem, bug, 4))
			return 0;
		if (stride == 12 && !str_at(img, mem, e + 4 + (uint64_t)(int64_t)s32_at(img, mem, e + 4)))
			return 0;
	}
	return 1;
}

int hs_bug_find(const struct hs_image *img, const uint8_t *mem, uint64_t pc, struct hs_bug *out)
{
	const struct hs_section *s = NULL;
	unsigned stride;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < img->nsecs; i++)
		if (!strcmp(img->secs[i].name, "__bug_table"))
			s = &img->secs[i];
	if (!s || !s->size || !hs_at(img, (uint8_t *)mem, s->addr, s->size))
		return -1;
	stride = stride_fits(img, mem, s, 12) ? 12 : stride_fits(img, mem, s, 8) ? 8 : 0;
	if (!stride)
		return -1;
	for (uint64_t e = s->addr; e + stride <= s->addr + s->size; e += stride) {
		uint16_t v = 0;

		if (e + (uint64_t)(int64_t)s32_at(img, mem, e) != pc)
			continue;
		if (stride == 12) {
			out->file = str_at(img, mem, e + 4 + (uint64_t)(int64_t)s32_at(img, mem, e + 4));
			memcpy(&v, hs_at(img, (uint8_t *)mem, e + 8, 2), 2);
			out->line = v;
		}
		memcpy(&v, hs_at(img, (uint8_t *)mem, e + (stride == 12 ? 10 : 4), 2), 2);
		out->flags = v;
		return 0;
	}
	return -1;
}
