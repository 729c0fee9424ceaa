/*
 * test_a64.c - the A64 classifier (sim/a64_*.c) against the Arm ARM and
 * against GNU objdump 2.40 on a real kernel image.
 *
 *	a64/unit		hand-checked words: class, registers, size, flags
 *	a64/image		every instruction of the base kernel vs objdump
 *	a64/fuzz		2M random words and the tables' mask edges
 *	a64/sysreg		the system register name table
 *	a64/sysreg_objdump	every name in it, as objdump spells it
 *	a64/disasm		text, and its bounds
 *
 * a64/image runs "aarch64-linux-gnu-objdump -d" on hs_kernel("7.2-base") and
 * fails when the image is missing (`make kernels` builds it).  To check
 * another binary, build with EXTRA_CFLAGS='-DA64_XCHECK_IMAGE="\"path\""'
 * (and -DA64_OBJDUMP_FLAGS='"\"-D -b binary -m aarch64\""' for raw words).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "hotsim/a64.h"
#include "a64/internal.h"
#include "testutil.h"

#ifndef A64_XCHECK_IMAGE
#define A64_XCHECK_IMAGE hs_kernel("7.2-base")
#endif
#ifndef A64_OBJDUMP_FLAGS
#define A64_OBJDUMP_FLAGS "-d"	/* -D -b binary -m aarch64 for raw words */
#endif

#define MAX_REPORT 20		/* mismatches listed per test */

/* ------------------------------------------------------------------ */
/* register sets as 64-bit masks of register ids                       */

static uint64_t regmask(const uint8_t *r, unsigned n)
{
	uint64_t m = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		if (r[i] < 64)
			m |= 1ull << r[i];
	return m;
}

#define BIT(r)		(1ull << (r))
#define GPR_MASK	((1ull << 32) - 1)	/* x0..x30 and sp */

static void fmt_mask(char *buf, size_t len, uint64_t m)
{
	size_t pos = 0;
	unsigned r;

	buf[0] = '\0';
	for (r = 0; r < 64 && pos + 8 < len; r++)
		if (m >> r & 1)
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s",
						pos ? "," : "", a64_reg_name(r));
}

/* ------------------------------------------------------------------ */
/* a64/unit: words from aarch64-linux-gnu-as, text from objdump -d;    */
/* every expectation worked out from the encoding in the Arm ARM.      */

#define NOT	UINT64_MAX		/* no target */
#define NONE	(-1)			/* no cond / sysreg expectation */

#define F64	A64_F_64
#define FSET	A64_F_SETFLAGS
#define FSH	A64_F_SHIFTED
#define FWB	A64_F_WB
#define FPR	A64_F_PAIR
#define FACQ	A64_F_ACQ
#define FREL	A64_F_REL
#define FRC	A64_F_RCPC
#define FSX	A64_F_SIGNEXT
#define FRO	A64_F_REGOFF
#define FFP	A64_F_FPREG
#define FPAC	A64_F_PAC
#define FUN	A64_F_UNPRIV
#define FLIT	A64_F_LITERAL
#define FTR	A64_F_VTRUNC

struct unit {
	uint64_t pc;
	uint32_t word;
	const char *text;	/* objdump -d, binutils 2.40 */
	uint8_t cls;
	const char *src, *dst;	/* register names, comma separated */
	uint8_t mem;
	uint16_t flags;		/* exactly */
	uint64_t target;	/* NOT: must be 0 */
	int extra;		/* cond (branches, barriers, msr imm) or sysreg */
};

#define U(pc, w, t, c, s, d, m, f, tg, x) \
	{ pc, w, t, A64_C_##c, s, d, m, f, tg, x }
#define SR A64_SYSREG

static const struct unit units[] = {
	/* add/sub immediate: Rn and (non-S) Rd are Xn|SP */
	U(0x00, 0x91004020, "add x0, x1, #0x10", ALU, "x1", "x0", 0, F64, NOT, NONE),
	U(0x04, 0x910083ff, "add sp, sp, #0x20", ALU, "sp", "sp", 0, F64, NOT, NONE),
	U(0x08, 0x910003fd, "mov x29, sp", ALU, "sp", "x29", 0, F64, NOT, NONE),
	U(0x0c, 0x31000420, "adds w0, w1, #0x1", ALU, "x1", "x0,nzcv", 0, FSET, NOT, NONE),
	/* S = 1: Rd 31 is the zero register: only NZCV is written */
	U(0x10, 0xf1000c1f, "cmp x0, #0x3", ALU, "x0", "nzcv", 0, F64 | FSET, NOT, NONE),
	U(0x14, 0xeb02003f, "cmp x1, x2", ALU, "x1,x2", "nzcv", 0, F64 | FSET, NOT, NONE),
	U(0x18, 0x3100047f, "cmn w3, #0x1", ALU, "x3", "nzcv", 0, FSET, NOT, NONE),
	U(0x1c, 0xf240001f, "tst x0, #0x1", ALU, "x0", "nzcv", 0, F64 | FSET, NOT, NONE),
	U(0x20, 0x92401c20, "and x0, x1, #0xff", ALU, "x1", "x0", 0, F64, NOT, NONE),
	U(0x24, 0x52800022, "mov w2, #0x1", ALU, "", "x2", 0, 0, NOT, NONE),
	/* logical immediate: Rn 31 is wzr */
	U(0x28, 0x321003e2, "orr w2, wzr, #0x10000", ALU, "", "x2", 0, 0, NOT, NONE),
	U(0x2c, 0xaa0103e0, "mov x0, x1", ALU, "x1", "x0", 0, F64, NOT, NONE),
	U(0x30, 0x8b020c20, "add x0, x1, x2, lsl #3", ALU_SHIFT, "x1,x2", "x0", 0, F64 | FSH, NOT, NONE),
	/* extended register: Rn is Xn|SP; uxtw #2 changes the operand */
	U(0x34, 0x8b214be0, "add x0, sp, w1, uxtw #2", ALU_SHIFT, "sp,x1", "x0", 0, F64 | FSH, NOT, NONE),
	/* option uxtx, amount 0: a plain 64-bit subtract from SP */
	U(0x38, 0xcb2163ff, "sub sp, sp, x1", ALU, "sp,x1", "sp", 0, F64, NOT, NONE),
	U(0x3c, 0xd2a24680, "mov x0, #0x12340000", ALU, "", "x0", 0, F64, NOT, NONE),
	/* movk keeps the other 48 bits */
	U(0x40, 0xf28acf00, "movk x0, #0x5678", ALU, "x0", "x0", 0, F64, NOT, NONE),
	U(0x44, 0x12800000, "mov w0, #0xffffffff", ALU, "", "x0", 0, 0, NOT, NONE),
	/* adrp: (pc & ~0xfff) + (immhi:immlo << 12); adr: pc + imm21 */
	U(0x48, 0x90000000, "adrp x0, 0 <start>", ALU, "", "x0", 0, F64, 0x0, NONE),
	U(0x4c, 0x10fffde1, "adr x1, 8 <start+0x8>", ALU, "", "x1", 0, F64, 0x8, NONE),
	U(0x50, 0xd3442c20, "ubfx x0, x1, #4, #8", BITFIELD, "x1", "x0", 0, F64, NOT, NONE),
	U(0x54, 0xd37df020, "lsl x0, x1, #3", BITFIELD, "x1", "x0", 0, F64, NOT, NONE),
	/* bfm (bfi) merges into Rd, so Rd is read */
	U(0x58, 0x331d0c20, "bfi w0, w1, #3, #4", BITFIELD, "x0,x1", "x0", 0, 0, NOT, NONE),
	U(0x5c, 0x93407c20, "sxtw x0, w1", BITFIELD, "x1", "x0", 0, F64, NOT, NONE),
	U(0x60, 0x93c21c20, "extr x0, x1, x2, #7", BITFIELD, "x1,x2", "x0", 0, F64, NOT, NONE),
	U(0x64, 0x9ac22020, "lsl x0, x1, x2", SHIFT_REG, "x1,x2", "x0", 0, F64, NOT, NONE),
	/* mul is madd with Ra = xzr */
	U(0x68, 0x9b027c20, "mul x0, x1, x2", MUL, "x1,x2", "x0", 0, F64, NOT, NONE),
	U(0x6c, 0x9b020c20, "madd x0, x1, x2, x3", MUL, "x1,x2,x3", "x0", 0, F64, NOT, NONE),
	U(0x70, 0x9ba20c20, "umaddl x0, w1, w2, x3", MUL, "x1,x2,x3", "x0", 0, F64, NOT, NONE),
	U(0x74, 0x9b427c20, "smulh x0, x1, x2", MULH, "x1,x2", "x0", 0, F64, NOT, NONE),
	U(0x78, 0x1ac20820, "udiv w0, w1, w2", DIV, "x1,x2", "x0", 0, 0, NOT, NONE),
	U(0x7c, 0x9a820020, "csel x0, x1, x2, eq", ALU, "x1,x2,nzcv", "x0", 0, F64, NOT, 0),
	/* cset w0, ne is csinc w0, wzr, wzr, eq */
	U(0x80, 0x1a9f07e0, "cset w0, ne", ALU, "nzcv", "x0", 0, 0, NOT, 0),
	U(0x84, 0xfa421800, "ccmp x0, #0x2, #0x0, ne", ALU, "x0,nzcv", "nzcv", 0, F64 | FSET, NOT, 1),
	U(0x88, 0x9a020020, "adc x0, x1, x2", ALU, "x1,x2,nzcv", "x0", 0, F64, NOT, NONE),
	U(0x8c, 0xdac00c20, "rev x0, x1", ALU, "x1", "x0", 0, F64, NOT, NONE),
	U(0x90, 0x5ac01020, "clz w0, w1", ALU, "x1", "x0", 0, 0, NOT, NONE),
	U(0x94, 0xcb840be3, "neg x3, x4, asr #2", ALU_SHIFT, "x4", "x3", 0, F64 | FSH, NOT, NONE),

	/* loads and stores: the base is Xn|SP, writeback also writes it */
	U(0x98, 0xf9400420, "ldr x0, [x1, #8]", LOAD, "x1", "x0", 8, F64, NOT, NONE),
	U(0x9c, 0xb94007e0, "ldr w0, [sp, #4]", LOAD, "sp", "x0", 4, 0, NOT, NONE),
	U(0xa0, 0x38626820, "ldrb w0, [x1, x2]", LOAD, "x1,x2", "x0", 1, FRO, NOT, NONE),
	U(0xa4, 0xb8a2d820, "ldrsw x0, [x1, w2, sxtw #2]", LOAD, "x1,x2", "x0", 4, FRO | FSX | F64, NOT, NONE),
	U(0xa8, 0xf8410c20, "ldr x0, [x1, #16]!", LOAD, "x1", "x0,x1", 8, FWB | F64, NOT, NONE),
	U(0xac, 0xf8008420, "str x0, [x1], #8", STORE, "x0,x1", "x1", 8, FWB | F64, NOT, NONE),
	U(0xb0, 0xb81fc3a0, "stur w0, [x29, #-4]", STORE, "x0,x29", "", 4, 0, NOT, NONE),
	U(0xb4, 0x7900001f, "strh wzr, [x0]", STORE, "x0", "", 2, 0, NOT, NONE),
	U(0xb8, 0xa8c17bfd, "ldp x29, x30, [sp], #16", LOAD, "sp", "x29,x30,sp", 16, FPR | FWB | F64, NOT, NONE),
	U(0xbc, 0xa9be7bfd, "stp x29, x30, [sp, #-32]!", STORE, "x29,x30,sp", "sp", 16, FPR | FWB | F64, NOT, NONE),
	U(0xc0, 0x29400440, "ldp w0, w1, [x2]", LOAD, "x2", "x0,x1", 8, FPR, NOT, NONE),
	U(0xc4, 0xa8400440, "ldnp x0, x1, [x2]", LOAD, "x2", "x0,x1", 16, FPR | F64, NOT, NONE),
	U(0xc8, 0x69400440, "ldpsw x0, x1, [x2]", LOAD, "x2", "x0,x1", 8, FPR | FSX | F64, NOT, NONE),
	U(0xcc, 0x58fff9a0, "ldr x0, 0 <start>", LOAD, "", "x0", 8, FLIT | F64, 0x0, NONE),
	U(0xd0, 0xf8400820, "ldtr x0, [x1]", LOAD, "x1", "x0", 8, FUN | F64, NOT, NONE),
	/* opc 11: sign-extend into a W register */
	U(0xd4, 0x39c00420, "ldrsb w0, [x1, #1]", LOAD, "x1", "x0", 1, FSX, NOT, NONE),

	/* exclusives and ordered: the store status register is written */
	U(0xd8, 0xc85f7c20, "ldxr x0, [x1]", LOAD_EX, "x1", "x0", 8, F64, NOT, NONE),
	U(0xdc, 0x885ffc20, "ldaxr w0, [x1]", LOAD_EX, "x1", "x0", 4, FACQ, NOT, NONE),
	U(0xe0, 0xc8027c20, "stxr w2, x0, [x1]", STORE_EX, "x0,x1", "x2", 8, F64, NOT, NONE),
	U(0xe4, 0x8802fc20, "stlxr w2, w0, [x1]", STORE_EX, "x0,x1", "x2", 4, FREL, NOT, NONE),
	U(0xe8, 0xc87f0440, "ldxp x0, x1, [x2]", LOAD_EX, "x2", "x0,x1", 16, FPR | F64, NOT, NONE),
	U(0xec, 0xc8238440, "stlxp w3, x0, x1, [x2]", STORE_EX, "x0,x1,x2", "x3", 16, FPR | FREL | F64, NOT, NONE),
	U(0xf0, 0xc8dffc20, "ldar x0, [x1]", LOAD, "x1", "x0", 8, FACQ | F64, NOT, NONE),
	U(0xf4, 0x889ffc20, "stlr w0, [x1]", STORE, "x0,x1", "", 4, FREL, NOT, NONE),
	U(0xf8, 0x089fffe0, "stlrb w0, [sp]", STORE, "x0,sp", "", 1, FREL, NOT, NONE),
	U(0xfc, 0xf8bfc020, "ldapr x0, [x1]", LOAD, "x1", "x0", 8, FACQ | FRC | F64, NOT, NONE),
	U(0x100, 0x38bfc020, "ldaprb w0, [x1]", LOAD, "x1", "x0", 1, FACQ | FRC, NOT, NONE),
	U(0x104, 0x995fc020, "ldapur w0, [x1, #-4]", LOAD, "x1", "x0", 4, FACQ | FRC, NOT, NONE),
	U(0x108, 0xd9008020, "stlur x0, [x1, #8]", STORE, "x0,x1", "", 8, FREL | F64, NOT, NONE),

	/* LSE: ld<op> Rs, Rt: Rs read, Rt gets the old value */
	U(0x10c, 0xf8200041, "ldadd x0, x1, [x2]", ATOMIC, "x0,x2", "x1", 8, F64, NOT, NONE),
	U(0x110, 0xb8e003e1, "ldaddal w0, w1, [sp]", ATOMIC, "x0,sp", "x1", 4, FACQ | FREL, NOT, NONE),
	/* st<op> is ld<op> with Rt = zr: nothing written */
	U(0x114, 0xb820003f, "stadd w0, [x1]", ATOMIC, "x0,x1", "", 4, 0, NOT, NONE),
	U(0x118, 0xf860003f, "staddl x0, [x1]", ATOMIC, "x0,x1", "", 8, FREL | F64, NOT, NONE),
	U(0x11c, 0x38201041, "ldclrb w0, w1, [x2]", ATOMIC, "x0,x2", "x1", 1, 0, NOT, NONE),
	U(0x120, 0x78a03041, "ldsetah w0, w1, [x2]", ATOMIC, "x0,x2", "x1", 2, FACQ, NOT, NONE),
	U(0x124, 0xf8604041, "ldsmaxl x0, x1, [x2]", ATOMIC, "x0,x2", "x1", 8, FREL | F64, NOT, NONE),
	U(0x128, 0xb82570e6, "ldumin w5, w6, [x7]", ATOMIC, "x5,x7", "x6", 4, 0, NOT, NONE),
	U(0x12c, 0xf8e08041, "swpal x0, x1, [x2]", ATOMIC, "x0,x2", "x1", 8, FACQ | FREL | F64, NOT, NONE),
	/* cas Rs, Rt: Rs is compared and receives the old value */
	U(0x130, 0xc8a07c41, "cas x0, x1, [x2]", ATOMIC, "x0,x1,x2", "x0", 8, F64, NOT, NONE),
	U(0x134, 0x88e0fc41, "casal w0, w1, [x2]", ATOMIC, "x0,x1,x2", "x0", 4, FACQ | FREL, NOT, NONE),
	U(0x138, 0x08a07c41, "casb w0, w1, [x2]", ATOMIC, "x0,x1,x2", "x0", 1, 0, NOT, NONE),
	U(0x13c, 0x48207c82, "casp x0, x1, x2, x3, [x4]", ATOMIC, "x0,x1,x2,x3,x4", "x0,x1", 16, FPR | F64, NOT, NONE),
	U(0x140, 0x0864ffe6, "caspal w4, w5, w6, w7, [sp]", ATOMIC, "x4,x5,x6,x7,sp", "x4,x5", 8, FPR | FACQ | FREL, NOT, NONE),
	U(0x144, 0xf9800000, "prfm pldl1keep, [x0]", PRFM, "x0", "", 0, 0, NOT, NONE),

	/* branches: targets are absolute, bl/blr write x30 */
	U(0x148, 0x17ffffae, "b 0 <start>", BRANCH, "", "", 0, 0, 0x0, NONE),
	U(0x14c, 0x97ffffad, "bl 0 <start>", CALL, "", "x30", 0, 0, 0x0, NONE),
	U(0x150, 0x54fff581, "b.ne 0 <start>", BCOND, "nzcv", "", 0, 0, 0x0, 1),
	U(0x154, 0xb4fff560, "cbz x0, 0 <start>", BCOND, "x0", "", 0, F64, 0x0, 0),
	U(0x158, 0x371ff540, "tbnz w0, #3, 0 <start>", BCOND, "x0", "", 0, 0, 0x0, 0),
	U(0x15c, 0xd61f0200, "br x16", BR_IND, "x16", "", 0, 0, NOT, NONE),
	U(0x160, 0xd63f0020, "blr x1", CALL_IND, "x1", "x30", 0, 0, NOT, NONE),
	U(0x164, 0xd65f03c0, "ret", RET, "x30", "", 0, 0, NOT, NONE),
	/* retaa: x30 authenticated with SP as the modifier */
	U(0x168, 0xd65f0bff, "retaa", RET, "x30,sp", "", 0, FPAC, NOT, NONE),
	U(0x16c, 0xd71f0801, "braa x0, x1", BR_IND, "x0,x1", "", 0, FPAC, NOT, NONE),
	U(0x170, 0xd63f081f, "blraaz x0", CALL_IND, "x0", "x30", 0, FPAC, NOT, NONE),
	U(0x174, 0xd69f03e0, "eret", ERET, "", "", 0, 0, NOT, NONE),
	U(0x178, 0xd69f0bff, "eretaa", ERET, "sp", "", 0, FPAC, NOT, NONE),

	/* barriers: cond is CRm (ish 1011, sy 1111) */
	U(0x17c, 0xd5033bbf, "dmb ish", DMB, "", "", 0, 0, NOT, 0xb),
	U(0x180, 0xd5033f9f, "dsb sy", DSB, "", "", 0, 0, NOT, 0xf),
	U(0x184, 0xd5033fdf, "isb", ISB, "", "", 0, 0, NOT, 0xf),
	U(0x188, 0xd50330ff, "sb", SB, "", "", 0, 0, NOT, NONE),
	U(0x18c, 0xd503229f, "csdb", CSDB, "", "", 0, 0, NOT, NONE),
	U(0x250, 0xd503309f, "ssbb", DSB, "", "", 0, 0, NOT, 0x0),

	/* system registers: extra is the op0:op1:CRn:CRm:op2 encoding */
	U(0x190, 0xd538d080, "mrs x0, tpidr_el1", MRS, "", "x0", 0, 0, NOT, SR(3, 0, 13, 0, 4)),
	U(0x194, 0xd518d081, "msr tpidr_el1, x1", MSR, "x1", "", 0, 0, NOT, SR(3, 0, 13, 0, 4)),
	U(0x198, 0xd5384101, "mrs x1, sp_el0", MRS, "", "x1", 0, 0, NOT, SR(3, 0, 4, 1, 0)),
	U(0x19c, 0xd5184102, "msr sp_el0, x2", MSR, "x2", "", 0, 0, NOT, SR(3, 0, 4, 1, 0)),
	U(0x1a0, 0xd53b4220, "mrs x0, daif", MRS, "", "x0", 0, 0, NOT, SR(3, 3, 4, 2, 1)),
	U(0x1a4, 0xd51b4220, "msr daif, x0", MSR, "x0", "", 0, 0, NOT, SR(3, 3, 4, 2, 1)),
	U(0x1a8, 0xd538cc00, "mrs x0, icc_iar1_el1", MRS, "", "x0", 0, 0, NOT, SR(3, 0, 12, 12, 0)),
	U(0x1ac, 0xd518cc20, "msr icc_eoir1_el1, x0", MSR, "x0", "", 0, 0, NOT, SR(3, 0, 12, 12, 1)),
	U(0x1bc, 0xd53b4200, "mrs x0, nzcv", MRS, "nzcv", "x0", 0, 0, NOT, SR(3, 3, 4, 2, 0)),
	/* msr <pstatefield>, #imm: cond holds the immediate */
	U(0x1b0, 0xd50342df, "msr daifset, #0x2", MSR_IMM, "", "", 0, 0, NOT, 2),
	U(0x1b4, 0xd5034fff, "msr daifclr, #0xf", MSR_IMM, "", "", 0, 0, NOT, 0xf),
	U(0x1b8, 0xd500419f, "msr pan, #0x1", MSR_IMM, "", "", 0, 0, NOT, 1),
	U(0x1c0, 0xd508831f, "tlbi vmalle1is", SYS, "", "", 0, 0, NOT, SR(1, 0, 8, 3, 0)),
	U(0x1c4, 0xd5088320, "tlbi vae1is, x0", SYS, "x0", "", 0, 0, NOT, SR(1, 0, 8, 3, 1)),
	U(0x1c8, 0xd50b7e20, "dc civac, x0", SYS, "x0", "", 0, 0, NOT, SR(1, 3, 7, 14, 1)),
	U(0x1cc, 0xd508751f, "ic iallu", SYS, "", "", 0, 0, NOT, SR(1, 0, 7, 5, 0)),

	/* pointer authentication and BTI hints */
	U(0x1d0, 0xd503233f, "paciasp", PAC, "x30,sp", "x30", 0, 0, NOT, NONE),
	U(0x1d4, 0xd50323bf, "autiasp", PAC, "x30,sp", "x30", 0, 0, NOT, NONE),
	U(0x1d8, 0xd503231f, "paciaz", PAC, "x30", "x30", 0, 0, NOT, NONE),
	U(0x1dc, 0xd50320ff, "xpaclri", PAC, "x30", "x30", 0, 0, NOT, NONE),
	U(0x1e0, 0xd503211f, "pacia1716", PAC, "x16,x17", "x17", 0, 0, NOT, NONE),
	U(0x1e4, 0xdac10020, "pacia x0, x1", PAC, "x0,x1", "x0", 0, F64, NOT, NONE),
	U(0x1e8, 0xdac117e0, "autib x0, sp", PAC, "x0,sp", "x0", 0, F64, NOT, NONE),
	U(0x1ec, 0xdac143e0, "xpaci x0", PAC, "x0", "x0", 0, F64, NOT, NONE),
	U(0x1f0, 0x9ac23020, "pacga x0, x1, x2", PAC, "x1,x2", "x0", 0, F64, NOT, NONE),
	U(0x1f4, 0xd503245f, "bti c", BTI, "", "", 0, 0, NOT, NONE),
	U(0x1f8, 0xd503201f, "nop", NOP, "", "", 0, 0, NOT, NONE),
	U(0x1fc, 0xd503203f, "yield", NOP, "", "", 0, 0, NOT, NONE),
	U(0x200, 0xd503207f, "wfi", WFX, "", "", 0, 0, NOT, NONE),
	U(0x204, 0xd503205f, "wfe", WFX, "", "", 0, 0, NOT, NONE),
	U(0x24c, 0xd5031000, "wfet x0", WFX, "x0", "", 0, 0, NOT, NONE),
	U(0x208, 0xd4000001, "svc #0x0", EXC, "", "", 0, 0, NOT, NONE),
	U(0x20c, 0xd4000002, "hvc #0x0", EXC, "", "", 0, 0, NOT, NONE),
	U(0x210, 0xd4210000, "brk #0x800", EXC, "", "", 0, 0, NOT, NONE),
	U(0x214, 0x00000000, "udf #0", EXC, "", "", 0, 0, NOT, NONE),
	U(0x218, 0xd5033f5f, "clrex", NOP, "", "", 0, 0, NOT, NONE),

	/* FP/SIMD: V registers where easy, general registers always */
	/* 4 V registers + writeback base do not fit dst[4]: v3 dropped */
	U(0x21c, 0x4cdf2000, "ld1 {v0.16b-v3.16b}, [x0], #64", LOAD, "x0", "x0,v0,v1,v2", 64, FFP | FWB | FTR, NOT, NONE),
	U(0x220, 0x3dc00420, "ldr q0, [x1, #16]", LOAD, "x1", "v0", 16, FFP, NOT, NONE),
	U(0x224, 0xadbf07e0, "stp q0, q1, [sp, #-32]!", STORE, "v0,v1,sp", "sp", 32, FFP | FPR | FWB, NOT, NONE),
	U(0x228, 0x5cffeec0, "ldr d0, 0 <start>", LOAD, "", "v0", 8, FFP | FLIT, 0x0, NONE),
	/* a single-lane load keeps the other lanes: v1 read and written */
	U(0x254, 0x0d409041, "ld1 {v1.s}[1], [x2]", LOAD, "x2,v1", "v1", 4, FFP, NOT, NONE),
	U(0x22c, 0x1e622820, "fadd d0, d1, d2", FPSIMD, "v1,v2", "v0", 0, 0, NOT, NONE),
	U(0x230, 0x9e660020, "fmov x0, d1", FPSIMD, "v1", "x0", 0, F64, NOT, NONE),
	U(0x234, 0x0e0c3c20, "mov w0, v1.s[1]", FPSIMD, "v1", "x0", 0, 0, NOT, NONE),
	U(0x238, 0x4e040c20, "dup v0.4s, w1", FPSIMD, "x1", "v0", 0, 0, NOT, NONE),
	U(0x23c, 0x1e612000, "fcmp d0, d1", FPSIMD, "v0,v1", "nzcv", 0, FSET, NOT, NONE),
	U(0x240, 0x1e220c20, "fcsel s0, s1, s2, eq", FPSIMD, "v1,v2,nzcv", "v0", 0, 0, NOT, 0),
	U(0x244, 0x9e620020, "scvtf d0, x1", FPSIMD, "x1", "v0", 0, F64, NOT, NONE),
	U(0x258, 0x4e22cc20, "fmla v0.4s, v1.4s, v2.4s", FPSIMD, "v0,v1,v2", "v0", 0, 0, NOT, NONE),
	/* crc32 is charged like a multiply (see a64_dp.c) */
	U(0x248, 0x9ac24c20, "crc32x w0, w1, x2", MUL, "x1,x2", "x0", 0, F64, NOT, NONE),
};

/* "x0,sp,nzcv" -> mask; returns 0 and fails the test on an unknown name */
typedef unsigned __int128 rset;

static rset parse_regs(const char *s)
{
	char name[16];
	rset m = 0;
	unsigned r;

	while (*s) {
		size_t n = strcspn(s, ",");

		cr_assert(n > 0 && n < sizeof(name), "bad register list '%s'", s);
		memcpy(name, s, n);
		name[n] = '\0';
		for (r = 0; r < A64_NREGS; r++)
			if (!strcmp(a64_reg_name(r), name))
				break;
		cr_assert(r < A64_NREGS, "unknown register '%s'", name);
		m |= (rset)1 << r;
		s += n;
		if (*s == ',')
			s++;
	}
	return m;
}

static rset set_of(const uint8_t *r, unsigned n)
{
	rset m = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		m |= (rset)1 << r[i];
	return m;
}

static void fmt_set(char *buf, size_t len, rset m)
{
	size_t pos = 0;
	unsigned r;

	buf[0] = '\0';
	for (r = 0; r < A64_NREGS && pos + 8 < len; r++)
		if ((m >> r) & 1)
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s",
						pos ? "," : "", a64_reg_name(r));
}

Test(a64, unit)
{
	unsigned i, bad = 0, cls_seen[A64_C_NCLASSES] = { 0 };

	cr_assert_geq(sizeof(units) / sizeof(units[0]), 60);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const struct unit *u = &units[i];
		struct a64_insn in;
		rset src, dst;
		char a[128], b[128];
		int rc = a64_decode(u->word, u->pc, &in);
		int ok = 1;

		src = set_of(in.src, in.nsrc);
		dst = set_of(in.dst, in.ndst);
		cls_seen[in.cls]++;
		if (rc != 0 || in.cls != u->cls || in.word != u->word) {
			fprintf(stderr, "%08x %-28s class %s, want %s\n", u->word,
				u->text, a64_class_name(in.cls), a64_class_name(u->cls));
			ok = 0;
		}
		if (src != parse_regs(u->src) || dst != parse_regs(u->dst)) {
			fmt_set(a, sizeof(a), src);
			fmt_set(b, sizeof(b), dst);
			fprintf(stderr, "%08x %-28s src {%s} dst {%s}, want {%s} {%s}\n",
				u->word, u->text, a, b, u->src, u->dst);
			ok = 0;
		}
		if (in.mem_size != u->mem || in.flags != u->flags) {
			fprintf(stderr, "%08x %-28s mem %u flags %#x, want %u %#x\n",
				u->word, u->text, in.mem_size, in.flags, u->mem, u->flags);
			ok = 0;
		}
		if (in.target != (u->target == NOT ? 0 : u->target)) {
			fprintf(stderr, "%08x %-28s target %#" PRIx64 "\n", u->word,
				u->text, in.target);
			ok = 0;
		}
		if (u->extra != NONE) {
			int got = (in.cls == A64_C_MRS || in.cls == A64_C_MSR ||
				   in.cls == A64_C_SYS) ? in.sysreg : in.cond;

			if (got != u->extra) {
				fprintf(stderr, "%08x %-28s cond/sysreg %#x, want %#x\n",
					u->word, u->text, got, u->extra);
				ok = 0;
			}
		}
		bad += !ok;
	}
	/* every class but UNKNOWN is exercised */
	for (i = 1; i < A64_C_NCLASSES; i++)
		cr_expect(cls_seen[i], "no unit test for class %s", a64_class_name(i));
	cr_assert_eq(bad, 0, "%u of %zu unit words wrong", bad,
		     sizeof(units) / sizeof(units[0]));
}

/* ------------------------------------------------------------------ */
/* a64/image: every instruction of the kernel image against objdump    */

/*
 * For each instruction objdump -d prints (all executable sections; ".word"
 * lines are data marked by $d mapping symbols and are skipped):
 *
 *  (a) class: from the mnemonic (tables below; aliases under the class of
 *      the instruction they stand for).  ".inst" must decode as unknown,
 *      "udf" as exc.  Decisions rather than facts, kept in one place:
 *      crc32* is MUL (multiply pipe and latency), clrex and the effect-free
 *      hints (yield, esb, psb, tsb, dgh, clearbhb, unnamed hint #n) are
 *      NOP, ssbb/pssbb are DSB (cond 0/4), cfinv/xaflag/axflag are ALU,
 *      ALU_SHIFT only when a register operand really is shifted/extended.
 *  (b) general registers: the set objdump names (w and x as one id, sp,
 *      never xzr/wzr) plus the implicit ones the Arm ARM gives the
 *      instruction (implicit_gprs(): x30 of bl/blr/ret and of the PAC
 *      hints, sp of paciasp/retaa/eretaa, x16/x17 of the 1716 hints) must
 *      equal src|dst.  NZCV must be written by exactly the flag setters
 *      and read by exactly the flag users (sets_nzcv()/reads_nzcv()).
 *  (c) mem_size: from the mnemonic's size suffix or the data register's
 *      width, twice for pairs; ld1-4/st1-4 from the register list.  prfm
 *      is 0 (a hint: nothing reaches a register), as are the MTE block
 *      and tag-only forms; stg 16, st2g 32.
 *  (d) the branch, adr(p) and literal target objdump prints.
 *  (e) the system register name objdump prints, from a64_sysreg_name();
 *      the one encoding with two names by direction (dbgdtrrx_el0 when
 *      read, dbgdtrtx_el0 when written) compares as the read name.
 *  (f) a64_disasm(): same mnemonic, and the same general registers in the
 *      same order.  The rest of the operand text is not compared: Capstone
 *      writes immediates and offsets in hex ("#-0x50") where objdump uses
 *      decimal, branch targets as "#0x..." without the <symbol>, and some
 *      system registers as s3_0_c12_c12_0.
 *
 * Differences from objdump 2.40 seen on random words (not in any kernel,
 * see the report): objdump also decodes msr/mrs with op0 = 00 outside the
 * PSTATE/hint space, ldpsw with Rt == Rt2 only as .inst, and fmlal with
 * sz = 1; the decoder follows the Arm ARM in all three.
 */

/*
 * Expected class of an objdump mnemonic.  Aliases are listed under the
 * class of the instruction they stand for (cmp = subs, mul = madd,
 * cset = csinc, ubfx = ubfm, stadd = ldadd with Rt = zr...).  The few that
 * depend on the operands are sorted out in expect_class().
 */
static const char *const m_alu[] = {
	"mov", "movz", "movn", "movk", "mvn", "add", "adds", "sub", "subs",
	"cmp", "cmn", "neg", "negs", "and", "ands", "orr", "eor", "bic", "bics",
	"orn", "eon", "tst", "adr", "adrp", "csel", "csinc", "csinv", "csneg",
	"cset", "csetm", "cinc", "cinv", "cneg", "ccmp", "ccmn", "adc", "adcs",
	"sbc", "sbcs", "ngc", "ngcs", "rev", "rev16", "rev32", "rbit", "clz",
	"cls", "cfinv", "xaflag", "axflag", "rmif", "setf8", "setf16", "irg",
	"gmi", "subp", "subps", "cmpp", "addg", "subg", NULL
};
static const char *const m_bitfield[] = {
	"ubfx", "ubfiz", "sbfx", "sbfiz", "bfi", "bfxil", "bfc", "sxtb", "sxth",
	"sxtw", "uxtb", "uxth", "extr", "sbfm", "ubfm", "bfm", NULL
};
static const char *const m_shift_reg[] = { "lslv", "lsrv", "asrv", "rorv", NULL };
/* crc32 is charged as a multiply: same pipeline and latency class */
static const char *const m_mul[] = {
	"mul", "madd", "msub", "mneg", "smaddl", "smsubl", "umaddl", "umsubl",
	"smull", "umull", "smnegl", "umnegl", "crc32b", "crc32h", "crc32w",
	"crc32x", "crc32cb", "crc32ch", "crc32cw", "crc32cx", NULL
};
static const char *const m_mulh[] = { "smulh", "umulh", NULL };
static const char *const m_div[] = { "udiv", "sdiv", NULL };
static const char *const m_load[] = {
	"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "ldur", "ldurb",
	"ldurh", "ldursb", "ldursh", "ldursw", "ldp", "ldpsw", "ldnp", "ldtr",
	"ldtrb", "ldtrh", "ldtrsb", "ldtrsh", "ldtrsw", "ldar", "ldarb", "ldarh",
	"ldlar", "ldlarb", "ldlarh", "ldapr", "ldaprb", "ldaprh", "ldapur",
	"ldapurb", "ldapurh", "ldapursb", "ldapursh", "ldapursw", "ldraa",
	"ldrab", "ldg", "ldgm", "ld1", "ld2", "ld3", "ld4", "ld1r", "ld2r",
	"ld3r", "ld4r", NULL
};
static const char *const m_store[] = {
	"str", "strb", "strh", "stur", "sturb", "sturh", "stp", "stnp", "sttr",
	"sttrb", "sttrh", "stlr", "stlrb", "stlrh", "stllr", "stllrb", "stllrh",
	"stlur", "stlurb", "stlurh", "st1", "st2", "st3", "st4", "stg", "stzg",
	"st2g", "stz2g", "stgp", "stgm", "stzgm", NULL
};
static const char *const m_load_ex[] = {
	"ldxr", "ldxrb", "ldxrh", "ldaxr", "ldaxrb", "ldaxrh", "ldxp", "ldaxp", NULL
};
static const char *const m_store_ex[] = {
	"stxr", "stxrb", "stxrh", "stlxr", "stlxrb", "stlxrh", "stxp", "stlxp", NULL
};
static const char *const m_prfm[] = { "prfm", "prfum", NULL };
static const char *const m_bcond[] = { "cbz", "cbnz", "tbz", "tbnz", NULL };
static const char *const m_call_ind[] = { "blr", "blraa", "blrab", "blraaz", "blrabz", NULL };
static const char *const m_br_ind[] = { "br", "braa", "brab", "braaz", "brabz", NULL };
static const char *const m_ret[] = { "ret", "retaa", "retab", NULL };
static const char *const m_eret[] = { "eret", "eretaa", "eretab", "drps", NULL };
static const char *const m_dsb[] = { "dsb", "ssbb", "pssbb", NULL };
static const char *const m_sys[] = {
	"sys", "sysl", "tlbi", "dc", "ic", "at", "cfp", "dvp", "cpp", "cosp", NULL
};
static const char *const m_pac[] = {
	"pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda", "autdb",
	"paciza", "pacizb", "pacdza", "pacdzb", "autiza", "autizb", "autdza",
	"autdzb", "xpaci", "xpacd", "xpaclri", "pacia1716", "pacib1716",
	"autia1716", "autib1716", "paciaz", "paciasp", "pacibz", "pacibsp",
	"autiaz", "autiasp", "autibz", "autibsp", "pacga", NULL
};
static const char *const m_exc[] = {
	"svc", "hvc", "smc", "brk", "hlt", "udf", "dcps1", "dcps2", "dcps3", NULL
};
static const char *const m_wfx[] = { "wfi", "wfe", "sev", "sevl", "wfet", "wfit", NULL };
/* hints without architectural effect on registers or memory ordering */
static const char *const m_nop[] = {
	"nop", "yield", "hint", "esb", "psb", "tsb", "dgh", "clearbhb", "clrex", NULL
};

static const struct {
	const char *const *list;
	uint8_t cls;
} mtabs[] = {
	{ m_alu, A64_C_ALU }, { m_bitfield, A64_C_BITFIELD },
	{ m_shift_reg, A64_C_SHIFT_REG }, { m_mul, A64_C_MUL },
	{ m_mulh, A64_C_MULH }, { m_div, A64_C_DIV }, { m_load, A64_C_LOAD },
	{ m_store, A64_C_STORE }, { m_load_ex, A64_C_LOAD_EX },
	{ m_store_ex, A64_C_STORE_EX }, { m_prfm, A64_C_PRFM },
	{ m_bcond, A64_C_BCOND }, { m_call_ind, A64_C_CALL_IND },
	{ m_br_ind, A64_C_BR_IND }, { m_ret, A64_C_RET }, { m_eret, A64_C_ERET },
	{ m_dsb, A64_C_DSB }, { m_sys, A64_C_SYS }, { m_pac, A64_C_PAC },
	{ m_exc, A64_C_EXC }, { m_wfx, A64_C_WFX }, { m_nop, A64_C_NOP },
};

static int in_list(const char *const *l, const char *m)
{
	for (; *l; l++)
		if (!strcmp(*l, m))
			return 1;
	return 0;
}

/*
 * LSE mnemonics: ld<op>/st<op> with {,a,l,al} (st: {,l}) and {,b,h};
 * swp, cas with {,a,l,al}{,b,h}; casp with {,a,l,al}.
 */
static int is_lse(const char *m)
{
	static const char *const ops[] = {
		"add", "clr", "eor", "set", "smax", "smin", "umax", "umin", NULL
	};
	static const char *const ord[] = { "al", "a", "l", "", NULL };
	const char *p;
	size_t n;
	int i, j;

	if (!strncmp(m, "casp", 4)) {
		for (j = 0; ord[j]; j++)
			if (!strcmp(m + 4, ord[j]))
				return 1;
		return 0;
	}
	if (!strncmp(m, "cas", 3) || !strncmp(m, "swp", 3)) {
		p = m + 3;
	} else if (!strncmp(m, "ld", 2) || !strncmp(m, "st", 2)) {
		for (i = 0; ops[i]; i++)
			if (!strncmp(m + 2, ops[i], strlen(ops[i])))
				break;
		if (!ops[i])
			return 0;
		p = m + 2 + strlen(ops[i]);
		/* the longest op names first would be needed if one op were a
		 * prefix of another; "smax"/"smin"/"umax"/"umin" are not */
	} else {
		return 0;
	}
	for (j = 0; ord[j]; j++) {
		n = strlen(ord[j]);
		if (strncmp(p, ord[j], n))
			continue;
		if (!strcmp(p + n, "") || !strcmp(p + n, "b") || !strcmp(p + n, "h"))
			return !(m[0] == 's' && m[1] == 't' && strchr(ord[j], 'a'));
	}
	return 0;
}

/* an operand token naming an FP/SIMD register: v3.16b, q0, d1, s2, h3, b4 */
static int is_fpreg(const char *t)
{
	if (!strchr("vqdshb", t[0]) || !isdigit((unsigned char)t[1]))
		return 0;
	t++;
	while (isdigit((unsigned char)*t))
		t++;
	return *t == '\0' || *t == '.';
}

/* general register id of a token, -1 if not one, -2 for xzr/wzr */
static int gpr_id(const char *t)
{
	char *end;
	long n;

	if (!strcmp(t, "sp") || !strcmp(t, "wsp"))
		return A64_R_SP;
	if (!strcmp(t, "xzr") || !strcmp(t, "wzr"))
		return -2;
	if ((t[0] != 'x' && t[0] != 'w') || !isdigit((unsigned char)t[1]))
		return -1;
	n = strtol(t + 1, &end, 10);
	if (*end || n > 30)
		return -1;
	return (int)n;
}

/* one parsed line of objdump -d */
struct oline {
	uint64_t addr;
	uint32_t word;
	char mnem[32];
	char ops[192];		/* operands without <symbol> and // comments */
	char tok[12][40];	/* operand tokens */
	int ntok;
};

static int parse_oline(const char *line, struct oline *o)
{
	const char *p = line, *q;
	char *w;
	size_t n, i;

	memset(o, 0, offsetof(struct oline, tok));
	o->ntok = 0;
	while (*p == ' ')
		p++;
	if (!isxdigit((unsigned char)*p))
		return 0;
	o->addr = strtoull(p, (char **)&q, 16);
	if (q[0] != ':' || q[1] != '\t')
		return 0;
	p = q + 2;
	for (i = 0; i < 8; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	o->word = (uint32_t)strtoul(p, NULL, 16);
	p += 8;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "\t\n ");
	if (!n || n >= sizeof(o->mnem))
		return 0;
	memcpy(o->mnem, p, n);
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	/* operands up to a comment ("//", "; undefined"), dropping <sym> */
	for (w = o->ops; *p && *p != '\n' && w < o->ops + sizeof(o->ops) - 1; p++) {
		if ((p[0] == '/' && p[1] == '/') || p[0] == ';')
			break;
		if (*p == '<') {
			while (*p && *p != '>')
				p++;
			if (!*p)
				break;
			continue;
		}
		*w++ = *p;
	}
	while (w > o->ops && (w[-1] == ' ' || w[-1] == '\t'))
		w--;
	*w = '\0';
	/* tokens: split on separators; "#-4" and "[x0]" pieces fall apart */
	for (p = o->ops; *p && o->ntok < 12;) {
		n = strcspn(p, " ,[]{}!-\t");
		if (n && n < sizeof(o->tok[0])) {
			memcpy(o->tok[o->ntok], p, n);
			o->tok[o->ntok][n] = '\0';
			o->ntok++;
		}
		p += n;
		if (*p)
			p++;
	}
	return 1;
}

static int printed_target(const struct oline *o, uint64_t *t);

/* FP/SIMD register operands; a printed target address ("b40") is none */
static int ops_have_fpreg(const struct oline *o)
{
	uint64_t t;
	int i, n = o->ntok;

	if (printed_target(o, &t))
		n--;
	for (i = 0; i < n; i++)
		if (is_fpreg(o->tok[i]))
			return 1;
	return 0;
}

/*
 * ALU or ALU_SHIFT for the add/sub/logic family.  A register operand
 * shifted by a nonzero amount, or extended from something narrower than
 * the operation (uxtb/h, sxtb/h, and uxtw/sxtw in a 64-bit op), is
 * ALU_SHIFT.  "lsl #12" after an immediate is part of the immediate.
 */
static int alu_shifted(const struct oline *o)
{
	static const char *const kw[] = {
		"lsl", "lsr", "asr", "ror", "uxtb", "uxth", "uxtw", "uxtx",
		"sxtb", "sxth", "sxtw", "sxtx", NULL
	};
	int i, k, is64 = o->ntok && (o->tok[0][0] == 'x' || !strcmp(o->tok[0], "sp"));

	for (i = 1; i < o->ntok; i++) {
		for (k = 0; kw[k]; k++)
			if (!strcmp(o->tok[i], kw[k]))
				break;
		if (!kw[k])
			continue;
		if (o->tok[i - 1][0] == '#')
			return 0;			/* #imm, lsl #12 */
		if (i + 1 < o->ntok && o->tok[i + 1][0] == '#' &&
		    strcmp(o->tok[i + 1], "#0"))
			return 1;			/* any nonzero amount */
		if (k >= 4 && (kw[k][3] == 'b' || kw[k][3] == 'h'))
			return 1;
		if (kw[k][3] == 'w' && is64)
			return 1;
	}
	return 0;
}

static int expect_class(const struct oline *o)
{
	const char *m = o->mnem;
	unsigned i;

	if (!strncmp(m, "b.", 2))
		return A64_C_BCOND;
	if (!strcmp(m, "b"))
		return A64_C_BRANCH;
	if (!strcmp(m, "bl"))
		return A64_C_CALL;
	if (is_lse(m))
		return A64_C_ATOMIC;
	/* FEAT_MOPS memory copy/set (cpyfp, setpn, setgm...), not setf8/16 */
	if (!strncmp(m, "cpy", 3) || (!strncmp(m, "set", 3) && strchr("pmeg", m[3])))
		return A64_C_STORE;
	/* memory forms first: "ldr q0" is a load, not FP data processing */
	for (i = 0; i < sizeof(mtabs) / sizeof(mtabs[0]); i++)
		if (mtabs[i].cls >= A64_C_LOAD && mtabs[i].cls <= A64_C_PRFM &&
		    in_list(mtabs[i].list, m))
			return mtabs[i].cls;
	if (ops_have_fpreg(o))
		return A64_C_FPSIMD;
	if (!strcmp(m, "lsl") || !strcmp(m, "lsr") || !strcmp(m, "asr") ||
	    !strcmp(m, "ror"))
		return o->ntok && o->tok[o->ntok - 1][0] == '#' ?
		       A64_C_BITFIELD : A64_C_SHIFT_REG;
	if (!strcmp(m, "msr"))
		return o->ntok > 1 && o->tok[1][0] == '#' ? A64_C_MSR_IMM : A64_C_MSR;
	if (!strcmp(m, "mrs"))
		return A64_C_MRS;
	if (!strcmp(m, "dmb"))
		return A64_C_DMB;
	if (!strcmp(m, "isb"))
		return A64_C_ISB;
	if (!strcmp(m, "sb"))
		return A64_C_SB;
	if (!strcmp(m, "csdb"))
		return A64_C_CSDB;
	if (!strcmp(m, "bti"))
		return A64_C_BTI;
	if (in_list(m_alu, m))
		return alu_shifted(o) ? A64_C_ALU_SHIFT : A64_C_ALU;
	for (i = 0; i < sizeof(mtabs) / sizeof(mtabs[0]); i++)
		if (in_list(mtabs[i].list, m))
			return mtabs[i].cls;
	/* the FP/SIMD mnemonics without a register operand that says so */
	if (m[0] == 'f' || !strncmp(m, "aes", 3) || !strncmp(m, "sha", 3))
		return A64_C_FPSIMD;
	return -1;
}

/*
 * Registers the instruction uses that objdump does not print: the link
 * register of calls and of "ret", x30/SP of the PAC hints and authenticated
 * returns, x16/x17 of the 1716 hints.  These are architectural, not
 * exceptions: the Arm ARM lists them in each instruction's operation.
 */
static uint64_t implicit_gprs(const struct oline *o)
{
	static const char *const lr_sp[] = {
		"paciasp", "autiasp", "pacibsp", "autibsp", "retaa", "retab", NULL
	};
	static const char *const lr[] = {
		"bl", "blr", "blraa", "blrab", "blraaz", "blrabz", "paciaz",
		"autiaz", "pacibz", "autibz", "xpaclri", NULL
	};
	static const char *const r1716[] = {
		"pacia1716", "pacib1716", "autia1716", "autib1716", NULL
	};
	const char *m = o->mnem;

	if (in_list(lr_sp, m))
		return BIT(30) | BIT(A64_R_SP);
	if (in_list(lr, m) || (!strcmp(m, "ret") && !o->ntok))
		return BIT(30);
	if (in_list(r1716, m))
		return BIT(16) | BIT(17);
	if (!strcmp(m, "eretaa") || !strcmp(m, "eretab"))
		return BIT(A64_R_SP);
	return 0;
}

/* whether the instruction writes / reads NZCV */
static int sets_nzcv(const struct oline *o)
{
	static const char *const l[] = {
		"adds", "subs", "cmp", "cmn", "negs", "ngcs", "adcs", "sbcs",
		"ands", "bics", "tst", "ccmp", "ccmn", "fcmp", "fcmpe", "fccmp",
		"fccmpe", "cfinv", "xaflag", "axflag", "rmif", "setf8", "setf16",
		"subps", "cmpp", "fjcvtzs", NULL
	};

	if (!strcmp(o->mnem, "msr") && o->ntok && !strcmp(o->tok[0], "nzcv"))
		return 1;
	return in_list(l, o->mnem);
}

static int reads_nzcv(const struct oline *o)
{
	static const char *const l[] = {
		"csel", "csinc", "csinv", "csneg", "cset", "csetm", "cinc", "cinv",
		"cneg", "adc", "adcs", "sbc", "sbcs", "ngc", "ngcs", "ccmp", "ccmn",
		"fccmp", "fccmpe", "fcsel", "cfinv", "xaflag", "axflag", "rmif",
		"setf8", "setf16", NULL
	};

	if (!strncmp(o->mnem, "b.", 2))
		return 1;
	if (!strcmp(o->mnem, "mrs") && o->ntok > 1 && !strcmp(o->tok[1], "nzcv"))
		return 1;
	return in_list(l, o->mnem);
}

/* bytes of a register named by an operand token */
static int reg_bytes(const char *t)
{
	switch (t[0]) {
	case 'x': case 'd': return 8;
	case 'w': case 's': return 4;
	case 'q': return 16;
	case 'h': return 2;
	case 'b': return 1;
	}
	return -1;
}

/* ld1-4/st1-4: registers in the list times bytes per register */
static int vlist_bytes(const struct oline *o)
{
	const char *p = strchr(o->ops, '{'), *e = strchr(o->ops, '}');
	const char *dot;
	int n = 1, esz, lanes, rep = o->mnem[3] == 'r';

	if (!p || !e)
		return -1;
	if (memchr(p, '-', (size_t)(e - p))) {
		int a = atoi(p + 2), b = atoi(strchr(p, '-') + 2);

		n = (b - a + 32) % 32 + 1;
	} else {
		const char *c;

		for (c = p; c < e; c++)
			n += *c == ',';
	}
	dot = strchr(p, '.');
	if (!dot || dot > e)
		return -1;
	/* ".16b" (whole vector), ".b" (one lane); "[n]" after '}' is a lane */
	lanes = isdigit((unsigned char)dot[1]) ? atoi(dot + 1) : 1;
	while (isdigit((unsigned char)*++dot))
		;
	esz = reg_bytes(dot);
	if (esz < 0)
		return -1;
	if (rep || e[1] == '[')
		lanes = 1;
	return n * lanes * esz;
}

/* expected mem_size of a load/store/atomic, -1 if it cannot be told */
static int expect_mem(const struct oline *o, int cls)
{
	static const char *const pair[] = {
		"ldp", "stp", "ldnp", "stnp", "ldpsw", "ldxp", "ldaxp", "stxp",
		"stlxp", "casp", "caspa", "caspl", "caspal", "stgp", NULL
	};
	const char *m = o->mnem;
	size_t n = strlen(m);
	int data = 0, bytes;

	if (cls == A64_C_PRFM)
		return 0;
	if (!strncmp(m, "ld", 2) && isdigit((unsigned char)m[2]))
		return vlist_bytes(o);
	if (!strncmp(m, "st", 2) && isdigit((unsigned char)m[2]))
		return m[3] == 'g' ? 32 : vlist_bytes(o);	/* st2g */
	if (!strcmp(m, "stg") || !strcmp(m, "stzg"))
		return 16;
	if (!strcmp(m, "stz2g"))
		return 32;
	if (!strcmp(m, "ldg") || !strcmp(m, "ldgm") || !strcmp(m, "stgm") ||
	    !strcmp(m, "stzgm"))
		return 0;
	if (!strcmp(m, "ldraa") || !strcmp(m, "ldrab"))
		return 8;
	/* the status register comes first in store-exclusive */
	if (cls == A64_C_STORE_EX)
		data = 1;
	if (o->ntok <= data)
		return -1;
	if (n > 2 && !strcmp(m + n - 2, "sw"))
		bytes = 4;
	else if (m[n - 1] == 'b')
		bytes = 1;
	else if (m[n - 1] == 'h')
		bytes = 2;
	else
		bytes = reg_bytes(o->tok[data]);
	if (bytes < 0)
		return -1;
	return in_list(pair, m) ? 2 * bytes : bytes;
}

/* the branch/adr/literal target objdump printed: the last hex token */
static int printed_target(const struct oline *o, uint64_t *t)
{
	static const char *const br[] = {
		"b", "bl", "cbz", "cbnz", "tbz", "tbnz", "adr", "adrp", NULL
	};
	const char *s;
	char *end;

	if (!in_list(br, o->mnem) && strncmp(o->mnem, "b.", 2) &&
	    !((!strncmp(o->mnem, "ldr", 3) || !strcmp(o->mnem, "prfm")) &&
	      !strchr(o->ops, '[')))
		return 0;
	if (!o->ntok)
		return 0;
	s = o->tok[o->ntok - 1];
	*t = strtoull(s, &end, 16);
	return *end == '\0';
}

/* a sysreg operand objdump spelled by name (not s3_0_c12_c12_0) */
static const char *printed_sysreg(const struct oline *o)
{
	const char *t;

	if (!strcmp(o->mnem, "mrs") && o->ntok > 1)
		t = o->tok[1];
	else if (!strcmp(o->mnem, "msr") && o->ntok > 1 && o->tok[1][0] != '#')
		t = o->tok[0];
	else
		return NULL;
	if (t[0] == 's' && isdigit((unsigned char)t[1]) && t[2] == '_')
		return NULL;
	return t;
}

/* distinct mnemonics, for the report */
struct mset {
	char name[1024][16];
	unsigned n;
};

static void mset_add(struct mset *s, const char *m)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], m))
			return;
	if (s->n < 1024 && strlen(m) < sizeof(s->name[0]))
		strcpy(s->name[s->n++], m);
}

struct xcheck {
	unsigned long insns, bad, text_bad;
	struct mset mnems;
	char first[MAX_REPORT][200];
};

static void report(struct xcheck *x, const struct oline *o, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct xcheck *x, const struct oline *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->bad < MAX_REPORT) {
		n = snprintf(x->first[x->bad], sizeof(x->first[0]), "%" PRIx64
			     " %08x %s %s: ", o->addr, o->word, o->mnem, o->ops);
		if (n > 0 && (size_t)n < sizeof(x->first[0])) {
			va_start(ap, fmt);
			vsnprintf(x->first[x->bad] + n, sizeof(x->first[0]) - (size_t)n,
				  fmt, ap);
			va_end(ap);
		}
	}
	x->bad++;
}

/*
 * The general registers a text names, in order ("x0 sp xzr"): operand
 * formatting differs between Capstone and objdump (hex or decimal
 * immediates, "#0x..." or bare branch targets, s3_0_c.. or names for some
 * system registers), the registers must not.
 */
static void gpr_seq(const char *ops, char *out, size_t len)
{
	size_t pos = 0, n;
	char t[40];

	out[0] = '\0';
	while (*ops) {
		n = strcspn(ops, " ,[]{}!-\t");
		if (n && n < sizeof(t)) {
			memcpy(t, ops, n);
			t[n] = '\0';
			if (gpr_id(t) != -1 && pos + n + 2 < len)
				pos += (size_t)snprintf(out + pos, len - pos, "%s ", t);
		}
		ops += n;
		if (*ops)
			ops++;
	}
}

/* a64_disasm(): mnemonic and the general registers of the operands */
static void disasm_split(uint32_t w, uint64_t pc, char *m, size_t len,
			 char *regs, size_t rlen)
{
	char buf[128];
	size_t n;

	a64_disasm(w, pc, buf, sizeof(buf));
	n = strcspn(buf, " \t");
	if (n >= len)
		n = len - 1;
	memcpy(m, buf, n);
	m[n] = '\0';
	gpr_seq(buf + n, regs, rlen);
}

/* (b) general registers: printed ones plus the implicit ones, and NZCV.
 * 0 when they agree (else reported). */
static int check_regs(struct xcheck *x, const struct oline *o, const struct a64_insn *in)
{
	uint64_t got_g, want_g = 0;
	char a[160], b[160];

	for (int i = 0; i < o->ntok; i++) {
		int r = gpr_id(o->tok[i]);

		if (r >= 0)
			want_g |= BIT(r);
	}
	want_g |= implicit_gprs(o);
	got_g = (regmask(in->src, in->nsrc) | regmask(in->dst, in->ndst)) & GPR_MASK;
	if (got_g != want_g) {
		fmt_mask(a, sizeof(a), got_g);
		fmt_mask(b, sizeof(b), want_g);
		report(x, o, "registers {%s}, objdump names {%s}", a, b);
		return -1;
	}
	if (!!(regmask(in->dst, in->ndst) & BIT(A64_R_NZCV)) != sets_nzcv(o) ||
	    !!(regmask(in->src, in->nsrc) & BIT(A64_R_NZCV)) != reads_nzcv(o)) {
		report(x, o, "nzcv src %d dst %d", !!(regmask(in->src, in->nsrc) & BIT(A64_R_NZCV)),
		       !!(regmask(in->dst, in->ndst) & BIT(A64_R_NZCV)));
		return -1;
	}
	return 0;
}

/* (c) access size, (d) targets, system register names. */
static int check_operands(struct xcheck *x, const struct oline *o, const struct a64_insn *in)
{
	const char *sr, *name;
	uint64_t t;
	int mem;

	if (a64_is_mem(in->cls)) {
		mem = expect_mem(o, in->cls);
		if (mem < 0 || mem != in->mem_size) {
			report(x, o, "mem_size %u, want %d", in->mem_size, mem);
			return -1;
		}
	} else if (in->mem_size) {
		report(x, o, "mem_size %u on a non-memory op", in->mem_size);
		return -1;
	}
	if (printed_target(o, &t) && t != in->target) {
		report(x, o, "target %" PRIx64, in->target);
		return -1;
	}
	sr = printed_sysreg(o);
	if (sr) {
		name = a64_sysreg_name(in->sysreg);
		/* one encoding, two names by direction (see sysreg.c) */
		if (!strcmp(sr, "dbgdtrtx_el0"))
			sr = "dbgdtrrx_el0";
		if (!name || strcmp(name, sr)) {
			report(x, o, "sysreg %#x is '%s'", in->sysreg, name ? name : "(unnamed)");
			return -1;
		}
	}
	return 0;
}

static void check_one(struct xcheck *x, const struct oline *o)
{
	struct a64_insn in;
	int rc = a64_decode(o->word, o->addr, &in);
	int want;
	char a[160], b[160], dm[32];

	x->insns++;
	mset_add(&x->mnems, o->mnem);
	if (!strcmp(o->mnem, ".inst")) {
		if (rc != -1 || in.cls != A64_C_UNKNOWN)
			report(x, o, "objdump: undefined, decoder: %s",
			       a64_class_name(in.cls));
		return;
	}
	want = expect_class(o);
	if (want < 0) {
		report(x, o, "no class for this mnemonic in the test");
		return;
	}
	if (rc != 0 || in.cls != want) {
		report(x, o, "class %s, want %s", a64_class_name(in.cls),
		       a64_class_name((unsigned)want));
		return;
	}
	if (check_regs(x, o, &in) || check_operands(x, o, &in))
		return;
	/* text: a64_disasm() must agree with objdump on the mnemonic and on
	 * the general registers it prints, in order */
	disasm_split(o->word, o->addr, dm, sizeof(dm), a, sizeof(a));
	gpr_seq(o->ops, b, sizeof(b));
	if (strcmp(dm, o->mnem) || strcmp(a, b)) {
		x->text_bad++;
		report(x, o, "a64_disasm '%s' registers '%s'", dm, a);
	}
}

static void xcheck_image(const char *path, struct xcheck *x)
{
	char cmd[512], line[512];
	struct oline o;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "LC_ALL=C aarch64-linux-gnu-objdump %s '%s'",
		 A64_OBJDUMP_FLAGS, path);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "cannot run objdump");
	while (fgets(line, sizeof(line), p)) {
		if (!parse_oline(line, &o))
			continue;
		if (!strcmp(o.mnem, ".word"))		/* data ($d mapping) */
			continue;
		check_one(x, &o);
	}
	st = pclose(p);
	cr_assert_eq(st, 0, "objdump failed on %s (status %d)", path, st);
}

Test(a64, image)
{
	static struct xcheck x;
	unsigned long i;

	cr_assert_eq(access(A64_XCHECK_IMAGE, R_OK), 0,
		     "%s missing: run `make kernels` first", A64_XCHECK_IMAGE);
	xcheck_image(A64_XCHECK_IMAGE, &x);
	fprintf(stderr, "a64 image cross-check: %lu instructions, %u distinct "
		"mnemonics, %lu mismatches (%lu text)\n", x.insns, x.mnems.n,
		x.bad, x.text_bad);
	for (i = 0; i < x.bad && i < MAX_REPORT; i++)
		fprintf(stderr, "  %s\n", x.first[i]);
	cr_assert_gt(x.insns, 100000, "too few instructions in %s", A64_XCHECK_IMAGE);
	cr_assert_eq(x.bad, 0, "%lu mismatches against objdump", x.bad);
	a64_disasm_release();
}

/* ------------------------------------------------------------------ */
/* a64/fuzz: any 32-bit word, never a crash, always sane output        */

static uint64_t xs_state = 0x9e3779b97f4a7c15ull;

static uint32_t xorshift(void)
{
	xs_state ^= xs_state << 13;
	xs_state ^= xs_state >> 7;
	xs_state ^= xs_state << 17;
	return (uint32_t)(xs_state >> 32);
}

struct fuzzstat {
	unsigned long words, known, bad;
};

static void fuzz_one(struct fuzzstat *f, uint32_t w, uint64_t pc, size_t len)
{
	struct a64_insn in;
	char buf[160];
	unsigned i, j;
	int rc, ok = 1;

	memset(&in, 0xa5, sizeof(in));		/* everything must be written */
	rc = a64_decode(w, pc, &in);
	f->words++;
	if (in.word != w || in.cls >= A64_C_NCLASSES || in.nsrc > 6 ||
	    in.ndst > 4 || (rc == 0) != (in.cls != A64_C_UNKNOWN))
		ok = 0;
	if (rc < 0 && (in.nsrc || in.ndst || in.flags || in.mem_size))
		ok = 0;
	if (in.mem_size && !a64_is_mem(in.cls))
		ok = 0;
	for (i = 0; ok && i < in.nsrc && i < 6; i++) {
		if (in.src[i] >= A64_NREGS)
			ok = 0;
		for (j = 0; j < i; j++)
			ok &= in.src[j] != in.src[i];	/* a set */
	}
	for (i = 0; ok && i < in.ndst && i < 4; i++) {
		if (in.dst[i] >= A64_NREGS)
			ok = 0;
		for (j = 0; j < i; j++)
			ok &= in.dst[j] != in.dst[i];
	}
	/* text: NUL-terminated inside len, nothing written past it */
	memset(buf, 0x5a, sizeof(buf));
	a64_disasm(w, pc, buf, len);
	if (!memchr(buf, '\0', len))
		ok = 0;
	for (i = (unsigned)len; i < sizeof(buf); i++)
		if (buf[i] != 0x5a)
			ok = 0;
	f->known += rc == 0;
	if (!ok && f->bad++ < MAX_REPORT)
		fprintf(stderr, "fuzz: %08x cls %u nsrc %u ndst %u rc %d\n", w,
			in.cls, in.nsrc, in.ndst, rc);
}

Test(a64, fuzz)
{
	struct fuzzstat f = { 0, 0, 0 };
	unsigned g, i, b, n;
	uint64_t pc = 0xffff800008010000ull;

	/* every entry well formed: value inside mask, found by lookup */
	for (g = 0; g < A64_NGROUPS; g++) {
		const struct a64_enc *t = a64_enc_group(g, &n);

		for (i = 0; i < n; i++) {
			cr_expect_eq(t[i].value & ~t[i].mask, 0, "%s: value outside mask",
				     t[i].name);
			cr_expect_not_null(a64_enc_lookup(t[i].value), "%s: not found",
					   t[i].name);
		}
	}
	/* 2M pseudo-random words, buffer lengths 1..96 */
	for (i = 0; i < 2000000; i++)
		fuzz_one(&f, xorshift(), pc + 4ull * i, 1 + i % 96);
	/*
	 * mask edges: each entry's value, value with all free bits set, and
	 * every single-bit flip of both (free bits set/cleared, fixed bits
	 * inverted) - the words where an off-by-one in a mask would show
	 */
	for (g = 0; g < A64_NGROUPS; g++) {
		const struct a64_enc *t = a64_enc_group(g, &n);

		for (i = 0; i < n; i++) {
			uint32_t v = t[i].value, all = v | ~t[i].mask;

			fuzz_one(&f, v, pc, 64);
			fuzz_one(&f, all, pc, 64);
			for (b = 0; b < 32; b++) {
				fuzz_one(&f, v ^ (1u << b), pc, 64);
				fuzz_one(&f, all ^ (1u << b), pc, 64);
			}
		}
	}
	fprintf(stderr, "a64 fuzz: %lu words, %lu allocated, %lu bad\n", f.words,
		f.known, f.bad);
	cr_assert_eq(f.bad, 0);
	a64_disasm_release();
}

/* ------------------------------------------------------------------ */
/* a64/sysreg: the name table                                           */

/*
 * The registers an arm64 kernel touches, encodings from the Arm ARM
 * register index (op0, op1, CRn, CRm, op2) and the GICv3 spec for ICC_.
 */
static const struct {
	const char *name;
	uint16_t enc;
} sysreg_want[] = {
	{ "tpidr_el1", SR(3, 0, 13, 0, 4) }, { "tpidr_el0", SR(3, 3, 13, 0, 2) },
	{ "tpidrro_el0", SR(3, 3, 13, 0, 3) }, { "sp_el0", SR(3, 0, 4, 1, 0) },
	{ "spsel", SR(3, 0, 4, 2, 0) }, { "daif", SR(3, 3, 4, 2, 1) },
	{ "nzcv", SR(3, 3, 4, 2, 0) }, { "currentel", SR(3, 0, 4, 2, 2) },
	{ "elr_el1", SR(3, 0, 4, 0, 1) }, { "spsr_el1", SR(3, 0, 4, 0, 0) },
	{ "esr_el1", SR(3, 0, 5, 2, 0) }, { "far_el1", SR(3, 0, 6, 0, 0) },
	{ "sctlr_el1", SR(3, 0, 1, 0, 0) }, { "tcr_el1", SR(3, 0, 2, 0, 2) },
	{ "ttbr0_el1", SR(3, 0, 2, 0, 0) }, { "ttbr1_el1", SR(3, 0, 2, 0, 1) },
	{ "mair_el1", SR(3, 0, 10, 2, 0) }, { "vbar_el1", SR(3, 0, 12, 0, 0) },
	{ "contextidr_el1", SR(3, 0, 13, 0, 1) },
	{ "cntvct_el0", SR(3, 3, 14, 0, 2) }, { "cntpct_el0", SR(3, 3, 14, 0, 1) },
	{ "cntfrq_el0", SR(3, 3, 14, 0, 0) }, { "cntv_ctl_el0", SR(3, 3, 14, 3, 1) },
	{ "cntv_cval_el0", SR(3, 3, 14, 3, 2) }, { "cntv_tval_el0", SR(3, 3, 14, 3, 0) },
	{ "cntp_ctl_el0", SR(3, 3, 14, 2, 1) }, { "cntp_cval_el0", SR(3, 3, 14, 2, 2) },
	{ "cntp_tval_el0", SR(3, 3, 14, 2, 0) }, { "cntkctl_el1", SR(3, 0, 14, 1, 0) },
	{ "mdscr_el1", SR(2, 0, 0, 2, 2) }, { "pan", SR(3, 0, 4, 2, 3) },
	{ "uao", SR(3, 0, 4, 2, 4) }, { "dit", SR(3, 3, 4, 2, 5) },
	{ "ssbs", SR(3, 3, 4, 2, 6) }, { "midr_el1", SR(3, 0, 0, 0, 0) },
	{ "mpidr_el1", SR(3, 0, 0, 0, 5) }, { "revidr_el1", SR(3, 0, 0, 0, 6) },
	{ "id_aa64pfr0_el1", SR(3, 0, 0, 4, 0) }, { "id_aa64pfr1_el1", SR(3, 0, 0, 4, 1) },
	{ "id_aa64dfr0_el1", SR(3, 0, 0, 5, 0) }, { "id_aa64isar0_el1", SR(3, 0, 0, 6, 0) },
	{ "id_aa64isar1_el1", SR(3, 0, 0, 6, 1) }, { "id_aa64isar2_el1", SR(3, 0, 0, 6, 2) },
	{ "id_aa64mmfr0_el1", SR(3, 0, 0, 7, 0) }, { "id_aa64mmfr1_el1", SR(3, 0, 0, 7, 1) },
	{ "id_aa64mmfr2_el1", SR(3, 0, 0, 7, 2) }, { "id_aa64zfr0_el1", SR(3, 0, 0, 4, 4) },
	{ "icc_iar0_el1", SR(3, 0, 12, 8, 0) }, { "icc_eoir0_el1", SR(3, 0, 12, 8, 1) },
	{ "icc_iar1_el1", SR(3, 0, 12, 12, 0) }, { "icc_eoir1_el1", SR(3, 0, 12, 12, 1) },
	{ "icc_hppir1_el1", SR(3, 0, 12, 12, 2) }, { "icc_bpr1_el1", SR(3, 0, 12, 12, 3) },
	{ "icc_ctlr_el1", SR(3, 0, 12, 12, 4) }, { "icc_sre_el1", SR(3, 0, 12, 12, 5) },
	{ "icc_igrpen1_el1", SR(3, 0, 12, 12, 7) }, { "icc_pmr_el1", SR(3, 0, 4, 6, 0) },
	{ "icc_rpr_el1", SR(3, 0, 12, 11, 3) }, { "icc_dir_el1", SR(3, 0, 12, 11, 1) },
	{ "icc_sgi1r_el1", SR(3, 0, 12, 11, 5) },
	{ "apiakeylo_el1", SR(3, 0, 2, 1, 0) }, { "apiakeyhi_el1", SR(3, 0, 2, 1, 1) },
	{ "apibkeylo_el1", SR(3, 0, 2, 1, 2) }, { "apgakeylo_el1", SR(3, 0, 2, 3, 0) },
	{ "pmcr_el0", SR(3, 3, 9, 12, 0) }, { "pmccntr_el0", SR(3, 3, 9, 13, 0) },
	{ "pmuserenr_el0", SR(3, 3, 9, 14, 0) }, { "disr_el1", SR(3, 0, 12, 1, 1) },
	{ "gcr_el1", SR(3, 0, 1, 0, 6) }, { "rgsr_el1", SR(3, 0, 1, 0, 5) },
	{ "zcr_el1", SR(3, 0, 1, 2, 0) }, { "tfsr_el1", SR(3, 0, 5, 6, 0) },
};

Test(a64, sysreg)
{
	const char *name, *prev_name = NULL;
	uint16_t enc, prev = 0;
	struct a64_insn in;
	unsigned i, j;

	/* sorted (bsearch depends on it), names lower case */
	for (i = 0; (name = a64_sysreg_entry(i, &enc)); i++) {
		if (i)
			cr_expect_gt(enc, prev, "%s after %s: table not sorted",
				     name, prev_name);
		for (j = 0; name[j]; j++)
			cr_expect(!isupper((unsigned char)name[j]), "%s", name);
		cr_expect_str_eq(a64_sysreg_name(enc), name);
		prev = enc;
		prev_name = name;
	}
	cr_assert_gt(i, 200);
	for (i = 0; i < sizeof(sysreg_want) / sizeof(sysreg_want[0]); i++) {
		uint32_t mrs = 0xd5200000 | (uint32_t)sysreg_want[i].enc << 5 | 3;

		name = a64_sysreg_name(sysreg_want[i].enc);
		cr_expect(name && !strcmp(name, sysreg_want[i].name),
			  "%#x: '%s', want %s", sysreg_want[i].enc,
			  name ? name : "(none)", sysreg_want[i].name);
		/* and the decoder packs the same encoding */
		cr_expect_eq(a64_decode(mrs, 0, &in), 0);
		cr_expect_eq(in.cls, A64_C_MRS);
		cr_expect_eq(in.sysreg, sysreg_want[i].enc, "%s", sysreg_want[i].name);
	}
	cr_expect_null(a64_sysreg_name(SR(3, 7, 15, 15, 7)));
	cr_expect_null(a64_sysreg_name(0));
}

/*
 * Every name in the table is the one objdump prints for "mrs x0, <enc>":
 * the table is written as mrs words to a temporary file and disassembled.
 */
Test(a64, sysreg_objdump)
{
	char path[] = "/tmp/hotsim-a64-XXXXXX", cmd[256], line[256];
	const char *name;
	unsigned i, n, bad = 0;
	uint16_t enc;
	struct oline o;
	FILE *f, *p;
	int fd;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "wb");
	cr_assert_not_null(f);
	for (n = 0; a64_sysreg_entry(n, &enc); n++) {
		uint32_t w = 0xd5200000 | (uint32_t)enc << 5;
		uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
				 (uint8_t)(w >> 24) };

		fwrite(b, 1, 4, f);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "LC_ALL=C aarch64-linux-gnu-objdump -D -b binary -m aarch64 '%s'", path);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	i = 0;
	while (fgets(line, sizeof(line), p)) {
		if (!parse_oline(line, &o) || strcmp(o.mnem, "mrs") || o.ntok < 2)
			continue;
		name = a64_sysreg_entry((unsigned)(o.addr / 4), &enc);
		if (!name || strcmp(name, o.tok[1])) {
			if (bad++ < MAX_REPORT)
				fprintf(stderr, "sysreg %#x: table '%s', objdump '%s'\n",
					enc, name ? name : "?", o.tok[1]);
		}
		i++;
	}
	pclose(p);
	unlink(path);
	cr_assert_eq(i, n, "objdump printed %u of %u mrs", i, n);
	cr_assert_eq(bad, 0);
}

/* ------------------------------------------------------------------ */
/* a64/disasm: text                                                     */

static const struct {
	uint32_t word;
	const char *text;
} texts[] = {
	/* this decoder's text: objdump's spelling */
	{ 0xf8200041, "ldadd x0, x1, [x2]" },
	{ 0xb8e003e1, "ldaddal w0, w1, [sp]" },
	{ 0xb820003f, "stadd w0, [x1]" },
	{ 0xf860003f, "staddl x0, [x1]" },
	{ 0x38201041, "ldclrb w0, w1, [x2]" },
	{ 0x78a03041, "ldsetah w0, w1, [x2]" },
	{ 0xf8e08041, "swpal x0, x1, [x2]" },
	{ 0xc8a07c41, "cas x0, x1, [x2]" },
	{ 0x88e0fc41, "casal w0, w1, [x2]" },
	{ 0x08a07c41, "casb w0, w1, [x2]" },
	{ 0x48207c82, "casp x0, x1, x2, x3, [x4]" },
	{ 0x0864ffe6, "caspal w4, w5, w6, w7, [sp]" },
	{ 0xf8bfc020, "ldapr x0, [x1]" },
	{ 0x38bfc020, "ldaprb w0, [x1]" },
	{ 0x995fc020, "ldapur w0, [x1, #-4]" },
	{ 0xd9008020, "stlur x0, [x1, #8]" },
	{ 0xd65f0bff, "retaa" },
	{ 0xd65f0fff, "retab" },
	{ 0xd69f0bff, "eretaa" },
	{ 0xd71f0801, "braa x0, x1" },
	{ 0xd63f081f, "blraaz x0" },
	{ 0xd503233f, "paciasp" },
	{ 0xd50323bf, "autiasp" },
	{ 0xd503237f, "pacibsp" },
	{ 0xd50323ff, "autibsp" },
	{ 0xd503231f, "paciaz" },
	{ 0xd503239f, "autiaz" },
	{ 0xd50320ff, "xpaclri" },
	{ 0xd503211f, "pacia1716" },
	{ 0xdac10020, "pacia x0, x1" },
	{ 0xdac117e0, "autib x0, sp" },
	{ 0xdac143e0, "xpaci x0" },
	{ 0x9ac23020, "pacga x0, x1, x2" },
	{ 0xd503241f, "bti" },
	{ 0xd503245f, "bti c" },
	{ 0xd503249f, "bti j" },
	{ 0xd50324df, "bti jc" },
	{ 0xd503229f, "csdb" },
	{ 0xd503221f, "esb" },
	{ 0xd50322df, "clearbhb" },
	{ 0xd50330ff, "sb" },
	{ 0xd503309f, "ssbb" },
	{ 0xd503349f, "pssbb" },
	{ 0xd5031000, "wfet x0" },
	{ 0x00000000, "udf #0" },
	{ 0x5283ffe0, "mov w0, #0x1fff" },
	{ 0x12800015, "mov w21, #0xffffffff" },
	{ 0x32013fe0, "mov w0, #0x80007fff" },
	{ 0xd50342df, "msr daifset, #0x2" },
	{ 0xd500419f, "msr pan, #0x1" },
	{ 0x54000041, "b.ne #0x1008" },
	{ 0x54000042, "b.cs #0x1008" },
	/* Capstone's text */
	{ 0x910003fd, "mov x29, sp" },
	{ 0xf9400420, "ldr x0, [x1, #8]" },
	{ 0xd3442c20, "ubfx x0, x1, #4, #8" },
	{ 0xd538d080, "mrs x0, tpidr_el1" },
	{ 0xd538cc00, "mrs x0, icc_iar1_el1" },
	{ 0xd5033bbf, "dmb ish" },
	{ 0xd508831f, "tlbi vmalle1is" },
	{ 0xd65f03c0, "ret" },
	{ 0xd69f03e0, "eret" },
	{ 0xd63f0020, "blr x1" },
	/* unallocated */
	{ 0xffff8000, ".inst 0xffff8000" },
	{ 0x082cce10, ".inst 0x082cce10" },
};

Test(a64, disasm)
{
	char buf[128], full[128];
	unsigned i;
	size_t len, n;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		a64_disasm(texts[i].word, 0x1000, buf, sizeof(buf));
		cr_expect_str_eq(buf, texts[i].text, "%08x", texts[i].word);
	}
	/* bounded: a prefix of the full text, NUL within len, nothing past */
	a64_disasm(0x0864ffe6, 0x1000, full, sizeof(full));
	n = strlen(full);
	for (len = 0; len <= n + 2; len++) {
		memset(buf, 'Z', sizeof(buf));
		a64_disasm(0x0864ffe6, 0x1000, buf, len);
		if (len == 0) {
			cr_expect_eq(buf[0], 'Z');
			continue;
		}
		cr_expect_eq(strlen(buf), len - 1 < n ? len - 1 : n);
		cr_expect_eq(strncmp(buf, full, strlen(buf)), 0);
		cr_expect_eq(buf[len], 'Z');
	}
	/* same for Capstone's path */
	a64_disasm(0xa9bb7bfd, 0x1000, full, sizeof(full));
	for (len = 1; len < 8; len++) {
		memset(buf, 'Z', sizeof(buf));
		a64_disasm(0xa9bb7bfd, 0x1000, buf, len);
		cr_expect_eq(strlen(buf), len - 1);
		cr_expect_eq(buf[len], 'Z');
	}
	/* the handle can be released, twice, and comes back on demand */
	a64_disasm_release();
	a64_disasm_release();
	a64_disasm(0x910003fd, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "mov x29, sp");
	a64_disasm_release();
}
