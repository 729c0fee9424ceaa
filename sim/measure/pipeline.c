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

/* A core's sessions: one a set its paths boot with (ms_set_of), each made
 * when a path first needs it and handed to the state stage then. */
struct sessions {
	const struct hs_path_set *set[2];
	struct hs_session *s[2];
	int n;
};

static struct hs_session *session_for(const struct ms_options *o, const struct hs_patched *pt,
				      const struct hs_path_set *set, const struct ms_stages *st, struct sessions *ss)
{
	struct hs_session *ses;

	for (int i = 0; i < ss->n; i++)
		if (ss->set[i] == set)
			return ss->s[i];
	if (ss->n == (int)HS_ARRAY_SIZE(ss->s) || !(ses = hs_session_new(pt, o->src, set)))
		return NULL;
	ss->set[ss->n] = set;
	ss->s[ss->n++] = ses;
	if (st->state && st->state(st->ctx, pt, ses))
		return NULL;
	return ses;
}

/* Every path of core c (its shard's) run from its set's session, each
 * handed to the run stage and freed. A stage that keeps the session (the
 * machine's rows) is handed it again when the next path's is another. */
static int runs(const struct ms_options *o, int c, const struct hs_patched *pt, struct sessions *ss,
		const struct ms_stages *st)
{
	struct hs_session *last = ss->n ? ss->s[ss->n - 1] : NULL;
	int rc = 0;

	for (int k = 0; k < o->npaths && !rc; k++) {
		const struct hs_path_set *set = ms_set_of(o, o->paths[k]);
		struct hs_path_pins pins;
		struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .pins = o->pin_from ? &pins : NULL,
					  .samples = o->samples, .set = set };
		struct hs_path_run r;
		int known = ss->n;
		struct hs_session *ses;

		if (!ms_in_shard(o, c, k))
			continue;
		if (!(ses = session_for(o, pt, set, st, ss)))
			return -1;
		if (ses != last && ss->n == known && st->state && st->state(st->ctx, pt, ses))
			return -1;
		last = ses;
		pins_of(o->pin_from, o->paths[k], pt->core, &pins);
		rc = hs_path_run(ses, o->paths[k], &ro, &r) ? -1 : st->run(st->ctx, pt, &r);
		hs_path_run_free(&r);
	}
	return rc;
}

/* validate: every path of core c against QEMU's own run, a set's paths at
 * a time, the results in the paths' order. */
static int validations(const struct ms_options *o, const struct hs_patched *pt, const struct ms_stages *st)
{
	const struct hs_path_set *sets[2] = { ms_path_set(o), o->more };
	struct hs_validation *v = calloc((size_t)o->npaths + 1, sizeof(*v)), *part = NULL;
	const struct hs_path_def **defs = calloc((size_t)o->npaths + 1, sizeof(*defs));
	int rc = 0;

	if (!v || !defs || !(part = calloc((size_t)o->npaths + 1, sizeof(*part)))) {
		rc = hs_fail("out of memory");
		goto out;
	}
	for (int s = 0; s < 2 && sets[s] && !rc; s++) {
		int n = 0;

		for (int k = 0; k < o->npaths; k++)
			if (ms_set_of(o, o->paths[k]) == sets[s])
				defs[n++] = o->paths[k];
		if (n && !(rc = hs_validate(pt, sets[s], defs, n, part)))
			for (int k = 0, i = 0; k < o->npaths; k++)
				if (ms_set_of(o, o->paths[k]) == sets[s])
					v[k] = part[i++];
	}
	rc = rc ? -1 : st->validated(st->ctx, pt, v, o->npaths);
out:
	free(part);
	free(defs);
	free(v);
	return rc;
}

int ms_walk_core(const struct hs_image *img, const struct ms_options *o, int c, const struct ms_stages *st)
{
	struct hs_patched *pt = hs_patch(img, o->cores[c]);
	struct sessions ss = { .n = 0 };
	int rc, own = 0;

	if (!pt)
		return -1;
	rc = st->patched ? st->patched(st->ctx, pt) : 0;
	if (!rc && st->validated)
		rc = validations(o, pt, st);
	/* the set's session first, as the state stage has always had it -
	 * unless every path is the other set's */
	for (int k = 0; k < o->npaths; k++)
		own |= ms_set_of(o, o->paths[k]) == ms_path_set(o);
	if (!rc && (st->state || st->run) && (own || !o->npaths || !st->run))
		rc = session_for(o, pt, ms_path_set(o), st, &ss) ? 0 : -1;
	if (!rc && st->run)
		rc = runs(o, c, pt, &ss, st);
	for (int i = 0; i < ss.n; i++)
		hs_session_free(ss.s[i]);
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
