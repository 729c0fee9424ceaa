/*
 * op_derive.c - the fields of an op descriptor (ops.c builds the rest) that
 * each engine reads instead of asking several questions per record: how
 * each source is read (forwarding), which results are loaded or ALU-made,
 * the in-order engine's pairing lanes and the out-of-order engine's
 * calendar rows. Re-run after any change to an op (hs_record_op_adjusted)
 * or to the parameters they depend on.
 */
#include "hotsim/err.h"
#include "model_internal.h"

/* The lanes an op counts in and is capped by (enum hs_lane): every op a
 * slot of issue_width, none after a single-issue op, and its unit's pipes. */
static void pairing(const struct hs_model *m, struct hs_op *op)
{
	static const struct { uint8_t unit, lane; enum hs_pid cap; } pipes[] = {
		{ HS_U_LOAD, HS_LN_LD, HS_P_LOAD_PIPES }, { HS_U_STORE, HS_LN_ST, HS_P_STORE_PIPES },
		{ HS_U_BRANCH, HS_LN_BR, HS_P_BRANCH_PIPES }, { HS_U_FP, HS_LN_FP, HS_P_FP_PIPES },
	};
	int mem = op->unit == HS_U_LOAD || op->unit == HS_U_STORE;

	op->pinc = (uint8_t)(1u << HS_LN_SLOTS | !!(op->fl & HS_OP_SINGLE) << HS_LN_SINGLE | mem << HS_LN_MEM |
			     (mem && (op->fl & HS_OP_LOAD)) << HS_LN_LD | (mem && (op->fl & HS_OP_STORE)) << HS_LN_ST |
			     (op->unit == HS_U_BRANCH) << HS_LN_BR | (op->unit == HS_U_SHIFT) << HS_LN_SHIFT |
			     (op->unit == HS_U_FP) << HS_LN_FP);
	op->pbias = HS_LANE(HS_LN_SLOTS, 0x80 - m->v[HS_P_ISSUE_WIDTH]) | HS_LANE(HS_LN_SINGLE, 0x80 - 1);
	if (mem)
		op->pbias |= HS_LANE(HS_LN_MEM, 0x80 - m->v[HS_P_MEM_PIPES]);
	if (op->unit == HS_U_SHIFT)
		op->pbias |= HS_LANE(HS_LN_SHIFT, 0x80 - 1);
	for (size_t k = 0; k < HS_ARRAY_SIZE(pipes); k++)
		if (op->unit == pipes[k].unit)
			op->pbias |= HS_LANE(pipes[k].lane, 0x80 - m->v[pipes[k].cap]);
	/* single-issue and slot-0 ops never pair; atomics need both pipes */
	op->nopair = (op->fl & (HS_OP_SINGLE | HS_OP_SLOT0)) || (op->unit == HS_U_LOAD && (op->fl & HS_OP_STORE));
}

/* The out-of-order calendar rows an op books: its own class (divide uses
 * a multiply pipe, FP/ASIMD the ALU pipes with fp_on_alu_pipes, a NOP a
 * row of nop_per_cycle slots where the core retires NOPs without a pipe),
 * plus the shared memory row for loads and stores. */
static void calendar_rows(const struct hs_model *m, struct hs_op *op)
{
	unsigned u = op->unit == HS_U_DIV ? HS_U_MUL : op->unit == HS_U_SHIFT ? HS_U_ALU : op->unit;

	if (u == HS_U_FP && m->v[HS_P_FP_ON_ALU])
		u = HS_U_ALU;
	if ((op->fl & HS_OP_NOP) && m->v[HS_P_NOP_TPUT])
		u = HS_ROW_NOP;
	op->row = (uint8_t)u;
	op->row_mem = u == HS_U_LOAD || u == HS_U_STORE;
	op->row_occ = op->unit == HS_U_DIV || op->occ < 1 ? 1 : op->occ;
}

void hs_op_derive(const struct hs_model *m, struct hs_op *op)
{
	for (unsigned s = 0; s < 6; s++)
		op->sk[s] = (op->addr_mask & (1u << s)) ? HS_SK_ADDR :
			    (op->data_mask & (1u << s)) ? HS_SK_DATA :
			    op->unit == HS_U_BRANCH ? HS_SK_BRANCH :
			    (op->fl & HS_OP_CASCADE) && m->v[HS_P_ALU_CASCADE] ? HS_SK_CASCADE : HS_SK_PLAIN;
	op->dload = op->dalu = 0;
	for (unsigned d = 0; d < op->ndst; d++) {
		int wb = !!(op->wb_mask & (1u << d));

		if ((op->fl & HS_OP_LOAD) && !wb)
			op->dload |= (uint8_t)(1u << d);
		if (!wb && (op->unit == HS_U_ALU || op->unit == HS_U_SHIFT))
			op->dalu |= (uint8_t)(1u << d);
	}
	pairing(m, op);
	op->busy = op->occ > 1 || op->unit == HS_U_DIV || op->unit == HS_U_MUL || op->unit == HS_U_SHIFT;
	calendar_rows(m, op);
}
