/*
 * encode.h - the few A64 encodings boot-time patching needs (the kernel's
 * aarch64_insn_gen_*() and branch-offset helpers, for the same jobs).
 */
#ifndef HOTSIM_A64_ENCODE_H
#define HOTSIM_A64_ENCODE_H

#include <stdint.h>

#define A64_NOP		0xd503201fu
#define A64_SMC0	0xd4000003u
#define A64_HVC0	0xd4000002u

/* b/bl/b.cond/cbz/cbnz/tbz/tbnz: 1 and the byte offset, else 0 */
int a64_branch_imm_offset(uint32_t insn, int64_t *off);

/* Same instruction with a new offset; 0 if it does not fit. */
uint32_t a64_branch_imm_set(uint32_t insn, int64_t off);

/* adrp: 1 and the page offset (bytes), else 0 */
int a64_adrp_offset(uint32_t insn, int64_t *off);
uint32_t a64_adrp_set(uint32_t insn, int64_t off);

/* pc-relative literal users the kernel refuses to move (ldr literal, adr...) */
int a64_uses_literal(uint32_t insn);

/* b from -> to; 0 if out of range */
uint32_t a64_gen_b(uint64_t from, uint64_t to);

/* ldr xt, <literal at pc + off> (off a multiple of 4 within 1 MiB) */
uint32_t a64_gen_ldr_lit64(unsigned rt, int64_t off);
/* brk #imm16 */
uint32_t a64_gen_brk(uint16_t imm);
/* blr xn */
uint32_t a64_gen_blr(unsigned rn);

/* movz xd, #imm16 */
uint32_t a64_gen_movz64(unsigned rd, uint16_t imm);

/* orr wd, wzr, #0x80003fff (ARM_SMCCC_ARCH_WORKAROUND_3) */
uint32_t a64_gen_orr_wa3(unsigned rd);

/* A field of a word replaced: n bits at lo take v's low n bits (the
 * kernel's aarch64_insn_encode_immediate(), for patching an immediate in
 * place). */
static inline uint32_t a64_set_field(uint32_t w, unsigned lo, unsigned n, uint32_t v)
{
	uint32_t m = ((1u << n) - 1) << lo;

	return (w & ~m) | ((v << lo) & m);
}
/* movz/movk/movn: imm16 (bits 20:5) */
static inline uint32_t a64_set_imm16(uint32_t w, uint32_t v) { return a64_set_field(w, 5, 16, v); }
/* bitfield (ubfm, sbfm...) and logical immediates: immr (21:16), imms (15:10) */
static inline uint32_t a64_set_immr(uint32_t w, uint32_t v) { return a64_set_field(w, 16, 6, v); }
static inline uint32_t a64_set_imms(uint32_t w, uint32_t v) { return a64_set_field(w, 10, 6, v); }

#endif
