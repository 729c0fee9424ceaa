/*
 * cost.c - a path run into rows (measure.h): each state's result of the
 * path's whole row and of its sub-rows, and their layout bands.
 *
 *   typical  the whole replayed stream - the warm-up operations, the
 *            sampled ones, whatever ran between them - goes through the
 *            model once from flushed state, so each sampled operation is
 *            costed with the caches and predictors the stream before it
 *            left (detailed warming on the real preceding stream, the
 *            continuous form of SMARTS's functional warming); a sample's
 *            cost is the sum of its records' attributed cycles
 *   warm     the first sampled operation alone, repeated until it converges
 *   cold     the same operation from flushed state
 * Sub-rows split each operation; they are summed from the same
 * per-instruction attribution, so they add up to the whole, sample by
 * sample and in the mean.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "measure_internal.h"

/* The records of one operation as a trace (a view of the run's). */
static struct hs_trace slice(const struct hs_trace *t, struct hs_op_range op)
{
	struct hs_trace s = *t;

	s.v = t->v + op.begin;
	s.n = op.end - op.begin;
	return s;
}

/* The run's operations; a synthesized run is one, the whole trace. */
static unsigned ops_of(const struct hs_path_run *pr, const struct hs_op_range **ops, unsigned *first,
		       struct hs_op_range *whole)
{
	if (pr->nops) {
		*ops = pr->ops;
		*first = pr->warmup < pr->nops ? pr->warmup : 0;
		return pr->nops;
	}
	*whole = (struct hs_op_range){ 0, pr->tr.n };
	*ops = whole;
	*first = 0;
	return 1;
}

/* Add one record's cost to out. Most records stalled on nothing and
 * caused no event: their cycles are all there is to add. */
static inline void add_one(const struct hs_insn_cost *c, struct hs_model_result *out)
{
	static const uint16_t counted = HS_EV_UNCALIBRATED | HS_EV_MISPREDICT | HS_EV_ICACHE_MISS |
					HS_EV_DCACHE_MISS | HS_EV_L2_MISS | HS_EV_TLB_MISS;
	uint16_t any = 0;

	out->cycles += c->cycles;
	out->insns++;
	for (int st = 0; st < HS_NSTALLS; st++)
		any |= c->stall[st];
	if (any)
		for (int st = 0; st < HS_NSTALLS; st++)
			out->stall[st] += c->stall[st];
	if (!(c->events & counted))
		return;
	if (c->events & HS_EV_UNCALIBRATED)
		out->uncalibrated_cycles += c->cycles;
	out->mispredicts += !!(c->events & HS_EV_MISPREDICT);
	out->icache_misses += !!(c->events & HS_EV_ICACHE_MISS);
	out->dcache_misses += !!(c->events & HS_EV_DCACHE_MISS);
	out->l2_misses += !!(c->events & HS_EV_L2_MISS);
	out->tlb_misses += !!(c->events & HS_EV_TLB_MISS);
}

static void add_sums(const struct hs_model_result *one, struct hs_model_result *sum)
{
	sum->cycles += one->cycles;
	sum->insns += one->insns;
	sum->uncalibrated_cycles += one->uncalibrated_cycles;
	for (int st = 0; st < HS_NSTALLS; st++)
		sum->stall[st] += one->stall[st];
	sum->mispredicts += one->mispredicts;
	sum->icache_misses += one->icache_misses;
	sum->dcache_misses += one->dcache_misses;
	sum->l2_misses += one->l2_misses;
	sum->tlb_misses += one->tlb_misses;
}

/* A result of one draw: warm, cold, and typical where nothing was sampled. */
int ms_result_one(struct ms_result *s, const struct hs_model_result *r)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
	s->r = *r;
	s->insns = (double)r->insns;
	if (!(s->v = malloc(sizeof(*s->v))))
		return hs_fail("out of memory");
	s->v[0] = (double)r->cycles;
	ms_dist_of(s->v, 1, &s->d);
	s->noise_lo = s->noise_hi = s->d.mean;
	return 0;
}

/* A typical result from its samples' cycles (v, k of them, taken over)
 * and their sums: the distribution, and the per-op means of the rest. */
static void typical_from(double *v, unsigned k, const struct hs_model_result *sum, struct ms_result *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
	s->v = v;
	ms_dist_of(v, k, &s->d);
	s->insns = k ? (double)sum->insns / k : 0;
	/* the means, rounded: what a table shows in the model's own units */
	s->r = *sum;
	if (k) {
		s->r.cycles = (uint64_t)llround(s->d.mean);
		s->r.insns = (uint64_t)llround(s->insns);
		s->r.uncalibrated_cycles = (uint64_t)llround((double)sum->uncalibrated_cycles / k);
		for (int st = 0; st < HS_NSTALLS; st++)
			s->r.stall[st] = (uint64_t)llround((double)sum->stall[st] / k);
		s->r.mispredicts = (unsigned)lround((double)sum->mispredicts / k);
		s->r.icache_misses = (unsigned)lround((double)sum->icache_misses / k);
		s->r.dcache_misses = (unsigned)lround((double)sum->dcache_misses / k);
		s->r.l2_misses = (unsigned)lround((double)sum->l2_misses / k);
		s->r.tlb_misses = (unsigned)lround((double)sum->tlb_misses / k);
	}
	s->noise_lo = s->noise_hi = s->d.mean;
}

/*
 * Typical: each sampled op's sums, the whole row's and each part's, taken
 * as the model folds each record out of its attribution window
 * (struct hs_costs) - nothing per record is kept. Records come in trace
 * order but for a hold's owner, folded once the next hold takes over.
 * A record is added to its part's sums only (slot 1 + part; slot 0 holds
 * the records of no part): the whole row's are their sum, made once per
 * op at the end - every field is an integer, so the sum is exact.
 */
struct op_sums {
	const struct hs_path_run *pr;
	const struct hs_op_range *ops;
	unsigned first, n, np;		/* ops [first, n) are sampled; np: 1 + parts */
	unsigned cur;			/* the op of the last record folded in order */
	size_t last;			/* that record + 1 */
	struct hs_model_result *acc;	/* (n - first) x np, op-major */
	struct hs_op_range whole;	/* ops of a run without operations */
};

/* The op record j belongs to, n when none (history between ops). */
static unsigned op_of(struct op_sums *s, size_t j)
{
	unsigned lo = 0, hi = s->n;

	if (j >= s->last) {
		while (s->cur < s->n && s->ops[s->cur].end <= j)
			s->cur++;
		s->last = j + 1;
		return s->cur < s->n && s->ops[s->cur].begin <= j ? s->cur : s->n;
	}
	while (lo < hi) {	/* a late hold owner: ops are in trace order */
		unsigned mid = (lo + hi) / 2;

		if (s->ops[mid].end <= j)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->ops[lo].begin <= j ? lo : s->n;
}

/* The run of records from j (before end) in one op, or between two:
 * where it stops, and its op's sums (NULL: no sampled op's). */
static size_t piece(struct op_sums *s, size_t j, size_t end, struct hs_model_result **a)
{
	unsigned k = op_of(s, j);
	size_t stop = j + 1;

	if (k < s->n)
		stop = s->ops[k].end < end ? s->ops[k].end : end;
	else if (j + 1 == s->last && s->cur < s->n && s->ops[s->cur].begin > j)
		stop = s->ops[s->cur].begin < end ? s->ops[s->cur].begin : end;	/* a gap */
	else if (j + 1 == s->last && s->cur >= s->n)
		stop = end;
	*a = k < s->n && k >= s->first ? &s->acc[(size_t)(k - s->first) * s->np] : NULL;
	if (stop > s->last)
		s->last = stop;
	return stop;
}

/* The sums slot of record x: its part's (slot 0: no part). */
static inline unsigned slot_of(const struct op_sums *s, size_t x)
{
	return s->np > 1 && s->pr->part_of[x] < s->np - 1 ? 1u + s->pr->part_of[x] : 0u;
}

/* Records j .. j + n - 1 into their ops' sums: every field (full), or only
 * the cycles - a layout of the band, whose rows are the range of the
 * layouts' means. Inline, so each caller is its own loop. */
static inline void fold_run(struct op_sums *s, size_t j, const struct hs_insn_cost *c, size_t n, int full)
{
	for (size_t end = j + n; j < end;) {
		struct hs_model_result *a;
		size_t stop = piece(s, j, end, &a);

		for (; a && j < stop; j++, c++)
			if (full)
				add_one(c, &a[slot_of(s, j)]);
			else
				a[slot_of(s, j)].cycles += c->cycles;
		c += stop - j;
		j = stop;
	}
}

static void fold_cycles(void *ctx, size_t j, const struct hs_insn_cost *c, size_t n)
{
	fold_run(ctx, j, c, n, 0);
}

static void fold_record(void *ctx, size_t j, const struct hs_insn_cost *c, size_t n)
{
	fold_run(ctx, j, c, n, 1);
}

static int sums_init(struct op_sums *s, const struct hs_path_run *pr, unsigned nparts)
{
	const struct hs_op_range *ops;
	unsigned first, n;

	memset(s, 0, sizeof(*s));
	n = ops_of(pr, &ops, &first, &s->whole);
	s->pr = pr;
	s->ops = ops;
	s->first = first;
	s->n = n;
	s->np = nparts + 1;
	s->acc = hs_calloc((size_t)(n - first ? n - first : 1) * s->np, sizeof(*s->acc));
	return s->acc ? 0 : -1;
}

/* Typical rows from the sums of the first k sampled ops, the whole row
 * (out[0]) and each of its parts (out[1 + p]): each op's cycles, the
 * distribution, the per-op means. */
static int typical_all(const struct op_sums *s, const struct hs_model_result *all, unsigned k,
		       struct ms_result *out)
{
	/* slot 0 becomes the whole: itself (the records of no part) plus the parts */
	for (unsigned i = 0; i < k; i++)
		for (unsigned q = 1; q < s->np; q++)
			add_sums(&s->acc[(size_t)i * s->np + q], &s->acc[(size_t)i * s->np]);
	for (unsigned q = 0; q < s->np; q++) {
		struct hs_model_result sum = *all;
		double *v = malloc((k ? k : 1) * sizeof(*v));

		if (!v)
			return hs_fail("out of memory");
		/* the model's totals but for what the samples sum */
		memset(&sum.stall, 0, sizeof(sum.stall));
		sum.cycles = sum.insns = sum.uncalibrated_cycles = 0;
		sum.mispredicts = sum.icache_misses = sum.dcache_misses = 0;
		sum.l2_misses = sum.tlb_misses = 0;
		for (unsigned i = 0; i < k; i++) {
			const struct hs_model_result *one = &s->acc[(size_t)i * s->np + q];

			v[i] = (double)one->cycles;
			add_sums(one, &sum);
		}
		typical_from(v, k, &sum, &out[q]);
	}
	return 0;
}

/* The distinct values of a field of a trace, sorted: its pcs, or the
 * 64-byte lines of its data addresses (*n of them; NULL and 0 when out
 * of memory, which leaves every layout split at 0). */
static uint64_t *distinct(const struct hs_trace *t, int data, size_t *n)
{
	struct ms_set set = { 0 };

	if (!data)
		return ms_distinct_pcs(t, n);
	*n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].addr && ms_set_add(&set, t->v[i].addr & ~63ULL)) {
			ms_set_free(&set);
			return NULL;
		}
	return ms_set_sorted(&set, n);
}

/* The q-th of n quantiles of d sorted distinct values. */
static uint64_t quantile(const uint64_t *v, size_t d, int q, int n)
{
	return d ? v[d * (size_t)q / (size_t)n] : 0;
}

/* One costing of the run in one layout: per-record costs of the whole
 * stream (typical; a layout's: to the end of its band's ops) and of the
 * first sampled op (warm, cold). */
#define WINDOW 1024			/* the typical run's attribution ring */
struct costing {
	struct hs_insn_cost *per[MS_NSTATES];	/* warm, cold: the slice; typical: the ring */
	struct op_sums sums;			/* typical */
	struct hs_model_result res[MS_NSTATES];
};

/* The sampled ops a costing's typical run covers: all of them in the
 * recorded layout, the first ms_band_ops() in any other. */
static unsigned costed_ops(const struct costing *c, int layout)
{
	unsigned k = c->sums.n - c->sums.first;

	return layout ? ms_band_ops(k) : k;
}

static int cost_states(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		       struct costing *c, int layout)
{
	const struct hs_op_range *ops;
	struct hs_op_range whole;
	unsigned first;
	struct hs_trace s;

	ops_of(pr, &ops, &first, &whole);
	s = slice(&pr->tr, ops[first]);
	if (pr->booted && o->want[MS_TYPICAL]) {
		struct hs_costs w = { .v = c->per[MS_TYPICAL], .mask = WINDOW - 1,
				      .fold = layout ? fold_cycles : fold_record, .ctx = &c->sums };
		unsigned np = c->sums.np;
		struct hs_trace t = pr->tr;

		if (layout && pr->nops)
			t.n = ops[first + costed_ops(c, layout) - 1].end;

		memset(c->sums.acc, 0, (size_t)(c->sums.n - c->sums.first ? c->sums.n - c->sums.first : 1) * np *
				       sizeof(*c->sums.acc));
		c->sums.cur = 0;
		c->sums.last = 0;
		if (hs_model_cold_costs(m, &t, &c->res[MS_TYPICAL], &w))
			return -1;
	}
	/* synthesized: no history to sample; typical is the warm op, one draw */
	if ((o->want[MS_WARM] || (!pr->booted && o->want[MS_TYPICAL])) &&
	    hs_model_warm(m, &s, MS_WARM_MAX, &c->res[MS_WARM], c->per[MS_WARM]))
		return -1;
	if (o->want[MS_COLD] && hs_model_cold(m, &s, &c->res[MS_COLD], c->per[MS_COLD]))
		return -1;
	return 0;
}

/* A row's (part p's; p < 0 the whole) result in state st from a costing. */
static int result_of(const struct costing *c, const struct hs_path_run *pr, int p, enum ms_state st,
		     struct ms_result *out)
{
	const struct hs_op_range *ops;
	struct hs_op_range whole;
	unsigned first;
	struct hs_model_result r;

	if (st == MS_TYPICAL)
		st = MS_WARM;
	if (p < 0)
		return ms_result_one(out, &c->res[st]);
	ops_of(pr, &ops, &first, &whole);
	r = c->res[st];
	r.cycles = r.insns = r.uncalibrated_cycles = 0;
	memset(r.stall, 0, sizeof(r.stall));
	r.mispredicts = r.icache_misses = r.dcache_misses = r.l2_misses = r.tlb_misses = 0;
	{
		/* the slice's records are the op's: part_of by the run's index */
		struct hs_model_result one;

		memset(&one, 0, sizeof(one));
		for (size_t i = ops[first].begin; i < ops[first].end; i++)
			if (pr->part_of[i] == p)
				add_one(&c->per[st][i - ops[first].begin], &one);
		r.cycles = one.cycles;
		r.insns = one.insns;
		r.uncalibrated_cycles = one.uncalibrated_cycles;
		memcpy(r.stall, one.stall, sizeof(r.stall));
	}
	return ms_result_one(out, &r);
}

static int alloc_costing(const struct hs_path_run *pr, unsigned nparts, struct costing *c)
{
	const struct hs_op_range *ops;
	struct hs_op_range whole;
	unsigned first;
	size_t n;

	memset(c, 0, sizeof(*c));
	ops_of(pr, &ops, &first, &whole);
	n = ops[first].end - ops[first].begin;
	c->per[MS_TYPICAL] = hs_calloc(WINDOW, sizeof(struct hs_insn_cost));
	c->per[MS_WARM] = hs_calloc(n ? n : 1, sizeof(struct hs_insn_cost));
	c->per[MS_COLD] = hs_calloc(n ? n : 1, sizeof(struct hs_insn_cost));
	if (!c->per[MS_TYPICAL] || !c->per[MS_WARM] || !c->per[MS_COLD])
		return -1;
	return pr->booted ? sums_init(&c->sums, pr, nparts) : 0;
}

static void free_costing(struct costing *c)
{
	for (int st = 0; st < MS_NSTATES; st++)
		free(c->per[st]);
	free(c->sums.acc);
}

/* Merge a layout's result into the recorded one's band (a sampled
 * layout's: over the first tmp->d.n of dst's samples, ms_band_at()). */
static void band(struct ms_result *dst, struct ms_result *tmp)
{
	double at = tmp->d.n < dst->d.n ? ms_band_at(dst->v, dst->d.mean, tmp->d.mean, tmp->d.n) : tmp->d.mean;

	dst->noise_lo = fmin(dst->noise_lo, at);
	dst->noise_hi = fmax(dst->noise_hi, at);
	free(tmp->v);
	tmp->v = NULL;
}

/* The whole row and its parts (part k is rows[1 + k]) from one costing:
 * layout 0 is the recorded one, any other widens its band. */
static int fill_rows(const struct ms_options *o, const struct costing *c, const struct hs_path_run *pr,
		     struct ms_row *rows, unsigned nparts, int layout)
{
	struct ms_result *tmp = calloc(nparts + 1, sizeof(*tmp));

	if (!tmp)
		return hs_fail("out of memory");
	for (int st = 0; st < MS_NSTATES; st++) {
		if (!o->want[st])
			continue;
		if (st == MS_TYPICAL && pr->booted) {
			if (typical_all(&c->sums, &c->res[MS_TYPICAL], costed_ops(c, layout), tmp))
				goto fail;
		} else {
			for (unsigned k = 0; k <= nparts; k++)
				if (result_of(c, pr, (int)k - 1, (enum ms_state)st, &tmp[k]))
					goto fail;
		}
		for (unsigned k = 0; k <= nparts; k++) {
			if (layout) {
				band(&rows[k].s[st], &tmp[k]);
				continue;
			}
			free(rows[k].s[st].v);
			rows[k].s[st] = tmp[k];
			memset(&tmp[k], 0, sizeof(tmp[k]));
		}
	}
	free(tmp);
	return 0;
fail:
	for (unsigned k = 0; k <= nparts; k++)
		free(tmp[k].v);
	free(tmp);
	return -1;
}

/*
 * Cost the run into rows[0] (the whole) and rows[1..nparts] (its parts),
 * in every state asked for, and the layout band: in layout k (1..noise)
 * the code (data) above the k-th split of the first sampled op's own code
 * (data) lies ms_layout_shift(k) bytes further on (up to a cache way:
 * measure.h says why) - the cache sets and predictor entries the two parts
 * use shift against each other, the instructions do not change. A
 * layout's typical run covers the first ms_band_ops() samples only.
 */
int ms_cost_rows(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		 struct ms_row *rows, unsigned nparts)
{
	const struct hs_op_range *ops;
	struct hs_op_range whole;
	unsigned first;
	struct costing c;
	struct hs_trace s;
	int rc;

	if (alloc_costing(pr, nparts, &c)) {
		free_costing(&c);
		return -1;
	}
	ops_of(pr, &ops, &first, &whole);
	s = slice(&pr->tr, ops[first]);
	rc = cost_states(m, o, pr, &c, 0) || fill_rows(o, &c, pr, rows, nparts, 0);
	if (o->noise > 0 && !rc) {
		size_t npc, nline;
		uint64_t *pcs = distinct(&s, 0, &npc), *lines = distinct(&s, 1, &nline);

		for (int k = 1; k <= o->noise && !rc; k++) {
			uint64_t delta = ms_layout_shift(k);

			hs_model_set_layout_shift(m, quantile(pcs, npc, k, o->noise + 1), delta,
						  quantile(lines, nline, k, o->noise + 1), delta);
			rc = cost_states(m, o, pr, &c, k) || fill_rows(o, &c, pr, rows, nparts, 1);
		}
		free(pcs);
		free(lines);
	}
	hs_model_set_layout_shift(m, 0, 0, 0, 0);
	for (unsigned k = 0; k <= nparts; k++)
		rows[k].noise_n = o->noise ? o->noise + 1 : 0;
	free_costing(&c);
	return rc;
}
