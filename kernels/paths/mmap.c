/*
 * mmap.c - mmap: mmap() of one anonymous page (x8 = 222: do_mmap, a new
 * VMA in the maple tree, or an old one grown), one write to it (the page
 * fault that gives it a zeroed page), and munmap() at hs_at_munmap (the
 * VMA split or removed, the page unmapped and freed, the TLB flushed for
 * it) - Fastpath's micromm/munmap operation, its loop's one page. Booted
 * state only (hs_at_mmap).
 */
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "mmap", .kind = HS_POINT_SVC, .site = "hs_at_mmap",
};

static const char *const landmarks[] = {
	"__arm64_sys_mmap", "do_mmap", "do_page_fault", "handle_mm_fault", "__arm64_sys_munmap",
	"ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "Fastpath micromm/munmap", .op = "one mmap + write + munmap is one op",
};

const struct hs_path_def hs_path_mmap = {
	.name = "mmap",
	.summary = "mmap + first write + munmap of one anonymous page (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_munmap", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
