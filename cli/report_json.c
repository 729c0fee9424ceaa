/*
 * report_json.c - machine-readable results. Schema (versioned, documented in
 * the README): "hotsim-compare/1" or "hotsim-run/1"; one entry per
 * (path, cpu, state).
 */
#include <math.h>

#include "hotsim/model.h"
#include "json.h"
#include "report.h"

static void image(struct json *j, const char *key, const struct hs_image *img)
{
	json_begin_obj(j, key);
	json_str(j, "file", img->path);
	json_str(j, "kernel", img->version);
	json_str(j, "compiler", img->compiler);
	json_str(j, "build_id", img->build_id);
	json_end_obj(j);
}

static void stalls(struct json *j, const char *key, const struct hs_model_result *r)
{
	json_begin_obj(j, key);
	for (int s = 0; s < HS_NSTALLS; s++)
		json_uint(j, hs_stall_names[s], r->stall[s]);
	json_end_obj(j);
}

static void side(struct json *j, const char *prefix, const struct ms_row *row,
		 const struct hs_model_result *r)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_cycles", prefix);
	json_uint(j, k, r->cycles);
	snprintf(k, sizeof(k), "%s_insns", prefix);
	json_uint(j, k, row->insns);
	snprintf(k, sizeof(k), "%s_code_bytes", prefix);
	json_uint(j, k, row->code_bytes);
	snprintf(k, sizeof(k), "%s_uncalibrated_cycles", prefix);
	json_uint(j, k, r->uncalibrated_cycles);
	snprintf(k, sizeof(k), "%s_stalls", prefix);
	stalls(j, k, r);
}

static void entry(struct json *j, const struct rp_compare *c, const struct rp_pair *p,
		  const char *state, int warm)
{
	const struct hs_model_result *rb = p->base ? (warm ? &p->base->warm : &p->base->cold) : NULL;
	const struct hs_model_result *rp = p->patched ? (warm ? &p->patched->warm : &p->patched->cold) : NULL;

	json_begin_obj(j, NULL);
	json_str(j, "path", p->name);
	json_str(j, "cpu", p->cpu);
	json_str(j, "state", state);
	if (!c->patched) {
		json_str(j, "status", p->base->ok ? "ok" : "cannot_run");
		if (p->base->ok) {
			json_uint(j, "cycles", rb->cycles);
			json_uint(j, "insns", p->base->insns);
			json_uint(j, "code_bytes", p->base->code_bytes);
			json_uint(j, "uncalibrated_cycles", rb->uncalibrated_cycles);
			stalls(j, "stalls", rb);
		} else {
			json_str(j, "why", p->base->why);
		}
		json_end_obj(j);
		return;
	}
	if (!p->base || !p->patched) {
		json_str(j, "status", !p->base ? "missing_in_base" : "missing_in_patched");
	} else if (!p->base->ok || !p->patched->ok) {
		json_str(j, "status", "cannot_run");
		json_str(j, "why", !p->base->ok ? p->base->why : p->patched->why);
	} else {
		double pct = rp_delta_pct(rb->cycles, rp->cycles);

		json_str(j, "status", "ok");
		side(j, "base", p->base, rb);
		side(j, "patched", p->patched, rp);
		json_int(j, "delta", (long long)rp->cycles - (long long)rb->cycles);
		/* two decimals, as printed; -0.00 folded to 0.00 */
		json_num(j, "delta_pct", fabs(pct) < 0.005 ? 0.0 : pct, 2);
	}
	json_end_obj(j);
}

void rp_json(FILE *f, const struct rp_compare *c)
{
	struct json j;

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", c->patched ? "hotsim-compare/1" : "hotsim-run/1");
	if (c->patched) {
		image(&j, "base", c->base->img);
		image(&j, "patched", c->patched->img);
	} else {
		image(&j, "image", c->base->img);
	}
	json_bool(&j, "deterministic", 1);
	json_begin_arr(&j, "warnings");
	for (int i = 0; i < c->nwarnings; i++)
		json_str(&j, NULL, c->warnings[i]);
	json_end_arr(&j);
	json_begin_arr(&j, "results");
	for (int i = 0; i < c->npairs; i++) {
		if (c->want_warm)
			entry(&j, c, &c->pairs[i], "warm", 1);
		if (c->want_cold)
			entry(&j, c, &c->pairs[i], "cold", 0);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	json_finish(&j);
}
