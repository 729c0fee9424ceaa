/*
 * measure.c - image -> patched image -> path runs -> traces -> models ->
 * rows (see measure.h; a run's costing is cost.c). Everything here is
 * deterministic: rows come out in core-major, path order, and no host
 * address or time reaches them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/kstate.h"
#include "emu/runner.h"
#include "measure_internal.h"


int ms_parse_param(const char *arg, struct ms_param *p)
{
	const char *eq = strchr(arg, '='), *dot;
	char *end;
	size_t n;

	memset(p, 0, sizeof(*p));
	if (!eq || eq == arg)
		return hs_fail("--param expects core.name=value, got '%s'", arg);
	dot = memchr(arg, '.', (size_t)(eq - arg));
	if (dot) {
		n = (size_t)(dot - arg);
		if (n >= sizeof(p->core))
			return hs_fail("--param: bad core in '%s'", arg);
		memcpy(p->core, arg, n);
		arg = dot + 1;
	}
	n = (size_t)(eq - arg);
	if (n == 0 || n >= sizeof(p->name))
		return hs_fail("--param: bad name in '%s'", arg);
	memcpy(p->name, arg, n);
	p->value = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || p->value < 0)
		return hs_fail("--param: '%s' is not a non-negative number", eq + 1);
	return 0;
}

struct hs_model *ms_model(const struct ms_options *o, const struct hs_core *core)
{
	struct hs_model *m = hs_model_new(core);

	if (!m)
		return NULL;
	for (int i = 0; i < o->nparams; i++) {
		const struct ms_param *p = &o->params[i];

		if (p->core[0] && strcmp(p->core, core->name))
			continue;
		if (hs_model_set_param(m, p->name, p->value)) {
			hs_model_free(m);
			return NULL;
		}
	}
	return m;
}

/*
 * The model for a core running img: its TLBs hold the image's pages (a 16K
 * kernel's entry maps 16K), not the core file's 4K, unless --param set
 * page_bytes. A 4K image keeps the model exactly as it was.
 */
static struct hs_model *model_for(const struct ms_options *o, const struct hs_core *core,
				  const struct hs_image *img)
{
	struct hs_model *m = ms_model(o, core);
	const struct hs_param *p;

	if (!m || !img->page_size)
		return m;
	for (int i = 0; i < o->nparams; i++)
		if (!strcmp(o->params[i].name, "page_bytes") && (!o->params[i].core[0] ||
								 !strcmp(o->params[i].core, core->name)))
			return m;
	for (size_t i = 0; (p = hs_model_param(m, i)); i++)
		if (!strcmp(p->name, "page_bytes") && p->value != img->page_size &&
		    hs_model_set_param(m, "page_bytes", img->page_size)) {
			hs_model_free(m);
			return NULL;
		}
	return m;
}

int ms_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The decode cache holds one entry per executed address, so a stream's
 * distinct pcs are its distinct decode indices: a mark per entry, then a
 * sort of the few thousand marked, not of every record (a fork op is
 * 160,000; sorting them was 2% of a compare). Duplicates are dropped after
 * the sort all the same, so the answer does not lean on that property.
 */
uint64_t *ms_distinct_pcs(const struct hs_trace *t, size_t *n)
{
	uint8_t *seen;
	uint64_t *pcs;
	size_t k = 0, d = 0;

	*n = 0;
	if (!t->n || !(seen = calloc(t->dc->n ? t->dc->n : 1, 1)))
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].sidx < t->dc->n && !seen[t->v[i].sidx]) {
			seen[t->v[i].sidx] = 1;
			k++;
		}
	if (!(pcs = malloc(k * sizeof(*pcs) + 1))) {
		free(seen);
		return NULL;
	}
	for (size_t i = 0, j = 0; i < t->dc->n && j < k; i++)
		if (seen[i])
			pcs[j++] = t->dc->v[i].pc;
	free(seen);
	qsort(pcs, k, sizeof(*pcs), ms_cmp_u64);
	for (size_t i = 0; i < k; i++)
		if (!i || pcs[i] != pcs[i - 1])
			pcs[d++] = pcs[i];
	*n = d;
	return pcs;
}

/* Distinct instruction bytes a stream executes (its I-cache footprint). */
static uint64_t code_bytes(const struct hs_trace *t)
{
	size_t n;

	free(ms_distinct_pcs(t, &n));
	return 4 * (uint64_t)n;
}

static struct ms_row *new_row(struct ms_image *out, const char *name, const char *path,
			      const struct hs_core *core)
{
	struct ms_row *r;

	if (out->nrows >= MS_MAX_ROWS) {
		hs_fail("too many result rows");
		return NULL;
	}
	r = &out->rows[out->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->path = path;
	r->core = core;
	return r;
}

/*
 * Sum the second copy of every site window of a census stream into a
 * result: cycles, stalls and uncalibrated cycles from the per-instruction
 * attribution (see census_row).
 */
static void sum_range(const struct hs_insn_cost *per, size_t b, size_t e, struct hs_model_result *out)
{
	for (size_t i = b; i < e; i++) {
		out->cycles += per[i].cycles;
		out->insns++;
		for (int st = 0; st < HS_NSTALLS; st++)
			out->stall[st] += per[i].stall[st];
		if (per[i].events & HS_EV_UNCALIBRATED)
			out->uncalibrated_cycles += per[i].cycles;
	}
}

static void zero_sums(const struct hs_model_result *all, struct hs_model_result *out)
{
	*out = *all;
	out->cycles = out->uncalibrated_cycles = 0;
	memset(out->stall, 0, sizeof(out->stall));
	out->insns = 0;
}

static void census_sum(const struct hs_insn_cost *per, const size_t *first, const size_t *len,
		       size_t nsites, const struct hs_model_result *all, struct hs_model_result *out)
{
	zero_sums(all, out);
	for (size_t k = 0; k < nsites; k++)
		sum_range(per, first[k] + len[k], first[k] + 2 * len[k], out);
}

/*
 * Every this_cpu site of the image, costed so that a site's cost depends on
 * that site alone: each window appears twice in a row and only the second
 * copy is counted. Concatenating sites once would make each site's last
 * branch "jump" to whatever site follows, so inlining one function elsewhere
 * would change every site's neighbour and the census with it.
 */
static int census_row(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		      const struct hs_patched *pt, struct ms_row *row)
{
	const struct hs_pcpu_census *c = pr->census;
	size_t *first = hs_calloc(c->n ? c->n : 1, sizeof(*first));
	size_t *len = hs_calloc(c->n ? c->n : 1, sizeof(*len));
	struct hs_insn_cost *per = NULL;
	struct hs_model_result all, warm = { 0 }, cold = { 0 };
	struct hs_trace t;
	size_t nsites = 0;
	int rc = 0;

	if (!first || !len) {
		free(first);
		free(len);
		return -1;
	}
	hs_trace_init(&t, hs_rt_dcache(pr->r), MS_TRACE_CAP);
	for (size_t i = 0; i < c->n && !rc; i++) {
		const struct hs_pcpu_site *s = &c->v[i];
		uint64_t slot = pr->ks->pcpu_chunk + pr->ks->pcpu_size;

		if (s->kind == HS_PCPU_PTR)
			continue;
		first[nsites] = t.n;
		len[nsites] = s->n;
		rc = hs_pcpu_site_trace(pt->img, pt->mem, s, hs_rt_dcache(pr->r), &t, slot, pr->ks->task[0]);
		if (!rc)
			rc = hs_pcpu_site_trace(pt->img, pt->mem, s, hs_rt_dcache(pr->r), &t, slot,
						pr->ks->task[0]);
		nsites++;
	}
	row->sites = (unsigned)nsites;
	if (!rc && !(per = hs_calloc(t.n ? t.n : 1, sizeof(*per))))
		rc = -1;
	/* typical: a site is an op of its own, repeated - no history to
	 * sample (one draw, the warm cost) */
	if (!rc && (o->want[MS_WARM] || o->want[MS_TYPICAL]) &&
	    !(rc = hs_model_warm(m, &t, MS_WARM_MAX, &all, per))) {
		census_sum(per, first, len, nsites, &all, &warm);
		rc = (o->want[MS_WARM] && ms_result_one(&row->s[MS_WARM], &warm)) ||
		     (o->want[MS_TYPICAL] && ms_result_one(&row->s[MS_TYPICAL], &warm));
	}
	if (!rc && o->want[MS_COLD] && !(rc = hs_model_cold(m, &t, &all, per))) {
		census_sum(per, first, len, nsites, &all, &cold);
		rc = ms_result_one(&row->s[MS_COLD], &cold);
	}
	if (!rc) {
		row->insns = warm.insns ? warm.insns : cold.insns;
		row->code_bytes = code_bytes(&t);
		row->ok = 1;
	}
	free(per);
	free(first);
	free(len);
	hs_trace_free(&t);
	return rc;
}

/* Distinct instruction bytes of the first sampled op (part p's, or all
 * when p < 0): the op's I-cache footprint. */
static uint64_t op_code_bytes(const struct hs_path_run *pr, int p)
{
	struct hs_op_range op = pr->nops ? pr->ops[pr->warmup < pr->nops ? pr->warmup : 0] :
					   (struct hs_op_range){ 0, pr->tr.n };
	struct hs_trace sub = pr->tr;
	uint64_t n;

	sub.v = malloc((op.end - op.begin + 1) * sizeof(*pr->tr.v));
	if (!sub.v)
		return 0;
	sub.n = 0;
	for (size_t i = op.begin; i < op.end; i++)
		if (p < 0 || pr->part_of[i] == p)
			sub.v[sub.n++] = pr->tr.v[i];
	n = code_bytes(&sub);
	free(sub.v);
	return n;
}

/* The whole row of a run and its sub-rows, costed together. */
static int run_rows(struct hs_model *m, const struct ms_options *o, const struct hs_patched *pt,
		    const struct hs_path_def *d, const struct hs_path_run *pr, struct ms_image *out)
{
	unsigned nparts = pr->part_of ? pr->nparts : 0;
	int first = out->nrows;

	if (out->nrows + 1 + (int)nparts > MS_MAX_ROWS)
		return hs_fail("too many result rows");
	for (unsigned k = 0; k <= nparts; k++) {
		struct ms_row *row = &out->rows[out->nrows++];
		char name[40];

		memset(row, 0, sizeof(*row));
		snprintf(name, sizeof(name), k ? "%s.%s" : "%s", d->name, k ? pr->part_names[k - 1] : "");
		snprintf(row->name, sizeof(row->name), "%s", name);
		row->path = d->name;
		row->def = d;
		row->core = pt->core;
		row->booted = pr->booted;
		snprintf(row->state, sizeof(row->state), "%s", pr->state);
		row->code_bytes = op_code_bytes(pr, (int)k - 1);
		row->part = k > 0;
	}
	if (ms_cost_rows(m, o, pr, &out->rows[first], nparts))
		return -1;
	for (unsigned k = 0; k <= nparts; k++) {
		struct ms_row *row = &out->rows[first + (int)k];
		int st = o->want[MS_TYPICAL] ? MS_TYPICAL : o->want[MS_WARM] ? MS_WARM : MS_COLD;

		row->insns = (uint64_t)llround(row->s[st].insns);
		row->ok = 1;
	}
	return ms_profile(pt->img, pr, &out->rows[first]);	/* rows never move */
}

/* percpu's segments (one per op kind) and its census: synthesized only. */
static int segment_rows(struct hs_model *m, const struct ms_options *o, const struct hs_patched *pt,
			const struct hs_path_def *d, const struct hs_path_run *pr, struct ms_image *out)
{
	for (unsigned s = 0; s < pr->nsegs; s++) {
		struct hs_path_run seg = *pr;
		struct hs_op_range op = { pr->segs[s].begin, pr->segs[s].end };
		struct ms_row *row;
		char name[40];

		/* a segment is a run of one op, no sub-rows */
		seg.ops = &op;
		seg.nops = 1;
		seg.warmup = 0;
		seg.part_of = NULL;
		seg.nparts = 0;
		snprintf(name, sizeof(name), "%s.%s", d->name, pr->segs[s].label);
		if (!(row = new_row(out, name, d->name, pt->core)) || ms_cost_rows(m, o, &seg, row, 0))
			return -1;
		snprintf(row->site_fn, sizeof(row->site_fn), "%s", pr->segs[s].fn);
		snprintf(row->state, sizeof(row->state), "%s", pr->state);
		row->insns = op.end - op.begin;
		row->code_bytes = op_code_bytes(&seg, -1);
		row->ok = 1;
	}
	if (pr->census) {
		struct ms_row *row;
		char name[40];

		snprintf(name, sizeof(name), "%s.census", d->name);
		if (!(row = new_row(out, name, d->name, pt->core)) || census_row(m, o, pr, pt, row))
			return -1;
		snprintf(row->state, sizeof(row->state), "%s", pr->state);
	}
	return 0;
}

/* One path's run on a core, costed into rows. */
static int measure_path(struct hs_model *m, const struct ms_options *o, const struct hs_patched *pt,
			const struct hs_path_run *pr, struct ms_image *out)
{
	const struct hs_path_def *d = pr->def;
	struct ms_row *row;

	if (!pr->ok) {
		if (!(row = new_row(out, d->name, d->name, pt->core)))
			return -1;
		snprintf(row->why, sizeof(row->why), "%s", pr->why);
		snprintf(row->state, sizeof(row->state), "%s", pr->state);
		return 0;
	}
	if (pr->nsegs || pr->census)
		return segment_rows(m, o, pt, d, pr, out);
	return run_rows(m, o, pt, d, pr, out);
}

int ms_open(const char *path, struct ms_image *out)
{
	memset(out, 0, sizeof(*out));
	out->img = hs_image_open(path);
	return out->img ? 0 : -1;
}

static int in_share(const struct ms_options *o, int c, int k, unsigned shard, unsigned nshards)
{
	unsigned u = (unsigned)c * (unsigned)o->npaths + (unsigned)k;

	return !nshards || u % nshards == shard - 1;
}

int ms_in_shard(const struct ms_options *o, int c, int k)
{
	return in_share(o, c, k, o->shard, o->nshards);
}

int ms_core_in_share(const struct ms_options *o, int c, unsigned shard, unsigned nshards)
{
	for (int k = 0; k < o->npaths; k++)
		if (in_share(o, c, k, shard, nshards))
			return 1;
	return 0;
}

/* The walk's stages for run and compare: a model per core, each run costed. */
struct measuring {
	const struct ms_options *o;
	struct ms_image *out;
	struct hs_model *m;
	struct hs_session *s;
};

/* A model per core; the session the next runs come from (one a set). */
static int model_stage(void *ctx, const struct hs_patched *pt, struct hs_session *s)
{
	struct measuring *ms = ctx;

	ms->s = s;
	return ms->m || (ms->m = model_for(ms->o, pt->core, pt->img)) ? 0 : -1;
}

/* A machine of more than one CPU runs each path's point as the machine */
static int cost_stage(void *ctx, const struct hs_patched *pt, struct hs_path_run *r)
{
	struct measuring *ms = ctx;

	if (ms_set_of(ms->o, r->def)->ncpus > 1)
		return ms_machine_rows(ms->o, pt, r->def, ms->s, ms->out);
	return measure_path(ms->m, ms->o, pt, r, ms->out);
}

int ms_measure_core(const struct ms_options *o, int c, struct ms_image *out)
{
	struct measuring ms = { .o = o, .out = out };
	int rc;

	if (!ms_core_in_share(o, c, o->shard, o->nshards))
		return 0;
	rc = ms_walk_core(out->img, o, c, &(struct ms_stages){ .ctx = &ms, .state = model_stage, .run = cost_stage });
	hs_model_free(ms.m);
	return rc ? -1 : 0;
}

void ms_free(struct ms_image *m)
{
	for (int i = 0; i < m->nrows; i++) {
		free(m->rows[i].fns);
		m->rows[i].fns = NULL;
		for (int st = 0; st < MS_NSTATES; st++) {
			free(m->rows[i].s[st].v);
			m->rows[i].s[st].v = NULL;
		}
	}
	hs_image_close(m->img);
	m->img = NULL;
}

const char *const ms_state_names[MS_NSTATES] = { "typical", "warm", "cold" };

/* A typical detail's result: the per-op means of its counted records. */
static void mean_of_ops(struct ms_detail *d)
{
	struct hs_model_result *r = &d->res;
	uint64_t cyc = 0, ins = 0, unc = 0, st[HS_NSTALLS] = { 0 };
	unsigned ev[5] = { 0 };
	double n = d->ncount ? d->ncount : 1;

	for (unsigned o = 0; o < d->ncount; o++)
		for (size_t i = d->count[o].begin; i < d->count[o].end; i++) {
			const struct hs_insn_cost *c = &d->per[i];

			cyc += c->cycles;
			ins++;
			unc += c->events & HS_EV_UNCALIBRATED ? c->cycles : 0;
			for (int s = 0; s < HS_NSTALLS; s++)
				st[s] += c->stall[s];
			ev[0] += !!(c->events & HS_EV_MISPREDICT);
			ev[1] += !!(c->events & HS_EV_ICACHE_MISS);
			ev[2] += !!(c->events & HS_EV_DCACHE_MISS);
			ev[3] += !!(c->events & HS_EV_L2_MISS);
			ev[4] += !!(c->events & HS_EV_TLB_MISS);
		}
	r->cycles = (uint64_t)llround(cyc / n);
	r->insns = (uint64_t)llround(ins / n);
	r->uncalibrated_cycles = (uint64_t)llround(unc / n);
	for (int s = 0; s < HS_NSTALLS; s++)
		r->stall[s] = (uint64_t)llround(st[s] / n);
	r->mispredicts = (unsigned)lround(ev[0] / n);
	r->icache_misses = (unsigned)lround(ev[1] / n);
	r->dcache_misses = (unsigned)lround(ev[2] / n);
	r->l2_misses = (unsigned)lround(ev[3] / n);
	r->tlb_misses = (unsigned)lround(ev[4] / n);
}

int ms_detail(const struct hs_image *img, const struct ms_options *o, const struct hs_core *core,
	      const struct hs_path_def *d, enum ms_state state, struct ms_detail *out)
{
	struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .samples = o->samples,
				  .set = ms_set_of(o, d) };
	struct hs_trace t;
	struct hs_model *m;
	unsigned first;
	int rc;

	memset(out, 0, sizeof(*out));
	out->state = state;
	if (!(out->pt = hs_patch(img, core)))
		return -1;
	if (hs_path_run_alone(d, out->pt, o->src, &ro, &out->run))
		return -1;
	if (!out->run.ok)
		return hs_fail("%s on %s cannot run: %s", d->name, core->name, out->run.why);
	if (!out->run.nops) {
		/* synthesized: one op, the whole trace */
		if (!(out->run.ops = calloc(1, sizeof(*out->run.ops))))
			return hs_fail("out of memory");
		out->run.ops[0] = (struct hs_op_range){ 0, out->run.tr.n };
		out->run.nops = 1;
	}
	first = out->run.warmup < out->run.nops ? out->run.warmup : 0;
	if (state == MS_TYPICAL && !out->run.booted)
		state = MS_WARM;	/* no history to sample: typical is the warm op */
	if (!(m = model_for(o, core, img)))
		return -1;
	out->per = hs_calloc(out->run.tr.n ? out->run.tr.n : 1, sizeof(*out->per));
	if (!out->per) {
		hs_model_free(m);
		return -1;
	}
	if (state == MS_TYPICAL) {
		/* the whole stream; the sampled ops count, their mean is the result */
		out->count = out->run.ops + first;
		out->ncount = out->run.nops - first;
		rc = hs_model_cold(m, &out->run.tr, &out->res, out->per);
		if (!rc)
			mean_of_ops(out);
	} else {
		/* the first sampled op alone, its costs where its records are */
		t = out->run.tr;
		t.v += out->run.ops[first].begin;
		t.n = out->run.ops[first].end - out->run.ops[first].begin;
		out->count = out->run.ops + first;
		out->ncount = 1;
		rc = state == MS_WARM ? hs_model_warm(m, &t, MS_WARM_MAX, &out->res, out->per + out->run.ops[first].begin)
				      : hs_model_cold(m, &t, &out->res, out->per + out->run.ops[first].begin);
	}
	hs_model_free(m);
	return rc;
}

void ms_detail_free(struct ms_detail *d)
{
	free(d->per);
	hs_path_run_free(&d->run);
	hs_patched_free(d->pt);
	memset(d, 0, sizeof(*d));
}
