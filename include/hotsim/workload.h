/*
 * workload.h - markers for a workload of your own (`hotsim run IMAGE
 * --workload FILE`, `hotsim compare BASE PATCHED --workload FILE`).
 *
 *	#include <hotsim/workload.h>
 *
 *	for (;;) {
 *		hotsim_op_begin("ping");
 *		my_syscall_ping_pong();
 *		hotsim_op_end();
 *	}
 *
 * Everything the task does from a hotsim_op_begin("NAME") to the next
 * hotsim_op_end() it reaches - its own code and every kernel path it
 * enters, the ticks and switches in between included - is one operation
 * of the path user.NAME: sampled, costed, explained, validated and
 * compared like hotsim's own paths. Several names per program are fine;
 * loop each operation (hotsim samples consecutive ones: at least 100
 * iterations), and run it unmarked first if it needs warming beyond a few
 * iterations. The program runs as /user, started by hotsim's /init once
 * the kernel has been up 130 s (docs/sampling-and-noise.md); it must not exit
 * before its last marked loop is done. NAME: letters, digits, '_', '-'.
 *
 * Each marker is a nop at a local label, recorded (address, kind, name)
 * in the section hotsim_ops of the program; a begin marker reads the
 * virtual counter into x9 first, as hotsim's own sites do (the boot
 * snapshot's clock). Build: hotsim compiles FILE.c itself
 * (aarch64-linux-gnu-gcc -static -O2); a prebuilt program must be a
 * static aarch64 executable built with this header.
 */
#ifndef HOTSIM_WORKLOAD_H
#define HOTSIM_WORKLOAD_H

#if !defined(__aarch64__)
#error "hotsim workloads are aarch64 programs (aarch64-linux-gnu-gcc -static)"
#endif

#define hotsim_op_begin(name)						\
	__asm__ volatile("mrs x9, cntvct_el0\n"				\
			 "1:	nop\n"					\
			 ".pushsection hotsim_ops, \"a\"\n"		\
			 ".balign 8\n"					\
			 ".quad 1b, 0\n"				\
			 ".asciz \"" name "\"\n"			\
			 ".balign 8\n"					\
			 ".popsection\n" ::: "x9", "memory")

#define hotsim_op_end()							\
	__asm__ volatile("1:	nop\n"					\
			 ".pushsection hotsim_ops, \"a\"\n"		\
			 ".balign 8\n"					\
			 ".quad 1b, 1\n"				\
			 ".asciz \"\"\n"				\
			 ".balign 8\n"					\
			 ".popsection\n" ::: "memory")

#endif
