/*
 * split.c - the helpers sub-row splitters use (split.h).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "emu/runner.h"
#include "paths/split.h"

const struct a64_insn *hs_split_insn(const struct hs_split *s, size_t i)
{
	return &hs_rt_dcache(s->r)->v[s->t->v[i].sidx].in;
}

int hs_split_read64(const struct hs_split *s, uint64_t va, uint64_t *v)
{
	return hs_rt_read64(s->r, va, v);
}

const struct hs_sym *hs_split_sym(const struct hs_split *s, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		const struct hs_sym *f = hs_sym_lookup(s->img, names[i], NULL);

		if (f)
			return f;
	}
	return NULL;
}

size_t hs_split_first_at(const struct hs_split *s, size_t from, size_t end, uint64_t pc)
{
	for (size_t i = from; i < end; i++)
		if (hs_trace_pc(s->t, i) == pc)
			return i;
	return end;
}

size_t hs_split_call_end(const struct hs_split *s, size_t i, size_t end)
{
	int depth = 0;

	for (; i < end; i++) {
		int cls = hs_split_insn(s, i)->cls;

		if (cls == A64_C_CALL || cls == A64_C_CALL_IND)
			depth++;
		else if (cls == A64_C_RET && depth-- == 0)
			return i + 1;
	}
	return end;
}

int hs_split_begin(struct hs_path_run *out)
{
	if (!out->part_of)
		out->part_of = calloc(out->tr.n ? out->tr.n : 1, 1);
	return out->part_of != NULL;
}

int hs_split_part(struct hs_path_run *out, const char *label)
{
	for (unsigned i = 0; i < out->nparts; i++)
		if (!strcmp(out->part_names[i], label))
			return (int)i;
	if (out->nparts >= sizeof(out->part_names) / sizeof(out->part_names[0]))
		return -1;
	snprintf(out->part_names[out->nparts], sizeof(out->part_names[0]), "%s", label);
	return (int)out->nparts++;
}

void hs_split_mark(struct hs_path_run *out, int p, size_t b, size_t e)
{
	for (size_t i = b; i < e && i < out->tr.n && p >= 0; i++)
		out->part_of[i] = (uint8_t)p;
}
