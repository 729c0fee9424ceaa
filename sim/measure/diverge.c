/*
 * diverge.c - different paths through unchanged code. Two images boot to
 * slightly different moments (a patch changes how many instructions boot
 * runs, so the clock and everything timed by it moves), and a path run in
 * each may then take other branches in code the patch never touched: an
 * rbtree of another shape, a timestamp that needs updating in one run and
 * not in the other. Layout noise (--noise) cannot show that; this does.
 *
 * Each whole row keeps how many instructions it ran per function in each
 * sampled operation: the two images' distributions are compared, not one
 * draw against one draw. A
 * function counts as unchanged when it has the same size in both images and
 * the same instructions once the fields that only say where things are
 * (branch and ADR/ADRP offsets, literal loads, the :lo12: immediates of
 * ADD and of unsigned-offset loads and stores) are masked. An unchanged
 * function that ran a different number of instructions took another path
 * through the same code: its state differed, not its code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/measure.h"

static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The function of a record's pc (its symbol's address; 0: none, user
 * code). Consecutive records are mostly in one function: the last
 * symbol's range answers without a search - the part of its extent below
 * the next symbol, where hs_sym_at (the last covering symbol at or below
 * the pc) can only answer it. */
struct fn_cache {
	uint64_t lo, hi, addr;
};

static uint64_t fn_at(const struct hs_image *img, uint64_t pc, struct fn_cache *c)
{
	const struct hs_sym *s;

	if (pc >= c->lo && pc < c->hi)
		return c->addr;
	s = hs_sym_at(img, pc);
	if (s && s->size) {
		size_t i = (size_t)(s - img->syms);
		uint64_t next = i + 1 < img->nsyms ? img->syms[i + 1].addr : UINT64_MAX;

		c->lo = s->addr;
		c->hi = next < s->addr + s->size ? next : s->addr + s->size;
		c->addr = s->addr;
	}
	return s ? s->addr : 0;
}

static long fn_index(const struct ms_row *row, uint64_t addr)
{
	long lo = 0, hi = row->nfns;

	while (lo < hi) {
		long mid = (lo + hi) / 2;

		if (row->fns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < row->nfns && row->fns[lo].addr == addr ? lo : -1;
}

/*
 * Each decode-cache entry's function (fn_at of its pc) for the entries the
 * sampled records use, UINT64_MAX for the rest: a record's function is its
 * entry's, so nothing is kept per record (fork's 5.8 million records were
 * 46 MB of function addresses).
 */
static uint64_t *entry_fns(const struct hs_image *img, const struct hs_path_run *pr, unsigned first,
			   unsigned n, const struct hs_op_range *ops)
{
	const struct hs_dcache *dc = pr->tr.dc;
	struct fn_cache c = { 0 };
	uint64_t *fe;

	if (!dc) {
		hs_fail("a run without its decode cache");
		return NULL;
	}
	if (!(fe = hs_calloc(dc->n ? dc->n : 1, sizeof(*fe))))
		return NULL;
	for (size_t k = 0; k < dc->n; k++)
		fe[k] = UINT64_MAX;
	for (unsigned i = first; i < n; i++)
		for (size_t j = ops[i].begin; j < ops[i].end; j++) {
			uint32_t x = pr->tr.v[j].sidx;

			if (x < dc->n && fe[x] == UINT64_MAX)
				fe[x] = fn_at(img, hs_trace_pc(&pr->tr, j), &c);
		}
	return fe;
}

/* The functions of fe, by address, sizes from the image. */
static int list_fns(const struct hs_image *img, const uint64_t *fe, size_t nfe, struct ms_row *row)
{
	size_t k = 0, nf = 0;
	uint64_t *at;

	if (!(at = hs_calloc(nfe ? nfe : 1, sizeof(*at))))
		return -1;
	for (size_t i = 0; i < nfe; i++)
		if (fe[i] != UINT64_MAX)
			at[k++] = fe[i];
	qsort(at, k, sizeof(*at), by_addr);
	for (size_t i = 0; i < k; i++)
		nf += !i || at[i] != at[i - 1];
	row->nfns = 0;
	if (!(row->fns = hs_calloc(nf ? nf : 1, sizeof(*row->fns)))) {
		free(at);
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		if (!i || at[i] != at[i - 1]) {
			const struct hs_sym *s = at[i] ? hs_sym_at(img, at[i]) : NULL;

			row->fns[row->nfns].addr = at[i];
			row->fns[row->nfns].size = s ? s->size : 0;
			row->nfns++;
		}
	free(at);
	return 0;
}

/* Per op: each function's count, into the total and the sum of squares
 * (fi: each decode-cache entry's index in row->fns, -1 none). */
static void count_fns(const struct hs_path_run *pr, const struct hs_op_range *ops, unsigned first,
		      unsigned n, const int32_t *fi, uint32_t *count, struct ms_row *row)
{
	for (unsigned i = first; i < n; i++) {
		memset(count, 0, (size_t)row->nfns * sizeof(*count));
		for (size_t j = ops[i].begin; j < ops[i].end; j++) {
			int32_t k = fi[pr->tr.v[j].sidx];

			if (k >= 0)
				count[k]++;
		}
		for (int k = 0; k < row->nfns; k++) {
			row->fns[k].insns += count[k];
			row->fns[k].ss += (double)count[k] * count[k];
		}
	}
}

int ms_profile(const struct hs_image *img, const struct hs_path_run *pr, struct ms_row *row)
{
	struct hs_op_range whole = { 0, pr->tr.n };
	const struct hs_op_range *ops = pr->nops ? pr->ops : &whole;
	unsigned n = pr->nops ? pr->nops : 1, first = pr->nops && pr->warmup < pr->nops ? pr->warmup : 0;
	uint32_t *count = NULL;
	int32_t *fi = NULL;
	uint64_t *fe;
	size_t nfe;
	int rc = -1;

	free(row->fns);
	row->fns = NULL;
	if (!(fe = entry_fns(img, pr, first, n, ops)))
		return -1;
	nfe = pr->tr.dc->n;
	if (list_fns(img, fe, nfe, row) || !(fi = hs_calloc(nfe ? nfe : 1, sizeof(*fi))) ||
	    !(count = hs_calloc((size_t)row->nfns + 1, sizeof(*count))))
		goto out;
	for (size_t k = 0; k < nfe; k++)
		fi[k] = fe[k] == UINT64_MAX ? -1 : (int32_t)fn_index(row, fe[k]);
	row->nsamples = n - first;
	count_fns(pr, ops, first, n, fi, count, row);
	rc = 0;
out:
	free(count);
	free(fi);
	free(fe);
	return rc;
}

static int same_code(const struct hs_image *a, const struct ms_fn_count *fa, const struct hs_image *b,
		     const struct ms_fn_count *fb)
{
	const uint8_t *x, *y;

	if (!fa->addr || !fb->addr || fa->size != fb->size || !fa->size || fa->size % 4)
		return 0;
	x = hs_at(a, a->mem, fa->addr, fa->size);
	y = hs_at(b, b->mem, fb->addr, fb->size);
	if (!x || !y)
		return 0;
	for (uint64_t k = 0; k < fa->size; k += 4) {
		uint32_t u, v;

		memcpy(&u, x + k, 4);
		memcpy(&v, y + k, 4);
		if (a64_without_location(u) != a64_without_location(v))
			return 0;
	}
	return 1;
}

static int by_change(const void *a, const void *b)
{
	const struct ms_diverged *x = a, *y = b;
	double dx = fabs(x->insns[1] - x->insns[0]), dy = fabs(y->insns[1] - y->insns[0]);

	return dx != dy ? (dx < dy) - (dx > dy) : strcmp(x->name, y->name);
}

/* The function of image `to` that is sym of image `from`: the same exact
 * name and, for a static, the same source file. */
static const struct hs_sym *counterpart(const struct hs_image *to, const struct hs_sym *sym)
{
	return sym->file ? hs_sym_in_file(to, sym->name, sym->file) : hs_sym_exact(to, sym->name);
}

/* A row's per-op counts of the function s, as a distribution. */
static struct ms_dist counts_of(const struct ms_row *r, const struct hs_sym *s, struct ms_fn_count *f)
{
	struct ms_dist d = { 0 };
	long k = -1;
	double n = r->nsamples ? r->nsamples : 1;

	for (int i = 0; i < r->nfns && k < 0; i++)
		if (r->fns[i].addr == s->addr)
			k = i;
	memset(f, 0, sizeof(*f));
	f->addr = s->addr;
	f->size = s->size;
	if (k >= 0)
		*f = r->fns[k];
	d.n = r->nsamples;
	d.mean = (double)f->insns / n;
	d.sd = r->nsamples > 1 ? sqrt(fmax(0, (f->ss - n * d.mean * d.mean) / (n - 1))) : 0;
	return d;
}

/* The two images ran the function differently: significantly (sampled),
 * or at all (one draw each). */
static int differs(const struct ms_dist *a, const struct ms_dist *b)
{
	struct ms_welch w;

	if (fabs(b->mean - a->mean) < 1e-9)
		return 0;
	if (ms_welch(a, b, &w))
		return 1;
	return w.p < 0.05 && fabs(w.delta) >= 1.0;
}

/* One function a row ran, beside its counterpart in the other image. */
struct fn_pair {
	int side;			/* 0: the base ran it; 1: the patched did */
	const struct hs_sym *sym;	/* in the image of the row that ran it */
	const struct hs_sym *other;	/* its counterpart; NULL: none */
	struct ms_fn_count fr, fo;	/* counts: the row's, the other row's */
	struct ms_dist dr, dd;		/* ... as distributions */
	int same;			/* same code in both images */
};

/* Every function either row ran (user code has no symbol: skipped), each
 * side's in turn; visit returns 0 to go on. */
static void each_fn(const struct ms_compare *c, const struct ms_pair *p,
		    int (*visit)(const struct fn_pair *, void *), void *ctx)
{
	for (int side = 0; side < 2; side++) {
		const struct ms_row *r = side ? p->patched : p->base, *o = side ? p->base : p->patched;
		const struct hs_image *ir = side ? c->patched->img : c->base->img;
		const struct hs_image *io = side ? c->base->img : c->patched->img;

		for (int i = 0; i < r->nfns; i++) {
			struct fn_pair f = { .side = side };

			f.sym = r->fns[i].addr ? hs_sym_at(ir, r->fns[i].addr) : NULL;
			if (!f.sym)
				continue;
			f.other = counterpart(io, f.sym);
			f.dr = counts_of(r, f.sym, &f.fr);
			if (f.other) {
				f.dd = counts_of(o, f.other, &f.fo);
				f.same = side ? same_code(io, &f.fo, ir, &f.fr) : same_code(ir, &f.fr, io, &f.fo);
			}
			if (visit(&f, ctx))
				return;
		}
	}
}

struct diverged {
	struct ms_diverged *all;
	int n;
	double insns;
};

static int diverged_fn(const struct fn_pair *f, void *ctx)
{
	struct diverged *d = ctx;
	struct ms_diverged *v = &d->all[d->n];

	/* a function both ran is counted from the base side */
	if (!f->other || !f->same || (f->side && f->fo.insns) ||
	    !(f->side ? differs(&f->dd, &f->dr) : differs(&f->dr, &f->dd)))
		return 0;
	snprintf(v->name, sizeof(v->name), "%s", f->sym->name);
	v->insns[0] = f->side ? f->dd.mean : f->dr.mean;
	v->insns[1] = f->side ? f->dr.mean : f->dd.mean;
	d->insns += fabs(v->insns[1] - v->insns[0]);
	d->n++;
	return 0;
}

int ms_pair_diverged(const struct ms_compare *c, const struct ms_pair *p, struct ms_diverged *out, int max,
		     double *insns)
{
	struct diverged d = { 0 };

	*insns = 0;
	if (!c->patched || !ms_pair_ok(c, p) || !p->base->fns || !p->patched->fns)
		return 0;
	if (!(d.all = hs_calloc((size_t)(p->base->nfns + p->patched->nfns), sizeof(*d.all))))
		return -1;
	each_fn(c, p, diverged_fn, &d);
	qsort(d.all, (size_t)d.n, sizeof(*d.all), by_change);
	memcpy(out, d.all, (size_t)(d.n < max ? d.n : max) * sizeof(*out));
	free(d.all);
	*insns = d.insns;
	return d.n;
}

static int touched_fn(const struct fn_pair *f, void *ctx)
{
	*(int *)ctx += !f->same;
	return 0;
}

/* A function either row ran counts as touched when the other image lacks
 * it or has other code for it (same_code). */
int ms_pair_touched(const struct ms_compare *c, const struct ms_pair *p)
{
	int n = 0;

	if (!c->patched || !ms_pair_ok(c, p) || !p->base->fns || !p->patched->fns)
		return -1;
	each_fn(c, p, touched_fn, &n);
	return n;
}
