/*
 * report_json.c - machine-readable results. Schema (versioned, documented in
 * the README): "hotsim-compare/1" or "hotsim-run/1"; one entry per
 * (path, cpu, state), the summary, and the --explain / --timeline views
 * when asked for.
 */
#include <math.h>

#include "hotsim/a64.h"
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

/* --noise: the cycles' range over the layouts per side, and the verdict */
static void noise(struct json *j, const struct ms_compare *c, const struct ms_pair *p, int warm)
{
	int s = !warm, v = ms_pair_beyond_noise(c, p, warm);

	if (!p->base->noise_n || (c->patched && !p->patched->noise_n))
		return;
	json_begin_obj(j, "noise");
	json_uint(j, "layouts", (uint64_t)p->base->noise_n);
	json_uint(j, c->patched ? "base_lo" : "lo", p->base->noise_lo[s]);
	json_uint(j, c->patched ? "base_hi" : "hi", p->base->noise_hi[s]);
	if (c->patched) {
		json_uint(j, "patched_lo", p->patched->noise_lo[s]);
		json_uint(j, "patched_hi", p->patched->noise_hi[s]);
		json_str(j, "verdict", !ms_pair_delta(p, warm) ? "unchanged" : v == 1 ? "beyond" : "within");
	}
	json_end_obj(j);
}

static void entry(struct json *j, const struct ms_compare *c, const struct ms_pair *p,
		  const char *state, int warm)
{
	const struct hs_model_result *rb = p->base ? (warm ? &p->base->warm : &p->base->cold) : NULL;
	const struct hs_model_result *rp = p->patched ? (warm ? &p->patched->warm : &p->patched->cold) : NULL;

	json_begin_obj(j, NULL);
	json_str(j, "path", p->name);
	json_str(j, "cpu", p->cpu);
	json_str(j, "state", state);
	if (!c->patched) {
		json_str(j, "state_source", p->base->booted ? "booted" : "synthesized");
		json_str(j, "status", p->base->ok ? "ok" : "cannot_run");
		if (p->base->ok) {
			json_uint(j, "cycles", rb->cycles);
			json_uint(j, "insns", p->base->insns);
			json_uint(j, "code_bytes", p->base->code_bytes);
			json_uint(j, "uncalibrated_cycles", rb->uncalibrated_cycles);
			stalls(j, "stalls", rb);
			noise(j, c, p, warm);
		} else {
			json_str(j, "why", p->base->why);
		}
		json_end_obj(j);
		return;
	}
	if (p->base)
		json_str(j, "base_state_source", p->base->booted ? "booted" : "synthesized");
	if (p->patched)
		json_str(j, "patched_state_source", p->patched->booted ? "booted" : "synthesized");
	if (!p->base || !p->patched) {
		json_str(j, "status", !p->base ? "missing_in_base" : "missing_in_patched");
	} else if (!p->base->ok || !p->patched->ok) {
		json_str(j, "status", "cannot_run");
		json_str(j, "why", !p->base->ok ? p->base->why : p->patched->why);
	} else {
		double pct = ms_delta_pct(rb->cycles, rp->cycles);

		json_str(j, "status", "ok");
		side(j, "base", p->base, rb);
		side(j, "patched", p->patched, rp);
		json_int(j, "delta", (long long)rp->cycles - (long long)rb->cycles);
		/* two decimals, as printed; -0.00 folded to 0.00 */
		json_num(j, "delta_pct", fabs(pct) < 0.005 ? 0.0 : pct, 2);
		noise(j, c, p, warm);
		rp_diverge_json(j, c, p);
	}
	json_end_obj(j);
}

static void summary(struct json *j, const struct ms_compare *c)
{
	const struct ms_summary *s = &c->summary;

	json_begin_obj(j, "summary");
	json_uint(j, "results", s->results);
	json_uint(j, "moved", s->moved);
	json_uint(j, "faster", s->faster);
	json_uint(j, "slower", s->slower);
	json_uint(j, "not_run", s->not_run);
	if (s->largest) {
		json_begin_obj(j, "largest");
		json_str(j, "path", s->largest->name);
		json_str(j, "cpu", s->largest->cpu);
		json_str(j, "state", s->largest_warm ? "warm" : "cold");
		json_int(j, "delta", s->largest_delta);
		json_end_obj(j);
	}
	for (int warm = 1; warm >= 0; warm--) {
		uint64_t b, p;

		if (!(warm ? c->want_warm : c->want_cold))
			continue;
		ms_compare_total(c, warm, &b, &p);
		json_begin_obj(j, warm ? "total_warm" : "total_cold");
		json_uint(j, "base_cycles", b);
		json_uint(j, "patched_cycles", p);
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void json_fns(struct json *j, const struct ms_detail *b, const struct ms_detail *p, long limit)
{
	static struct ms_fn_cost t[512];
	int n = ms_explain_functions(b, p, t, 512);

	json_begin_arr(j, "functions");
	for (int i = 0; i < n && i < limit; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "function", t[i].name);
		json_uint(j, p ? "base_insns" : "insns", t[i].insns[0]);
		json_uint(j, p ? "base_cycles" : "cycles", t[i].cycles[0]);
		if (p) {
			json_uint(j, "patched_insns", t[i].insns[1]);
			json_uint(j, "patched_cycles", t[i].cycles[1]);
			json_int(j, "delta", ms_fn_delta(&t[i]));
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json_result_of(struct json *j, const char *key, const struct hs_model_result *r)
{
	json_begin_obj(j, key);
	json_uint(j, "cycles", r->cycles);
	json_uint(j, "insns", r->insns);
	json_uint(j, "mispredicts", r->mispredicts);
	json_uint(j, "icache_misses", r->icache_misses);
	json_uint(j, "dcache_misses", r->dcache_misses);
	stalls(j, "stalls", r);
	json_end_obj(j);
}

static void explain(struct json *j, const struct ms_compare *c, const struct rp_details *d)
{
	json_begin_arr(j, "explain");
	for (int i = 0; i < d->ncores; i++) {
		const struct ms_detail *b = &d->ex[i][0], *p = c->patched ? &d->ex[i][1] : NULL;

		json_begin_obj(j, NULL);
		json_str(j, "path", d->explain->name);
		json_str(j, "cpu", b->pt->core->name);
		json_str(j, "state", d->warm ? "warm" : "cold");
		json_result_of(j, c->patched ? "base" : "image", &b->res);
		if (p)
			json_result_of(j, "patched", &p->res);
		json_fns(j, b, p, d->limit);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void timeline(struct json *j, const struct ms_compare *c, const struct rp_details *d)
{
	char text[64], where[96];

	json_begin_arr(j, "timeline");
	for (int k = 0; k < (c->patched ? 2 : 1); k++) {
		const struct ms_detail *t = &d->tl[k];
		size_t to = d->win.to < t->run.tr.n ? d->win.to : t->run.tr.n;

		json_begin_obj(j, NULL);
		json_str(j, "image", k ? "patched" : c->patched ? "base" : "image");
		json_str(j, "path", d->timeline->name);
		json_str(j, "cpu", t->pt->core->name);
		json_begin_arr(j, "records");
		for (size_t i = d->win.from; i < to; i++) {
			const struct hs_insn_cost *pc = &t->per[i];

			a64_disasm(hs_trace_insn(&t->run.tr, i)->word, t->run.tr.v[i].pc, text, sizeof(text));
			json_begin_obj(j, NULL);
			json_uint(j, "index", i);
			json_str(j, "at", hs_addr_fmt(t->pt->img, t->run.tr.v[i].pc, where, sizeof(where)));
			json_str(j, "insn", text);
			json_uint(j, "issue", pc->issue);
			json_uint(j, "latency", pc->lat);
			json_uint(j, "cycles", pc->cycles);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void rp_json(FILE *f, const struct ms_compare *c, const struct rp_details *d)
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
	summary(&j, c);
	json_begin_arr(&j, "results");
	for (int i = 0; i < c->npairs; i++) {
		if (c->want_warm)
			entry(&j, c, &c->pairs[i], "warm", 1);
		if (c->want_cold)
			entry(&j, c, &c->pairs[i], "cold", 0);
	}
	json_end_arr(&j);
	if (d && d->nproj)
		rp_projection_json(&j, d);
	if (d && d->explain)
		explain(&j, c, d);
	if (d && d->timeline)
		timeline(&j, c, d);
	json_end_obj(&j);
	json_finish(&j);
}
