/*
 * path_internal.h - what path definitions with their own run function and
 * the benchmarks use of the path sessions (session.c): the context of a run
 * and the shared path kinds.
 */
#ifndef HOTSIM_PATHS_INTERNAL_H
#define HOTSIM_PATHS_INTERNAL_H

#include "emu/backend_booted.h"
#include "emu/kstate.h"
#include "emu/runner.h"
#include "hotsim/paths.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

/* Everything a path's run function works with. */
struct hs_path_ctx {
	const struct hs_image *img;
	const struct hs_patched *pt;
	struct hs_runner *r;
	struct hs_kstate ks;
	uint64_t budget;
	const struct hs_path_pins *pins;	/* NULL: pick sites freely */
};

/* Benchmarks: restore the session and set the path up without running it. */
int hs_session_prepare(struct hs_session *s, const struct hs_path_def *d, struct hs_path_run *out,
		       struct hs_run *run, struct hs_runner **r);
/* Shared by the path kinds (sim/paths/session.c). */
int hs_path_exception(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out);
void hs_path_note(struct hs_path_run *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* VBAR_EL1 as boot leaves it on core: the canonical vectors or the
 * Spectre-BHB slot of __bp_harden_el1_vectors; desc names it. */
uint64_t hs_path_vectors(const struct hs_image *img, const struct hs_core *core, char *desc, size_t len);
/* The Spectre-v2 callback boot keeps per CPU on a core the firmware
 * mitigates (session.c): its address, 0 if none; *var the per-CPU
 * variable it is kept in (CPU 0's image address, add a CPU's offset). */
uint64_t hs_path_bp_hardening(const struct hs_image *img, const struct hs_core *core, uint64_t *var);

/* The booted state of a session (booted_state.c). */
struct hs_boot_state {
	int ok, loaded;
	int booted_now;			/* the snapshot was booted by this init */
	struct hs_snap snap;
	struct hs_runner *r;
	struct hs_runner *peers[HS_SNAP_MAX_CPUS];	/* the other CPUs (machine_run.c) */
	const struct hs_core *core;		/* the modelled core */
	struct hs_core bootc;		/* the boot CPU, for the patcher */
	struct hs_idreg idregs[20];
	char boot_name[48];
	uint64_t vbar;			/* the modelled core's vectors */
	char vdesc[64];
	unsigned overlay_bytes, overlay_ranges;
	unsigned check_words;		/* text words booted != hotsim's patch for the boot CPU */
	unsigned check_keys;		/* ... of which static keys flipped at run time */
	unsigned check_rtconst;		/* ... and runtime constants hotsim left pending */
	unsigned check_ftrace;		/* ... and ftrace's function-entry words */
	char desc[600];
	char notes[16][320];		/* the overlay's ranges, the check */
	unsigned nnotes;
	/* the overlay as written (validation writes it into QEMU too) */
	struct hs_vm_patch *patches;
	size_t npatches;
	/* the points the snapshot was asked for (the registry's) */
	struct hs_boot_point points[HS_SNAP_MAX_POINTS];
	struct hs_vm_points pts;
	const struct hs_path_set *set;	/* the definitions (NULL: the registry's) */
	/* the last replay, for a path with the same point and operations (a
	 * window of another's: cswitch is sched-pipe's round trip, windowed):
	 * the replay is deterministic, so running it again gives these bytes.
	 * Kept only when another definition of the set asks for the same one,
	 * and moved to that one's run (a copy of every trace was 10% of a run,
	 * and fork's is 90 MB). */
	struct replay_memo {
		int valid, point;
		struct hs_bt_opspec spec;
		struct hs_trace tr;
		struct hs_bt_op *ops;
		unsigned nops;
		uint64_t pc;
	} memo;
};


/* The machine at the state's points (machine.c; hs_session_machine). */
unsigned hs_boot_state_npoints(const struct hs_boot_state *b);
int hs_boot_state_machine(const struct hs_boot_state *b, unsigned k, struct hs_machine_point *out);
int hs_boot_state_machine_run(struct hs_boot_state *b, unsigned k, unsigned nops, struct hs_machine_run *out);
/* ... and each CPU's instruction stream into tr[cpu] (made here, limit
 * records each: the caller frees them; validate_machine.c). */
int hs_boot_state_machine_trace(struct hs_boot_state *b, unsigned k, unsigned nops, struct hs_machine_run *out,
				struct hs_trace *tr, size_t limit, const struct hs_turn_clock *clock);

/* The same over a snapshot the caller has (a boot of its own, which
 * validation keeps machines of): taken over, freed with the state. */
int hs_boot_state_adopt(struct hs_boot_state *b, const struct hs_patched *pt, const struct hs_path_set *set,
			struct hs_snap *snap);
/* Load (or boot) the snapshot for pt's core and overlay its patching;
 * -1 with hs_errmsg() saying why there is no booted state. */
int hs_boot_state_init(struct hs_boot_state *b, const struct hs_patched *pt, const struct hs_path_set *set);
void hs_boot_state_free(struct hs_boot_state *b);
/* The modelled core's patching overlaid on the booted kernel, checked
 * against what boot patched (booted_overlay.c); b's runner is made. */
int hs_boot_overlay(struct hs_boot_state *b, const struct hs_patched *pt);
/* Where d's replay stops the guest for its ticks (0: nowhere). */
uint64_t hs_boot_warp_site(const struct hs_boot_state *b, const struct hs_path_def *d);
/* Run d's booted form into out (its trace is initialised): warmup +
 * samples operations (0: the definition's default); full: the whole run
 * from the point, without the definition's windows and sub-rows. */
int hs_path_booted(struct hs_boot_state *b, const struct hs_path_def *d, unsigned samples,
		   struct hs_path_run *out);
int hs_path_booted_full(struct hs_boot_state *b, const struct hs_path_def *d, unsigned samples,
			struct hs_path_run *out);

#endif
