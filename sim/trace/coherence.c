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
 * is flagged HS_T_REMOTE for the models (cache.c prices it: peer_latency,
 * the handover measured between two cores). Lines nobody
 * wrote in the run are not tracked: every core may keep a clean copy.
 *
 * The records are fed in the order the machine ran them; within a turn of
 * one CPU that is program order, and between turns the replay's
 * interleaving (QEMU's round-robin: turns end at a halt, so what a wakee
 * reads was written before the SGI that woke it). Granule: 64 bytes, the
 * line of every modelled core.
 *
 * The reads that had to wait for another CPU's store are found too, with
 * the store each read (its writer and record): the costing
 * (machine_cost.c) holds the reader there when the writer's clock is
 * later, whichever order the emulator's turns ran them in. Two kinds:
 * - a spin's end: a read shortly after a wfe/yield (within SPIN_GAP
 *   records; smp_cond_load_*, a lock's wait). The spinner ran as many
 *   iterations as the interleaving gave it - a turn ends at each
 *   wfe/yield, as QEMU's does - not as many as the modelled time would,
 *   so the costing leaves them out;
 * - a lock handed over: an exclusive or atomic read (the acquire's
 *   cmpxchg) of a word another CPU's release store wrote (the unlock's
 *   stlr). Had it come first, it would have found the lock held and spun
 *   until that store, then gone on the same way.
 * Other reads of another CPU's stores do not wait: a read that found the
 * old value might have gone another way - try_to_wake_up() that finds
 * p->on_cpu still set queues the wakeup on that CPU instead of waiting -
 * and the data a lock guards is ordered by the lock's own pair. Words are
 * 4 bytes, each with its last store: a read of another word of a line
 * another CPU wrote is a coherence miss, not a wait.
 */
#include <stdlib.h>

#include "hotsim/err.h"
#include "hotsim/trace.h"

#define LINE_SHIFT 6
/* Records from a wfe/yield to the load that reads the spun-on line: the
 * longest of the kernel's waits (__cmpwait's wfe, then the loop's branch
 * back to its load) is under ten */
#define SPIN_GAP 16

#define WORDS 16	/* of 4 bytes, a line: a lock word and the count beside
			 * it (a runqueue's lock and nr_running) are two */

struct slot {
	uint64_t line;		/* line number + 1, 0 empty */
	uint64_t wrote[WORDS];	/* each word's last store, a record of its writer */
	uint8_t writer[WORDS];	/* its CPU + 1, 0 none */
	uint8_t sync[WORDS];	/* it was a release store: an unlock */
	uint8_t seen[WORDS];	/* the CPUs that read or wrote it since, a bit each */
	uint64_t took[WORDS];	/* its last exclusive or atomic store (a lock's
				 * acquire), record + 1, by... */
	uint8_t took_by[WORDS];	/* ...this CPU + 1 */
	uint8_t holders;	/* a bit a CPU */
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

/* an unlock: a release store (stlr, not a store-exclusive) */
static int unlocks(const struct a64_insn *in)
{
	return in->cls == A64_C_STORE && (in->flags & A64_F_REL);
}

/* a lock's acquire: its exclusive or atomic read */
static int acquires(const struct a64_insn *in)
{
	return in->cls == A64_C_LOAD_EX || in->cls == A64_C_ATOMIC;
}

/* The words of s that [addr, addr + size) covers: first and last */
static void words(uint64_t addr, unsigned size, unsigned *lo, unsigned *hi)
{
	*lo = (unsigned)(addr >> 2) & (WORDS - 1);
	*hi = (unsigned)((addr + (size ? size : 1) - 1) >> 2) & (WORDS - 1);
	if (*hi < *lo || (addr + (size ? size : 1) - 1) >> LINE_SHIFT != addr >> LINE_SHIFT)
		*hi = WORDS - 1;	/* to the line's end: the rest is the next line's */
}

static void wrote(struct slot *s, unsigned cpu, const struct a64_insn *in, uint64_t addr, size_t i)
{
	unsigned lo, hi;

	words(addr, in->mem_size, &lo, &hi);
	for (unsigned k = lo; k <= hi; k++) {
		s->writer[k] = (uint8_t)(cpu + 1);
		s->wrote[k] = i;
		s->sync[k] = (uint8_t)unlocks(in);
		s->seen[k] = (uint8_t)(1u << cpu);
		if (in->cls != A64_C_STORE) {
			s->took[k] = i + 1;
			s->took_by[k] = (uint8_t)(cpu + 1);
		}
	}
}

/* The writer's own acquire of word k before its release: record + 1, 0
 * when another CPU (or nobody) took it last */
static uint64_t took(const struct slot *s, unsigned k)
{
	return s->took_by[k] == s->writer[k] ? s->took[k] : 0;
}

/* CPU cpu's read at record i of words of s other CPUs wrote that it has
 * not read since: the latest store of each such writer, where the read
 * ends a spin (a wfe/yield just before) or takes a lock (an unlock's) */
static int read_of(struct hs_coherence *c, unsigned cpu, struct slot *s, const struct a64_insn *in,
		   uint64_t addr, size_t i, struct hs_release *rel, unsigned max, unsigned *nrel)
{
	unsigned lo, hi, first = *nrel;
	int spin = c->hint[cpu] && i + 1 - c->hint[cpu] <= SPIN_GAP;

	words(addr, in->mem_size, &lo, &hi);
	for (unsigned k = lo; k <= hi; k++) {
		unsigned j = first;
		int news = s->writer[k] && !(s->seen[k] & 1u << cpu);

		s->seen[k] |= (uint8_t)(1u << cpu);
		if (!news || !(spin || (acquires(in) && s->sync[k])))
			continue;
		while (j < *nrel && rel[j].writer != s->writer[k] - 1u)
			j++;
		if (j < *nrel) {
			if (s->wrote[k] > rel[j].wrote) {
				rel[j].wrote = s->wrote[k];
				rel[j].took = spin ? 0 : took(s, k);
			}
			continue;
		}
		if (*nrel == max)
			return hs_fail("coherence: more than %u reads of another CPU's stores in one turn", max);
		rel[(*nrel)++] = (struct hs_release){ .writer = s->writer[k] - 1u, .wrote = s->wrote[k], .at = i,
						      .spin = spin, .spin_from = spin ? c->spin_from[cpu] : 0,
						      .took = spin ? 0 : took(s, k) };
	}
	if (spin && *nrel > first)
		c->hint[cpu] = 0;	/* the spin is over */
	return 0;
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
			c->n++;
		} else if (!(s->holders & me)) {
			t->v[i].flags |= HS_T_REMOTE;
		}
		if (reads(in->cls) && read_of(c, cpu, s, in, t->v[i].addr, i, rel, max, &nrel))
			return -1;
		if (w)
			wrote(s, cpu, in, t->v[i].addr, i);
		s->holders = w ? me : (uint8_t)(s->holders | me);
	}
	return (int)nrel;
}
