/*
 * a64.h - hotsim's own A64 instruction classifier.
 *
 * Capstone 4.0.2 (Debian 12) cannot decode LSE atomics, LDAPR or RETAA and
 * reports wrong register access for cmp, mrs/msr, ubfx and stlr, so the
 * semantics the cost models depend on come from this decoder, written from
 * the encodings (Arm ARM, DDI 0487) as mask/value tables in the style of the
 * kernel's arch/arm64/include/asm/insn.h. Capstone is used for text only.
 */
#ifndef HOTSIM_A64_H
#define HOTSIM_A64_H

#include <stddef.h>
#include <stdint.h>

/*
 * Register ids used for dependency tracking. XZR/WZR is never recorded.
 * W and X views of a register share one id.
 */
enum {
	A64_R_X0 = 0,		/* X0..X30 = 0..30 */
	A64_R_SP = 31,
	A64_R_NZCV = 32,
	A64_R_V0 = 33,		/* V0..V31 = 33..64 (FP/SIMD) */
	A64_R_FPCR = 65,	/* FPCR/FPSR as one id */
	A64_R_NONE = 0xff,
	A64_NREGS = 66
};

enum a64_class {
	A64_C_UNKNOWN = 0,	/* unallocated or not classified: charged a default */
	A64_C_NOP,		/* nop, yield, hint space without effect */
				/* (also esb, psb/tsb csync, dgh, clearbhb, clrex) */
	A64_C_ALU,		/* add/sub/logic imm or plain reg, mov*, adr(p), csel, ccmp, rev, clz */
	A64_C_ALU_SHIFT,	/* add/sub/logic with shifted or extended register */
	A64_C_BITFIELD,		/* ubfm/sbfm/bfm (lsl/lsr/asr imm, ubfx, sxtw...), extr */
	A64_C_SHIFT_REG,	/* lslv/lsrv/asrv/rorv */
	A64_C_MUL,		/* mul/madd/msub, smaddl/umaddl */
				/* (also crc32*: same pipeline and latency class) */
	A64_C_MULH,		/* smulh/umulh */
	A64_C_DIV,		/* sdiv/udiv */
	A64_C_LOAD,		/* ldr*, ldur*, ldp, ldar, ldapr, ld1.. (see flags) */
	A64_C_STORE,		/* str*, stur*, stp, stlr */
	A64_C_LOAD_EX,		/* ldxr/ldaxr/ldxp/ldaxp */
	A64_C_STORE_EX,		/* stxr/stlxr/stxp/stlxp (dst = status reg) */
	A64_C_ATOMIC,		/* LSE: ldadd/ldclr/ldeor/ldset/ld[su]max/min, swp, cas, casp, st<op> */
	A64_C_PRFM,		/* prfm/prfum */
	A64_C_BRANCH,		/* b */
	A64_C_BCOND,		/* b.cond, cbz/cbnz, tbz/tbnz */
	A64_C_CALL,		/* bl */
	A64_C_CALL_IND,		/* blr, blraa/blrab... */
	A64_C_BR_IND,		/* br, braa... */
	A64_C_RET,		/* ret, retaa/retab */
	A64_C_ERET,		/* eret, eretaa/eretab */
	A64_C_DMB,
	A64_C_DSB,		/* also ssbb/pssbb: cond 0/4 */
	A64_C_ISB,
	A64_C_SB,		/* speculation barrier */
	A64_C_CSDB,		/* consumption of speculative data barrier (hint #20) */
	A64_C_MRS,
	A64_C_MSR,		/* msr <sysreg>, Xt */
	A64_C_MSR_IMM,		/* msr <pstatefield>, #imm (daifset/daifclr/pan/spsel/...) */
	A64_C_SYS,		/* sys/sysl: tlbi, dc, ic, at */
	A64_C_PAC,		/* pac*, aut*, xpac* (hint-space and register forms) */
	A64_C_BTI,		/* bti c/j/jc */
	A64_C_EXC,		/* svc/hvc/smc/brk/hlt/udf */
	A64_C_WFX,		/* wfi/wfe/sev/sevl */
	A64_C_FPSIMD,		/* FP/SIMD data processing */
	A64_C_NCLASSES
};

/* flags */
#define A64_F_PAIR	0x0001	/* ldp/stp/ldxp...: two registers */
#define A64_F_WB	0x0002	/* base register writeback (pre/post index) */
#define A64_F_ACQ	0x0004	/* acquire semantics (ldar, ldaxr, ldapr, LSE -a/-al forms) */
#define A64_F_REL	0x0008	/* release semantics (stlr, stlxr, LSE -l/-al forms) */
#define A64_F_RCPC	0x0010	/* ldapr: RCpc acquire */
#define A64_F_SIGNEXT	0x0020	/* ldrs*: sign-extending load */
#define A64_F_SETFLAGS	0x0040	/* writes NZCV (also listed in dst) */
#define A64_F_64	0x0080	/* 64-bit operation (sf=1 / X registers) */
#define A64_F_FPREG	0x0100	/* load/store of FP/SIMD registers */
#define A64_F_REGOFF	0x0200	/* load/store with register offset */
#define A64_F_SHIFTED	0x0400	/* ALU operand shifted by a nonzero amount */
#define A64_F_PAC	0x0800	/* branch/return authenticates (blraa, retaa) */
#define A64_F_UNPRIV	0x1000	/* ldtr/sttr */
#define A64_F_LITERAL	0x2000	/* pc-relative literal load */
#define A64_F_VTRUNC	0x4000	/* register list did not fit src[]/dst[]: only
				 * ld/st of 3-4 V registers with writeback or a
				 * register post-increment; GPRs are always kept,
				 * trailing V registers are dropped */

struct a64_insn {
	uint32_t word;
	uint8_t cls;		/* enum a64_class */
	uint8_t nsrc, ndst;
	uint8_t src[6];		/* register ids read, in no particular order */
	uint8_t dst[4];		/* register ids written */
	uint8_t mem_size;	/* bytes transferred by the whole access (ldp x: 16), 0 if none */
	uint8_t cond;		/* b.cond condition, or barrier option (CRm) for dmb/dsb;
				 * also the #imm (CRm) of msr <pstatefield>, #imm, and
				 * the condition of csel/ccmp/fcsel/fccmp and aliases */
	uint16_t flags;		/* A64_F_* */
	uint16_t sysreg;	/* mrs/msr/sys: op0<<14|op1<<11|CRn<<7|CRm<<3|op2;
				 * msr <pstatefield>: A64_SYSREG(0, op1, 4, 0, op2) */
	uint64_t target;	/* direct branch / adr(p) / literal address, absolute */
};

/*
 * Decode one instruction word at address pc. Always fills *out; returns 0
 * when the word was classified and -1 when it is A64_C_UNKNOWN (out->word is
 * still set so callers can report it).
 */
int a64_decode(uint32_t word, uint64_t pc, struct a64_insn *out);

/* stable lower-case class name ("alu", "load", "atomic"...) for reports */
const char *a64_class_name(unsigned cls);

/* "x0".."x30", "sp", "nzcv", "v0".."v31", "fpcr" */
const char *a64_reg_name(unsigned reg);

/* true for classes that change control flow */
static inline int a64_is_branch(unsigned cls)
{
	return cls >= A64_C_BRANCH && cls <= A64_C_ERET;
}

static inline int a64_is_mem(unsigned cls)
{
	return cls >= A64_C_LOAD && cls <= A64_C_PRFM;
}

/*
 * Words other layers test by encoding (the runner, the overlay check, the
 * scanners), as mask/value pairs the way arch/arm64/include/asm/insn.h
 * writes them; a64_is_<name>(word). The classifier (a64_decode) is the
 * richer view; these are for code that only has a word. Words hotsim
 * writes come from the generators in sim/a64/encode.h.
 */
#define A64_INSN_FUNCS(name, mask, value) \
	_Static_assert(((value) & ~(mask)) == 0, "a64_is_" #name ": value has bits outside its mask"); \
	static inline int a64_is_##name(uint32_t w) { return (w & (mask)) == (value); }
A64_INSN_FUNCS(svc, 0xffe0001fu, 0xd4000001u)		/* svc #imm16 */
A64_INSN_FUNCS(brk, 0xffe0001fu, 0xd4200000u)		/* brk #imm16 */
A64_INSN_FUNCS(exc_gen, 0xffe00000u, 0xd4000000u)	/* svc, hvc, smc, brk, hlt, dcps */
A64_INSN_FUNCS(smc0, 0xffffffffu, 0xd4000003u)		/* smc #0 */
A64_INSN_FUNCS(nop, 0xffffffffu, 0xd503201fu)
A64_INSN_FUNCS(wfi, 0xffffffffu, 0xd503207fu)
A64_INSN_FUNCS(wfe, 0xffffffffu, 0xd503205fu)
A64_INSN_FUNCS(yield, 0xffffffffu, 0xd503203fu)
A64_INSN_FUNCS(b, 0xfc000000u, 0x14000000u)		/* b imm26 */
A64_INSN_FUNCS(bl, 0xfc000000u, 0x94000000u)		/* bl imm26 */
A64_INSN_FUNCS(sys_space, 0xffc00000u, 0xd5000000u)	/* mrs/msr/sys/sysl, hints, barriers */
A64_INSN_FUNCS(dc_zva, 0xffffffe0u, 0xd50b7420u)	/* dc zva, Xt */
A64_INSN_FUNCS(tlbi_el1, 0xfffff000u, 0xd5088000u)	/* tlbi <op>, {Xt}: sys #0, C8, Cm, #op2 */
A64_INSN_FUNCS(add_x_imm, 0xff800000u, 0x91000000u)	/* add Xd, Xn, #imm12{, lsl #12} */
A64_INSN_FUNCS(adrp, 0x9f000000u, 0x90000000u)		/* adrp Xd, label */
A64_INSN_FUNCS(str_x_uimm, 0xffc00000u, 0xf9000000u)	/* str Xt, [Xn, #uimm12 * 8] */
A64_INSN_FUNCS(dsb, 0xfffff0ffu, 0xd503309fu)		/* dsb <option> */
A64_INSN_FUNCS(mrs_tpidr_el1, 0xffffffe0u, 0xd538d080u)	/* mrs Xt, tpidr_el1 */
A64_INSN_FUNCS(mrs_sp_el0, 0xffffffe0u, 0xd5384100u)	/* mrs Xt, sp_el0 */
A64_INSN_FUNCS(mrs_cntvct, 0xffffffe0u, 0xd53be040u)	/* mrs Xt, cntvct_el0 */
A64_INSN_FUNCS(mov_x30_to_x9, 0xffffffffu, 0xaa1e03e9u)	/* mov x9, x30 (ftrace's entry word) */
A64_INSN_FUNCS(mov_reg, 0xffe0ffe0u, 0xaa0003e0u)	/* mov Xd, Xm (orr Xd, xzr, Xm) */
A64_INSN_FUNCS(ldr_w_uimm, 0xffc00000u, 0xb9400000u)	/* ldr Wt, [Xn, #uimm] */
A64_INSN_FUNCS(str_w_uimm, 0xffc00000u, 0xb9000000u)	/* str Wt, [Xn, #uimm] */
A64_INSN_FUNCS(add_w_1, 0xfffffc00u, 0x11000400u)	/* add Wd, Wn, #1 */
A64_INSN_FUNCS(lse_cas, 0x3fa07c00u, 0x08a07c00u)	/* cas{a,l,al}{b,h,} */
A64_INSN_FUNCS(lse_swp, 0x3f20fc00u, 0x38208000u)	/* swp{a,l,al}{b,h,} */
A64_INSN_FUNCS(lse_ldop, 0x3f208c00u, 0x38200000u)	/* ld<op>{a,l,al}{b,h,} (st<op>: Rt = xzr) */

/* wfe or yield: the hints a spin-wait gives */
static inline int a64_is_spin_hint(uint32_t w)
{
	return a64_is_wfe(w) || a64_is_yield(w);
}
A64_INSN_FUNCS(add_reg, 0x7fe0fc00u, 0x0b000000u)	/* add Rd, Rn, Rm (no shift) */
A64_INSN_FUNCS(eor_reg, 0x7f200000u, 0x4a000000u)	/* eor Rd, Rn, Rm{, shift} */
A64_INSN_FUNCS(movz_x, 0xff800000u, 0xd2800000u)	/* movz Xd, #imm16{, lsl #16*hw} */
A64_INSN_FUNCS(sub_sp_sp_imm, 0xff8003ffu, 0xd10003ffu)	/* sub sp, sp, #imm12{, lsl #12} */
A64_INSN_FUNCS(stp_x_post, 0xffc00000u, 0xa8800000u)	/* stp Xt1, Xt2, [Xn], #imm7 */
A64_INSN_FUNCS(str_x30_uimm, 0xffc0001fu, 0xf900001eu)	/* str x30, [Xn, #uimm] */
A64_INSN_FUNCS(ldr_x_uimm, 0xffc00000u, 0xf9400000u)	/* ldr Xt, [Xn, #uimm12 * 8] */
A64_INSN_FUNCS(movk_x, 0xff800000u, 0xf2800000u)	/* movk Xd, #imm16{, lsl #16*hw} */
A64_INSN_FUNCS(logic_shifted, 0x1f000000u, 0x0a000000u)	/* and/orr/eor/ands (and bic...) Rd, Rn, Rm{, shift} */
A64_INSN_FUNCS(addsub_shifted, 0x1f200000u, 0x0b000000u)	/* add/adds/sub/subs Rd, Rn, Rm{, shift} */
A64_INSN_FUNCS(crc32, 0x7fe0e000u, 0x1ac04000u)	/* crc32{b,h,w,x}, crc32c*: dp 2-source opcode 010xxx */
A64_INSN_FUNCS(ldst_excl, 0x3f000000u, 0x08000000u)	/* bits 29:24 001000: ld/st[a]xr, ldar, stlr, cas, casp */

/* Field extraction: n bits of w starting at bit lo. */
static inline uint32_t a64_field(uint32_t w, unsigned lo, unsigned n)
{
	return (w >> lo) & ((1u << n) - 1);
}

/* Registers by field: Rt / Rd (bits 4:0), Rn (9:5), Rt2 / Ra (14:10), Rm (20:16) */
static inline unsigned a64_rt(uint32_t w) { return a64_field(w, 0, 5); }
static inline unsigned a64_rd(uint32_t w) { return a64_field(w, 0, 5); }
static inline unsigned a64_rn(uint32_t w) { return a64_field(w, 5, 5); }
static inline unsigned a64_rt2(uint32_t w) { return a64_field(w, 10, 5); }
static inline unsigned a64_ra(uint32_t w) { return a64_field(w, 10, 5); }
static inline unsigned a64_rm(uint32_t w) { return a64_field(w, 16, 5); }

/* sys/sysl (tlbi, dc, ic, at): the CRm and op2 fields that name the operation */
static inline unsigned a64_sys_crm(uint32_t w) { return a64_field(w, 8, 4); }
static inline unsigned a64_sys_op2(uint32_t w) { return a64_field(w, 5, 3); }
/* sys/sysl, msr/mrs (register): L, 1 for the forms that read (sysl, mrs) */
static inline unsigned a64_sys_read(uint32_t w) { return a64_field(w, 21, 1); }
/* mrs/msr (register): the A64_SYSREG encoding the word names; its op0 is
 * 1:o0 (bit 19), as the Arm ARM encodes these two */
static inline uint16_t a64_mrs_sysreg(uint32_t w)
{
	return (uint16_t)((2 + a64_field(w, 19, 1)) << 14 | a64_field(w, 5, 14));
}

/* add/sub Xd, Xn, #imm: the immediate, shifted (sh, bit 22: lsl #12) */
static inline uint64_t a64_add_imm(uint32_t w) { return (uint64_t)a64_field(w, 10, 12) << (a64_field(w, 22, 1) ? 12 : 0); }
/* the 12-bit unsigned immediate of a load/store (unsigned offset) */
static inline unsigned a64_uimm12(uint32_t w) { return a64_field(w, 10, 12); }
/* the 7-bit immediate of a load/store pair (signed, scaled: as encoded) */
static inline unsigned a64_imm7(uint32_t w) { return a64_field(w, 15, 7); }
/* svc/hvc/smc/brk/hlt #imm16 and movz/movk/movn's imm16 (bits 20:5) */
static inline unsigned a64_imm16(uint32_t w) { return a64_field(w, 5, 16); }
/* movz/movk/movn: the immediate's shift, 16 * hw (bits 22:21) */
static inline unsigned a64_movw_shift(uint32_t w) { return 16 * a64_field(w, 21, 2); }
/* Shifted register operand: the shift type (0 lsl, 1 lsr, 2 asr, 3 ror)
 * and its amount (imm6) */
static inline unsigned a64_shift_type(uint32_t w) { return a64_field(w, 22, 2); }
static inline unsigned a64_shift_amount(uint32_t w) { return a64_field(w, 10, 6); }
/* data processing (3 source): op31 (bits 23:21), 1 and 5 the widening
 * [su]maddl/[su]msubl */
static inline unsigned a64_dp3_op31(uint32_t w) { return a64_field(w, 21, 3); }

/*
 * Exception vectors (Arm ARM D1.10.2): VBAR_EL1 + a group for where the
 * exception was taken from + the kind within it, 0x80 bytes per entry.
 */
#define A64_VEC_CUR_SP0		0x000	/* current EL, SP_EL0 (EL1t) */
#define A64_VEC_CUR_SPX		0x200	/* current EL, SP_ELx (EL1h) */
#define A64_VEC_LOWER_A64	0x400	/* lower EL, AArch64 */
#define A64_VEC_LOWER_A32	0x600	/* lower EL, AArch32 */
#define A64_VEC_SYNC		0x000
#define A64_VEC_IRQ		0x080
#define A64_VEC_FIQ		0x100
#define A64_VEC_SERROR		0x180
#define A64_VEC_SIZE		0x800	/* the whole table: 16 entries */
#define A64_VEC_ENTRY		0x80

/* Offset of the vector for an exception from EL0 (AArch64) or EL1h. */
static inline uint64_t a64_vector_offset(int from_el, unsigned kind)
{
	return (from_el == 0 ? A64_VEC_LOWER_A64 : A64_VEC_CUR_SPX) + kind;
}

/* The word with the fields that only say where something is cleared
 * (branch offsets, literal and adr(p) addresses, add-immediate and
 * unsigned load/store offsets): the same code at other addresses, or
 * reaching moved data, compares equal (location.c). */
uint32_t a64_without_location(uint32_t w);

/* pack/unpack of sysreg encodings */
#define A64_SYSREG(op0, op1, crn, crm, op2) \
	((uint16_t)(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2)))
#define A64_SYSREG_OP0(enc)	((unsigned)(enc) >> 14)
#define A64_SYSREG_OP1(enc)	((unsigned)(enc) >> 11 & 7)
#define A64_SYSREG_CRN(enc)	((unsigned)(enc) >> 7 & 15)
#define A64_SYSREG_CRM(enc)	((unsigned)(enc) >> 3 & 15)
#define A64_SYSREG_OP2(enc)	((unsigned)(enc) & 7)

/* name of a system register encoding if known ("tpidr_el1", "icc_iar1_el1"),
 * else NULL */
const char *a64_sysreg_name(uint16_t enc);

/*
 * Disassembly text: Capstone for what it decodes correctly, this decoder's
 * own text for what Capstone 4.0.2 cannot (LSE atomics, ldapr, retaa, PAC and
 * BTI hints, sb). Writes at most len bytes including the NUL.
 */
void a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t len);

/* Close the Capstone handle a64_disasm() opens on first use (idempotent;
 * a later a64_disasm() reopens it). Not thread-safe, like a64_disasm(). */
void a64_disasm_release(void);

/* "4.0.2 (library 4.0)": the Capstone built against, and the one loaded */
const char *a64_capstone_version(char *buf, size_t len);

#endif
