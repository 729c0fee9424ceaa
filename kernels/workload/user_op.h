/*
 * user_op.h - the user side of a booted path: what the workload (init.c,
 * /init of the initramfs hotsim boots) runs so that the path's operation
 * happens, compiled by the cross compiler from the path's own file
 * (kernels/paths/<path>.c, between #ifdef HS_USER_SIDE and #else; the
 * definition hotsim reads is the #else part). The workload knows no path:
 * it runs every registered operation in order.
 *
 * An operation registers itself with HS_USER_OP(id, .order = N, ...): the
 * workload calls its setup once, its warm-up `warmup` times (default
 * HS_WL_WARMUP), then its run, which loops the operation HS_WL_OPS times
 * at the site its path's boot point names - the labelled svc where hotsim
 * stops the boot and the replay samples from. Operations run in
 * increasing order, so a new one with a larger order leaves the state at
 * every earlier point as it was.
 */
#ifndef HOTSIM_USER_OP_H
#define HOTSIM_USER_OP_H

#include <stdint.h>
#include <sys/syscall.h>

#define HS_WL_WARMUP 2000	/* of each operation, after the sleep to steady state */
#define HS_WL_OPS 1100		/* per run: what the replay can sample (with its warm-up) */

/* What every operation may use, set up once by the workload. */
struct hs_wl {
	int zero;		/* /dev/zero, read */
	int null;		/* /dev/null, written */
	long self;		/* this process's pid */
	int skip;		/* set by hs_wl_skip: the operation is not run */
};

/*
 * An operation this kernel cannot run - its setup failed for a reason the
 * kernel gave (socketpair(AF_UNIX) without networking) - called from its
 * setup: the workload says so on the console, stops at the label
 * hs_at_skip with x0 = the operation's site and x1 = why, where the boot
 * records the point as absent with that reason, and goes on to the next
 * operation without running this one.
 */
void hs_wl_skip(struct hs_wl *w, const char *site, const char *why);

struct hs_user_op {
	int order;
	unsigned warmup;			/* 0: HS_WL_WARMUP */
	void (*setup)(struct hs_wl *w);		/* or NULL */
	void (*warm)(struct hs_wl *w);		/* one operation, unlabelled; or NULL */
	void (*run)(struct hs_wl *w, long ops);	/* ops operations at the site */
	void (*teardown)(struct hs_wl *w);	/* or NULL */
	/* a program of its own the operation exec()s: the workload run with
	 * this argv[0] is main() instead */
	const char *argv0;
	int (*main)(void);
};

/* Registered in a section of its own; the linker bounds it. */
#define HS_USER_OP(id, ...)							\
	static const struct hs_user_op hs_user_op_##id				\
	__attribute__((used, section("hs_user_ops"), aligned(8))) = { __VA_ARGS__ }

/*
 * A site: one svc at a global label, the counter read into x9 one
 * instruction before it (the boot point reads it there). name_fn(a, b, c,
 * nr) passes x0-x2 and the syscall number; HS_SITE4 passes x0-x3.
 */
#define HS_SITE(name)						\
	__asm__(".text\n.balign 16\n.globl " #name "\n.globl " #name "_fn\n"	\
		".type " #name "_fn, %function\n"		\
		#name "_fn:\n"					\
		"	mov x8, x3\n"				\
		"	mrs x9, cntvct_el0\n"			\
		#name ":\n"					\
		"	svc #0\n"				\
		"	ret\n"					\
		".size " #name "_fn, . - " #name "_fn\n");	\
	long name##_fn(long a, long b, long c, long nr)

#define HS_SITE4(name)						\
	__asm__(".text\n.balign 16\n.globl " #name "\n.globl " #name "_fn\n"	\
		".type " #name "_fn, %function\n"		\
		#name "_fn:\n"					\
		"	mov x8, x4\n"				\
		"	mrs x9, cntvct_el0\n"			\
		#name ":\n"					\
		"	svc #0\n"				\
		"	ret\n"					\
		".size " #name "_fn, . - " #name "_fn\n");	\
	long name##_fn(long a, long b, long c, long d, long nr)

/* The kernel's struct sigaction on arm64 (no SA_RESTORER: the kernel
 * returns through the vDSO's rt_sigreturn trampoline, as glibc does). */
struct hs_ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/* ... x0-x5 (mmap) */
#define HS_SITE6(name)						\
	__asm__(".text\n.balign 16\n.globl " #name "\n.globl " #name "_fn\n"	\
		".type " #name "_fn, %function\n"		\
		#name "_fn:\n"					\
		"	mov x8, x6\n"				\
		"	mrs x9, cntvct_el0\n"			\
		#name ":\n"					\
		"	svc #0\n"				\
		"	ret\n"					\
		".size " #name "_fn, . - " #name "_fn\n");	\
	long name##_fn(long a, long b, long c, long d, long e, long f, long nr)

/* lat_syscall's file (its FNAME), which stat, fstat, open and lat_sig prot
 * use: a header of glibc's size */
#define HS_LMB_FILE "/usr/include/sys/types.h"
#define HS_LMB_FILE_BYTES 5888

/*
 * A function of one instruction (a load, a store, a loop's marker nop) at
 * a label, the counter read into x9 just before it as at every site:
 * fn(x0). A path defines it twice, the labelled copy for its run and one
 * with the label "" for the warm-up, where the boot must not stop. Global:
 * a local function's address taken from C would come through a GOT entry
 * the linker keys by section, shared with the other copy.
 */
#define HS_AT_INSN(fn, at, insn)					\
	__asm__(".text\n.balign 16\n.globl " #fn "\n"			\
		".type " #fn ", %function\n"				\
		#fn ":\n"						\
		"	mrs x9, cntvct_el0\n"				\
		at "	" insn "\n"					\
		"	ret\n"						\
		".size " #fn ", . - " #fn "\n")
#define HS_LABEL(name) ".globl " #name "\n" #name ":\n"

/* Every other system call: the same svc without a label (init.c). */
long hs_sys_fn(long a, long b, long c, long nr);
long hs_sys4_fn(long a, long b, long c, long d, long nr);

/* The virtual counter (62.5 MHz under QEMU's virt), after an isb. */
static inline uint64_t hs_wl_counter(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* A line on the console (the boot's log names it when a point is missed). */
void hs_wl_say(const char *s);

/* The file at path, made (with its directories) if it is not there yet:
 * bytes of a repeating pattern. 0, or -1 said on the console. The
 * benchmarks' files (lmbench's stat, open and mapping targets) live in the
 * root filesystem's page cache, as on a board where they are warm. */
int hs_wl_file(const char *path, long bytes);

#endif
