/*
 * test_fuzz_regress.c - every input in tests/fuzz/regress/ (inputs that
 * once crashed or hung a parser, plus seeds) goes through the fuzz target's
 * entry point in the normal and sanitizer builds; and a quick deterministic
 * mutation sweep over the minikernel fixture: flipped bytes in its headers
 * and tables must never crash.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

int hs_fuzz_one(const uint8_t *data, size_t size);

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *b = hs_test_slurp(path, len);

	cr_assert_not_null(b, "cannot read %s (did `make kernels fixtures` run?)", path);
	return b;
}

Test(fuzz, regression_inputs)
{
	DIR *d = opendir("tests/fuzz/regress");
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		char path[512];
		size_t len;
		uint8_t *b;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "tests/fuzz/regress/%s", e->d_name);
		b = slurp(path, &len);
		hs_fuzz_one(b, len);
		free(b);
		n++;
	}
	closedir(d);
	cr_assert_gt(n, 0, "the regression corpus is empty");
}

/* xorshift: deterministic mutations */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

Test(fuzz, mutation_sweep)
{
	size_t len;
	uint8_t *orig = slurp(HS_FIXTURE("minikernel.elf"), &len), *b = malloc(len);

	for (int round = 0; round < 3000; round++) {
		memcpy(b, orig, len);
		for (int k = 0; k < 1 + (int)(next() % 8); k++) {
			size_t at = next() % len;

			/* bias towards the headers and small tables */
			if (round % 2)
				at %= len < 4096 ? len : 4096;
			b[at] = (uint8_t)next();
		}
		hs_fuzz_one(b, round % 17 ? len : next() % len);
	}
	free(b);
	free(orig);
}
