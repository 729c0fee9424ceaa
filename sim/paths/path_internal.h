/*
 * path_internal.h - what path definitions with their own run function and
 * the benchmarks use of the path engine (engine.c): the context of a run
 * and the shared path kinds.
 */
#ifndef HOTSIM_PATHS_INTERNAL_H
#define HOTSIM_PATHS_INTERNAL_H

#include "emu/kstate.h"
#include "emu/runner.h"
#include "hotsim/paths.h"

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
/* Shared by the path kinds (sim/paths/engine.c). */
int hs_path_exception(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out);
int hs_path_switch(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out);
void hs_path_note(struct hs_path_run *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For benchmarks: a fresh runner with boot state and the path's stubs
 * (c->r is the caller's to free), and the run a path would do, unexecuted. */
int hs_path_setup(struct hs_path_ctx *c, const struct hs_path_def *d, const struct hs_patched *pt);
int hs_path_prepare(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out,
		    struct hs_run *run);

#endif
