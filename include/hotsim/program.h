/*
 * program.h - a program users run, from its Debian package, booted as they
 * run it (kernels/programs/: `perf bench sched pipe` from linux-perf). Its
 * executable and the libraries it needs come in one cpio archive that
 * kernels/programs/fetch.sh puts in the cache; a boot appends it to the
 * initramfs and runs the program under hotsim's runner
 * (kernels/workload/program.c), which tells the boot where the library is
 * mapped. A path's point in it (HS_POINT_CALL) is the first svc of one of
 * the library's functions - libc's write() - in the program's process; its
 * operation ends where that process returns from another's (read()).
 */
#ifndef HOTSIM_PROGRAM_H
#define HOTSIM_PROGRAM_H

struct hs_program {
	const char *name;		/* "perf": the cache's programs/perf-<version>.cpio */
	const char *package;		/* "linux-perf" (messages, reports) */
	const char *lib;		/* the library the sites are in, as the archive
					 * holds it: "lib/aarch64-linux-gnu/libc.so.6" */
	const char *const *argv;	/* NULL-terminated: the executable, its arguments */
};

#endif
