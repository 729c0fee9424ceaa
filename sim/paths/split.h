/*
 * split.h - what a path definition's sub-row splitter (hs_split_fn,
 * paths.h) reads of a booted run and how it records the parts: the
 * records, their decoded instructions, the image's symbols and memory,
 * and the bookkeeping of out->part_of / out->part_names. The splitters
 * themselves live with their definitions (kernels/paths/).
 */
#ifndef HOTSIM_PATHS_SPLIT_H
#define HOTSIM_PATHS_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/a64.h"
#include "hotsim/image.h"
#include "hotsim/paths.h"

struct hs_runner;

struct hs_split {
	struct hs_runner *r;		/* the run's runner (memory, decode cache) */
	const struct hs_image *img;
	const struct hs_trace *t;
};

static inline uint64_t hs_split_pc(const struct hs_split *s, size_t i)
{
	return hs_trace_pc(s->t, i);
}
const struct a64_insn *hs_split_insn(const struct hs_split *s, size_t i);
/* A 64-bit word of the run's memory at va (as the run left it). */
int hs_split_read64(const struct hs_split *s, uint64_t va, uint64_t *v);
/* The first of a function's names this image has (NULL-terminated list). */
const struct hs_sym *hs_split_sym(const struct hs_split *s, const char *const *names);

/* The first record in [from, end) at pc, or end. */
size_t hs_split_first_at(const struct hs_split *s, size_t from, size_t end, uint64_t pc);
/* The end (exclusive) of the call that starts at record i: the record
 * after the ret that leaves it (tail calls leave through their callee),
 * at most end. */
size_t hs_split_call_end(const struct hs_split *s, size_t i, size_t end);

/* A part by label (added on first use, in the order first used); -1 when
 * the table is full. hs_split_begin() allocates out->part_of (0 when it
 * cannot). */
int hs_split_begin(struct hs_path_run *out);
int hs_split_part(struct hs_path_run *out, const char *label);
/* Records [b, e) belong to part p (p < 0: nothing). */
void hs_split_mark(struct hs_path_run *out, int p, size_t b, size_t e);

#endif
