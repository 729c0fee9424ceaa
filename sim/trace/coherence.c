/*
 * coherence.c - the lines the CPUs of a machine share (see trace.h,
 * hs_coherence_note): which of a CPU's data accesses find their line last
 * written by another CPU.
 *
 * A directory of every line written in the run, each with the CPUs that
 * hold a valid copy: a write leaves only the writer holding it (the others'
 * copies invalidated, as a MESI-style protocol does), a read adds the
 * reader. An access by a CPU not holding a line another CPU wrote is a
 * coherence miss on real cores - the line is fetched from the writer's
 * cache or the shared level, whatever the reader's own caches held - and
 * is flagged HS_T_REMOTE for the models (cache.c prices it). Lines nobody
 * wrote in the run are not tracked: every core may keep a clean copy.
 *
 * The records are fed in the order the machine ran them; within a turn of
 * one CPU that is program order, and between turns the replay's
 * interleaving (QEMU's round-robin: turns end at a halt, so what a wakee
 * reads was written before the SGI that woke it). Granule: 64 bytes, the
 * line of every modelled core.
 *
 * A spin-wait's end is found here too. A CPU spinning (a load, a compare,
 * a wfe or yield, again: smp_cond_load_*, a lock's wait) runs as many
 * iterations as the emulator's interleaving gave it - a turn ends at each
 * wfe/yield, as QEMU's does - not as many as the modelled time would. The
 * access that ends the spin is the first read, within SPIN_GAP records of
 * a wfe/yield, of a line another CPU wrote: a release (its writer and the
 * record that wrote it), from which the costing (machine_cost.c) waits
 * for that store in the writer's modelled time instead of costing the
 * iterations.
 */
#include <stdlib.h>

#include "hotsim/err.h"
#include "hotsim/trace.h"

#define LINE_SHIFT 6
/* Records from a wfe/yield to the load that reads the spun-on line: the
 * longest of the kernel's waits (__cmpwait's wfe, then the loop's branch
 * back to its load) is under ten */
#define SPIN_GAP 16

struct slot {
	uint64_t line;		/* line number + 1, 0 empty */
	uint64_t wrote;		/* the writer's record that last wrote it */
	uint8_t holders;	/* a bit a CPU */
	uint8_t writer;
};

struct hs_coherence {
	struct slot *v;
	size_t n, cap;		/* cap: a power of two */
	/* per CPU: its latest wfe/yield (record + 1; 0: none since its last
	 * release) and the first of the run of them it ends */
	uint64_t hint[8], spin_from[8];
};

struct hs_coherence *hs_coherence_new(void)
{
	struct hs_coherence *c = calloc(1, sizeof(*c));

	if (c) {
		c->cap = 4096;
		c->v = calloc(c->cap, sizeof(*c->v));
	}
	if (!c || !c->v) {
		hs_coherence_free(c);
		hs_fail("out of memory");
		return NULL;
	}
	return c;
}

void hs_coherence_free(struct hs_coherence *c)
{
	if (c)
		free(c->v);
	free(c);
}

static struct slot *find(struct slot *v, size_t cap, uint64_t line)
{
	size_t i = (size_t)((line * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);

	while (v[i].line && v[i].line != line)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static int grow(struct hs_coherence *c)
{
	size_t cap = c->cap * 2;
	struct slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return hs_fail("out of memory");
	for (size_t i = 0; i < c->cap; i++)
		if (c->v[i].line)
			*find(v, cap, c->v[i].line) = c->v[i];
	free(c->v);
	c->v = v;
	c->cap = cap;
	return 0;
}

/* ldxr reads; stxr, the LSE atomics and every store take the line to write */
static int writes(unsigned cls)
{
	return cls == A64_C_STORE || cls == A64_C_STORE_EX || cls == A64_C_ATOMIC;
}

/* loads, exclusive loads and the atomics read their line */
static int reads(unsigned cls)
{
	return cls != A64_C_STORE && cls != A64_C_STORE_EX;
}

/* A wfe/yield at record i: a spin's first, or the next within SPIN_GAP */
static void hint(struct hs_coherence *c, unsigned cpu, size_t i)
{
	if (!c->hint[cpu] || i + 1 - c->hint[cpu] > SPIN_GAP)
		c->spin_from[cpu] = i;
	c->hint[cpu] = i + 1;
}

int hs_coherence_note(struct hs_coherence *c, unsigned cpu, struct hs_trace *t, size_t from,
		      struct hs_release *rel, unsigned max)
{
	uint8_t me = (uint8_t)(1u << cpu);
	unsigned nrel = 0;

	if (cpu >= 8)
		return hs_fail("coherence: cpu%u (at most 8 CPUs)", cpu);
	for (size_t i = from; i < t->n; i++) {
		const struct a64_insn *in = hs_trace_insn(t, i);
		struct slot *s;
		int w;

		if (a64_is_spin_hint(in->word))
			hint(c, cpu, i);
		if (!t->v[i].addr || in->cls < A64_C_LOAD || in->cls > A64_C_ATOMIC)
			continue;
		w = writes(in->cls);
		s = find(c->v, c->cap, (t->v[i].addr >> LINE_SHIFT) + 1);
		if (!s->line) {
			if (!w)
				continue;
			if ((c->n + 1) * 2 > c->cap) {
				if (grow(c))
					return -1;
				s = find(c->v, c->cap, (t->v[i].addr >> LINE_SHIFT) + 1);
			}
			s->line = (t->v[i].addr >> LINE_SHIFT) + 1;
			s->holders = me;
			s->writer = (uint8_t)cpu;
			s->wrote = i;
			c->n++;
			continue;
		}
		if (!(s->holders & me)) {
			t->v[i].flags |= HS_T_REMOTE;
			/* (the writer is another CPU: a writer holds its line) */
			if (reads(in->cls) && c->hint[cpu] && i + 1 - c->hint[cpu] <= SPIN_GAP) {
				if (nrel < max)
					rel[nrel++] = (struct hs_release){ .writer = s->writer, .wrote = s->wrote,
									   .spin_from = c->spin_from[cpu], .at = i };
				c->hint[cpu] = 0;	/* the spin is over */
			}
		}
		s->holders = w ? me : (uint8_t)(s->holders | me);
		if (w) {
			s->writer = (uint8_t)cpu;
			s->wrote = i;
		}
	}
	return (int)nrel;
}
