/*
 * measure.h - the measuring pipeline, as a library: run the selected paths
 * of one image on the selected cores and cost them with the models (the
 * numbers `run` and `compare` print), compare two images row by row, and
 * time a user's function (`snippet`). The CLI only parses and prints.
 *
 * A row is one measured thing on one core: a path (irq-el1, irq-el0,
 * cswitch), a segment of one (percpu.read, percpu.add, ...), or the percpu
 * census (every this_cpu site of the image, costed as one stream).
 */
#ifndef HOTSIM_MEASURE_H
#define HOTSIM_MEASURE_H

#include <stdint.h>

#include "hotsim/model.h"
#include "hotsim/paths.h"

#define MS_MAX_ROWS 256
#define MS_MAX_PARAMS 32
/* One cap for every trace a path or a snippet produces (records), and one
 * for the warm repetitions of every model run. */
#define MS_TRACE_CAP 4000000
#define MS_WARM_MAX 16

/* Instructions a run executed in one function (diverge.c). */
struct ms_fn_count {
	uint64_t addr, size;		/* the function's symbol; addr 0: no function */
	uint64_t insns;
};

struct ms_row {
	char name[40];			/* "cswitch", "percpu.add", "percpu.census" */
	const char *path;		/* path definition name */
	const char *cpu;
	int ok;
	char why[800];			/* !ok: why it cannot run */
	uint64_t insns;			/* dynamic instructions */
	uint64_t code_bytes;		/* distinct instruction bytes executed */
	unsigned sites;			/* census: sites costed */
	char site_fn[80];		/* segment rows: the function measured */
	int booted;			/* ran from the booted state */
	char state[800];		/* where the state came from / why not booted */
	struct hs_model_result warm, cold;
	/* layout noise (ms_options.noise): the cycles' range over the layouts
	 * tried, warm [0] and cold [1]; lo == hi == cycles when not asked */
	uint64_t noise_lo[2], noise_hi[2];
	int noise_n;			/* layouts the band spans (0: no band) */
	/* whole rows: instructions per function, by address (ms_profile) */
	struct ms_fn_count *fns;
	int nfns;
};

struct ms_param {
	char core[8];			/* "" for all cores */
	char name[48];
	double value;
};

struct ms_options {
	const struct hs_core *cores[8];
	int ncores;
	const struct hs_path_def *paths[16];
	int npaths;
	int want_warm, want_cold;
	enum hs_state_source src;	/* booted, synthesized, or booted where possible */
	int noise;			/* layouts beyond the recorded one: in layout k
					 * the code (data) above the path's k-th quantile
					 * moves by 4 x ((37k mod 128) + 1) bytes */
	struct ms_param params[MS_MAX_PARAMS];
	int nparams;
	/* compare: measure every segment row in the function this image's
	 * run measured it in (the patched image at the baseline's sites) */
	const struct ms_image *pin_from;
};

struct ms_image {
	struct hs_image *img;
	struct ms_row rows[MS_MAX_ROWS];
	int nrows;
};

/* Open and measure; -1 with hs_errmsg() for errors that stop everything
 * (bad image, unknown parameter). A path that cannot run is a row with !ok. */
int ms_measure(const char *path, const struct ms_options *o, struct ms_image *out);

void ms_free(struct ms_image *m);

/* A model for core with the command-line overrides applied. */
struct hs_model *ms_model(const struct ms_options *o, const char *core);

/* Parse "a55.isb=20" or "isb=20". */
int ms_parse_param(const char *arg, struct ms_param *p);

/* One path on one core, kept for --explain / --timeline: the run, its
 * per-instruction costs (warm) and the result. */
struct ms_detail {
	struct hs_patched *pt;
	struct hs_path_run run;
	struct hs_insn_cost *per;
	struct hs_model_result res;
};
int ms_detail(const struct hs_image *img, const struct ms_options *o, const struct hs_core *core,
	      const struct hs_path_def *d, int warm, struct ms_detail *out);
void ms_detail_free(struct ms_detail *d);

/* "2.0.1 (library 2.0)": the Unicorn built against, and the one loaded */
const char *ms_unicorn_version(char *buf, size_t len);

/* --- explain (explain.c) --------------------------------------------------- */

/* A function's share of a path: [0] base (or the one image), [1] patched. */
struct ms_fn_cost {
	char name[80];			/* without .isra/.constprop suffixes */
	uint64_t insns[2], cycles[2];
};
long long ms_fn_delta(const struct ms_fn_cost *f);

/* Per function, aligned by name; sorted by size of change (p given) or by
 * cycles (p NULL). Returns the count (at most max). */
int ms_explain_functions(const struct ms_detail *b, const struct ms_detail *p, struct ms_fn_cost *t,
			 int max);

/* One static instruction of a function in a run. */
struct ms_insn_note {
	uint64_t pc;
	uint32_t word;
	unsigned n;			/* executions */
	uint64_t cycles;
	unsigned stall;			/* its worst stall, cycles */
	const char *why;		/* that stall's name */
};

/* The instructions of function fn in d, by address; count (at most max). */
int ms_annotate(const struct ms_detail *d, const char *fn, struct ms_insn_note *a, int max);

/* --- comparison (compare.c) --------------------------------------------- */

/* The same (name, cpu) in both images; either side may be absent. */
struct ms_pair {
	const struct ms_row *base, *patched;
	const char *name, *cpu;
};

struct ms_summary {
	unsigned results;		/* (row, state) results */
	unsigned moved, faster, slower;	/* compare: results whose cycles changed */
	unsigned not_run;		/* absent or cannot run on a side */
	const struct ms_pair *largest;	/* the largest move */
	int largest_warm;
	long long largest_delta;
};

struct ms_compare {
	const struct ms_image *base, *patched;	/* patched NULL for run */
	struct ms_pair pairs[MS_MAX_ROWS * 2];
	int npairs;
	int order[MS_MAX_ROWS * 2];	/* pairs by size of change (compare), else as measured */
	char warnings[8][400];
	int nwarnings;
	int want_warm, want_cold;
	struct ms_summary summary;
};

/* Pair, warn, summarize and order; patched may be NULL (run). */
void ms_compare_build(struct ms_compare *c, const struct ms_image *base,
		      const struct ms_image *patched, int want_warm, int want_cold);

/* delta% of patched over base; 0 when base is 0 */
double ms_delta_pct(uint64_t base, uint64_t patched);

/* Both sides ran (run: the one side). */
int ms_pair_ok(const struct ms_compare *c, const struct ms_pair *p);
/* The result of a side (0 base, 1 patched) in a state (1 warm, 0 cold). */
const struct hs_model_result *ms_pair_result(const struct ms_pair *p, int patched, int warm);
long long ms_pair_delta(const struct ms_pair *p, int warm);
/* Different paths through unchanged code (diverge.c): functions whose code
 * is the same in both images (same size; same instructions but for the
 * fields that only say where things are) and that ran a different number
 * of instructions - the two runs' state differed there, not the code.
 * Returns how many (the max largest changes in out), -1 on allocation
 * failure; *insns: the sum of the differences. */
struct ms_diverged {
	char name[80];
	uint64_t insns[2];		/* base, patched */
};
int ms_pair_diverged(const struct ms_compare *c, const struct ms_pair *p, struct ms_diverged *out, int max,
		     uint64_t *insns);
/* Fill a whole row's per-function counts from its run. */
int ms_profile(const struct hs_image *img, const struct hs_trace *t, struct ms_row *row);

/* Layout noise verdict of a move (--noise): 1 beyond noise (the two
 * images' ranges do not overlap and the move is at least 0.5%, not a cycle
 * or two of flat ranges), 0 within it, -1 no band (sub-rows, no --noise). */
int ms_pair_beyond_noise(const struct ms_compare *c, const struct ms_pair *p, int warm);
/* Worth a line in the reviewer's table: changed, or not run on a side. */
int ms_pair_moved(const struct ms_compare *c, const struct ms_pair *p);
/* Sum of the cycles of every result that ran, per state. */
void ms_compare_total(const struct ms_compare *c, int warm, uint64_t *base, uint64_t *patched);
/* The largest move (by |delta|, *warm says in which state) that a path run
 * can explain: a whole path's row, not a sub-row or the census (a sum over
 * every site); NULL when none of those moved. */
const struct ms_pair *ms_compare_explainable(const struct ms_compare *c, int *warm);
/* Some result regressed by more than pct percent. */
int ms_compare_regressed(const struct ms_compare *c, double pct);

/* --- projection to time (project.c) --------------------------------------- */

/*
 * A path with a benchmark (def->bench: sched-pipe's round trip is one op
 * of `perf bench sched pipe`): its warm cycles at a clock give usecs/op
 * and ops/s. The periodic tick adds, per op, the cost of a tick (the
 * path flagged def->tick, warm) times the ticks that fall in one op (HZ x
 * op time): hz 0 is the op without the tick.
 */
struct ms_projection {
	const struct hs_path_def *def;	/* the path projected (def->bench) */
	const char *tick;		/* the tick's path (hs_path_tick), NULL: none */
	const char *cpu;
	uint64_t clock_hz;
	unsigned hz;
	int both;			/* compare: patched side present */
	double us[2], ops[2];		/* base, patched */
	double tick_cycles[2];		/* added per op by the tick */
	double delta_us, delta_pct;
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
