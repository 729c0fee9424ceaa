/* testutil.h - where tests find their real inputs. Tests run from the repo root. */
#ifndef HOTSIM_TESTUTIL_H
#define HOTSIM_TESTUTIL_H

/* Real arm64 kernels built by `make kernels` (kernels/linux/build.sh):
 * base, base-btf, base-clang, cswitch-inline, irq-direct, preempt-none, null */
#define HS_KERNEL(variant) "build/kernels/" variant ".vmlinux"

/* Small cross-compiled fixtures built by `make fixtures` (kernels/fixtures/) */
#define HS_FIXTURE(name) "kernels/fixtures/build/" name

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A whole file in memory (NUL-terminated, length in *len); NULL if unreadable. */
static inline uint8_t *hs_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc((size_t)n + 1)) != NULL) {
		if (fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		} else {
			b[n] = 0;
			*len = (size_t)n;
		}
	}
	fclose(f);
	return b;
}

#endif
