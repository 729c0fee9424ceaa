/*
 * diverge.c - different paths through unchanged code. Two images boot to
 * slightly different moments (a patch changes how many instructions boot
 * runs, so the clock and everything timed by it moves), and a path run in
 * each may then take other branches in code the patch never touched: an
 * rbtree of another shape, a timestamp that needs updating in one run and
 * not in the other. Layout noise (--noise) cannot show that; this does.
 *
 * Each whole row keeps how many instructions it ran per function. A
 * function counts as unchanged when it has the same size in both images and
 * the same instructions once the fields that only say where things are
 * (branch and ADR/ADRP offsets, literal loads, the :lo12: immediates of
 * ADD and of unsigned-offset loads and stores) are masked. An unchanged
 * function that ran a different number of instructions took another path
 * through the same code: its state differed, not its code.
 */
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

int ms_profile(const struct hs_image *img, const struct hs_trace *t, struct ms_row *row)
{
	uint64_t *at = hs_calloc(t->n ? t->n : 1, sizeof(*at));
	size_t nf = 0;

	if (!at)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		const struct hs_sym *s = hs_sym_at(img, t->v[i].pc);

		at[i] = s ? s->addr : 0;	/* 0: outside every function (user code) */
	}
	qsort(at, t->n, sizeof(*at), by_addr);
	for (size_t i = 0; i < t->n; i++)
		nf += !i || at[i] != at[i - 1];
	free(row->fns);
	row->nfns = 0;
	if (!(row->fns = hs_calloc(nf ? nf : 1, sizeof(*row->fns)))) {
		free(at);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (!i || at[i] != at[i - 1]) {
			const struct hs_sym *s = at[i] ? hs_sym_at(img, at[i]) : NULL;

			row->fns[row->nfns].addr = at[i];
			row->fns[row->nfns].size = s ? s->size : 0;
			row->nfns++;
		}
		row->fns[row->nfns - 1].insns++;
	}
	free(at);
	return 0;
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
	long long dx = llabs((long long)x->insns[1] - (long long)x->insns[0]);
	long long dy = llabs((long long)y->insns[1] - (long long)y->insns[0]);

	return dx != dy ? (dx < dy) - (dx > dy) : strcmp(x->name, y->name);
}

/* The function of image `to` that is sym of image `from`: the same exact
 * name and, for a static, the same source file. */
static const struct hs_sym *counterpart(const struct hs_image *to, const struct hs_sym *sym)
{
	return sym->file ? hs_sym_in_file(to, sym->name, sym->file) : hs_sym_exact(to, sym->name);
}

/* A row's count for the function at addr (0 when it did not run there). */
static struct ms_fn_count count_of(const struct ms_row *r, const struct hs_sym *s)
{
	struct ms_fn_count f = { s->addr, s->size, 0 };

	for (int k = 0; k < r->nfns; k++)
		if (r->fns[k].addr == s->addr)
			f.insns = r->fns[k].insns;
	return f;
}

int ms_pair_diverged(const struct ms_compare *c, const struct ms_pair *p, struct ms_diverged *out, int max,
		     uint64_t *insns)
{
	struct ms_diverged *all;
	int n = 0;

	*insns = 0;
	if (!c->patched || !ms_pair_ok(c, p) || !p->base->fns || !p->patched->fns)
		return 0;
	if (!(all = hs_calloc((size_t)(p->base->nfns + p->patched->nfns), sizeof(*all))))
		return -1;
	/* side 0: functions the base ran; side 1: those only the patched ran */
	for (int side = 0; side < 2; side++) {
		const struct ms_row *r = side ? p->patched : p->base, *o = side ? p->base : p->patched;
		const struct hs_image *ir = side ? c->patched->img : c->base->img;
		const struct hs_image *io = side ? c->base->img : c->patched->img;

		for (int i = 0; i < r->nfns; i++) {
			const struct hs_sym *s = r->fns[i].addr ? hs_sym_at(ir, r->fns[i].addr) : NULL;
			const struct hs_sym *t = s ? counterpart(io, s) : NULL;
			struct ms_fn_count other;
			uint64_t a, b;

			if (!t)
				continue;
			other = count_of(o, t);
			if (side && other.insns)
				continue;	/* counted from the base side */
			if (other.insns == r->fns[i].insns ||
			    !(side ? same_code(io, &other, ir, &r->fns[i]) : same_code(ir, &r->fns[i], io, &other)))
				continue;
			a = side ? other.insns : r->fns[i].insns;
			b = side ? r->fns[i].insns : other.insns;
			*insns += a > b ? a - b : b - a;
			snprintf(all[n].name, sizeof(all[n].name), "%s", s->name);
			all[n].insns[0] = a;
			all[n].insns[1] = b;
			n++;
		}
	}
	qsort(all, (size_t)n, sizeof(*all), by_change);
	memcpy(out, all, (size_t)(n < max ? n : max) * sizeof(*out));
	free(all);
	return n;
}
