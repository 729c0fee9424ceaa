/*
 * user_paths.c - a user workload's paths (paths.h, struct hs_user_paths):
 * for each hotsim_op_begin("NAME") of the program, the booted-only path
 * user.NAME - its boot point at the marker (the boot stops the first time
 * the program reaches it), its operation the range from the marker to the
 * next hotsim_op_end() the task reaches, sampled like hotsim's own paths,
 * and projected in the program's own unit (one marked iteration).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/paths.h"
#include "hotsim/program.h"
#include "vm/vm.h"

/* A bounded loop's own samples: what a user loop of >= 100 iterations gives
 * after the warm-up. */
#define USER_WARMUP 16
#define USER_SAMPLES 64

static int add_path(const struct hs_workload *wl, const struct hs_wl_mark *m, struct hs_user_paths *u)
{
	struct hs_path_def *d = &u->defs[u->n];
	struct hs_boot_point *p = &u->points[u->n];
	unsigned k = 0;

	for (int i = 0; i < u->n; i++)
		if (!strcmp(u->names[i] + 5, m->name))
			return hs_fail("%s: the marker %s appears twice (the compiler copied it, or two "
				       "loops share a name): one hotsim_op_begin per name, in a noinline "
				       "function if the compiler duplicates it", wl->file, m->name);
	if (u->n == HS_USER_MAX_PATHS)
		return hs_fail("%s: more than %d marked operations", wl->file, HS_USER_MAX_PATHS);
	snprintf(u->names[u->n], sizeof(u->names[0]), "user.%s", m->name);
	snprintf(u->ops[u->n], sizeof(u->ops[0]), "one marked iteration of %s is one op", m->name);
	*p = (struct hs_boot_point){ .name = u->names[u->n], .kind = HS_POINT_MARK, .addr = m->pc };
	u->bench[u->n] = (struct hs_bench_def){ .benchmark = "your workload", .op = u->ops[u->n] };
	memset(d, 0, sizeof(*d));
	d->name = u->names[u->n];
	d->summary = "an operation the user's workload marks (--workload)";
	d->kind = HS_PATH_BOOTED;
	d->boot.point = p;
	d->boot.op.kind = HS_OP_RANGE;
	d->boot.op.range_begin = m->pc;
	d->boot.op.warmup = USER_WARMUP;
	d->boot.op.samples = USER_SAMPLES;
	for (unsigned i = 0; i < wl->nmarks; i++)
		if (wl->marks[i].end && k == 8)
			return hs_fail("%s: more than 8 hotsim_op_end() markers", wl->file);
		else if (wl->marks[i].end)
			d->boot.op.range_end[k++] = wl->marks[i].pc;
	d->bench = &u->bench[u->n];
	u->list[u->n] = d;
	u->n++;
	return 0;
}

struct hs_user_paths *hs_user_paths_open(const char *file)
{
	struct hs_user_paths *u = calloc(1, sizeof(*u));
	struct hs_workload *wl = calloc(1, sizeof(*wl));

	if (!u || !wl) {
		free(u);
		free(wl);
		hs_fail("out of memory");
		return NULL;
	}
	u->wl = wl;
	if (hs_workload_load(file, wl)) {
		hs_user_paths_close(u);
		return NULL;
	}
	for (unsigned i = 0; i < wl->nmarks; i++)
		if (!wl->marks[i].end && add_path(wl, &wl->marks[i], u)) {
			hs_user_paths_close(u);
			return NULL;
		}
	u->list[u->n] = NULL;
	u->set = (struct hs_path_set){ .defs = u->list, .wl = wl };
	return u;
}

void hs_user_paths_close(struct hs_user_paths *u)
{
	if (!u)
		return;
	if (u->wl)
		hs_workload_free(u->wl);
	free(u->wl);
	free(u);
}

struct hs_user_paths *hs_program_paths_open(const char *name, const struct hs_path_def *const *defs, uint64_t cpus,
					    int *found)
{
	struct hs_user_paths *u = calloc(1, sizeof(*u));
	const struct hs_program *p = NULL;

	*found = 0;
	if (!u || !(u->wl = calloc(1, sizeof(*u->wl)))) {
		free(u);
		hs_fail("out of memory");
		return NULL;
	}
	for (int i = 0; defs[i] && u->n < HS_USER_MAX_PATHS; i++)
		if (hs_path_program(defs[i]) && !strcmp(hs_path_program(defs[i]), name)) {
			p = defs[i]->boot.point->program;
			u->list[u->n++] = defs[i];
		}
	if (!p || hs_program_load(p, u->wl)) {
		*found = !!p;
		hs_user_paths_close(u);
		return NULL;
	}
	*found = 1;
	u->list[u->n] = NULL;
	u->set = (struct hs_path_set){ .defs = u->list, .wl = u->wl, .taskset = cpus };
	return u;
}

const char *hs_path_program(const struct hs_path_def *d)
{
	return d->boot.point && d->boot.point->program ? d->boot.point->program->name : NULL;
}
