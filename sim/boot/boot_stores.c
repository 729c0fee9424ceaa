/*
 * boot_stores.c - the value a variable gets at boot, read from the stores
 * the image's own code makes to it, so that a kernel's variable (the root
 * IRQ handler's pointer, a runtime constant's) is known whatever it is
 * called: boot_values.c and runtime_const.c ask. And the other way round,
 * the variables a function stores one of its arguments to (where
 * set_handle_irq() keeps the handler it is given).
 *
 * A linear scan of every function follows the addresses adrp/add (and
 * mov) put in registers; a 64-bit str of a register holding a function's
 * address to the variable is a candidate value, and a str of an argument
 * register the function has not written yet (set_handle_irq(handler):
 * the handler is its caller's) makes each bl to that function with an
 * address in that register a candidate. Control flow is followed only so
 * far: what a register holds survives a branch in the scan, and code after
 * an early return starts from what a forward branch to it had. The candidates
 * are checked to be functions of the image, and when several remain (one
 * per irqchip driver built in), the one in a driver of hotsim's platform,
 * QEMU's virt machine (its GICv3, its arch timer), is the boot's.
 */
#include <stdio.h>
#include <string.h>

#include "a64/encode.h"
#include "boot/boot_values.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"

#define MAX_CANDIDATES 16
#define MAX_JOINS 32
#define STT_FUNC_ 2

/* The platform's drivers: the candidate boot picks when it has several. */
static const char *const platform_files[] = { "irq-gic-v3.c", "arm_arch_timer.c" };

struct scan {
	const struct hs_image *img;
	uint8_t *mem;
	uint64_t var;
	int collect;			/* >= 0: collect where argument x<collect> is stored */
	uint64_t cand[MAX_CANDIDATES];
	uint64_t cand_from[MAX_CANDIDATES];	/* the function whose code gives it */
	unsigned ncand;
	uint64_t arg_fn[MAX_CANDIDATES];	/* functions storing an argument to var */
	uint8_t arg_reg[MAX_CANDIDATES];
	unsigned nargs;
};

struct regs {
	uint64_t v[31];
	uint32_t known;		/* bit n: x<n> holds v[n] */
	uint32_t written;	/* bit n: x<n> written since the function's entry */
	int8_t arg[31];		/* x<n> holds the function's argument x<arg[n]> (-1: not) */
};

static void add_cand(struct scan *s, uint64_t v, uint64_t from)
{
	for (unsigned i = 0; i < s->ncand; i++)
		if (s->cand[i] == v)
			return;
	if (s->ncand < MAX_CANDIDATES) {
		s->cand_from[s->ncand] = from;
		s->cand[s->ncand++] = v;
	}
}

/* What one instruction (w, decoded in) does to the tracked registers
 * (and to var). */
static void step(struct scan *s, struct regs *r, uint64_t fn, uint32_t w, const struct a64_insn *in, int pass)
{
	unsigned d = a64_rt(w), n = a64_rn(w);

	if (pass == 0 && a64_is_str_x_uimm(w) && n < 31 && (r->known >> n & 1) && d < 31) {
		uint64_t at = r->v[n] + a64_uimm12(w) * 8;

		if (s->collect >= 0) {
			if (r->arg[d] == s->collect)
				add_cand(s, at, fn);
		} else if (at == s->var && (r->known >> d & 1)) {
			add_cand(s, r->v[d], fn);
		} else if (at == s->var && r->arg[d] >= 0 && s->nargs < MAX_CANDIDATES) {
			s->arg_fn[s->nargs] = fn;
			s->arg_reg[s->nargs++] = (uint8_t)r->arg[d];
		}
	}
	if (pass == 1 && a64_is_bl(w))
		for (unsigned i = 0; i < s->nargs; i++)
			if (in->target == s->arg_fn[i] && (r->known >> s->arg_reg[i] & 1))
				add_cand(s, r->v[s->arg_reg[i]], fn);
	/* what the instruction leaves in Xd, from its sources before it
	 * writes (add x0, x0, #lo12 reads what it overwrites) */
	int known = 0;
	uint64_t val = 0;
	/* mov Xd, Xm of an argument: Xd holds it too (set_handle_irq keeps
	 * its handler in a callee-saved register) */
	int8_t moved = a64_is_mov_reg(w) && a64_rm(w) < 31 ? r->arg[a64_rm(w)] : -1;

	if (a64_is_adrp(w) && d < 31) {
		known = 1, val = in->target;
	} else if (a64_is_add_x_imm(w) && d < 31 && n < 31 && (r->known >> n & 1)) {
		known = 1, val = r->v[n] + a64_add_imm(w);
	} else if (a64_is_mov_reg(w) && a64_rm(w) < 31 && (r->known >> a64_rm(w) & 1)) {
		known = 1, val = r->v[a64_rm(w)];
	}
	for (unsigned k = 0; k < in->ndst; k++)
		if (in->dst[k] < 31) {
			r->known &= ~(1u << in->dst[k]);
			r->written |= 1u << in->dst[k];
			r->arg[in->dst[k]] = -1;
		}
	if (in->cls == A64_C_CALL || in->cls == A64_C_CALL_IND) {
		r->known &= ~0x7ffffu;	/* x0..x18: the callee's */
		for (unsigned k = 0; k < 19; k++)
			r->arg[k] = -1;
	}
	if (moved >= 0 && d < 31)
		r->arg[d] = moved;
	if (known) {
		r->v[d] = val;
		r->known |= 1u << d;
	}
}

/* Could f matter to this pass? Cheap word tests first (an image has
 * millions of instructions, a few of which mention var): pass 0, an adrp
 * of var's page; pass 1, a bl to a function that stores an argument. */
static int relevant(const struct scan *s, const struct hs_sym *f, int pass)
{
	for (uint64_t pc = f->addr; pc + 4 <= f->addr + f->size; pc += 4) {
		const uint8_t *p = hs_at(s->img, s->mem, pc, 4);
		int64_t off;
		uint32_t w;

		if (!p)
			return 0;
		memcpy(&w, p, 4);
		if (pass == 0 && a64_adrp_offset(w, &off) && (pc & ~0xfffULL) + (uint64_t)off == (s->var & ~0xfffULL))
			return 1;
		if (pass == 1 && a64_is_bl(w) && a64_branch_imm_offset(w, &off))
			for (unsigned i = 0; i < s->nargs; i++)
				if (pc + (uint64_t)off == s->arg_fn[i])
					return 1;
	}
	return 0;
}

/* The registers at the targets of forward branches: an instruction after
 * one that does not fall through (an early return) is reached only by a
 * branch, and starts from what the branch had (clang's set_handle_irq()
 * returns -EBUSY in x0 before the store of its argument). */
struct joins {
	uint64_t at[MAX_JOINS];
	struct regs r[MAX_JOINS];
	unsigned n;
};

static void scan_fn(struct scan *s, const struct hs_sym *f, int pass)
{
	struct regs r = { { 0 }, 0, 0, { 0 } };
	struct joins j;
	int falls = 1;		/* the last instruction falls through to this one */

	j.n = 0;
	for (int k = 0; k < 31; k++)
		r.arg[k] = k < 8 ? (int8_t)k : -1;	/* x0..x7 on entry: the arguments */
	for (uint64_t pc = f->addr; pc + 4 <= f->addr + f->size; pc += 4) {
		const uint8_t *p = hs_at(s->img, s->mem, pc, 4);
		struct a64_insn in;
		uint32_t w;

		if (!p)
			break;
		memcpy(&w, p, 4);
		for (unsigned k = 0; !falls && k < j.n; k++)
			if (j.at[k] == pc) {
				r = j.r[k];
				break;
			}
		a64_decode(w, pc, &in);
		step(s, &r, f->addr, w, &in, pass);
		if ((in.cls == A64_C_BRANCH || in.cls == A64_C_BCOND) && in.target > pc &&
		    in.target < f->addr + f->size && j.n < MAX_JOINS) {
			j.at[j.n] = in.target;
			j.r[j.n++] = r;
		}
		falls = in.cls != A64_C_BRANCH && in.cls != A64_C_BR_IND && in.cls != A64_C_RET &&
			in.cls != A64_C_ERET;
	}
}

static void scan_all(struct scan *s, int pass)
{
	const struct hs_image *img = s->img;

	for (size_t i = 0; i < img->nsyms; i++) {
		const struct hs_sym *f = &img->syms[i];

		if (f->type == STT_FUNC_ && f->size && f->size <= (1u << 20) && relevant(s, f, pass))
			scan_fn(s, f, pass);
	}
}

unsigned hs_boot_arg_stores(const struct hs_image *img, uint8_t *mem, const struct hs_sym *f, unsigned arg,
			    uint64_t *vars, unsigned max)
{
	struct scan s;
	unsigned n = 0;

	memset(&s, 0, sizeof(s));
	s.img = img, s.mem = mem, s.collect = (int)arg;
	if (f->type == STT_FUNC_ && f->size && f->size <= (1u << 20))
		scan_fn(&s, f, 0);
	for (unsigned i = 0; i < s.ncand && n < max; i++)
		vars[n++] = s.cand[i];
	return n;
}

static int in_platform(const struct hs_sym *f)
{
	for (size_t i = 0; f && f->file && i < HS_ARRAY_SIZE(platform_files); i++)
		if (!strcmp(f->file, platform_files[i]))
			return 1;
	return 0;
}

/* The scan's candidates that are functions: the one, or the platform's
 * among several, into out; what: the variable or call, for the error. */
static int pick(const struct scan *s, struct hs_stored *out, const char *what)
{
	unsigned nplat = 0, k = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < s->ncand; i++) {
		const struct hs_sym *f = hs_sym_at(s->img, s->cand[i]);

		if (!f || f->addr != s->cand[i] || f->type != STT_FUNC_)
			continue;	/* not a function's address: not a handler */
		if (!out->nfn++ || in_platform(f))
			k = i, out->fn = f;
		nplat += in_platform(f);
	}
	if (!out->nfn || (out->nfn > 1 && nplat != 1))
		return hs_fail("%s: %s: %u functions given, %u of them the platform's", s->img->path, what,
			       out->nfn, nplat);
	out->value = s->cand[k];
	out->from = hs_sym_at(s->img, s->cand_from[k]);
	return 0;
}

int hs_boot_stored_value(const struct hs_image *img, uint8_t *mem, const char *var, uint64_t *val,
			 const char **why)
{
	const struct hs_sym *v = hs_sym_exact(img, var);
	struct hs_stored st;
	struct scan s;

	if (!v)
		return hs_fail("%s: no variable %s", img->path, var);
	memset(&s, 0, sizeof(s));
	s.img = img, s.mem = mem, s.var = v->addr, s.collect = -1;
	scan_all(&s, 0);
	if (s.nargs)
		scan_all(&s, 1);
	if (pick(&s, &st, var))
		return -1;
	*val = st.value;
	if (why)
		*why = st.nfn == 1 ? "the one function the image's code stores to it"
				   : "the function of the platform's driver (QEMU virt) the image's code stores to it";
	return 0;
}

int hs_boot_passed(const struct hs_image *img, uint8_t *mem, const struct hs_sym *f, unsigned arg,
		   struct hs_stored *out)
{
	char what[96];
	struct scan s;

	memset(&s, 0, sizeof(s));
	s.img = img, s.mem = mem, s.collect = -1;
	s.arg_fn[0] = f->addr, s.arg_reg[0] = (uint8_t)arg, s.nargs = 1;
	snprintf(what, sizeof(what), "%s(x%u)", f->name, arg);
	/* the platform's drivers' own calls first: a few functions, not the
	 * whole image */
	for (size_t i = 0; i < img->nsyms; i++) {
		const struct hs_sym *g = &img->syms[i];

		if (g->type == STT_FUNC_ && g->size && g->size <= (1u << 20) && in_platform(g))
			scan_fn(&s, g, 1);
	}
	if (pick(&s, out, what) == 0)
		return 0;
	scan_all(&s, 1);
	return pick(&s, out, what);
}
