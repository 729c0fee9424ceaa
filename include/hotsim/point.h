/*
 * point.h - a boot point: where the workload's boot stops so that a path
 * can start from the state the kernel built for itself (README, "Booted
 * state"). A path definition names its point (kernels/paths/); the vm layer
 * takes the points it is given, boots once per image and QEMU CPU and keeps
 * every point's registers and RAM in the snapshot (sim/vm/); the replay
 * starts there (sim/emu/backend_booted.c).
 */
#ifndef HOTSIM_POINT_H
#define HOTSIM_POINT_H

enum hs_point_kind {
	HS_POINT_SVC,		/* process A at a labelled svc of the workload */
	HS_POINT_IRQ		/* the first tick taken from EL from_el */
};

/* How validation records QEMU's own stream from the point. */
enum hs_point_record {
	HS_REC_STEPPED,		/* single-stepped over the gdbstub, no IRQ, no timer */
	HS_REC_PLUGIN		/* free-running, by the recording TCG plugin (a
				 * debugger stop would move the clock an IRQ path reads) */
};

struct hs_boot_point {
	const char *name;	/* "getpid": in the snapshot, messages, validation */
	enum hs_point_kind kind;
	const char *site;	/* SVC: the workload's global label at the svc */
	int from_el;		/* IRQ: the level the tick interrupts (0 or 1) */
	/* NULL: reached on the way in the first boot run (points of that run
	 * come in the order the workload reaches them); else reached from the
	 * machine kept at that point, restored and run on - each IRQ point is
	 * the first tick of its kind after that point */
	const char *after;
	enum hs_point_record record;
};

#endif
