/*
 * fault_file.c - fault.file: lmbench's "lat_pagefault" (lat_pagefault.c
 * benchmark()): a 1 MB file mapped shared and read-only, msync()ed with
 * MS_INVALIDATE, then one byte of each page read in a random order. One op
 * is one page's read, from the load to the next page's: the read fault
 * (filemap_fault, or the pages fault-around already mapped) when the page
 * is not mapped yet, the TLB miss either way - so the mean is lmbench's
 * time per page. lmbench subtracts the mapping's mmap and munmap; the
 * sampled ops here read one mapping's pages, none of which remaps.
 * Booted state only.
 */
#ifdef HS_USER_SIDE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "user_op.h"

#define PF_FILE "/tmp/lmbench-pagefault"
#define PF_BYTES (1L << 20)	/* lmbench's minimum */

/* The load, twice in asm (the warm-up's copy without the label). */
HS_AT_INSN(hs_pf_warm_fn, "", "ldrb w0, [x0]");
HS_AT_INSN(hs_pf_fn, HS_LABEL(hs_at_pf), "ldrb w0, [x0]");
long hs_pf_warm_fn(const char *p);
long hs_pf_fn(const char *p);

static int fd = -1;
static char *where;
static size_t *order, npages, next;
static long sum;

/* A fresh mapping, as lmbench's loop makes after each pass. */
static void remap(void)
{
	if (where)
		munmap(where, PF_BYTES);
	where = mmap(NULL, PF_BYTES, PROT_READ, MAP_SHARED, fd, 0);
	msync(where, PF_BYTES, MS_INVALIDATE);
	next = 0;
}

/* lmbench's permutation(): every page once, in an order fixed by the
 * seed (lmbench seeds with its pid; any fixed order will do) */
static void setup(struct hs_wl *w)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long x = 12345;

	(void)w;
	hs_wl_file(PF_FILE, PF_BYTES);
	fd = open(PF_FILE, O_RDONLY);
	npages = (size_t)PF_BYTES / page;
	order = malloc(npages * sizeof(*order));
	for (size_t i = 0; order && i < npages; i++)
		order[i] = i * page;
	for (size_t i = npages - 1; order && i > 0; i--) {
		size_t j, t;

		x = x * 6364136223846793005UL + 1442695040888963407UL;
		j = (size_t)(x >> 33) % (i + 1);
		t = order[i], order[i] = order[j], order[j] = t;
	}
	remap();
	if (fd < 0 || !order || where == MAP_FAILED)
		hs_wl_say("HOTSIM workload: cannot map the page-fault file\n");
}

static void warm(struct hs_wl *w)
{
	(void)w;
	sum += hs_pf_warm_fn(where + order[next]);
	if (++next == npages)
		remap();
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	remap();
	for (long i = 0; i < ops; i++) {
		sum += hs_pf_fn(where + order[next]);
		if (++next == npages)
			remap();
	}
}

HS_USER_OP(pagefault, .order = 210, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "pagefault", .kind = HS_POINT_SVC, .site = "hs_at_pf",
};

static const char *const landmarks[] = {
	"el0_da", "do_page_fault", "handle_mm_fault", "filemap_map_pages|filemap_fault", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_pagefault", .op = "one page of a mapped file read is one op",
};

const struct hs_path_def hs_path_fault_file = {
	.name = "fault.file",
	.summary = "one byte of each page of a mapped 1 MB file, in random order: lmbench's page fault "
		   "(booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	/* one pass over the mapping: 16 + 240 = its 256 pages (4K), each
	 * fault-around window faulted once */
	.boot = { .point = &point, .op = { .kind = HS_OP_RANGE, .warmup = 16, .samples = 240 } },
	.bench = &bench,
};
#endif
