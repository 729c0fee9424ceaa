/*
 * mmap.c - mmap: mmap() of one anonymous page (x8 = 222: do_mmap, a new
 * VMA in the maple tree, or an old one grown), one write to it (the page
 * fault that gives it a zeroed page), and munmap() at hs_at_munmap (the
 * VMA split or removed, the page unmapped and freed, the TLB flushed for
 * it) - Fastpath's micromm/munmap operation, its loop's one page. Booted
 * state only (hs_at_mmap).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS),
 * one write (the fault that gives it its page), munmap; in asm, and twice
 * (fork.c says why) */
#define MMAP_FN(fn, at_mmap, at_munmap)				\
	__asm__(".text\n.balign 16\n"				\
		".type " #fn ", %function\n"			\
		#fn ":\n"					\
		"	mov x0, xzr\n	mov x1, #4096\n"	\
		"	mov x2, #3\n	mov x3, #0x22\n"	\
		"	mov x4, #-1\n	mov x5, xzr\n"		\
		"	mov x8, #222\n"	/* mmap */		\
		"	mrs x9, cntvct_el0\n"			\
		at_mmap "	svc #0\n"			\
		"	str x9, [x0]\n"			\
		"	mov x1, #4096\n"			\
		"	mov x8, #215\n"	/* munmap */		\
		at_munmap "	svc #0\n"			\
		"	ret\n"					\
		".size " #fn ", . - " #fn "\n")
MMAP_FN(hs_mmap_warm_fn, "", "");
MMAP_FN(hs_mmap_fn, ".globl hs_at_mmap\nhs_at_mmap:\n", ".globl hs_at_munmap\nhs_at_munmap:\n");
void hs_mmap_warm_fn(void);
void hs_mmap_fn(void);

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_mmap_warm_fn();
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++)
		hs_mmap_fn();
}

HS_USER_OP(mmap, .order = 140, .warm = warm, .run = run);
#else
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
#endif
