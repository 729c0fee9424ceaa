/*
 * flat_image.c - the flat arm64 Image QEMU's -kernel takes, made from the
 * vmlinux ELF (what `objcopy -O binary` does): every loadable segment's
 * file bytes at its offset from the first one, zero-filled between. The
 * Image header (branch, text offset, image size, flags, "ARM\x64") is the
 * start of .head.text, so it comes along.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "vm/vm.h"

int hs_vm_write_flat_image(const struct hs_image *img, const char *path)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	uint8_t *buf;
	FILE *f;
	int rc = 0;

	for (size_t i = 0; i < img->nsegs; i++) {
		const struct hs_segment *s = &img->segs[i];

		if (!s->filesz)
			continue;
		lo = s->vaddr < lo ? s->vaddr : lo;
		hi = s->vaddr + s->filesz > hi ? s->vaddr + s->filesz : hi;
	}
	if (lo >= hi || hi - lo > (1ULL << 30))
		return hs_fail("%s: no loadable contents for a flat Image", img->path);
	if (!(buf = hs_calloc(1, hi - lo)))
		return -1;
	for (size_t i = 0; i < img->nsegs; i++) {
		const struct hs_segment *s = &img->segs[i];

		if (s->filesz)
			memcpy(buf + (s->vaddr - lo), img->file + s->offset, s->filesz);
	}
	if (memcmp(buf + 0x38, "ARM\x64", 4))
		rc = hs_fail("%s: no arm64 Image header (\"ARM\\x64\" at +0x38)", img->path);
	else if (!(f = fopen(path, "wb")))
		rc = hs_fail("%s: cannot create: %s", path, strerror(errno));
	else if ((fwrite(buf, 1, hi - lo, f) != hi - lo) | fclose(f))
		rc = hs_fail("%s: cannot write: %s", path, strerror(errno));
	free(buf);
	return rc;
}
