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
#ifdef HS_USER_SIDE
#include "user_op.h"

/* the first write to the next page of a fresh anonymous region (no huge
 * pages, so each write is one fault); the store in asm, and twice
 * (fork.c says why) */
#include <sys/mman.h>
#include <unistd.h>

HS_AT_INSN(hs_touch_warm_fn, "", "str x9, [x0]");
HS_AT_INSN(hs_touch_fn, HS_LABEL(hs_at_touch), "str x9, [x0]");
void hs_touch_warm_fn(char *page);
void hs_touch_fn(char *page);

static char *region;
static size_t pages, page, next;

static void setup(struct hs_wl *w)
{
	(void)w;
	page = (size_t)sysconf(_SC_PAGESIZE);	/* 4K, 16K or 64K */
	pages = HS_WL_WARMUP + HS_WL_OPS + 16;
	region = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		      -1, 0);
	if (region == MAP_FAILED) {
		hs_wl_say("HOTSIM workload: no anonymous memory\n");
		region = NULL;
		return;
	}
	madvise(region, pages * page, MADV_NOHUGEPAGE);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	if (region && next < pages)
		hs_touch_warm_fn(region + next++ * page);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; region && i < ops && next < pages; i++)
		hs_touch_fn(region + next++ * page);
}

static void teardown(struct hs_wl *w)
{
	(void)w;
	if (region)
		munmap(region, pages * page);
}

HS_USER_OP(touch, .order = 150, .setup = setup, .warm = warm, .run = run,
	   .teardown = teardown);
#else
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
#endif
