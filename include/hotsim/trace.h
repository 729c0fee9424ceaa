/*
 * trace.h - the dynamic instruction stream of one path run: what the runner
 * produces and the cost models consume.
 *
 * Each executed instruction is one record: its address, the data address of
 * its (first) memory access and an index into the static decode cache, where
 * the classified instruction (a64.h) lives once per address. Branch outcome
 * and target follow from the next record's pc. System-register accesses are
 * records whose decoded class is MRS/MSR/SYS; their values are kept as
 * events for reports.
 */
#ifndef HOTSIM_TRACE_H
#define HOTSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/a64.h"

/* record flags */
#define HS_T_STUB	0x01	/* a call whose callee was stubbed: returned at once */
#define HS_T_FIRMWARE	0x02	/* smc/hvc answered by the emulated firmware */
#define HS_T_SYSREG_EMU	0x04	/* sysreg emulated by hotsim (GIC CPU interface...) */
#define HS_T_EXC_ENTRY	0x08	/* first instruction after a (hardware) exception entry */
#define HS_T_REMOTE	0x10	/* its data line was written by another CPU of the
				 * machine since this one last held it (coherence.c) */

/* 16 bytes: a long run's stream is millions of these (fork's on a distro
 * kernel: 5.8 million); the pc is its decode-cache entry's (hs_trace_pc). */
struct hs_tinsn {
	uint64_t addr;		/* first data address accessed, 0 if none */
	uint32_t sidx;		/* index into the decode cache */
	uint32_t flags;		/* HS_T_* */
};

/* Static decode cache: one entry per distinct executed address. */
struct hs_static {
	uint64_t pc;
	struct a64_insn in;
};

struct hs_dcache {
	struct hs_static *v;
	size_t n, cap;
	uint32_t *slots;	/* open addressing: pc -> index+1, 0 empty */
	size_t nslots;
};

struct hs_named_event {
	const char *name;	/* static string or one owned by the image */
	uint64_t addr;
	unsigned count;
};

struct hs_trace {
	struct hs_tinsn *v;
	size_t n, cap;
	size_t limit;		/* hard cap on records (the run fails beyond it) */
	const struct hs_dcache *dc;
	/* what the run touched, for reports (bounded tables) */
	struct hs_named_event stubs[64];
	unsigned nstubs;
	struct { uint16_t enc; uint8_t write; unsigned count; } sysregs[64];
	unsigned nsysregs;
	unsigned firmware_calls;
};

static inline const struct a64_insn *hs_trace_insn(const struct hs_trace *t, size_t i)
{
	return &t->dc->v[t->v[i].sidx].in;
}

/* pc of record i */
static inline uint64_t hs_trace_pc(const struct hs_trace *t, size_t i)
{
	return t->dc->v[t->v[i].sidx].pc;
}

/* pc of the instruction after record i (0 after the last one) */
static inline uint64_t hs_trace_next_pc(const struct hs_trace *t, size_t i)
{
	return i + 1 < t->n ? hs_trace_pc(t, i + 1) : 0;
}

void hs_trace_init(struct hs_trace *t, const struct hs_dcache *dc, size_t limit);
void hs_trace_free(struct hs_trace *t);

/*
 * The lines a machine's CPUs share (coherence.c): feed each CPU's new
 * records t->v[from .. t->n - 1] in the order the machine ran them; every
 * data access whose line another CPU wrote since this CPU last held it is
 * flagged HS_T_REMOTE. Returns how many reads of another CPU's stores the
 * records made that had to wait for them, in rel[] in the order they ran
 * (at most max, else -1): each read of a word another CPU wrote since
 * this CPU held its line that ends a spin-wait (it came shortly after a
 * wfe/yield) or takes a lock (an exclusive or atomic read of a release
 * store); once for each writer, with that writer's latest store to the
 * words read. -1 with hs_errmsg() when out of memory or for a CPU beyond
 * the eighth.
 */
struct hs_release {
	unsigned writer;	/* the CPU whose store was read */
	uint64_t wrote;		/* that store, a record of the writer's */
	uint64_t at;		/* the read, a record of the reader's */
	int spin;		/* it ended a spin-wait that began at... */
	uint64_t spin_from;	/* ...the reader's first wfe/yield of it */
	uint64_t took;		/* a lock's: the writer's own acquire of the word
				 * before that release (its exclusive or atomic
				 * store), a record of the writer's + 1; 0 unknown */
};
struct hs_coherence;
struct hs_coherence *hs_coherence_new(void);
int hs_coherence_note(struct hs_coherence *c, unsigned cpu, struct hs_trace *t, size_t from,
		      struct hs_release *rel, unsigned max);
void hs_coherence_free(struct hs_coherence *c);
/* dst: a copy of src's records and tables (-1 with hs_errmsg, dst empty). */
int hs_trace_copy(struct hs_trace *dst, const struct hs_trace *src);
/* Room for more records; -1 (hs_errmsg) at the cap. */
int hs_trace_grow(struct hs_trace *t);
/* -1 with hs_errmsg() naming the mismatch. */
int hs_trace_bad_push(const struct hs_trace *t, uint64_t pc, uint32_t sidx);

/* -1 (hs_errmsg) when the record cap is reached, or sidx is not pc's
 * entry in t->dc (the record's pc is the entry's). Inline: once per
 * instruction replayed. */
static inline int hs_trace_push(struct hs_trace *t, uint64_t pc, uint32_t sidx)
{
	struct hs_tinsn *v;

	if (t->n == t->cap && hs_trace_grow(t))
		return -1;
	if (!t->dc || sidx >= t->dc->n || t->dc->v[sidx].pc != pc)
		return hs_trace_bad_push(t, pc, sidx);
	v = &t->v[t->n++];
	v->addr = 0;
	v->sidx = sidx;
	v->flags = 0;
	return 0;
}
void hs_trace_note_stub(struct hs_trace *t, const char *name, uint64_t addr);
void hs_trace_note_sysreg(struct hs_trace *t, uint16_t enc, int write);

void hs_dcache_init(struct hs_dcache *dc);
void hs_dcache_free(struct hs_dcache *dc);
/* index of pc's entry, -1 if not decoded yet */
long hs_dcache_find(const struct hs_dcache *dc, uint64_t pc);
/* index of pc's entry, decoding word on first sight; -1 on allocation failure */
long hs_dcache_get(struct hs_dcache *dc, uint64_t pc, uint32_t word);

#endif
