/*
 * machine_internal.h - a machine's replay between its two schedulers:
 * QEMU's round robin (machine_run.c) and turns by modelled time
 * (machine_turns.c), each taking turns through the same calls.
 */
#ifndef HS_PATHS_MACHINE_INTERNAL_H
#define HS_PATHS_MACHINE_INTERNAL_H

#include "paths/path_internal.h"

struct machine {
	struct hs_runner *cpu[HS_SNAP_MAX_CPUS];	/* by QEMU's index */
	unsigned n, site_cpu;
	int halted[HS_SNAP_MAX_CPUS];
	/* stopped at the site where an op ended (or the point began): its
	 * next run passes that arrival; one whose turn ran out just before
	 * the site has not arrived yet */
	int arrived[HS_SNAP_MAX_CPUS];
	int exit_req[HS_SNAP_MAX_CPUS];	/* QEMU's cpu->exit_request */
	uint64_t site;
	uint64_t site_mm;	/* a program's point: its process only (program.h) */
	uint64_t base[HS_SNAP_MAX_CPUS];	/* each one's icount at the start */
};

/* What a pass keeps from turn to turn */
struct pass {
	struct hs_boot_state *b;
	unsigned k, nops;
	struct hs_machine_run *out;
	struct hs_trace *tr;
	uint64_t last[HS_SNAP_MAX_CPUS];
	struct hs_bt_counts was[HS_SNAP_MAX_CPUS];
	struct hs_coherence *lines;
	struct hs_release *rel;
};

/* CPU c's turn of up to budget instructions (ended early by a halt, an
 * SGI where the turns say so, a kick), then the lines it read: 0, or -1
 * with hs_errmsg() */
int hs_machine_take_turn(struct pass *p, struct machine *m, unsigned c, uint64_t budget);
/* Every CPU halted: the clock to the next deadline, its timer fires (-1:
 * none to come) */
int hs_machine_warp(const struct pass *p, struct machine *m);
/* The pass's turns by modelled time on clock (machine_turns.c) */
int hs_machine_model_turns(struct pass *p, struct machine *m, const struct hs_turn_clock *clock);

#endif
