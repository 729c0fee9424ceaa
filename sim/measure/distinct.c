/*
 * distinct.c - a set of 64-bit values (pcs, data lines), taken sorted.
 *
 * The layout bands split a stream's distinct code and data at their
 * quantiles, and the footprints count them: a machine's streams are
 * millions of records over a few thousand distinct values, so they go
 * through a hash set (linear probing, grown at half full) and only the
 * distinct ones are sorted - sorting every record was a third of a
 * cached machine compare.
 */
#include <stdlib.h>
#include <string.h>

#include "measure_internal.h"

#define FIRST_CAP 4096

static size_t slot(uint64_t x, size_t cap)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

/* 0 marks an empty slot, so 0 itself is a flag */
static int insert(uint64_t *v, size_t cap, uint64_t x)
{
	for (size_t i = slot(x, cap);; i = (i + 1) & (cap - 1)) {
		if (v[i] == x)
			return 0;
		if (!v[i]) {
			v[i] = x;
			return 1;
		}
	}
}

static int grow(struct ms_set *s)
{
	size_t cap = s->cap ? 2 * s->cap : FIRST_CAP;
	uint64_t *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->v[i])
			insert(v, cap, s->v[i]);
	free(s->v);
	s->v = v;
	s->cap = cap;
	return 0;
}

int ms_set_add(struct ms_set *s, uint64_t x)
{
	if (!x) {
		s->zero = 1;
		return 0;
	}
	if (2 * (s->n + 1) > s->cap && grow(s))
		return -1;
	s->n += (size_t)insert(s->v, s->cap, x);
	return 0;
}

uint64_t *ms_set_sorted(struct ms_set *s, size_t *n)
{
	uint64_t *v = s->v;
	size_t k = 0;

	*n = 0;
	if (!v && !(v = malloc(sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < s->cap; i++)	/* in place: k <= i */
		if (v[i])
			v[k++] = v[i];
	if (s->zero)				/* room: the set is at most half full */
		v[k++] = 0;
	qsort(v, k, sizeof(*v), ms_cmp_u64);
	*n = k;
	memset(s, 0, sizeof(*s));
	return v;
}

void ms_set_free(struct ms_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
