/*
 * internal.h - shared pieces of the A64 decoder (the files of sim/a64/ only).
 *
 * The decoder is a set of ordered { mask, value } tables in the style of
 * the kernel's arch/arm64/include/asm/insn.h (__AARCH64_INSN_FUNCS): the
 * top-level op0 field (bits 28:25) picks the tables of one encoding group,
 * the first entry with (word & mask) == value wins and its extraction
 * function fills in the operands.  An extraction function may still reject
 * the word (return -1) for the reserved sub-encodings a plain mask cannot
 * express; the word is then unallocated.  Groups follow the Arm ARM
 * (DDI 0487) encoding index, one file each:
 *
 *	sys.c		branches, exception generation, system
 *	dp.c		data processing, immediate and register
 *	ldst.c		loads and stores, LSE atomics (ldst_simd.c: the
 *			Advanced SIMD structure loads/stores)
 *	simd.c		Advanced SIMD data processing
 *	fp.c		scalar FP and crypto data processing
 *
 * Text: disasm.c (Capstone), text.c and text_fb.c (own text).
 */
#ifndef HOTSIM_A64_INTERNAL_H
#define HOTSIM_A64_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/a64.h"

struct a64_enc;

/* Extraction: fill operands of in (cls/flags preset from the entry). */
typedef int (*a64_extract_fn)(const struct a64_enc *e, uint32_t w,
			      uint64_t pc, struct a64_insn *in);

struct a64_enc {
	uint32_t mask;
	uint32_t value;
	uint8_t cls;		/* enum a64_class, may be refined by fn */
	uint16_t flags;		/* A64_F_* always set for this entry */
	a64_extract_fn fn;
	const char *name;	/* family, for debugging and the tests */
};

/*
 * The top-level split on op0 (bits 28:25) picks one group table; each is
 * searched in order.  a64_enc_group() hands group g (0..A64_NGROUPS-1) to
 * the tests; a64_enc_lookup() returns the entry a word matches, or NULL,
 * before any extraction-level check.
 */
#define A64_NGROUPS 5
const struct a64_enc *a64_enc_group(unsigned g, unsigned *n);
const struct a64_enc *a64_enc_lookup(uint32_t w);

extern const struct a64_enc a64_sys_tab[];
extern const unsigned a64_sys_n;
extern const struct a64_enc a64_dp_tab[];
extern const unsigned a64_dp_n;
extern const struct a64_enc a64_ldst_tab[];
extern const unsigned a64_ldst_n;
extern const struct a64_enc a64_simd_tab[];
extern const unsigned a64_simd_n;
extern const struct a64_enc a64_fp_tab[];
extern const unsigned a64_fp_n;

/* DecodeBitMasks() of a logical immediate; 0 if the encoding is reserved */
int a64_bitmask_imm(unsigned n, unsigned immr, unsigned imms, int is64,
		    uint64_t *imm);

/* Entry i of the system register name table, or NULL past its end. */
const char *a64_sysreg_entry(unsigned i, uint16_t *enc);

/*
 * Disassembly text: a bounded output buffer, and the words whose text is
 * built here rather than by Capstone.  a64_text_own() (a64_text.c) is
 * tried first, a64_text_fallback() (a64_text_fb.c) when Capstone cannot
 * decode the word.  Both return 1 when they wrote the text.
 */
struct a64_out {
	char *buf;
	size_t len, pos;
};

void a64_put(struct a64_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int a64_text_own(struct a64_out *o, uint32_t w, const struct a64_insn *in);
int a64_text_fallback(struct a64_out *o, uint32_t w, const struct a64_insn *in);

/* "x3" or "w3"; register 31 is sp/wsp when sp is set, else xzr/wzr */
const char *a64_gpr_name(unsigned r, int x, int sp);
/* by form: 1 post-index "[xn], #imm", 2 offset, 3 pre-index */
void a64_put_index(struct a64_out *o, unsigned rn, long long imm,
		   unsigned form);

/* Sign-extend the low n bits of v. */
static inline int64_t a64_sext(uint64_t v, unsigned n)
{
	uint64_t m = 1ull << (n - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Operand fields (a64_field() and the public a64_rn()... are in hotsim/a64.h) */
#define A64_RD(w)	a64_field(w, 0, 5)
#define A64_RT(w)	a64_field(w, 0, 5)
#define A64_RN(w)	a64_field(w, 5, 5)
#define A64_RT2(w)	a64_field(w, 10, 5)
#define A64_RA(w)	a64_field(w, 10, 5)
#define A64_RM(w)	a64_field(w, 16, 5)
#define A64_RS(w)	a64_field(w, 16, 5)
#define A64_SF(w)	a64_field(w, 31, 1)

/*
 * Register recording.  Sets, so duplicates are dropped.  A full array
 * drops the register and sets A64_F_VTRUNC; only the V register lists of
 * ld3/ld4/st3/st4 get there, and their GPRs are always recorded first.
 *
 * Register number 31 means XZR or SP depending on the operand: _zr() drops
 * it (XZR is never recorded), _sp() records SP (A64_R_SP == 31).
 */
void a64_src(struct a64_insn *in, unsigned reg);
void a64_dst(struct a64_insn *in, unsigned reg);

static inline void a64_src_zr(struct a64_insn *in, unsigned r)
{
	if (r != 31)
		a64_src(in, r);
}

static inline void a64_dst_zr(struct a64_insn *in, unsigned r)
{
	if (r != 31)
		a64_dst(in, r);
}

static inline void a64_src_sp(struct a64_insn *in, unsigned r)
{
	a64_src(in, r);
}

static inline void a64_dst_sp(struct a64_insn *in, unsigned r)
{
	a64_dst(in, r);
}

/* FP/SIMD register n (0..31) */
static inline unsigned a64_vreg(unsigned n)
{
	return A64_R_V0 + (n & 31);
}

/*
 * FP/SIMD operands Rd <- op(Rn[, Rm]); rule flags: A64_VACC (Vd is read
 * too) and A64_VNARROW (Q = 1 writes only the upper half: Vd read).
 */
#define A64_VACC	0x80
#define A64_VNARROW	0x40
void a64_vregs(struct a64_insn *in, uint32_t w, int has_rm, unsigned rule);

/*
 * Loads and stores, split in two files: ldst.c has the group's table and
 * the base register every form shares (Xn|SP, written back when wb is
 * set); ldst_simd.c decodes the Advanced SIMD structure rows of the table.
 */
void a64_ldst_base(struct a64_insn *in, uint32_t w, int wb);
int a64_x_vmult(const struct a64_enc *e, uint32_t w, uint64_t pc,
		struct a64_insn *in);
int a64_x_vsingle(const struct a64_enc *e, uint32_t w, uint64_t pc,
		  struct a64_insn *in);

/* Shared extraction used by more than one group: nothing to record. */
int a64_x_none(const struct a64_enc *e, uint32_t w, uint64_t pc,
	       struct a64_insn *in);

#endif
