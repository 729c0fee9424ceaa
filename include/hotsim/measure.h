/*
 * measure.h - run the selected paths of one image on the selected cores and
 * cost them with the models: the numbers `run` and `compare` print.
 *
 * A row is one measured thing on one core: a path (irq-el1, irq-el0,
 * cswitch), a segment of one (percpu.read, percpu.add, ...), or the percpu
 * census (every this_cpu site of the image, costed as one stream).
 */
#ifndef HOTSIM_CLI_MEASURE_H
#define HOTSIM_CLI_MEASURE_H

#include <stdint.h>

#include "hotsim/model.h"
#include "hotsim/paths.h"

#define MS_MAX_ROWS 256
#define MS_MAX_PARAMS 32

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
	struct hs_model_result warm, cold;
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
	struct ms_param params[MS_MAX_PARAMS];
	int nparams;
	unsigned warm_max_iter;
};

struct ms_image {
	struct hs_image *img;
	struct ms_row rows[MS_MAX_ROWS];
	int nrows;
};

/* Open and measure; -1 with hs_errmsg() for errors that stop everything
 * (bad image, unknown parameter). A path that cannot run is a row with !ok. */
int ms_measure(const char *path, const struct ms_options *o, struct ms_image *out);

/* The same, measuring every segment row in the function pin_from measured
 * it in (compare: the patched image at the baseline's sites). */
int ms_measure_pinned(const char *path, const struct ms_options *o, const struct ms_image *pin_from,
		      struct ms_image *out);
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

#endif
