/*
 * liveness.c - which registers code still reads: "is this op's result
 * used" for the scanners (sim/scan/), over an image's patched text.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/a64.h"
#include "scan/scan.h"

/* Which of x0-x7 a function reads before writing them, by entry address
 * (open addressing; computed once per census). */
#define ARGMEMO_SIZE 65536u
struct hs_argmemo {
	uint64_t addr;
	uint8_t state;		/* 0 empty, 2 done */
	uint8_t reads;
};

/*
 * Liveness, for "is the op's result used": the subset of mask (registers
 * x0-x30) read on some path from pc before being written. The walk covers the
 * function (both ways of every conditional branch, each pc once per mask).
 * At a call the caller-saved registers die, and x0-x7 are read as far as the
 * callee's own body reads them before writing (its summary: the same walk
 * from its entry, with calls and indirect jumps inside it reading nothing),
 * so the preempt_schedule() call in an op's preempt_enable() tail does not
 * make a stale x5 look like an argument. ret reads x0. In the op's own
 * function, what the walk cannot see through (indirect branches and calls,
 * the step bound) counts as read: the census calls an op result-less only
 * when it is.
 */
#define LIVE_STEPS 4096
#define ARG_REGS 0xffu
#define CALLER_SAVED 0x7ffffu	/* x0-x18 */

static uint32_t live_subset(const struct hs_scan *s, uint64_t pc, uint32_t mask, int depth);

static struct hs_argmemo *memo_slot(const struct hs_scan *s, uint64_t addr)
{
	uint32_t h = (uint32_t)((addr >> 2) * 2654435761u) % ARGMEMO_SIZE;

	for (uint32_t i = 0; i < ARGMEMO_SIZE; i++) {
		struct hs_argmemo *m = &s->memo[(h + i) % ARGMEMO_SIZE];

		if (!m->state || m->addr == addr)
			return m;
	}
	return NULL;
}

/* x0-x7 of mask that a call of target reads (depth 0: from the op's function) */
static uint32_t callee_reads(const struct hs_scan *s, uint64_t target, uint32_t mask, int depth)
{
	const struct hs_sym *f = hs_sym_at(s->img, target);
	struct hs_argmemo *m;
	struct hs_scan cs;

	mask &= ARG_REGS;
	if (!mask || depth > 0)
		return 0;
	if (!s->memo || !f || f->addr != target || !f->size || f->size > (1u << 16) ||
	    !(m = memo_slot(s, target)))
		return mask;
	if (!m->state) {
		cs = *s;
		cs.lo = f->addr;
		cs.hi = f->addr + f->size;
		m->addr = target;
		m->reads = (uint8_t)live_subset(&cs, target, ARG_REGS, 1);
		m->state = 2;
	}
	return mask & m->reads;
}

/*
 * What a control transfer (a call, a return, an indirect branch, an
 * exception, a tail call) does to the walk: the registers of *m it reads go
 * to *found, those it clobbers leave *m. 1 when the path ends there.
 */
static int live_at_transfer(const struct hs_scan *s, const struct a64_insn *in, uint32_t w,
			    uint32_t *m, uint32_t *found, int depth)
{
	if (in->cls == A64_C_CALL) {
		*found |= callee_reads(s, in->target, *m, depth);
		*m &= ~CALLER_SAVED;
	} else if (in->cls == A64_C_RET) {
		*found |= *m & 1u;
		return 1;
	} else if (in->cls == A64_C_CALL_IND) {
		*found |= depth ? 0 : *m & ARG_REGS;
		*m &= ~CALLER_SAVED;
	} else if (in->cls == A64_C_EXC && a64_is_brk(w)) {
		/* brk: BUG()/WARN() trap; a WARN returns to the next pc */
	} else if (in->cls == A64_C_EXC && a64_is_exc_gen(w)) {
		/* svc/hvc/smc: SMCCC takes arguments in x0-x7 */
		*found |= *m & ARG_REGS;
		*m &= ~CALLER_SAVED;
	} else if (in->cls == A64_C_BR_IND || in->cls == A64_C_ERET || in->cls == A64_C_EXC) {
		*found |= depth ? 0 : *m;
		return 1;
	} else if (in->cls == A64_C_BRANCH &&
		   (in->target < s->lo || in->target >= s->hi)) {
		/* tail call: the callee's reads, then its return */
		*found |= callee_reads(s, in->target, *m, depth) | (*m & 1u);
		return 1;
	}
	return 0;
}

static uint32_t live_subset(const struct hs_scan *s, uint64_t start, uint32_t mask, int depth)
{
	size_t nslots = (size_t)((s->hi - s->lo) / 4);
	uint32_t *seen, found = 0;
	struct { uint64_t pc; uint32_t mask; } *stack;
	size_t sp = 0, steps = 0;

	if (start < s->lo || start >= s->hi)
		return mask;
	seen = calloc(nslots, sizeof(*seen));
	stack = malloc(256 * sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return mask;
	}
	stack[sp].pc = start;
	stack[sp++].mask = mask;
	while (sp && found != mask) {
		uint64_t pc = stack[--sp].pc;
		uint32_t m = stack[sp].mask & ~found;

		while (m) {
			struct a64_insn in;
			size_t slot;
			uint32_t w;

			if (++steps > LIVE_STEPS || pc < s->lo || pc >= s->hi || hs_scan_word(s, pc, &w)) {
				found |= depth ? 0 : m;
				break;
			}
			slot = (size_t)((pc - s->lo) / 4);
			if ((seen[slot] & m) == m)
				break;
			seen[slot] |= m;
			a64_decode(w, pc, &in);
			for (unsigned i = 0; i < in.nsrc; i++)
				if (in.src[i] < 31 && (m & (1u << in.src[i])))
					found |= 1u << in.src[i];
			m &= ~found;
			if (live_at_transfer(s, &in, w, &m, &found, depth))
				break;
			for (unsigned d = 0; d < in.ndst; d++)
				if (in.dst[d] < 31)
					m &= ~(1u << in.dst[d]);
			if (in.cls == A64_C_BCOND && m) {
				if (sp == 256) {
					found |= depth ? 0 : m;
					break;
				}
				stack[sp].pc = in.target;
				stack[sp++].mask = m;
			}
			pc = in.cls == A64_C_BRANCH ? in.target : pc + 4;
		}
	}
	free(seen);
	free(stack);
	return found & mask;
}

int hs_scan_reg_used(const struct hs_scan *s, uint64_t pc, uint32_t mask)
{
	return live_subset(s, pc, mask, 0) != 0;
}

void hs_scan_init(struct hs_scan *s, const struct hs_image *img, const uint8_t *mem)
{
	memset(s, 0, sizeof(*s));
	s->img = img;
	s->mem = mem;
	s->memo = calloc(ARGMEMO_SIZE, sizeof(*s->memo));	/* without it: conservative */
}

void hs_scan_free(struct hs_scan *s)
{
	free(s->memo);
	s->memo = NULL;
}
