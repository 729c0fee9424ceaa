/*
 * pipeline.c - the walk every command takes (measure.h, ms_walk): image ->
 * patched image -> state -> path runs, core by core, as far as the
 * command's stages go. Commands print stages; measure.c costs the runs.
 * Each stage is built from the one before and nothing else, so `paths`,
 * `trace`, `validate` and `compare` see the same patched image, the same
 * state and the same runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "measure_internal.h"

/* The functions pin_from measured path d's segments in, on core (compare:
 * the patched image at the baseline's sites). */
static void pins_of(const struct ms_image *pin_from, const struct hs_path_def *d,
		    const struct hs_core *core, struct hs_path_pins *pins)
{
	size_t l = strlen(d->name);

	memset(pins, 0, sizeof(*pins));
	for (int i = 0; pin_from && i < pin_from->nrows && pins->n < HS_ARRAY_SIZE(pins->v); i++) {
		const struct ms_row *r = &pin_from->rows[i];

		if (r->core != core || strncmp(r->name, d->name, l) || r->name[l] != '.' || !r->site_fn[0])
			continue;
		snprintf(pins->v[pins->n].label, sizeof(pins->v[0].label), "%s", r->name + l + 1);
		snprintf(pins->v[pins->n].fn, sizeof(pins->v[0].fn), "%s", r->site_fn);
		pins->n++;
	}
}

/* Every path of core c (its shard's) run from the session, each handed to
 * the run stage and freed. */
static int runs(const struct ms_options *o, int c, const struct hs_patched *pt, struct hs_session *ses,
		const struct ms_stages *st)
{
	int rc = 0;

	for (int k = 0; k < o->npaths && !rc; k++) {
		struct hs_path_pins pins;
		struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .pins = o->pin_from ? &pins : NULL,
					  .samples = o->samples, .set = ms_path_set(o) };
		struct hs_path_run r;

		if (!ms_in_shard(o, c, k))
			continue;
		pins_of(o->pin_from, o->paths[k], pt->core, &pins);
		rc = hs_path_run(ses, o->paths[k], &ro, &r) ? -1 : st->run(st->ctx, pt, &r);
		hs_path_run_free(&r);
	}
	return rc;
}

/* validate: every path of core c against QEMU's own run. */
static int validations(const struct ms_options *o, const struct hs_patched *pt, const struct ms_stages *st)
{
	struct hs_validation *v = calloc((size_t)o->npaths + 1, sizeof(*v));
	int rc;

	if (!v)
		return hs_fail("out of memory");
	rc = hs_validate(pt, ms_path_set(o), o->paths, o->npaths, v) ? -1 : st->validated(st->ctx, pt, v, o->npaths);
	free(v);
	return rc;
}

int ms_walk_core(const struct hs_image *img, const struct ms_options *o, int c, const struct ms_stages *st)
{
	struct hs_patched *pt = hs_patch(img, o->cores[c]);
	struct hs_session *ses = NULL;
	int rc;

	if (!pt)
		return -1;
	rc = st->patched ? st->patched(st->ctx, pt) : 0;
	if (!rc && st->validated)
		rc = validations(o, pt, st);
	if (!rc && (st->state || st->run)) {
		ses = hs_session_new(pt, o->src, ms_path_set(o));
		rc = !ses ? -1 : st->state ? st->state(st->ctx, pt, ses) : 0;
	}
	if (!rc && st->run)
		rc = runs(o, c, pt, ses, st);
	hs_session_free(ses);
	hs_patched_free(pt);
	return rc;
}

int ms_walk(const struct hs_image *img, const struct ms_options *o, const struct ms_stages *st)
{
	int rc = 0;

	for (int c = 0; c < o->ncores && !rc; c++)
		rc = ms_walk_core(img, o, c, st);
	return rc;
}
