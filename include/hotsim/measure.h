/*
 * measure.h - the measuring pipeline, as a library: run the selected paths
 * of one image on the selected cores and cost them with the models (the
 * numbers `run` and `compare` print), compare two images row by row, and
 * time a user's function (`snippet`). The CLI only parses and prints.
 *
 * A row is one measured thing on one core: a path, a sub-row of one
 * (sched-pipe.write), a segment of one (percpu.read, ...), or the percpu
 * census (every this_cpu site of the image, costed as one stream). Each
 * row has a result per state:
 *   typical  the mean over the sampled operations of a booted run, each
 *            costed with the caches and predictors that what really ran
 *            before it left (the operations before it, the ticks, the
 *            other task): what a benchmark's mean measures
 *   warm     one operation repeated until its cost converges
 *   cold     one operation from flushed caches, TLBs and predictors
 * A row from synthesized state has no history to sample: its typical is
 * its warm, one draw (n = 1), and says so.
 */
#ifndef HOTSIM_MEASURE_H
#define HOTSIM_MEASURE_H

#include <stdint.h>

#include "hotsim/cmdline.h"
#include "hotsim/model.h"
#include "hotsim/paths.h"

#define MS_MAX_ROWS 512
/* The most cores and paths one command runs: every registry must fit
 * (the CLI checks it before parsing, and says so; nothing is cut). */
#define MS_MAX_CORES 16
#define MS_MAX_PATHS 64
#define MS_MAX_PARAMS 64
/* One cap for every trace a path or a snippet produces (records), and one
 * for the warm repetitions of every model run. */
#define MS_TRACE_CAP 4000000
#define MS_WARM_MAX 16

enum ms_state { MS_TYPICAL, MS_WARM, MS_COLD, MS_NSTATES };
extern const char *const ms_state_names[MS_NSTATES];	/* "typical", "warm", "cold" */

/* Instructions a run executed in one function per sampled op (diverge.c). */
struct ms_fn_count {
	uint64_t addr, size;		/* the function's symbol; addr 0: no function */
	uint64_t insns;			/* over all sampled ops */
	double ss;			/* sum of the per-op counts squared */
};

/* A distribution over sampled operations (stats.c). */
struct ms_dist {
	unsigned n;			/* samples; 1: one draw, no interval */
	double mean, sd;
	double ci95;			/* half-width of the 95% interval of the mean
					 * (Student's t, n - 1 degrees of freedom) */
	uint64_t min, median, max;
};

/* One state's result of a row. */
struct ms_result {
	struct hs_model_result r;	/* typical: the per-op means, rounded */
	struct ms_dist d;		/* cycles per op */
	double insns;			/* instructions per op (mean) */
	double *v;			/* each sample's cycles (d.n of them), owned */
	/* layout noise (ms_options.noise): the cycles' range (typical: the
	 * mean's) over the layouts tried, the recorded one included; a
	 * sampled row's layout is the recorded mean moved by what that layout
	 * does to the mean of the first quarter of the samples (at least
	 * MS_BAND_MIN: cost.c) */
	double noise_lo, noise_hi;
};

struct ms_row {
	char name[40];			/* "cswitch", "percpu.add", "percpu.census" */
	const char *path;		/* path definition name */
	const struct hs_path_def *def;	/* ... and the definition */
	const struct hs_core *core;
	int ok;
	char why[800];			/* !ok: why it cannot run */
	uint64_t insns;			/* dynamic instructions */
	uint64_t code_bytes;		/* distinct instruction bytes executed */
	unsigned sites;			/* census: sites costed */
	char site_fn[80];		/* segment rows: the function measured */
	int booted;			/* ran from the booted state */
	char state[800];		/* where the state came from / why not booted */
	struct ms_result s[MS_NSTATES];	/* by enum ms_state; those asked for */
	int noise_n;			/* layouts the band spans (0: no band) */
	int part;			/* a sub-row: a part of the whole row above it */
	/* whole rows: instructions per function per sampled op, by address
	 * (ms_profile) */
	struct ms_fn_count *fns;
	int nfns;
	unsigned nsamples;
	/* a machine's whole row (ncpus > 0): each CPU's idle cycles in an
	 * operation (ms_machine_op.idle), the mean over the samples (perf
	 * bench divides wall time, idle included) */
	unsigned ncpus;
	double idle[HS_MACHINE_MAX_CPUS];
	/* ... and the locks its sampled ops reached before the other CPU took
	 * them, whose order the replay keeps (ms_machine_cost.order_flips) */
	unsigned order_flips;
};

/* The CPU that did a machine's round trips alone - every other one idle
 * the whole op, its mean idle within half a cycle of the op's mean
 * cycles, whole - or -1 (one CPU, or more did work). */
int ms_one_cpu(unsigned ncpus, const double *idle, double whole);

/* Where a parameter's value comes from: the user (--param), a time of the
 * core file at another clock (ms_clock_times), a board's own */
enum ms_param_from { MS_FROM_USER, MS_FROM_TIME, MS_FROM_BOARD };
struct ms_param {
	char core[8];			/* "" for all cores */
	char name[48];
	double value;
	enum ms_param_from from;
};

struct ms_options {
	const struct hs_core *cores[MS_MAX_CORES];
	int ncores;
	const struct hs_path_def *paths[MS_MAX_PATHS];
	int npaths;
	int want[MS_NSTATES];		/* the states to cost */
	unsigned samples;		/* booted rows: 0 each path's default */
	enum hs_state_source src;	/* booted, synthesized, or booted where possible */
	int noise;			/* layouts beyond the recorded one: in layout k
					 * the code (data) above the path's k-th quantile
					 * moves by ms_layout_shift(k) bytes */
	struct ms_param params[MS_MAX_PARAMS];
	int nparams;
	/* compare: measure every segment row in the function this image's
	 * run measured it in (the patched image at the baseline's sites) */
	const struct ms_image *pin_from;
	/* the paths' boot (NULL: the registry's, hotsim's own workload) */
	const struct hs_path_set *set;
	/* a second boot's paths, named in the list beside set's: a Debian
	 * program's (hs_program_paths_open); NULL: none */
	const struct hs_path_set *more;
	/* a share of the work (compare --shard K/N): unit u = core index x
	 * npaths + path index is measured when u mod nshards = shard - 1,
	 * on every image; nshards 0: everything */
	unsigned shard, nshards;
};

/* Is (core c, path k) of o in its shard? (ms_options.shard) */
int ms_in_shard(const struct ms_options *o, int c, int k);
/* Has core c of o any path in shard `shard` of nshards (0: everything),
 * o's own or a finer one (parallel.c)? None: nothing to patch or boot. */
int ms_core_in_share(const struct ms_options *o, int c, unsigned shard, unsigned nshards);

struct ms_image {
	struct hs_image *img;
	struct ms_row rows[MS_MAX_ROWS];
	int nrows;
};

/* Open an image to measure (a file that is not an arm64 kernel image
 * fails here, before anything is measured: compare opens both first). */
int ms_open(const char *path, struct ms_image *out);
/* -1 with hs_errmsg() for errors that stop everything (bad image, unknown
 * parameter); a path that cannot run is a row with !ok. */
/* Measure several opened images (each with its options) at once: every
 * (image, core) in a process of its own - its paths split over several
 * when there are fewer (image, core) pairs to start than lanes - a few at
 * a time (HOTSIM_JOBS, else the CPUs online, at most one per GiB of
 * available memory); an image pinned to another (pin_from) waits for its
 * rows core by core. The rows are those, and in the order, of measuring
 * one image after the other. */
int ms_measure_images(struct ms_image *const *imgs, const struct ms_options *const *opts, int n);

void ms_free(struct ms_image *m);

/*
 * The walk every command takes, in one place (pipeline.c): image ->
 * patched image (each core of o) -> state (a session booting for o's path
 * set) -> path runs (each path of o, in o's shard). A command gives the
 * stages it prints and the walk goes no further than its last one: image
 * stops at the patched image; paths and trace print the runs; validate
 * takes each path's run against QEMU's instead of the runs; run and
 * compare cost the runs into rows (ms_measure_images walks with the
 * models). A run is freed after its stage returns. A stage that returns
 * non-zero ends the walk, which returns that value; -1 is an error with
 * hs_errmsg().
 */
struct ms_stages {
	void *ctx;
	int (*patched)(void *ctx, const struct hs_patched *pt);
	int (*state)(void *ctx, const struct hs_patched *pt, struct hs_session *s);
	int (*run)(void *ctx, const struct hs_patched *pt, struct hs_path_run *r);
	int (*validated)(void *ctx, const struct hs_patched *pt, const struct hs_validation *v, int n);
};
int ms_walk(const struct hs_image *img, const struct ms_options *o, const struct ms_stages *st);
/* ... core o->cores[c] alone */
int ms_walk_core(const struct hs_image *img, const struct ms_options *o, int c, const struct ms_stages *st);

/* A model for core with the command-line overrides applied. */
struct hs_model *ms_model(const struct ms_options *o, const struct hs_core *core);

/* Parse "a55.isb=20" or "isb=20". */
int ms_parse_param(const char *arg, struct ms_param *p);

/* One path on one core, kept for --explain / --timeline: the run, its
 * per-instruction costs in a state, and which records count: typical, the
 * sampled operations of the whole stream (attribution is their mean);
 * warm and cold, the first sampled operation alone. */
struct ms_detail {
	struct hs_patched *pt;
	struct hs_path_run run;
	struct hs_insn_cost *per;	/* per record of run.tr */
	struct hs_model_result res;
	enum ms_state state;
	const struct hs_op_range *count;	/* the records that count */
	unsigned ncount;
};
int ms_detail(const struct hs_image *img, const struct ms_options *o, const struct hs_core *core,
	      const struct hs_path_def *d, enum ms_state state, struct ms_detail *out);
void ms_detail_free(struct ms_detail *d);

/* "2.0.1 (library 2.0)": the Unicorn built against, and the one loaded */
const char *ms_unicorn_version(char *buf, size_t len);

/* --- explain (explain.c) --------------------------------------------------- */

/* A function's share of a path per operation: [0] base (or the one
 * image), [1] patched. */
struct ms_fn_cost {
	char name[80];			/* without .isra/.constprop suffixes */
	double insns[2], cycles[2];
};
double ms_fn_delta(const struct ms_fn_cost *f);

/* Per function, aligned by name; sorted by size of change (p given) or by
 * cycles (p NULL). Returns the count (at most max). */
int ms_explain_functions(const struct ms_detail *b, const struct ms_detail *p, struct ms_fn_cost *t,
			 int max);

/* One static instruction of a function in a run, per operation. */
struct ms_insn_note {
	uint64_t pc;
	uint32_t word;
	double n;			/* executions */
	double cycles;
	unsigned stall;			/* its worst stall, cycles */
	const char *why;		/* that stall's name */
};

/* The instructions of function fn in d, by address; count (at most max). */
int ms_annotate(const struct ms_detail *d, const char *fn, struct ms_insn_note *a, int max);

/* --- fidelity (fidelity.c): the models beside published boards ---------- */

struct hs_board;
struct hs_board_cell;

/* One published cell beside hotsim's number for it. */
struct ms_cell {
	const struct hs_board_cell *c;
	double board;			/* cycles: the published us x the board's clock */
	double hotsim;			/* cycles: the cell's terms summed (ok) */
	double ci95;			/* the terms' intervals, added in quadrature */
	int ok;
	int booted;			/* every term's row from the booted state */
	unsigned cpus;			/* a term ran on the board's machine of
					 * this many CPUs (0: every one on one) */
	int one_cpu;			/* ...but its sampled round trips never
					 * left one CPU (no IPI), in every boot */
	/* On the machine (cpus): the cell in each boot of it, and whether
	 * that boot's round trips stayed on one CPU. hotsim is the mean of the
	 * boots whose round trips crossed CPUs (of every boot when none did),
	 * ci95 then the interval of that mean over the boots. */
	unsigned nboots;
	double boot_cycles[HS_BOOT_MAX];
	unsigned char boot_one_cpu[HS_BOOT_MAX];
	/* The machine's boots take turns by modelled time (HS_TURNS_MODEL);
	 * the same boots replayed in QEMU's order (its own, validated stream)
	 * reached flips locks in flip_ops sampled round trips before the other
	 * CPU took them (ms_row.order_flips): where it did, that order's
	 * mean (0: none) */
	unsigned flips, flip_ops;
	double qemu_order;
	char note[1024];		/* the board's note on it; !ok: why there
					 * is no number */
};

#define MS_MAX_CELLS 24
/* Boots of a board's machine for its unpinned cells by default: enough to
 * see a cell's spread and whether its round trips cross CPUs, few enough
 * to stay a minute. */
#define MS_BOARD_BOOTS 4
struct ms_fidelity {
	const struct hs_board *b;
	struct hs_core board_core;	/* the core on the board's firmware (hs_board_core) */
	struct ms_image img;		/* the rows measured (the board's core) */
	struct ms_image *machine;	/* ... on a machine of the board's CPUs,
					 * booted nboots times (boot 0 .. nboots - 1),
					 * taking turns by modelled time */
	struct ms_image *qemu;		/* ... and each boot replayed in QEMU's
					 * order (--turns qemu) */
	unsigned nboots;
	struct ms_cell cells[MS_MAX_CELLS];
	int ncells;
	/* mean absolute percentage error of the fitted cells, of the held-out
	 * ones; the largest of either, and its cell; of the unpinned cells run
	 * on the board's machine */
	double mape_fit, mape_held, worst, mape_unpinned;
	int nfit, nheld, worst_cell, nunpinned;
};

/* The board's paths on image, its core with the board's own parameters
 * (its caches) and params on top, every cell computed as lmbench does; the
 * unpinned cells on the board's machine, booted nboots times (1 ..
 * HS_BOOT_MAX: each boot is one draw of where the kernel puts things):
 * -1 with hs_errmsg() when the image cannot be measured at all; a cell
 * that has no number says why. */
int ms_fidelity(const char *image, const struct hs_board *b, const struct ms_param *params, int nparams,
		unsigned nboots, struct ms_fidelity *out);
void ms_fidelity_free(struct ms_fidelity *f);
/* The board's parameters and params as one list of at most max, each
 * saying where it comes from: the core file's times at the board's clock
 * (ms_clock_times), the board's own, then params (a later entry wins;
 * core-qualified); their count, or -1 with hs_errmsg(). */
int ms_board_params(const struct hs_board *b, const struct ms_param *params, int nparams,
		    struct ms_param *out, int max);
/* The registry's paths booted as the board ran its benchmarks: on ncpus
 * CPUs (0: one), in its cgroup; -1 with hs_errmsg() naming a cgroup hotsim
 * does not know. */
int ms_board_set(const struct hs_board *b, unsigned ncpus, struct hs_path_set *set);
/* What core parameter p counts at clock hz: a time (p->timed) is the
 * same time in that clock's cycles, the core file's value scaled by hz
 * over the core file's clock; anything else (or hz 0), p's value. */
struct hs_param;
double ms_at_clock(const struct hs_param *p, const struct hs_core *core, uint64_t hz);
/* The core's parameters whose value differs at clock hz, at most max:
 * the times (the DRAM's, the interrupt controller's) keep their
 * nanoseconds, not their cycles; their count, or -1. */
int ms_clock_times(const struct hs_core *core, uint64_t hz, struct ms_param *out, int max);

/* The fit of a core's unpublished costs to a board's cells: hotsim/fit.h. */

struct hs_board_cell;
/* Does term d of board b's cell c run on the board's machine? An unpinned
 * cell's path that a machine replays, on a board of more than one CPU. */
int ms_on_machine(const struct hs_board *b, const struct hs_board_cell *c, const struct hs_path_def *d);

/* --- comparison (compare.c) --------------------------------------------- */

struct ms_compare;

/* The same (name, cpu) in both images; either side may be absent. */
struct ms_pair {
	const struct ms_row *base, *patched;
	const char *name;
	const struct hs_core *core;
};

/*
 * What a move of one result is worth (compare): the difference of the
 * means with its 95% interval (Welch's t-test, for typical rows), and the
 * verdict. A move is improved / regressed - Fastpath's (I) / (R) - only
 * when the sampled difference is significant (Welch, p < 0.05) AND beyond
 * the layout band (the two images' ranges over the layouts tried do not
 * overlap, and the move is 0.5% or more); otherwise it is within noise.
 * A row of one deterministic draw per side (warm, cold, synthesized state)
 * has no spread to test: the layout band alone decides it, and without a
 * band (the census, a sum of sites each costed alone) it is not judged
 * (MS_UNJUDGED): a move may be what a layout does or not. A sub-row
 * (sched-pipe.switch, irq-el1.entry) attributes its whole row's move and
 * gets no verdict of its own (MS_PART): the layouts move the whole op's
 * code, and a small part's band is often a single value - its own
 * layouts never happened to move what it conflicts with - so any change
 * of it would count as beyond a band it never had.
 */
enum ms_verdict { MS_SAME, MS_WITHIN, MS_IMPROVED, MS_REGRESSED, MS_PART, MS_UNJUDGED };

struct ms_welch {
	double delta, ci95;		/* patched - base, and the interval's half-width */
	double t, df, p;		/* p: two-sided */
};
/* -1 when a side has fewer than two samples (w->delta still set). */
int ms_welch(const struct ms_dist *a, const struct ms_dist *b, struct ms_welch *w);
/* Student's t: the CDF and its inverse (stats.c). */
double ms_t_cdf(double t, double df);
double ms_t_quantile(double p, double df);
/* The distribution of n values (median by sorting a copy). */
void ms_dist_of(const double *v, unsigned n, struct ms_dist *d);
/* The layout band of a sampled row (stats.c): the sampled ops a layout is
 * costed over (the first quarter of them, at least MS_BAND_MIN), and the
 * mean that layout gives the row: the recorded mean moved by the layout's
 * mean of the first m samples less the recorded one's (recorded[0..m)). */
unsigned ms_band_ops(unsigned sampled);
double ms_band_at(const double *recorded, double recorded_mean, double layout_mean, unsigned m);

struct ms_move {
	double delta, pct;		/* of the means */
	double ci95;			/* of the difference; 0: no test */
	int tested;			/* both sides sampled */
	double p;
	int one_draw;			/* one deterministic draw per side */
	int significant;		/* p < 0.05; one draw: beyond the band */
	int band;			/* 1 beyond the layout band, 0 within, -1 no band */
	int state_only;			/* significant and beyond the band, but no
					 * function the row ran changed and the runs
					 * took other paths through them: the state's
					 * move, within noise (ms_pair_touched) */
	enum ms_verdict verdict;
};
void ms_pair_move(const struct ms_compare *c, const struct ms_pair *p, enum ms_state st,
		  struct ms_move *m);

struct ms_summary {
	unsigned results;		/* (row, state) results */
	unsigned moved, faster, slower;	/* compare: results whose means changed */
	unsigned improved, regressed;	/* ... significantly and beyond layout (verdicts) */
	unsigned not_run;		/* absent or cannot run on a side */
	const struct ms_pair *largest;	/* the largest move */
	enum ms_state largest_state;
	double largest_delta;
};

struct ms_compare {
	const struct ms_image *base, *patched;	/* patched NULL for run */
	struct ms_pair pairs[MS_MAX_ROWS * 2];
	int npairs;
	int order[MS_MAX_ROWS * 2];	/* pairs by size of change (compare), else as measured */
	char warnings[8][400];
	int nwarnings;
	int want[MS_NSTATES];
	struct ms_summary summary;
};

/* Pair, warn, summarize and order; patched may be NULL (run). */
void ms_compare_build(struct ms_compare *c, const struct ms_image *base,
		      const struct ms_image *patched, const int want[MS_NSTATES]);

/* delta% of patched over base; 0 when base is 0 */
double ms_delta_pct(double base, double patched);

/* Both sides ran (run: the one side). */
int ms_pair_ok(const struct ms_compare *c, const struct ms_pair *p);
/* The result of a side (0 base, 1 patched) in a state. */
const struct ms_result *ms_pair_result(const struct ms_pair *p, int patched, enum ms_state st);
/* Different paths through unchanged code (diverge.c): functions whose code
 * is the same in both images (same size; same instructions but for the
 * fields that only say where things are) and that ran a different number
 * of instructions per operation - the two runs' state differed there, not
 * the code. With samples on both sides a function counts when the means
 * differ significantly (Welch, p < 0.05) by at least one instruction;
 * with one draw, when they differ at all. Returns how many (the max
 * largest changes in out), -1 on allocation failure; *insns: the sum of
 * the differences of the means. */
struct ms_diverged {
	char name[80];
	double insns[2];		/* per op: base, patched */
};
int ms_pair_diverged(const struct ms_compare *c, const struct ms_pair *p, struct ms_diverged *out, int max,
		     double *insns);
/* How many functions the rows ran that the patch changed (absent from the
 * other image, or other code, as above), each side's counted; 0: none;
 * -1 without both rows' per-function counts. */
int ms_pair_touched(const struct ms_compare *c, const struct ms_pair *p);
/* Fill a whole row's per-function counts from its run's sampled ops. */
int ms_profile(const struct hs_image *img, const struct hs_path_run *pr, struct ms_row *row);

/*
 * Layout k's shift (k >= 1): 4 x ((2477k mod 4096) + 1) bytes, a multiple
 * of 4 up to MS_LAYOUT_SPAN, each k another (2477 is prime to 4096; k = 1..8,
 * compare's default: 9912, 3436, 13344, 6868, 392, 10300, 3824, 13732).
 * The span is a whole L1 way of the modelled cores (32 KB 2-way on the
 * A53, 48 KB 3-way on the A72, 64 KB 4-way on the A73, A76 and N1: 16 KB;
 * the A55's 8 KB ways wrap inside it): a relinked
 * kernel puts a path at any offset modulo a way, and shifts below 512 bytes
 * move it by at most 8 of a way's 256 lines -
 * too few to cover a stable update's relink (Debian 6.12's pair: mmap 2.8%
 * cheaper on the A73 with the same instructions in 200 functions); with
 * shifts this wide, 4 layouts sampled the band too thinly (a false (R) on
 * 7.2-percpu-nopreempt's sched-pipe, A73), hence 8 by default. The
 * same idea as STABILIZER's re-randomized placement (Curtsinger & Berger,
 * ASPLOS 2013) against the layout bias Mytkowicz et al. measured (ASPLOS
 * 2009), done deterministically.
 */
#define MS_LAYOUT_SPAN 16384
/* The fewest sampled ops a layout's shift of a mean is measured over. */
#define MS_BAND_MIN 8
static inline unsigned long long ms_layout_shift(int k)
{
	return 4ULL * (unsigned long long)((k * 2477) % 4096 + 1);
}

/* Layout noise of a move: 1 beyond the band (the two images' ranges do
 * not overlap and the move is at least 0.5%, not a cycle or two of flat
 * ranges), 0 within it, -1 no band (no --noise). */
int ms_pair_beyond_noise(const struct ms_compare *c, const struct ms_pair *p, enum ms_state st);
/* Worth a line in the reviewer's table: changed, or not run on a side. */
int ms_pair_moved(const struct ms_compare *c, const struct ms_pair *p);
/* Sum of the means of every result that ran, per state. */
void ms_compare_total(const struct ms_compare *c, enum ms_state st, double *base, double *patched);
/* The largest move (by |delta|, *st says in which state) that a path run
 * can explain: a whole path's row, not a sub-row or the census (a sum over
 * every site); NULL when none of those moved. */
const struct ms_pair *ms_compare_explainable(const struct ms_compare *c, enum ms_state *st);
/* Some result regressed significantly (its verdict is (R)) by more than
 * pct percent. */
int ms_compare_regressed(const struct ms_compare *c, double pct);

/* --- projection to time (project.c) --------------------------------------- */

/*
 * A path with a benchmark (def->bench: sched-pipe's round trip is one op
 * of `perf bench sched pipe`): its cycles per op at a clock give usecs/op
 * and ops/s, in the state the comparison shows first (typical: the mean,
 * with its interval). The periodic tick adds, per op, the cost of a tick
 * (the path flagged def->tick, same state) times the ticks that fall in
 * one op (HZ x op time): hz 0 is the op without the tick.
 */
struct ms_projection {
	const struct hs_path_def *def;	/* the path projected (def->bench) */
	const char *tick;		/* the tick's path (hs_path_tick), NULL: none */
	const struct hs_core *core;
	uint64_t clock_hz;
	unsigned hz;
	enum ms_state state;
	int both;			/* compare: patched side present */
	double us[2], ops[2];		/* base, patched */
	double us_ci95[2];		/* the op's interval, in us (0: one draw) */
	double tick_cycles[2];		/* added per op by the tick */
	double delta_us, delta_pct;
	double delta_ci95;		/* of delta_us (0: no test) */
};

struct ms_clock {
	char core[8];			/* "" for every core */
	uint64_t hz;
};

/* Parse "a55=1.8GHz", "1800MHz", "1.8e9". */
int ms_parse_clock(const char *arg, struct ms_clock *c);

/* Rows for every core that ran a path with a benchmark, path by path:
 * clocks from clocks[] (else the core's typical clock), one row per hz (0
 * first). Returns the count. */
int ms_project(const struct ms_compare *c, const struct ms_clock *clocks, int nclocks,
	       const unsigned *hz, int nhz, struct ms_projection *out, int max);
/* What the cores count at the clocks given (the last that names a core, or
 * names none, wins; else its typical clock): the core file's times at that
 * clock (ms_clock_times), at most max; their count, or -1. A rate the
 * user gives is the whole machine's: the DRAM and the interrupt
 * controller keep their nanoseconds. */
int ms_clock_params(const struct hs_core *const *cores, int ncores, const struct ms_clock *clocks, int nclocks,
		    struct ms_param *out, int max);

/* --- snippet (snippet.c) ------------------------------------------------- */

struct ms_snippet {
	struct hs_image *img;
	const struct hs_sym *fn;
	unsigned calls;
	struct hs_runner *r;	/* owns the trace's decode cache */
	struct hs_trace tr;	/* the calls, blr + function each */
};

/* Trace calls consecutive calls of entry in file (x0..x7 = args on the
 * first); -1 with hs_errmsg(). Free with ms_snippet_free either way. */
int ms_snippet_trace(const char *file, const char *entry, unsigned calls, const uint64_t *args,
		     int nargs, struct ms_snippet *out);
void ms_snippet_free(struct ms_snippet *s);

/* One static instruction's share of the warm trace. */
struct ms_insn_share {
	uint64_t cycles, count;
	uint64_t stall[HS_NSTALLS];
};

struct ms_snippet_cost {
	struct hs_model_result cold, warm;
	struct ms_insn_share *share;	/* by decode-cache index */
	uint32_t *order;		/* indexes with a share, most expensive first */
	size_t n;
};

int ms_snippet_cost(const struct ms_snippet *s, struct hs_model *m, struct ms_snippet_cost *out);
void ms_snippet_cost_free(struct ms_snippet_cost *c);

#endif
