/*
 * report_json.c - machine-readable results. Schema (versioned, documented in
 * docs/reference.md): "hotsim-compare/2" or "hotsim-run/2"; one entry per
 * (path, cpu, state) with its samples' distribution (and, compared, the
 * difference's interval, Welch's p and the verdict), the summary, each
 * core's state, and the --explain / --timeline views when asked for.
 */
#include <math.h>
#include <string.h>

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

/* A state's distribution over its samples (n 1: one draw). */
static void samples(struct json *j, const char *key, const struct ms_result *r)
{
	json_begin_obj(j, key);
	json_uint(j, "n", r->d.n);
	json_num(j, "mean", r->d.mean, 2);
	json_num(j, "ci95", r->d.ci95, 2);
	json_num(j, "sd", r->d.sd, 2);
	json_uint(j, "min", r->d.min);
	json_uint(j, "median", r->d.median);
	json_uint(j, "max", r->d.max);
	json_end_obj(j);
}

/* A machine's whole row: each CPU's idle cycles an operation */
static void idle(struct json *j, const char *key, const struct ms_row *row)
{
	if (!row->ncpus)
		return;
	json_begin_arr(j, key);
	for (unsigned i = 0; i < row->ncpus; i++)
		json_num(j, NULL, row->idle[i], 2);
	json_end_arr(j);
}

static void side(struct json *j, const char *prefix, const struct ms_row *row, const struct ms_result *r)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_cycles", prefix);
	json_num(j, k, r->d.mean, 2);
	snprintf(k, sizeof(k), "%s_samples", prefix);
	samples(j, k, r);
	snprintf(k, sizeof(k), "%s_insns", prefix);
	json_num(j, k, r->insns, 2);
	snprintf(k, sizeof(k), "%s_code_bytes", prefix);
	json_uint(j, k, row->code_bytes);
	snprintf(k, sizeof(k), "%s_uncalibrated_cycles", prefix);
	json_uint(j, k, r->r.uncalibrated_cycles);
	snprintf(k, sizeof(k), "%s_stalls", prefix);
	stalls(j, k, &r->r);
	snprintf(k, sizeof(k), "%s_idle_cycles", prefix);
	idle(j, k, row);
}

/* --noise: the cycles' (means') range over the layouts per side */
static void noise(struct json *j, const struct ms_compare *c, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *b = ms_pair_result(p, 0, st), *q = c->patched ? ms_pair_result(p, 1, st) : NULL;
	int v = ms_pair_beyond_noise(c, p, st);

	if (!p->base->noise_n || (c->patched && !p->patched->noise_n))
		return;
	json_begin_obj(j, "noise");
	json_uint(j, "layouts", (uint64_t)p->base->noise_n);
	json_num(j, c->patched ? "base_lo" : "lo", b->noise_lo, 2);
	json_num(j, c->patched ? "base_hi" : "hi", b->noise_hi, 2);
	if (q) {
		json_num(j, "patched_lo", q->noise_lo, 2);
		json_num(j, "patched_hi", q->noise_hi, 2);
		json_bool(j, "beyond", v == 1);
	}
	json_end_obj(j);
}

const char *rp_verdict_word(enum ms_verdict v)
{
	static const char *const w[] = { "unchanged", "within_noise", "improved", "regressed", "sub_row", "not_judged" };

	return w[v];
}

static void entry(struct json *j, const struct ms_compare *c, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *rb = p->base ? &p->base->s[st] : NULL;
	const struct ms_result *rp = p->patched ? &p->patched->s[st] : NULL;

	json_begin_obj(j, NULL);
	json_str(j, "path", p->name);
	json_str(j, "cpu", p->core->name);
	json_str(j, "state", ms_state_names[st]);
	if (!c->patched) {
		json_str(j, "state_source", p->base->booted ? "booted" : "synthesized");
		json_str(j, "status", p->base->ok ? "ok" : "cannot_run");
		if (p->base->ok) {
			json_num(j, "cycles", rb->d.mean, 2);
			samples(j, "samples", rb);
			json_num(j, "insns", rb->insns, 2);
			json_uint(j, "code_bytes", p->base->code_bytes);
			json_uint(j, "uncalibrated_cycles", rb->r.uncalibrated_cycles);
			stalls(j, "stalls", &rb->r);
			idle(j, "idle_cycles", p->base);
			noise(j, c, p, st);
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
		struct ms_move mv;

		ms_pair_move(c, p, st, &mv);
		json_str(j, "status", "ok");
		side(j, "base", p->base, rb);
		side(j, "patched", p->patched, rp);
		json_num(j, "delta", mv.delta, 2);
		/* two decimals, as printed; -0.00 folded to 0.00 */
		json_num(j, "delta_pct", fabs(mv.pct) < 0.005 ? 0.0 : mv.pct, 2);
		if (mv.tested) {
			json_num(j, "delta_ci95", mv.ci95, 2);
			json_num(j, "welch_p", mv.p, 4);
		}
		json_str(j, "test", mv.tested ? "welch" : mv.one_draw ? "layout (one draw a side)" : "none");
		json_bool(j, "significant", mv.significant);
		json_str(j, "verdict", rp_verdict_word(mv.verdict));
		noise(j, c, p, st);
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
	json_uint(j, "improved", s->improved);
	json_uint(j, "regressed", s->regressed);
	json_uint(j, "not_run", s->not_run);
	if (s->largest) {
		json_begin_obj(j, "largest");
		json_str(j, "path", s->largest->name);
		json_str(j, "cpu", s->largest->core->name);
		json_str(j, "state", ms_state_names[s->largest_state]);
		json_num(j, "delta", s->largest_delta, 2);
		json_end_obj(j);
	}
	for (int st = 0; st < MS_NSTATES; st++) {
		double b, p;
		char key[32];

		if (!c->want[st])
			continue;
		ms_compare_total(c, (enum ms_state)st, &b, &p);
		snprintf(key, sizeof(key), "total_%s", ms_state_names[st]);
		json_begin_obj(j, key);
		json_num(j, "base_cycles", b, 2);
		if (c->patched)
			json_num(j, "patched_cycles", p, 2);
		json_end_obj(j);
	}
	json_end_obj(j);
}

void rp_json_functions(struct json *j, const struct ms_detail *b, const struct ms_detail *p, long limit)
{
	static struct ms_fn_cost t[512];
	int n = ms_explain_functions(b, p, t, 512);

	json_begin_arr(j, "functions");
	for (int i = 0; i < n && i < limit; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "function", t[i].name);
		json_num(j, p ? "base_insns" : "insns", t[i].insns[0], 2);
		json_num(j, p ? "base_cycles" : "cycles", t[i].cycles[0], 2);
		if (p) {
			json_num(j, "patched_insns", t[i].insns[1], 2);
			json_num(j, "patched_cycles", t[i].cycles[1], 2);
			json_num(j, "delta", ms_fn_delta(&t[i]), 2);
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
		json_str(j, "state", ms_state_names[d->state]);
		json_uint(j, "ops", b->ncount);
		json_result_of(j, c->patched ? "base" : "image", &b->res);
		if (p)
			json_result_of(j, "patched", &p->res);
		rp_json_functions(j, b, p, d->limit);
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
		size_t at = t->ncount ? t->count[0].begin : 0;
		size_t to = at + d->win.to < t->run.tr.n ? at + d->win.to : t->run.tr.n;

		json_begin_obj(j, NULL);
		json_str(j, "image", k ? "patched" : c->patched ? "base" : "image");
		json_str(j, "path", d->timeline->name);
		json_str(j, "cpu", t->pt->core->name);
		json_begin_arr(j, "records");
		for (size_t i = at + d->win.from; i < to; i++) {
			const struct hs_insn_cost *pc = &t->per[i];

			a64_disasm(hs_trace_insn(&t->run.tr, i)->word, hs_trace_pc(&t->run.tr, i), text, sizeof(text));
			json_begin_obj(j, NULL);
			json_uint(j, "index", i - at);
			json_str(j, "at", hs_addr_fmt(t->pt->img, hs_trace_pc(&t->run.tr, i), where, sizeof(where)));
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

/* Each state the rows of m ran from, once a core and text - the text
 * report's "state" lines: QEMU, the patching overlaid, the machine, the
 * cgroup, the kernel parameters - so a script comparing two runs can
 * tell whether they booted alike. */
static void states(struct json *j, const char *key, const struct ms_image *m)
{
	const struct ms_row *done[32];
	int n = 0;

	json_begin_arr(j, key);
	for (int i = 0; i < m->nrows; i++) {
		const struct ms_row *r = &m->rows[i];
		int seen = !r->state[0];

		for (int k = 0; k < n && !seen; k++)
			seen = done[k]->core == r->core && !strcmp(done[k]->state, r->state);
		if (seen || n == 32)
			continue;
		done[n++] = r;
		json_begin_obj(j, NULL);
		json_str(j, "cpu", r->core->name);
		json_str(j, "state", r->state);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void rp_json(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	struct json j;

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", c->patched ? "hotsim-compare/2" : "hotsim-run/2");
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
	states(&j, c->patched ? "base_states" : "states", c->base);
	if (c->patched)
		states(&j, "patched_states", c->patched);
	summary(&j, c);
	json_begin_arr(&j, "results");
	for (int i = 0; i < c->npairs; i++)
		for (int st = 0; st < MS_NSTATES; st++)
			if (c->want[st])
				entry(&j, c, &c->pairs[i], (enum ms_state)st);
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
