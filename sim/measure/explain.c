/*
 * explain.c - where a path's cycles go, as data for the --explain view:
 * per function (aligned by name across two images, compiler suffixes
 * ignored, so inlined code shows up where it now lives) and per static
 * instruction of one function (like perf annotate). Both are per
 * operation: over the records of the operations the detail counts
 * (typical: every sampled one), divided by their number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/measure.h"

static void base_name(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	buf[strcspn(buf, ".")] = 0;
}

static int fn_index(struct ms_fn_cost *t, int *n, int max, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(t[i].name, name))
			return i;
	if (*n == max)
		return -1;
	memset(&t[*n], 0, sizeof(t[0]));
	snprintf(t[*n].name, sizeof(t[0].name), "%s", name);
	return (*n)++;
}

static void accumulate(struct ms_fn_cost *t, int *n, int max, const struct ms_detail *d, int side)
{
	const struct hs_image *img = d->pt->img;
	double per_op = d->ncount ? 1.0 / d->ncount : 1.0;
	char name[80];

	for (unsigned o = 0; o < d->ncount; o++)
		for (size_t i = d->count[o].begin; i < d->count[o].end; i++) {
			const struct hs_sym *s = hs_sym_at(img, hs_trace_pc(&d->run.tr, i));
			int k;

			base_name(s ? s->name : "?", name, sizeof(name));
			if ((k = fn_index(t, n, max, name)) < 0)
				continue;
			t[k].insns[side] += per_op;
			t[k].cycles[side] += d->per[i].cycles * per_op;
		}
}

double ms_fn_delta(const struct ms_fn_cost *f)
{
	return f->cycles[1] - f->cycles[0];
}

static int by_delta(const void *a, const void *b)
{
	double x = ms_fn_delta(a), y = ms_fn_delta(b);
	double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(((const struct ms_fn_cost *)a)->name, ((const struct ms_fn_cost *)b)->name);
}

static int by_cycles(const void *a, const void *b)
{
	const struct ms_fn_cost *x = a, *y = b;

	if (x->cycles[0] != y->cycles[0])
		return x->cycles[0] > y->cycles[0] ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ms_explain_functions(const struct ms_detail *b, const struct ms_detail *p, struct ms_fn_cost *t,
			 int max)
{
	int n = 0;

	accumulate(t, &n, max, b, 0);
	if (p)
		accumulate(t, &n, max, p, 1);
	qsort(t, (size_t)n, sizeof(t[0]), p ? by_delta : by_cycles);
	return n;
}

/* The stall that cost an instruction most, and how much. */
static const char *main_stall(const struct hs_insn_cost *c, unsigned *cyc)
{
	int best = -1;

	*cyc = 0;
	for (int s = 0; s < HS_NSTALLS; s++)
		if (c->stall[s] > *cyc) {
			*cyc = c->stall[s];
			best = s;
		}
	return best < 0 ? "" : hs_stall_names[best];
}

static int by_pc(const void *a, const void *b)
{
	uint64_t x = ((const struct ms_insn_note *)a)->pc, y = ((const struct ms_insn_note *)b)->pc;

	return (x > y) - (x < y);
}

int ms_annotate(const struct ms_detail *d, const char *fn, struct ms_insn_note *a, int max)
{
	const struct hs_image *img = d->pt->img;
	double per_op = d->ncount ? 1.0 / d->ncount : 1.0;
	char name[80];
	int na = 0;

	for (unsigned o = 0; o < d->ncount; o++)
	for (size_t i = d->count[o].begin; i < d->count[o].end; i++) {
		const struct hs_sym *s = hs_sym_at(img, hs_trace_pc(&d->run.tr, i));
		const char *why;
		unsigned st;
		int k;

		base_name(s ? s->name : "?", name, sizeof(name));
		if (strcmp(name, fn))
			continue;
		for (k = 0; k < na && a[k].pc != hs_trace_pc(&d->run.tr, i); k++)
			;
		if (k == na) {
			if (na == max)
				continue;
			memset(&a[na], 0, sizeof(a[0]));
			a[na].pc = hs_trace_pc(&d->run.tr, i);
			a[na].word = hs_trace_insn(&d->run.tr, i)->word;
			a[na].why = "";
			na++;
		}
		a[k].n += per_op;
		a[k].cycles += d->per[i].cycles * per_op;
		why = main_stall(&d->per[i], &st);
		if (st > a[k].stall) {
			a[k].stall = st;
			a[k].why = why;
		}
	}
	qsort(a, (size_t)na, sizeof(a[0]), by_pc);
	return na;
}
