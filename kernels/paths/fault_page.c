/*
 * fault_page.c - fault.page: the first write to a page of a fresh
 * anonymous mapping - the data abort from EL0 (el0_da), do_mem_abort,
 * do_translation_fault, do_page_fault (the VMA lookup under the mmap
 * lock or its per-VMA lock), handle_mm_fault's anonymous path (a zeroed
 * page: alloc, clear_page, the memcg charge, the LRU, set_pte), and the
 * eret that runs the store again. lmbench's lat_pagefault times faults on
 * a file's pages; this is the anonymous case. Small pages only (the
 * region is MADV_NOHUGEPAGE): one write, one fault, one page. Booted
 * state only (hs_at_touch).
 */
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "touch", .kind = HS_POINT_SVC, .site = "hs_at_touch",
};

static const char *const landmarks[] = {
	"el0_da", "do_mem_abort", "do_page_fault", "handle_mm_fault", "clear_page", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_pagefault (anonymous)", .op = "one first write to a page is one op",
};

const struct hs_path_def hs_path_fault_page = {
	.name = "fault.page",
	.summary = "first write to a fresh anonymous page: the minor fault (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point, .op = { .kind = HS_OP_ABORT, .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
