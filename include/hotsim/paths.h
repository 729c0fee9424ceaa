/*
 * paths.h - hot paths, by stable name (the registry, kernels/paths/registry.c).
 *
 * A path definition is data (kernels/paths/, one file per path): how it is
 * entered, where it ends, which callees are stubbed, which functions it is
 * expected to pass through. The engine builds boot-like state (kstate.h) on
 * a fresh runner over the patched image, then runs the path and keeps its
 * trace. A path that cannot run says exactly why.
 */
#ifndef HOTSIM_PATHS_H
#define HOTSIM_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/patch.h"
#include "hotsim/percpu.h"
#include "hotsim/point.h"
#include "hotsim/trace.h"

struct hs_path_def;
struct hs_path_ctx;	/* sim/paths/path_internal.h */

/*
 * Where a path that picks representative sites (percpu) must measure: the
 * function of each segment, pinned from another image's run. compare pins
 * the patched image to the baseline's sites, so both sides measure the same
 * code even when a patch changes which sites the pick rule would prefer.
 */
struct hs_path_pins {
	struct { char label[32]; char fn[80]; } v[16];
	unsigned n;
};
struct hs_runner;
struct hs_kstate;

/* A run's outcome. The runner stays alive: the trace's decode cache is its. */
struct hs_path_run {
	const struct hs_path_def *def;
	int ok;
	char why[768];			/* when !ok: why the path cannot run */
	uint64_t entry;			/* first traced pc */
	char entry_desc[160];		/* "vectors+0x280 (el1h_64_irq)" ... */
	char notes[12][160];		/* e.g. "finish_task_switch: not in this image (inlined)" */
	unsigned nnotes;
	unsigned setup_insns;
	/* paths made of several measured pieces (percpu: one per op kind) */
	struct {
		char label[32];		/* "read", "add", ... */
		size_t begin, end;	/* trace records [begin, end) */
		uint64_t site;		/* the site measured */
		int wrapped;		/* preempt_disable/enable around it */
		char fn[80];		/* the function it is in (pins, below) */
	} segs[16];
	unsigned nsegs;
	struct hs_pcpu_census *census;	/* percpu: every site in the image */
	/* sub-rows that split the whole run: part_of[i] names record i's
	 * (an index into part_names), every record in exactly one */
	char part_names[8][16];
	unsigned nparts;
	uint8_t *part_of;
	int booted;			/* ran from the booted state */
	/* the operations of the run in its trace, in order: the first warmup
	 * are history (they warm caches and predictors), the rest are the
	 * samples; a synthesized run is one op, the whole trace */
	struct hs_op_range { size_t begin, end; } *ops;
	unsigned nops, warmup;
	char state[800];		/* where its state came from, and why not booted */
	struct hs_runner *r;
	int owns_runner;		/* freed with the run (hs_path_run) */
	struct hs_kstate *ks;
	struct hs_trace tr;
};

enum hs_path_kind {
	HS_PATH_EXCEPTION,	/* taken exception: from the vector entry to eret */
	HS_PATH_SWITCH,		/* yield() between two runnable tasks */
	HS_PATH_CUSTOM,		/* the definition's own run function */
	HS_PATH_BOOTED		/* only from the booted state (boot below) */
};

/* What an exception path takes. The vector follows from it and the level
 * it is taken from (VBAR_EL1 + 0x200 from EL1h, 0x400 from EL0 AArch64;
 * +0x000 synchronous, +0x080 IRQ). */
enum hs_exc_kind {
	HS_EXC_IRQ,		/* an interrupt: intid pending at the GIC CPU interface */
	HS_EXC_SVC		/* svc #0 from EL0: syscall number in x8, arguments x0..x5 */
};

/*
 * The booted form of a path (sim/paths/booted_state.c): it starts at a boot
 * point (point.h), which the vm layer takes in every boot because this
 * definition names it, and ends at an eret. A path without one runs on
 * synthesized state only.
 */
struct hs_split;	/* sim/paths/split.h: what a splitter may read of a run */
/* Sub-rows: put every record of [begin, end) of out's trace into a part
 * (out->part_of, out->part_names); hs_split_* helpers (split.h) do the
 * bookkeeping. */
typedef void (*hs_split_fn)(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end);

/*
 * One operation of a booted path, which the replay samples many times in a
 * row from the point (docs/sampling-and-noise.md).
 */
enum hs_op_kind {
	HS_OP_SYSCALL,		/* A's svc at the point's site, to the eret that
				 * returns after it (or after end_site) */
	HS_OP_IRQ,		/* an IRQ taken from EL from_el, to its eret */
	HS_OP_ABORT,		/* the abort A's instruction at the point's site
				 * takes (a page fault), to the eret back to it */
	HS_OP_RANGE		/* a marked range: from the EL0 instruction at
				 * range_begin (0: the point's site) to the next
				 * range_end (none: to the next range_begin, one
				 * iteration of a loop) */
};

struct hs_op_def {
	enum hs_op_kind kind;
	int from_el;		/* HS_OP_IRQ */
	/* HS_OP_SYSCALL: NULL, or the op ends at the eret that returns to the
	 * instruction after this workload label (sched-pipe: A's next read()) */
	const char *end_site;
	/* HS_OP_IRQ: where the replay (and QEMU, in validation) stops the
	 * guest so that the next tick is due at once - a workload label, or
	 * kernel functions ("a|b": the first this image has) - instead of
	 * running the milliseconds between two natural ticks */
	const char *warp;
	/* HS_OP_RANGE: the markers' addresses (0-terminated) */
	uint64_t range_begin;
	uint64_t range_end[8];
	unsigned warmup;	/* operations replayed before the first sample */
	unsigned samples;	/* samples by default (--samples overrides) */
	/* the longest an op may be, in instructions, when the run's trace
	 * cap (MS_TRACE_CAP) would not hold warmup + samples of them; 0: it
	 * does. Longer is a runaway, named. */
	unsigned max_insns;
};

struct hs_boot_def {
	const struct hs_boot_point *point;	/* NULL: synthesized only */
	struct hs_op_def op;
	const char *window;	/* keep only the first call of this function in each
				 * op, from its entry to its first return */
	hs_split_fn split;	/* sub-rows, or NULL */
	const char *const *landmarks;	/* more functions the booted form passes */
	/* its op is the point's loop, from the site back to it, between
	 * processes the scheduler may put on other CPUs: on a machine of
	 * more than one (run --smp N) the machine replays it, unpinned
	 * (measure/machine_rows.c); a path without it runs one CPU */
	int machine;
};

/* A path whose op is a benchmark's: its rows in that benchmark's units
 * (us/op, ops/s at a clock; measure/project.c). */
struct hs_bench_def {
	const char *benchmark;	/* "perf bench sched pipe" */
	const char *op;		/* "one round trip is one op" */
	/* NULL, or how it differs from the path that mirrors the same
	 * benchmark with hotsim's own workload, and why (the report says it) */
	const char *versus;
};

/* Where a session takes its state from. */
enum hs_state_source {
	HS_SRC_AUTO,		/* booted where the image boots, else synthesized */
	HS_SRC_BOOTED,		/* booted only: paths cannot run without it */
	HS_SRC_SYNTH		/* synthesized only (hotsim's own boot-like state) */
};

struct hs_path_def {
	const char *name;
	const char *summary;
	enum hs_path_kind kind;
	/* exceptions */
	enum hs_exc_kind exc;
	int from_el;			/* 0 or 1: exception level interrupted */
	uint32_t intid;			/* IRQ: GIC INTID pending at entry */
	int syscall;			/* SVC: the number in x8 */
	uint64_t args[6];		/* SVC: x0..x5 */
	/* callees answered at once (return 0), reported as excluded */
	const char *const *stubs;
	/* functions the path passes through when it is whole; one missing is
	 * reported (it may be inlined in this image) */
	const char *const *landmarks;
	int (*run)(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out);
	struct hs_boot_def boot;	/* .point == NULL: synthesized only */
	const struct hs_bench_def *bench;	/* projected to a benchmark's units */
	int tick;			/* the periodic tick: a projection at HZ adds its cost */
};

/* The registry (kernels/paths/registry.c, the layer above the path
 * engine: the engine is handed a set, it never reads the registry). All
 * paths, NULL-terminated, in report order; by name; the periodic tick
 * (def->tick), or NULL; the names of the paths a machine replays
 * (boot.machine), "a, b, c" in buf. */
extern const struct hs_path_def *const hs_paths[];
const struct hs_path_def *hs_path_find(const char *name);
const struct hs_path_def *hs_path_tick(void);
/* The machine paths' names, ", " between them, into buf (len >= 8) */
const char *hs_path_machine_names(char *buf, size_t len);

/*
 * The paths a session boots for: the registry's, with hotsim's own
 * workload (NULL set), or a user workload's user.* paths with that
 * workload (--workload: the boot runs the user's program).
 */
struct hs_workload;	/* sim/vm: the user's program and its markers */
struct hs_cgroup;
/* How a machine's replay takes turns between its CPUs: QEMU's round
 * robin, where a CPU runs on until it halts (and the replay is QEMU's own
 * stream, validate's); the woken CPU first: a CPU's turn ends at each
 * SGI it sends, as on a machine where the wakee's way back is the
 * shorter of the two; or by modelled time: the CPU whose clock is the
 * earliest runs next, a few instructions at a time, so that two CPUs
 * reach a lock in the order their modelled times put them
 * (hs_turn_clock; machine_run.c) */
enum hs_turns { HS_TURNS_QEMU, HS_TURNS_WAKEE, HS_TURNS_MODEL };
/* Its name (qemu, wakee, model), what a state line adds for it ("" for
 * QEMU's), and the one a name gives (-1: none). */
const char *hs_turns_name(enum hs_turns t);
const char *hs_turns_said(enum hs_turns t);
int hs_turns_named(const char *name, enum hs_turns *t);
struct hs_path_set {
	const struct hs_path_def *const *defs;	/* NULL-terminated */
	const struct hs_workload *wl;		/* NULL: hotsim's own workload */
	unsigned ncpus;				/* the booted machine's CPUs (0: one) */
	uint64_t taskset;			/* a program's CPUs (taskset's mask), 0: unpinned */
	const struct hs_cgroup *cgroup;		/* its cgroup (cgroup.h), NULL: the root */
	const char *cmdline;			/* kernel parameters added to the guest's
						 * command line (audit=1 ...), NULL: none */
	unsigned boot;				/* which boot of this machine: 0 the
						 * first; K > 0 boots again with
						 * hotsim_boot=K (cmdline.h) */
	enum hs_turns turns;			/* a machine's replay (not its boot) */
};
/* The registry's paths with hotsim's own workload (registry.c). */
extern const struct hs_path_set hs_path_set_builtin;
/* The paths in a Debian program's process, each booting its program
 * (program.h; a user workload's set is theirs: hs_user_paths_open). */
extern const struct hs_path_def *const hs_program_paths[];

/* A user workload's paths: user.NAME for each hotsim_op_begin("NAME"),
 * a range op from the marker to the next hotsim_op_end(). */
#define HS_USER_MAX_PATHS 16
struct hs_user_paths {
	struct hs_path_def defs[HS_USER_MAX_PATHS];
	struct hs_boot_point points[HS_USER_MAX_PATHS];
	struct hs_bench_def bench[HS_USER_MAX_PATHS];
	char names[HS_USER_MAX_PATHS][48];
	char ops[HS_USER_MAX_PATHS][80];
	const struct hs_path_def *list[HS_USER_MAX_PATHS + 1];
	int n;
	struct hs_path_set set;
	struct hs_workload *wl;		/* owned */
};
/* The workload FILE names - C source compiled by the cross compiler, or a
 * static aarch64 program - and its paths; NULL with a one-line
 * hs_errmsg() (the compiler's first error, no markers, a marker the
 * compiler duplicated, ...). */
struct hs_user_paths *hs_user_paths_open(const char *file);
void hs_user_paths_close(struct hs_user_paths *u);
/* A Debian program's paths (program.h): those of defs (hs_program_paths)
 * whose point is in the program `name`'s process, with its boot loaded:
 * the program pinned to the CPUs of mask cpus (taskset's; 0 unpinned).
 * NULL: *found 0 when no path runs such a program, else with a one-line
 * hs_errmsg() (not fetched: the command that fetches it). */
struct hs_user_paths *hs_program_paths_open(const char *name, const struct hs_path_def *const *defs, uint64_t cpus,
					    int *found);
/* The program a path's point is in ("perf"), or NULL: hotsim's workload. */
const char *hs_path_program(const struct hs_path_def *d);

/* How a run is made; zero is the default for every field. */
struct hs_run_opts {
	size_t trace_limit;			/* records; 0: 4,000,000 */
	const struct hs_path_pins *pins;	/* NULL: the path picks its sites */
	unsigned samples;			/* booted: 0 the path's default */
	const struct hs_path_set *set;		/* the paths the session boots for */
};

/*
 * Several paths on one patched image: boot state is built once (booted
 * under QEMU where the source allows it, once per image and boot CPU,
 * cached; or hotsim's own synthesized state), snapshotted, and every run
 * starts from the snapshot, without rebuilding state or retranslating
 * code - results do not depend on what ran before. A run from a session
 * is valid until the next run or hs_session_free.
 */
struct hs_session;
/* ... booting for set's paths (hs_path_set_builtin: the registry's) */
struct hs_session *hs_session_new(const struct hs_patched *pt, enum hs_state_source src,
				  const struct hs_path_set *set);
/* What a session's booted state is: "booted on QEMU cortex-a53 ..." or why
 * there is none. */
const char *hs_session_state(const struct hs_session *s, int *booted);
/* Details of the booted state: the overlay's ranges, the patching check. */
unsigned hs_session_state_notes(const struct hs_session *s, const char **notes, unsigned max);
void hs_session_free(struct hs_session *s);

/*
 * The booted machine at a session's points, every CPU of it (machine.c):
 * where each CPU was when the point's CPU reached its site - running,
 * stopped there, or halted in wfi - and its GIC's SGI and PPI state (a
 * machine of one CPU keeps none: has_gic 0).
 */
#define HS_MACHINE_MAX_CPUS 8
struct hs_machine_cpu {
	unsigned index;
	int stopped;			/* the CPU at the point's site */
	int halted;			/* waiting in wfi */
	unsigned el;
	uint64_t pc, sp_el0;		/* at EL1 SP_EL0 is the kernel's current task */
	int has_gic;
	uint32_t waker, enabled, pending, active;	/* GICR_*: SGIs 0-15, PPIs 16-31 */
	int has_icc;			/* the CPU interface as QEMU's gdbstub shows it */
	uint64_t icc_pmr, icc_ap1r0;
};
struct hs_machine_point {
	const char *name;
	const char *site;		/* the workload's label the point stops at, or NULL */
	unsigned ncpus;
	struct hs_machine_cpu cpu[HS_MACHINE_MAX_CPUS];
};
/* The session's booted points (0: no booted state), and point k's CPUs:
 * -1 with hs_errmsg() when k is out of range. */
unsigned hs_session_npoints(const struct hs_session *s);
/* Why this kernel could not run the operation of point `point` (its
 * workload skipped it: no AF_UNIX without networking), or NULL. */
const char *hs_session_skipped(const struct hs_session *s, const char *point);
/* How every output leads the reason a kernel cannot run a point's operation */
#define HS_SNAP_SKIPPED "the workload's operation fails in this kernel: "
int hs_session_machine(const struct hs_session *s, unsigned k, struct hs_machine_point *out);
/* The booted state's snapshot by the name its outputs give it: the top 32
 * bits of its checksum, 8 hex digits ("" without a booted state). QEMU
 * does not always boot a machine of more than one CPU the same (docs/booted-state.md),
 * so a machine's outputs name the snapshot they replayed. */
#define HS_SNAPSHOT_NAME 9
void hs_session_snapshot(const struct hs_session *s, char name[HS_SNAPSHOT_NAME]);

/*
 * The machine replayed from point k, every CPU over one RAM (machine_run.c):
 * the CPU at the site runs until it halts in a wfi with nothing to take,
 * then a CPU an interrupt is pending for (an SGI another sent, its timer)
 * resumes past its wfi, and so on - one CPU at a time, switching only
 * where QEMU's round robin does for these workloads, at a halt. An
 * operation is the site CPU's run from the site back to it; the first
 * takes the tick that is due at a point. Per operation and CPU: what it
 * ran and sent.
 */
#define HS_MACHINE_MAX_OPS 64
struct hs_machine_cpu_op {
	uint64_t insns;
	unsigned sgis, irqs, halts;	/* SGIs sent, interrupts taken, wfi halts */
};
/* What let a CPU go on at its instruction at (counted from the run's
 * start, as its trace): an SGI that CPU from sent at its instruction
 * from_at woke it from wfi, or its own timer did; or (with a trace only:
 * the lines the CPUs share, hs_coherence_note) it read what CPU from
 * stored at from_at, taking a lock that CPU released, or ending a spin in
 * wfe/yield it began at its instruction spin_from. */
#define HS_MACHINE_MAX_WAKES 16384
enum hs_wake_kind { HS_WAKE_SGI, HS_WAKE_TIMER, HS_WAKE_LOCK, HS_WAKE_SPIN_END };
struct hs_machine_wake {
	enum hs_wake_kind kind;
	unsigned cpu, from;		/* from: not for HS_WAKE_TIMER */
	uint64_t at, from_at, spin_from;
	uint64_t from_took;		/* HS_WAKE_LOCK: from's own acquire of the
					 * lock before its release, record + 1; 0 unknown */
};
struct hs_machine_run {
	unsigned ncpus, nops, site_cpu;		/* site_cpu: where the point stopped */
	enum hs_turns turns;			/* how the CPUs took turns */
	struct hs_machine_cpu_op op[HS_MACHINE_MAX_OPS][HS_MACHINE_MAX_CPUS];
	unsigned end_cpu[HS_MACHINE_MAX_OPS];	/* the CPU whose return to the site
						 * ended op k (the task may move) */
	unsigned nwakes;		/* in the order they happened (at most the max) */
	struct hs_machine_wake wake[HS_MACHINE_MAX_WAKES];
};
/* The clock HS_TURNS_MODEL takes turns by (the measure layer's models):
 * cost() puts the cycles of CPU cpu's records [from, to) of t in
 * cycles[0 .. to - from) - t holds record to as well, their successor -
 * each CPU's stream on a model of its own, in the order they ran; ipi: an
 * SGI's delivery to another CPU, exit: that CPU's way out of wfi, in
 * cycles (the machine timeline's ipi_latency and wfi_exit). */
struct hs_turn_clock {
	void *ctx;
	int (*cost)(void *ctx, unsigned cpu, const struct hs_trace *t, size_t from, size_t to, uint32_t *cycles);
	uint64_t ipi, exit;
};
/* -1 with hs_errmsg() (no booted state, a run that failed or never came
 * back to the site). */
int hs_session_machine_run(struct hs_session *s, unsigned k, unsigned nops, struct hs_machine_run *out);
/* The same, with every CPU's stream in tr[0 .. out->ncpus - 1] (each at
 * most limit records; freed with hs_trace_free), for costing; the set's
 * turns by modelled time (HS_TURNS_MODEL) take them on clock, which any
 * other turns ignore (NULL then). */
int hs_session_machine_trace(struct hs_session *s, unsigned k, unsigned nops, struct hs_machine_run *out,
			     struct hs_trace *tr, size_t limit, const struct hs_turn_clock *clock);

/* Run one path; out->ok says whether it ran (out->why when not). Returns
 * -1 only for internal failures (out of memory). */
int hs_path_run(struct hs_session *s, const struct hs_path_def *d, const struct hs_run_opts *o,
		struct hs_path_run *out);
/* The same on a session of its own, which the run keeps (freed with it). */
int hs_path_run_alone(const struct hs_path_def *d, const struct hs_patched *pt, enum hs_state_source src,
		      const struct hs_run_opts *o, struct hs_path_run *out);

void hs_path_run_free(struct hs_path_run *out);

/*
 * Validation (sim/paths/validate.c): each path's booted run against QEMU's
 * own instruction stream from the same point - the image booted again
 * (the snapshot must come out the same), the machine restored at the
 * point with hotsim's overlay written into it, run free with the
 * recording plugin and stopped where the replay stops it (its stop
 * site, the ticks' samples). The whole stream of every operation the
 * path samples is compared, its warm-up included; for cswitch that is
 * the round trips its windows lie in.
 */
struct hs_validation {
	const struct hs_path_def *def;
	int ran;			/* both streams were recorded */
	int identical;
	const char *point;		/* the snapshot point the run starts at */
	const char *how;		/* "plugin-recorded" */
	size_t n;			/* instructions compared */
	unsigned nops;			/* operations they hold */
	size_t at;			/* first divergence */
	uint64_t pc, next_replay, next_qemu;
	unsigned ncpus;			/* a machine of more than one CPU (0: one) */
	unsigned cpu;			/* ... whose stream differs (at counts in it) */
	unsigned qemu_runs;		/* ... QEMU's runs it took (the last one compared) */
	int unrunnable;			/* !ran: the kernel cannot run the path's
					 * operation (why gives its reason) */
	char why[800];			/* !ran: why not */
};
/* One result per path in defs (paths without a booted form: !ran). */
int hs_validate(const struct hs_patched *pt, const struct hs_path_set *set,
		const struct hs_path_def *const *defs, int ndefs, struct hs_validation *out);

#endif
