/*
 * point.h - a boot point: where the workload's boot stops so that a path
 * can start from the state the kernel built for itself
 * (docs/booted-state.md). A path definition names its point (kernels/paths/); the vm layer
 * takes the points it is given, boots once per image and QEMU CPU and keeps
 * every point's registers and RAM in the snapshot (sim/vm/); the replay
 * starts there and runs on through the operations it samples
 * (sim/emu/backend_booted.c).
 */
#ifndef HOTSIM_POINT_H
#define HOTSIM_POINT_H

enum hs_point_kind {
	HS_POINT_SVC,		/* process A at a labelled svc of the workload (or
				 * the store fault.page faults on); the workload
				 * reads CNTVCT into x9 one instruction before */
	HS_POINT_MARK,		/* a user workload's hotsim_op_begin() (a nop; x9 the
				 * counter, as at an svc) */
	HS_POINT_CALL		/* a program's process at the first svc of a function
				 * of its library (program.h); no counter read */
};

struct hs_program;

struct hs_boot_point {
	const char *name;	/* "getpid": in the snapshot, messages, validation */
	enum hs_point_kind kind;
	const char *site;	/* the workload's global label at the svc; for
				 * HS_POINT_CALL the library's function */
	uint64_t addr;		/* or the site's address (a user workload's marker:
				 * the labelled instruction, x9 the counter) */
	int each_op;		/* the site is reached once an operation (a loop's
				 * call): a machine's boot may let a hit pass
				 * for one with the other CPUs idle (sim/vm/boot.c) */
	const struct hs_program *program;	/* HS_POINT_CALL: whose process */
	/* a kernel function the operation cannot run without, and what its
	 * absence means: a machine's boot does not stop to hear the workload
	 * skip an operation (sim/vm/boot.c), so it skips the point at once
	 * where the image lacks the function */
	const char *needs, *needs_what;
};

#endif
