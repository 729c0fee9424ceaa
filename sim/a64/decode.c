/*
 * decode.c - A64 instruction classifier: top-level dispatch and names.
 *
 * The Arm ARM (DDI 0487, "A64 Instruction Set Encoding") splits the space on
 * op0 = bits 28:25 first; each resulting group has its own mask/value table
 * (see a64_internal.h) in the file that extracts its operands.
 */
#include <string.h>

#include "a64/internal.h"

int a64_x_none(const struct a64_enc *e, uint32_t w, uint64_t pc,
	       struct a64_insn *in)
{
	(void)e;
	(void)w;
	(void)pc;
	(void)in;
	return 0;
}

void a64_src(struct a64_insn *in, unsigned reg)
{
	unsigned i;

	for (i = 0; i < in->nsrc; i++)
		if (in->src[i] == reg)
			return;
	if (in->nsrc < sizeof(in->src))
		in->src[in->nsrc++] = (uint8_t)reg;
	else
		in->flags |= A64_F_VTRUNC;
}

void a64_dst(struct a64_insn *in, unsigned reg)
{
	unsigned i;

	for (i = 0; i < in->ndst; i++)
		if (in->dst[i] == reg)
			return;
	if (in->ndst < sizeof(in->dst))
		in->dst[in->ndst++] = (uint8_t)reg;
	else
		in->flags |= A64_F_VTRUNC;
}

/*
 * The group tables for op0 = bits 28:25; the FP/SIMD space has two (the
 * Advanced SIMD and the scalar FP/crypto encodings are disjoint, so their
 * order does not matter).  Returns how many tables, 0 for the reserved,
 * SME and SVE spaces this decoder does not cover.
 */
static unsigned groups_of(uint32_t w, unsigned g[2])
{
	uint32_t op0 = a64_field(w, 25, 4);

	if ((w & 0xffff0000) == 0) {	/* UDF #imm16 in the reserved space */
		g[0] = 0;
		return 1;
	}
	if ((op0 & 0xe) == 0xa)		/* 101x: branches, exceptions, system */
		g[0] = 0;
	else if ((op0 & 0xe) == 0x8 || (op0 & 0x7) == 0x5)
		g[0] = 1;		/* 100x DP immediate, x101 DP register */
	else if ((op0 & 0x5) == 0x4)	/* x1x0: loads and stores */
		g[0] = 2;
	else if ((op0 & 0x7) == 0x7) {	/* x111: DP FP/SIMD */
		g[0] = 3;
		g[1] = 4;
		return 2;
	} else {
		return 0;		/* 0000 reserved, 0001 SME, 0010 SVE, 0011 */
	}
	return 1;
}

const struct a64_enc *a64_enc_group(unsigned g, unsigned *n)
{
	switch (g) {
	case 0: *n = a64_sys_n; return a64_sys_tab;
	case 1: *n = a64_dp_n; return a64_dp_tab;
	case 2: *n = a64_ldst_n; return a64_ldst_tab;
	case 3: *n = a64_simd_n; return a64_simd_tab;
	case 4: *n = a64_fp_n; return a64_fp_tab;
	}
	*n = 0;
	return NULL;
}

const struct a64_enc *a64_enc_lookup(uint32_t w)
{
	const struct a64_enc *t;
	unsigned g[2], ng, k, i, n;

	ng = groups_of(w, g);
	for (k = 0; k < ng; k++) {
		t = a64_enc_group(g[k], &n);
		for (i = 0; i < n; i++)
			if ((w & t[i].mask) == t[i].value)
				return &t[i];
	}
	return NULL;
}

int a64_decode(uint32_t word, uint64_t pc, struct a64_insn *out)
{
	const struct a64_enc *e;

	memset(out, 0, sizeof(*out));
	out->word = word;
	e = a64_enc_lookup(word);
	if (e) {
		out->cls = e->cls;
		out->flags = e->flags;
		if (e->fn(e, word, pc, out) == 0)
			return 0;
	}
	memset(out, 0, sizeof(*out));
	out->word = word;
	out->cls = A64_C_UNKNOWN;
	return -1;
}

static const char *const class_names[A64_C_NCLASSES] = {
	[A64_C_UNKNOWN]	  = "unknown",
	[A64_C_NOP]	  = "nop",
	[A64_C_ALU]	  = "alu",
	[A64_C_ALU_SHIFT] = "alu_shift",
	[A64_C_BITFIELD]  = "bitfield",
	[A64_C_SHIFT_REG] = "shift_reg",
	[A64_C_MUL]	  = "mul",
	[A64_C_MULH]	  = "mulh",
	[A64_C_DIV]	  = "div",
	[A64_C_LOAD]	  = "load",
	[A64_C_STORE]	  = "store",
	[A64_C_LOAD_EX]	  = "load_ex",
	[A64_C_STORE_EX]  = "store_ex",
	[A64_C_ATOMIC]	  = "atomic",
	[A64_C_PRFM]	  = "prfm",
	[A64_C_BRANCH]	  = "branch",
	[A64_C_BCOND]	  = "bcond",
	[A64_C_CALL]	  = "call",
	[A64_C_CALL_IND]  = "call_ind",
	[A64_C_BR_IND]	  = "br_ind",
	[A64_C_RET]	  = "ret",
	[A64_C_ERET]	  = "eret",
	[A64_C_DMB]	  = "dmb",
	[A64_C_DSB]	  = "dsb",
	[A64_C_ISB]	  = "isb",
	[A64_C_SB]	  = "sb",
	[A64_C_CSDB]	  = "csdb",
	[A64_C_MRS]	  = "mrs",
	[A64_C_MSR]	  = "msr",
	[A64_C_MSR_IMM]	  = "msr_imm",
	[A64_C_SYS]	  = "sys",
	[A64_C_PAC]	  = "pac",
	[A64_C_BTI]	  = "bti",
	[A64_C_EXC]	  = "exc",
	[A64_C_WFX]	  = "wfx",
	[A64_C_FPSIMD]	  = "fpsimd",
};

const char *a64_class_name(unsigned cls)
{
	if (cls < A64_C_NCLASSES && class_names[cls])
		return class_names[cls];
	return "?";
}

const char *a64_reg_name(unsigned reg)
{
	static const char *const x[31] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
		"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",
		"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
		"x28", "x29", "x30",
	};
	static const char *const v[32] = {
		"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",
		"v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18",
		"v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27",
		"v28", "v29", "v30", "v31",
	};

	if (reg <= 30)
		return x[reg];
	if (reg == A64_R_SP)
		return "sp";
	if (reg == A64_R_NZCV)
		return "nzcv";
	if (reg >= A64_R_V0 && reg < A64_R_V0 + 32)
		return v[reg - A64_R_V0];
	if (reg == A64_R_FPCR)
		return "fpcr";
	return "?";
}
