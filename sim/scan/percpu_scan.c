/*
 * percpu_scan.c - find and classify this_cpu_*() sites in patched text
 * (see percpu.h for the shape of a site).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/percpu.h"
#include "scan/scan.h"

const char *const hs_pcpu_kind_names[HS_PCPU_NKINDS] = {
	"read", "write", "add", "add_return", "xchg", "cmpxchg", "ptr"
};

#define MRS_TPIDR_EL1(w) a64_is_mrs_tpidr_el1(w)
#define MRS_SP_EL0(w)	 a64_is_mrs_sp_el0(w)
#define FWD_LIMIT 28
#define BACK_LIMIT 10

#define rn a64_rn
#define rt a64_rt

/* LSE: cas*, swp*, ld<op>* / st<op>*; pc is the instruction's address */
static int lse_kind(const struct hs_scan *s, uint64_t pc, uint32_t w)
{
	uint32_t nw;

	if (a64_is_lse_cas(w))
		return HS_PCPU_CMPXCHG;
	if (a64_is_lse_swp(w))
		return HS_PCPU_XCHG;
	if (!a64_is_lse_ldop(w))
		return -1;
	/* ld<op>: the old value lands in Rt; an op whose result nobody reads
	 * is this_cpu_add() however it is encoded (7.x uses ldadd for both).
	 * The _return variant turns the old value into the new one with
	 * "add Rt, Rt, Rs" right after: that belongs to the op, not a use. */
	if (rt(w) == 31)
		return HS_PCPU_ADD;
	if (!hs_scan_word(s, pc + 4, &nw) && a64_is_add_reg(nw) &&
	    rt(nw) == rt(w) && rn(nw) == rt(w) && a64_rm(nw) == a64_rm(w))
		pc += 4;
	return hs_scan_reg_used(s, pc + 4, 1u << rt(w)) ? HS_PCPU_ADD_RETURN : HS_PCPU_ADD;
}

/* Next pc in execution order from pc: follows "b", stops (0) at anything
 * that leaves the function or the fall-through path (calls, returns,
 * indirect branches, branches out of the function). */
static uint64_t next_pc(const struct hs_scan *s, uint64_t pc, const struct a64_insn *in)
{
	if (in->cls == A64_C_BRANCH)
		return (in->target >= s->lo && in->target < s->hi) ? in->target : 0;
	if (in->cls == A64_C_CALL || in->cls == A64_C_CALL_IND || in->cls == A64_C_BR_IND ||
	    in->cls == A64_C_RET || in->cls == A64_C_ERET || in->cls == A64_C_EXC)
		return 0;
	return pc + 4 < s->hi ? pc + 4 : 0;
}

static int push(struct hs_pcpu_site *site, uint64_t pc)
{
	if (site->n >= HS_PCPU_MAX_WINDOW)
		return -1;
	site->pcs[site->n++] = pc;
	return 0;
}

/*
 * LL/SC loop from the exclusive load at pc: classify and extend the window
 * through the store-exclusive and its retry branch.
 */
static int llsc(const struct hs_scan *s, struct hs_pcpu_site *site, uint64_t pc, unsigned addr_reg)
{
	int compare = 0, arith = 0;
	unsigned loaded = 31;
	struct a64_insn in;
	uint32_t w;

	for (int i = 0; i < 8 && pc; i++) {
		if (hs_scan_word(s, pc, &w) || push(site, pc))
			return -1;
		a64_decode(w, pc, &in);
		if (in.cls == A64_C_LOAD_EX && rn(w) == addr_reg) {
			loaded = rt(w);
		} else if (in.cls == A64_C_STORE_EX) {
			unsigned stored = rt(w);	/* stxr ws, xt, [xn]: the new value */

			/* the retry branch follows */
			pc += 4;
			if (hs_scan_word(s, pc, &w) || push(site, pc))
				return -1;
			site->kind = compare ? HS_PCPU_CMPXCHG : arith ? HS_PCPU_ADD : HS_PCPU_XCHG;
			/* an add whose old or new value is read after the loop:
			 * add_return */
			if (site->kind == HS_PCPU_ADD && stored < 31 &&
			    hs_scan_reg_used(s, pc + 4, (loaded < 31 ? 1u << loaded : 0) | 1u << stored))
				site->kind = HS_PCPU_ADD_RETURN;
			return 0;
		} else if (in.cls == A64_C_BCOND || (in.flags & A64_F_SETFLAGS) ||
			   a64_is_eor_reg(w)) {
			/* cmp/eor + cbnz: compare-and-exchange */
			compare |= in.cls == A64_C_BCOND || a64_is_eor_reg(w);
		} else if (in.cls == A64_C_ALU || in.cls == A64_C_ALU_SHIFT) {
			arith = 1;
		}
		pc += 4;
	}
	return -1;
}

/* preempt_count_add(1) before the mrs: mrs xT, sp_el0; ldr wK, [xT, #off];
 * add wK, wK, #1; str wK, [xT, #off]. Returns the start pc or 0. */
static uint64_t wrapper_before(const struct hs_scan *s, uint64_t mrs, uint32_t *off)
{
	for (uint64_t pc = mrs - 4; pc >= s->lo && pc + 4 * BACK_LIMIT >= mrs; pc -= 4) {
		uint32_t w, w1, w2, w3;

		if (hs_scan_word(s, pc, &w) || !MRS_SP_EL0(w))
			continue;
		/* the three instructions may be interleaved with others */
		for (uint64_t a = pc + 4; a < mrs; a += 4) {
			if (hs_scan_word(s, a, &w1) || !a64_is_ldr_w_uimm(w1) || rn(w1) != rt(w))
				continue;
			for (uint64_t b = a + 4; b < mrs; b += 4) {
				if (hs_scan_word(s, b, &w2) || !a64_is_add_w_1(w2) ||
				    rn(w2) != rt(w1))
					continue;
				for (uint64_t c = b + 4; c < mrs; c += 4)
					if (!hs_scan_word(s, c, &w3) && a64_is_str_w_uimm(w3) &&
					    rn(w3) == rt(w) && a64_uimm12(w3) == a64_uimm12(w1)) {
						*off = a64_uimm12(w1) * 4;
						return pc;
					}
			}
		}
	}
	return 0;
}

/* After the op: the preempt_count decrement and its test, through a
 * register that came from sp_el0. Extends the window; 1 if found. The
 * this_cpu wrapper (_pcp_protect*) is straight-line: a conditional branch
 * before the decrement means the pair is some other preempt_disable()
 * section (local_lock() around a this_cpu_ptr() loop...), not an op's
 * wrapper. */
static int wrapper_after(const struct hs_scan *s, struct hs_pcpu_site *site, uint64_t pc, uint32_t off)
{
	uint64_t start_n = site->n;
	struct a64_insn in;
	uint32_t w;

	for (int i = 0; i < 14 && pc; i++) {
		if (hs_scan_word(s, pc, &w) || push(site, pc))
			break;
		a64_decode(w, pc, &in);
		if (in.cls == A64_C_BCOND)
			break;
		/* str wK, [xT, #off]: the decremented count written back */
		if (a64_is_str_w_uimm(w) && a64_uimm12(w) * 4 == off) {
			/* then the test: cbz/cbnz (and a reload) */
			for (int k = 0; k < 3; k++) {
				uint64_t npc = pc + 4 * (k + 1);

				if (hs_scan_word(s, npc, &w))
					break;
				a64_decode(w, npc, &in);
				if (in.cls != A64_C_BCOND && in.cls != A64_C_LOAD)
					break;
				push(site, npc);
				if (in.cls == A64_C_BCOND && k > 0)
					break;
			}
			return 1;
		}
		pc = next_pc(s, pc, &in);
	}
	site->n = (uint8_t)start_n;
	return 0;
}

/*
 * The forward walk from the mrs to the op: the register the per-CPU offset
 * was read into, the registers holding offset + base once an add has formed
 * the address, and the pc.
 */
struct fwd {
	uint64_t mrs, pc;
	unsigned pcpu_reg;
	uint32_t addr;
};

/* One instruction of the walk: go on to the next pc, the walk is over, or
 * the window cannot be read or is full. */
enum fwd_step { FWD_ON, FWD_END, FWD_FAIL };

/* The op is the instruction at f->pc; the walk ends after it. */
static enum fwd_step op_found(const struct hs_scan *s, struct hs_pcpu_site *site, struct fwd *f,
			      const struct a64_insn *in, int kind)
{
	site->op = f->pc;
	site->kind = (uint8_t)kind;
	f->pc = next_pc(s, f->pc, in);
	return FWD_END;
}

/* The first reader of the per-CPU offset: a register-offset load or store
 * is the op itself, an add forms the address; anything else makes the
 * offset a per-CPU pointer. */
static enum fwd_step offset_read(const struct hs_scan *s, struct hs_pcpu_site *site, struct fwd *f,
				 const struct a64_insn *in, uint32_t w)
{
	if ((in->cls == A64_C_LOAD || in->cls == A64_C_STORE) && (in->flags & A64_F_REGOFF)) {
		site->base_reg = (uint8_t)(rn(w) == f->pcpu_reg ? a64_rm(w) : rn(w));
		return op_found(s, site, f, in, in->cls == A64_C_LOAD ? HS_PCPU_READ : HS_PCPU_WRITE);
	}
	if (in->cls == A64_C_ALU && in->ndst == 1 && in->nsrc == 2 && in->dst[0] < 31) {
		f->addr = 1u << in->dst[0];
		site->base_reg = in->src[0] == f->pcpu_reg ? in->src[1] : in->src[0];
		return FWD_ON;
	}
	return FWD_END;	/* used some other way: a per-CPU pointer */
}

/* A reader of the address: a copy of it, a prefetch, or the op (a load or
 * store through it, an LSE atomic); anything else ends the walk. */
static enum fwd_step address_read(const struct hs_scan *s, struct hs_pcpu_site *site, struct fwd *f,
				  const struct a64_insn *in, uint32_t w)
{
	int k = in->cls == A64_C_ATOMIC ? lse_kind(s, f->pc, w) : -1;

	if (a64_is_mov_reg(w) && rt(w) != 31) {
		/* mov xd, xa: the address is in another register too
		 * (the LSE helpers pin their operands) */
		f->addr |= 1u << rt(w);
		return FWD_ON;
	}
	if (in->cls == A64_C_PRFM)
		return FWD_ON;	/* prfm pstl1strm before an LL/SC loop */
	if ((in->cls == A64_C_LOAD || in->cls == A64_C_STORE) && (f->addr & (1u << rn(w))))
		return op_found(s, site, f, in, in->cls == A64_C_LOAD ? HS_PCPU_READ : HS_PCPU_WRITE);
	if (k >= 0)
		return op_found(s, site, f, in, k);
	return FWD_END;
}

/* The instruction at f->pc: the LL/SC loop, a reader of the offset or of
 * the address, or one that overwrites them. */
static enum fwd_step fwd_step(const struct hs_scan *s, struct hs_pcpu_site *site, struct fwd *f)
{
	enum fwd_step st = FWD_ON;
	struct a64_insn in;
	uint32_t w;

	if (hs_scan_word(s, f->pc, &w))
		return FWD_FAIL;
	a64_decode(w, f->pc, &in);
	if (in.cls == A64_C_LOAD_EX && (f->addr & (1u << rn(w)))) {
		/* an LL/SC loop on the address: the op, through its retry branch */
		site->op = f->pc;
		if (llsc(s, site, f->pc, rn(w)))
			return FWD_FAIL;
		f->pc = site->pcs[site->n - 1] + 4;
		return FWD_END;
	}
	if (push(site, f->pc))
		return FWD_FAIL;
	if (!f->addr && hs_insn_reads(&in, f->pcpu_reg) && f->pc != f->mrs) {
		st = offset_read(s, site, f, &in, w);
	} else if (f->addr && hs_insn_reads_any(&in, f->addr)) {
		st = address_read(s, site, f, &in, w);
	} else if (f->addr) {
		/* an unrelated instruction overwriting an address copy */
		for (unsigned d = 0; d < in.ndst; d++)
			if (in.dst[d] < 31)
				f->addr &= ~(1u << in.dst[d]);
		if (!f->addr)
			return FWD_END;
	}
	if (st != FWD_ON)
		return st;
	if (!f->addr && hs_insn_writes(&in, f->pcpu_reg) && f->pc != f->mrs)
		return FWD_END;
	f->pc = next_pc(s, f->pc, &in);
	return FWD_ON;
}

/* The window after the walk: a ptr site keeps only its mrs; an op keeps the
 * preempt_count_add() before it only when the matching decrement follows. */
static void close_window(const struct hs_scan *s, struct hs_pcpu_site *site, uint64_t start,
			 uint64_t pc, uint32_t off)
{
	if (site->kind == HS_PCPU_PTR) {
		/* keep ptr sites short: the mrs and the address formation */
		site->n = 0;
		push(site, site->mrs);
		return;
	}
	if (start && pc && wrapper_after(s, site, pc, off))
		site->wrapped = 1;
	else if (start) {
		/* no matching preempt_enable: not a wrapped op, drop the prefix */
		size_t skip = (site->mrs - start) / 4;

		memmove(site->pcs, site->pcs + skip, (site->n - skip) * sizeof(site->pcs[0]));
		site->n = (uint8_t)(site->n - skip);
	}
}

/* The site of the mrs tpidr_el1 at mrs: its op, kind and window; -1 when
 * the window cannot be read or outgrows HS_PCPU_MAX_WINDOW. */
static int classify(const struct hs_scan *s, uint64_t mrs, struct hs_pcpu_site *site)
{
	struct fwd f = { .mrs = mrs, .pc = mrs };
	uint32_t w, off = 0;
	uint64_t start;

	memset(site, 0, sizeof(*site));
	site->mrs = mrs;
	site->kind = HS_PCPU_PTR;
	hs_scan_word(s, mrs, &w);
	f.pcpu_reg = rt(w);
	start = wrapper_before(s, mrs, &off);
	for (uint64_t pc = start ? start : mrs; pc < mrs; pc += 4)
		push(site, pc);
	for (int i = 0; i < FWD_LIMIT && f.pc; i++) {
		enum fwd_step st = fwd_step(s, site, &f);

		if (st == FWD_FAIL)
			return -1;
		if (st == FWD_END)
			break;
	}
	close_window(s, site, start, f.pc, off);
	return 0;
}

int hs_pcpu_scan(const struct hs_image *img, const uint8_t *mem, struct hs_pcpu_census *c)
{
	struct hs_scan s;

	memset(c, 0, sizeof(*c));
	hs_scan_init(&s, img, mem);
	for (size_t i = 0; i < img->nsyms; i++) {
		const struct hs_sym *f = &img->syms[i];

		if (f->type != STT_FUNC || !f->size || f->addr < img->text_start ||
		    f->addr + f->size > img->text_end || f->size > (1u << 20))
			continue;
		s.lo = f->addr;
		s.hi = f->addr + f->size;
		for (uint64_t pc = f->addr; pc < s.hi; pc += 4) {
			struct hs_pcpu_site site;
			uint32_t w;

			if (hs_scan_word(&s, pc, &w) || !MRS_TPIDR_EL1(w))
				continue;
			if (classify(&s, pc, &site)) {
				c->unclassified++;
				continue;
			}
			if (c->n == c->cap) {
				size_t nc = c->cap ? 2 * c->cap : 256;
				struct hs_pcpu_site *nv = hs_realloc(c->v, nc * sizeof(*nv));

				if (!nv) {
					hs_scan_free(&s);
					return -1;
				}
				c->v = nv;
				c->cap = nc;
			}
			c->v[c->n++] = site;
			c->count[site.kind][site.wrapped]++;
		}
	}
	hs_scan_free(&s);
	return 0;
}

void hs_pcpu_census_free(struct hs_pcpu_census *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/*
 * The same representative in two images of one kernel: the site in the
 * function whose name sorts first (then the lowest address), so a patch
 * elsewhere does not change which site a kind is measured on.
 */
const struct hs_pcpu_site *hs_pcpu_pick(const struct hs_image *img, const struct hs_pcpu_census *c,
					enum hs_pcpu_kind kind, int want_wrapped)
{
	const struct hs_pcpu_site *best = NULL;
	const char *best_name = NULL;

	for (int pass = 0; pass < 2 && !best; pass++)
		for (size_t i = 0; i < c->n; i++) {
			const struct hs_pcpu_site *s = &c->v[i];
			const struct hs_sym *f;
			const char *name;
			int cmp;

			if (s->kind != kind || (pass == 0 && s->wrapped != want_wrapped))
				continue;
			f = hs_sym_at(img, s->mrs);
			name = f ? f->name : "";
			cmp = best ? strcmp(name, best_name) : -1;
			if (cmp < 0 || (cmp == 0 && s->mrs < best->mrs)) {
				best = s;
				best_name = name;
			}
		}
	return best;
}

const struct hs_pcpu_site *hs_pcpu_in_function(const struct hs_image *img,
					       const struct hs_pcpu_census *c,
					       enum hs_pcpu_kind kind, const char *fn)
{
	const struct hs_pcpu_site *best = NULL;
	size_t len = strlen(fn);

	for (size_t i = 0; i < c->n; i++) {
		const struct hs_pcpu_site *s = &c->v[i];
		const struct hs_sym *f;

		if (s->kind != kind || !(f = hs_sym_at(img, s->mrs)) || strncmp(f->name, fn, len) ||
		    (f->name[len] && f->name[len] != '.'))
			continue;
		if (!best || (s->wrapped && !best->wrapped) ||
		    (s->wrapped == best->wrapped && s->mrs < best->mrs))
			best = s;
	}
	return best;
}

/*
 * A site's window as trace records, in execution order: the preempt check
 * not taken, one LL/SC iteration (no contention on one CPU), which is what
 * the emulator would produce. The op's data address is the per-CPU slot;
 * the other accesses of a window are the preempt_count updates through
 * current's thread_info, given the task's address.
 */
int hs_pcpu_site_trace(const struct hs_image *img, const uint8_t *mem, const struct hs_pcpu_site *s,
		       struct hs_dcache *dc, struct hs_trace *t, uint64_t slot, uint64_t task)
{
	for (unsigned i = 0; i < s->n; i++) {
		uint32_t w = 0;
		long idx;

		if (hs_read32(img, mem, s->pcs[i], &w))
			return hs_fail("%s: this_cpu site 0x%llx outside the image", img->path,
				       (unsigned long long)s->pcs[i]);
		idx = hs_dcache_get(dc, s->pcs[i], w);
		if (idx < 0 || hs_trace_push(t, s->pcs[i], (uint32_t)idx))
			return -1;
		if (a64_is_mem(dc->v[idx].in.cls) && dc->v[idx].in.cls != A64_C_PRFM)
			t->v[t->n - 1].addr = s->pcs[i] == s->op ? slot : task;
		else if (dc->v[idx].in.cls == A64_C_PRFM)
			t->v[t->n - 1].addr = slot;
	}
	return 0;
}
