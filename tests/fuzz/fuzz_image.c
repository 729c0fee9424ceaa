/*
 * fuzz_image.c - libFuzzer target for everything that parses an image: ELF
 * headers, sections, symbols, the banner and notes, BTF, relocations,
 * cpucap tables, alternatives, jump tables, runtime constants and the
 * this_cpu site scanner. Built by `make fuzz` with clang
 * (-fsanitize=fuzzer,address,undefined); the same entry point is run over
 * tests/fuzz/regress/ by tests/test_fuzz_regress.c in the normal build.
 */
#include <stddef.h>
#include <stdint.h>

#include "elf/btf.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"
#include "hotsim/percpu.h"

int hs_fuzz_one(const uint8_t *data, size_t size);

int hs_fuzz_one(const uint8_t *data, size_t size)
{
	struct hs_image *img = hs_image_open_mem("fuzz-input", data, size);
	uint64_t off, sz;

	if (!img)
		return 0;
	if (img->btf) {
		hs_btf_struct_size(img->btf, "task_struct", &sz);
		hs_btf_member(img->btf, "task_struct", "thread.cpu_context.sp", &off, &sz);
	}
	for (int i = 0; hs_cores[i]; i++) {
		struct hs_patched *p = hs_patch(img, hs_cores[i]);
		struct hs_pcpu_census c;

		if (!p)
			continue;
		if (hs_pcpu_scan(img, p->mem, &c) == 0)
			hs_pcpu_census_free(&c);
		hs_patched_free(p);
	}
	hs_image_close(img);
	return 0;
}

#ifdef HS_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* inputs are at most 64 KiB; a few MiB of image keeps every execution
	 * fast without changing what the parsers check */
	hs_image_max_span = 8ULL << 20;
	return hs_fuzz_one(data, size);
}
#endif
