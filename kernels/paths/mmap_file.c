/*
 * mmap_file.c - mmap.file: lmbench's "lat_mmap 1m" (lat_mmap.c
 * domapping(), not random): a 1 MB file mapped shared, read-write, a byte
 * written every 16 KB over its first tenth - seven write faults on the
 * file's pages - and munmap(). One op is the mmap() (x8 = 222) to the
 * munmap()'s (x8 = 215) return. Booted state only.
 */
#ifdef HS_USER_SIDE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "user_op.h"

#define MM_FILE "/tmp/lmbench-mmap"
#define MM_BYTES (1L << 20)
#define MM_STRIDE (16 << 10)	/* lat_mmap.c PSIZE */
#define MM_PARTS 10		/* ... N: it writes the first size / N */

HS_SITE6(hs_at_fmmap);
HS_SITE(hs_at_fmunmap);

static int fd = -1;

static void setup(struct hs_wl *w)
{
	(void)w;
	hs_wl_file(MM_FILE, MM_BYTES);
	if ((fd = open(MM_FILE, O_RDWR)) < 0)
		hs_wl_say("HOTSIM workload: cannot open the mmap file\n");
}

static void one(long (*map)(long, long, long, long, long, long, long), long (*unmap)(long, long, long, long))
{
	char *where = (char *)map(0, MM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0, SYS_mmap);

	if (where == MAP_FAILED)
		return;
	for (char *p = where; p < where + MM_BYTES / MM_PARTS; p += MM_STRIDE)
		*(volatile char *)p = (char)(MM_BYTES & 0xff);
	unmap((long)where, MM_BYTES, 0, SYS_munmap);
}

static long map_plain(long a, long b, long c, long d, long e, long f, long nr)
{
	return syscall(nr, a, b, c, d, e, f);
}

static long unmap_plain(long a, long b, long c, long nr)
{
	return hs_sys_fn(a, b, c, nr);
}

static void warm(struct hs_wl *w)
{
	(void)w;
	one(map_plain, unmap_plain);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		one(hs_at_fmmap_fn, hs_at_fmunmap_fn);
}

/* 200 warm-ups: each maps a megabyte and takes seven faults */
HS_USER_OP(mmapfile, .order = 220, .warmup = 200, .setup = setup, .warm = warm, .run = run);
#else
#include "hotsim/paths.h"

static const struct hs_boot_point point = {
	.name = "fmmap", .kind = HS_POINT_SVC, .site = "hs_at_fmmap",
};

static const char *const landmarks[] = {
	"__arm64_sys_mmap", "do_mmap", "do_page_fault", "__arm64_sys_munmap", "ret_to_user", NULL
};

static const struct hs_bench_def bench = {
	.benchmark = "lmbench lat_mmap 1m", .op = "one mmap of 1 MB of a file, 7 writes and munmap is one op",
};

const struct hs_path_def hs_path_mmap_file = {
	.name = "mmap.file",
	.summary = "mmap() of 1 MB of a file, a write every 16 KB of its first tenth, munmap(): lmbench's "
		   "mmap (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &point,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_fmunmap", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
#endif
